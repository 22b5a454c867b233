"""The sandbox client in-process: parsing lines as Discord's client would, completion, errors, users."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
import pytest_asyncio

from bot.cards.index import choice_id
from bot.sandbox import guide
from bot.sandbox.client import CLIENT_COMMANDS, ClientError, SandboxClient
from bot.sandbox.session import SandboxSession
from bot.testing.fakediscord.commands import CommandError
from bot.testing.harness import default_config

pytestmark = pytest.mark.asyncio(loop_scope="module")  # one bot for the module: starting one takes ~2 s


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sandbox")
    session = SandboxSession(default_config(folder), quiet=0.3)
    await session.start()
    try:
        yield SandboxClient(session, folder / "files")
    finally:
        await session.close()


async def test_option_values_run_to_the_next_option_and_mentions_become_ids(client) -> None:
    guild = client.session.guild
    alice, bob = guild.member_named("alice"), guild.member_named("bob")
    found, values = client.parse_slash("/pod start players:@alice @bob ruleset:edh-2010 life:30")
    assert found.qualified_name == "pod start"
    assert values == {"players": f"<@{alice.id}> <@{bob.id}>", "ruleset": "edh-2010", "life": "30"}
    _, values = client.parse_slash('/deck check decklist:"1 Sol Ring\\n1 Command Tower" commander:Atraxa')
    assert values == {"decklist": "1 Sol Ring\n1 Command Tower", "commander": "Atraxa"}
    with pytest.raises(ClientError, match="name:value"):
        client.parse_slash("/pod start alice bob")
    with pytest.raises(ClientError, match="no slash command /nope"):
        client.parse_slash("/nope")


async def test_lines_run_against_the_real_bot_and_errors_read_as_messages(client) -> None:
    out = await client.execute("/ping")
    assert (
        re.fullmatch(r"#\d+ Podkeeper in #general \(only alice can see this\)", out[0]) and "Pong!" in out[1]
    )
    assert await client.execute("/config ruleset ruleset:modern") == [
        "! option ruleset must be one of ['commander', 'edh-2010', 'duel-zh'], got 'modern'"
    ]
    assert (await client.execute(":as dave"))[0] == "now acting as dave (new member)"
    assert "only dave can see this" in (await client.execute("/ping"))[0]
    assert await client.execute(":in games") == ["now in #games"]
    assert (await client.execute(":click 1"))[0] == "! no message with buttons in #games"
    assert await client.execute("hello") == [
        "! start with / for a slash command or : for a client command (:help)"
    ]
    assert await client.execute("/as alice") == ["now acting as alice"]  # '/' works when the bot has no /as
    await client.execute(":in general")


async def test_completion_of_commands_options_choices_and_the_bots_autocomplete(client) -> None:
    assert client.complete_static("/pi") == ["/ping "]
    assert "/deck check " in client.complete_static("/deck c")
    assert client.complete_static("/config ruleset ruleset:ed") == ["/config ruleset ruleset:edh-2010 "]
    assert "/pod life player:bob " in client.complete_static("/pod life player:b")
    assert client.complete_static("/deck check commander:Atr") is None, "needs the bot's own autocomplete"
    suggestions = await client.complete_with_bot("/deck check commander:Atr")
    # the choice's value, as a Discord client sends it: a short card id (names can pass 100 characters)
    atraxa = choice_id("Atraxa, Praetors' Voice")
    assert f"/deck check commander:{atraxa} " in suggestions
    assert client.complete_static(":re") == [":restart "]


async def test_every_command_of_the_guided_tour_works(client) -> None:
    lines = guide.tour_lines(client.catalog())
    assert len(lines) >= 5
    shown = "\n".join(guide.tour(client.catalog()))
    for line in lines:
        assert line in shown
        out = await client.execute(line)
        assert out and not any(o.startswith("!") for o in out), (line, out)


async def test_the_sandbox_shows_what_discord_refuses_and_what_the_bot_says(client) -> None:
    """The sandbox runs the strict stand-in: a developer sees the refusal beside the bot's explanation."""
    fake, guild = client.session.fake, client.session.guild
    games = guild.channel_named("games")
    await client.execute(":as admin")
    await client.execute(":in games")
    await client.execute("/config pod-threads enabled:true")
    games.overwrites[fake.bot_role(guild).id] = (0, 1 << 35, 0)  # this channel denies Create Public Threads
    out = await client.execute("/pod start players:@alice @bob")
    assert any("Create Public Threads" in line for line in out)  # the bot's private explanation
    assert any(
        line.startswith("!") and "Discord refused POST /channels/" in line and "50013" in line for line in out
    )
    del games.overwrites[fake.bot_role(guild).id]
    await client.execute("/config pod-threads enabled:false")
    await client.execute(":in general")
    await client.execute(":as alice")


async def test_tour_and_help_are_built_from_the_command_tree(client) -> None:
    helped = "\n".join(await client.execute(":help"))
    assert '/deck check decklist:"1 Sol Ring' in helped and " list:" not in helped
    for root in client.catalog().roots():
        assert f"/{root['name']}" in helped
    for name in CLIENT_COMMANDS:
        if name != "exit":
            assert f"  :{name}" in helped, name
    described = "\n".join(guide.tour(client.catalog()))
    assert "List Podkeeper's commands" in described, "the tour shows the bot's own description of /help"
    with pytest.raises(CommandError, match="no option 'list'"):
        guide.example_line(client.catalog(), guide.Example("deck check", (("list", "1 Sol Ring"),)))
    with pytest.raises(CommandError, match="no slash command"):
        guide.example_line(client.catalog(), guide.Example("decks check"))


async def test_locale_sets_one_users_discord_language(client) -> None:
    assert await client.execute(":locale ja") == ["alice's Discord language: ja"]
    japanese = "\n".join(await client.execute("/help"))
    assert "Podkeeper のコマンド" in japanese
    assert "デッキリスト" in "\n".join(await client.execute(":tour")), "descriptions in the user's language"
    await client.execute(":as bob")
    assert "Podkeeper commands" in "\n".join(await client.execute("/help")), "bob's language is his own"
    assert await client.execute(":locale zh-Hant") == ["bob's Discord language: zh-TW"]
    assert "Podkeeper 指令" in "\n".join(await client.execute("/help"))
    assert (await client.execute(":locale klingon"))[0].startswith("! no Discord language 'klingon'")
    await client.execute(":locale en")
    await client.execute(":as alice")
    await client.execute(":locale en")
    assert client.session.locale_of("alice") == "en-US"


async def test_menus_and_buttons_match_numbers_then_values_then_partial_labels(client) -> None:
    await client.execute("/pod start players:@alice @bob")
    shuffled = await client.execute(":click shuff")  # a unique prefix of "Shuffle seats", any case
    assert not any(line.startswith("!") for line in shuffled), shuffled
    picked = await client.execute(":select bob")  # part of the option "2 bob (40)"
    assert not any(line.startswith("!") for line in picked), picked
    assert (await client.execute(":click o"))[0].startswith("! 'o' matches several buttons")
    assert (await client.execute(":click Teleport"))[0].startswith("! no button 'Teleport'")


async def test_click_a_label_with_an_apostrophe_on_a_numbered_message(client) -> None:
    """``:click #N I'm here`` (the check-in button of a Hydra event table) used to fail on the quote."""
    for line in (
        ":as admin",
        "/hydra event create name:Night start:in 1h heads:2 table_size:2",
        ":as alice",
        ":click Join",
        ":as bob",
        ":click join",
        ":as admin",
    ):
        assert not any(out.startswith("!") for out in await client.execute(line)), line
    begun = await client.execute("/hydra event begin")
    number, current = None, ""
    for line in begun:  # the message (its "#N" header) whose buttons include "I'm here"
        header = re.match(r"(#\d+) Podkeeper in ", line)
        current = header.group(1) if header else current
        if "] I'm here" in line:
            number = current
    assert number is not None, begun
    await client.execute(":as alice")
    await client.execute(":in Night — table 1")
    checked = await client.execute(f":click {number} I'm here")
    assert any("checked in" in out for out in checked), checked
    await client.execute(":in general")


async def test_a_lines_output_waits_for_a_slow_bot_not_a_fixed_time(client) -> None:
    """Script mode waited a fixed 0.6 s and missed a board edit that came later on a busy machine: the
    board's image takes 1 s to draw here (its worker is slow), and the edit is still in the line's output."""
    bot = client.session.bot
    run = bot.workers.run

    async def slowly(job, *args, **kwargs):
        await asyncio.to_thread(time.sleep, 1.0)  # a busy machine: the work pool is slow to answer
        return await run(job, *args, **kwargs)

    await client.execute(":as alice")
    await client.execute("/pod start players:@alice @bob")
    bot.workers.run = slowly
    try:
        out = "\n".join(await client.execute(":click -5"))
    finally:
        bot.workers.run = run
    assert "updated" in out and "1 alice (35)" in out, out
