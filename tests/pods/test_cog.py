"""The /pod commands and the live board through the real bot (bot/testing harness: real Interaction
objects, real CommandTree and ViewStore; only Discord's HTTP edge is fake)."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta

import pytest
from PIL import Image

from bot.cards.index import choice_id
from bot.domain import pod
from bot.i18n import t
from bot.render import board
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA

# Discord-layer suite run on both engines (tests/conftest.py): the bot's database is SQLite, then PostgreSQL.
pytestmark = pytest.mark.both_engines

CARDS = TEST_DATA / "pods_cards.jsonl"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(
        tmp_path, cards_path=CARDS, members=("alice", "bob", "carol", "dave")
    ) as harness:
        _no_delay(harness)
        yield harness


def _no_delay(harness) -> None:
    harness.bot.get_cog("Pods").updater.delay = 0


def mention(h, *names: str) -> str:
    return " ".join(f"<@{h.user(name).id}>" for name in names)


async def settled(h) -> None:
    """Let the interaction finish, then wait for the board edit (rendered in a worker thread)."""
    await h.settle()
    await cog(h).updater.flush()


def cog(h):
    return h.bot.get_cog("Pods")


async def state_of(h, game_id: int = 1) -> pod.PodState:
    return (await cog(h).service.get(game_id)).state


async def start(h, *names: str, **options):
    return await h.slash("pod start", players=mention(h, *names), **options)


def select_labels(message) -> list[str]:
    return [option["label"] for option in message.selects[0]["options"]]


async def test_start_posts_one_board_with_image_and_buttons(h):
    reply = await start(h, "alice", "bob", "carol")
    message = reply.message
    assert not reply.ephemeral
    assert reply.embed["title"] == "Pod #1 · commander"
    assert "1. alice → 2. bob → 3. carol" in reply.embed["description"]
    image = Image.open(io.BytesIO(reply.files["pod-1.png"]))
    assert image.format == "PNG" and image.size[0] == board.WIDTH
    labels = [b["label"] for b in message.buttons]
    assert {"-5", "-1", "+1", "+5", "Join", "Start turn 1", "Undo", "History"} <= set(labels)
    assert select_labels(message) == ["1 alice (40)", "2 bob (40)", "3 carol (40)"]
    row = (await cog(h).service.recent(h.guild.id))[0]
    assert row.message_id == message.id


async def test_presses_are_committed_then_the_board_is_edited(h):
    reply = await start(h, "alice", "bob")
    await h.click(reply, label="-5", user="bob")  # bob changes his own life by default
    await h.click(reply, label="+1", user="bob")
    await settled(h)
    assert (await state_of(h)).player(h.user("bob").id).life == 36
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'") == 2
    assert select_labels(reply.message) == ["1 alice (40)", "2 bob (36)"]
    assert reply.message.edited


async def test_the_select_picks_whose_life_the_buttons_change(h):
    reply = await start(h, "alice", "bob")
    await h.select(reply.message, "pod-pick:1", [str(h.user("bob").id)], user="alice")
    await h.click(reply, label="-5", user="alice")
    await settled(h)
    state = await state_of(h)
    assert state.player(h.user("bob").id).life == 35 and state.player(h.user("alice").id).life == 40


async def test_a_press_whose_chosen_target_was_eliminated_asks_instead_of_guessing(h):
    """The press once went to the presser themselves (or to the first living player): a life change
    for someone nobody meant."""
    reply = await start(h, "alice", "bob", "carol")
    alice, bob, carol = (h.user(n).id for n in ("alice", "bob", "carol"))
    await h.select(reply.message, "pod-pick:1", [str(carol)], user="alice")
    await cog(h).service.change(1, alice, pod.NEXT_TURN, manager=True)
    await cog(h).service.change(1, carol, pod.CONCEDE, player=carol)  # carol leaves after alice picked her
    pressed = await h.click(reply, label="-5", user="alice")
    await settled(h)
    assert "pick a player in the board's list first" in pressed.text and "Nothing was changed" in pressed.text
    state = await state_of(h)
    assert [state.player(u).life for u in (alice, bob, carol)] == [40, 40, 40]
    await h.select(reply.message, "pod-pick:1", [str(bob)], user="alice")  # a new pick is followed
    await h.click(reply, label="-5", user="alice")
    await settled(h)
    assert (await state_of(h)).player(bob).life == 35


@pytest.mark.parametrize("locale", ["en-US", "ja", "zh-CN", "zh-TW"])
async def test_an_eliminated_players_presses_change_nobody_until_they_pick(h, locale):
    reply = await start(h, "alice", "bob", "carol")
    alice, bob, carol = (h.user(n).id for n in ("alice", "bob", "carol"))
    await cog(h).service.change(1, alice, pod.NEXT_TURN, manager=True)
    await cog(h).service.change(1, carol, pod.CONCEDE, player=carol)
    asked = t(
        "pod.error.press_target_gone",
        {"en-US": "en", "ja": "ja", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}[locale],
    )
    for button in ("pod:1:life:1", "pod:1:poison"):
        pressed = await h.click(reply, custom_id=button, user="carol", locale=locale)
        assert pressed.followups[0].ephemeral and pressed.followups[0].content == asked
    opened = await h.click(reply, custom_id="pod:1:amount", user="carol", locale=locale)
    assert opened.modal is None and opened.ephemeral and opened.content == asked
    await settled(h)
    state = await state_of(h)
    assert [(state.player(u).life, state.player(u).poison) for u in (alice, bob, carol)] == [(40, 0)] * 3
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind IN ('life', 'poison')") == 0


async def test_outsiders_get_a_localized_ephemeral_explanation(h):
    reply = await start(h, "alice", "bob")
    refused = await h.click(reply, label="-1", user="dave")
    assert refused.deferred  # a press is acknowledged first; the refusal follows privately
    assert refused.followups[0].ephemeral and "Only the players of this game" in refused.followups[0].content
    refused_ja = await h.click(reply, label="± …", user="dave", locale="ja")
    assert refused_ja.ephemeral and "参加プレイヤー" in refused_ja.content
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events") == 1
    # Manage Server may act on any game.
    h.add_member("mod", permissions=["manage_guild"])
    unpicked = await h.click(reply, label="-1", user="mod")  # not a player: whose life? it asks
    assert "pick a player in the board's list first" in unpicked.text
    await h.select(reply.message, "pod-pick:1", [str(h.user("bob").id)], user="mod")
    await h.click(reply, label="-1", user="mod")
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events") == 2


async def test_join_and_shuffle_before_turn_one(h):
    reply = await start(h, "alice", "bob")
    await h.click(reply, label="Join", user="carol")
    await h.click(reply, label="Shuffle seats", user="alice")
    await settled(h)
    state = await state_of(h)
    assert sorted(p.name for p in state.players) == ["alice", "bob", "carol"]
    await h.click(reply, label="Start turn 1", user="bob")
    await settled(h)
    assert "Join" not in [b["label"] for b in reply.message.buttons]
    assert (await state_of(h)).turn == 1


async def test_modal_amount_exact_total_and_bad_input(h):
    reply = await start(h, "alice", "bob")
    opened = await h.click(reply, label="± …", user="alice")
    assert opened.modal is not None
    await h.submit_modal(opened, {"amount": "-7", "source": "2"})
    opened = await h.click(reply, label="± …", user="alice")
    await h.submit_modal(opened, {"total": "12"})
    opened = await h.click(reply, label="± …", user="alice")
    bad = await h.submit_modal(opened, {"amount": "lots"})
    assert bad.followups[0].ephemeral and "not a valid amount" in bad.followups[0].content
    state = await state_of(h)
    alice = h.user("alice").id
    assert state.player(alice).life == 12
    assert state.life_log[0] == {
        "turn": 0,
        "seq": 2,
        "player": alice,
        "amount": -7,
        "source": h.user("bob").id,
        "combat": True,
    }


async def test_commander_damage_flow_eliminates_and_finishes_the_game(h):
    finished = []

    async def listener(record):
        finished.append(record)

    h.bot.add_listener(listener, "on_pod_game_finished")
    reply = await start(h, "alice", "bob")
    named = await h.click(reply, label="My commanders", user="alice")
    await h.submit_modal(named, {"commander": "atraxa praetors voice", "partner": ""})
    assert [c.name for c in (await state_of(h)).player(h.user("alice").id).commanders] == [
        "Atraxa, Praetors' Voice"
    ]
    await h.click(reply, label="Start turn 1", user="alice")
    panel = await h.click(reply, label="Commander", user="alice")
    assert panel.ephemeral
    bob = h.user("bob").id
    await h.select(panel.message, panel.message.selects[1]["custom_id"], [str(bob)], user="alice")
    cast = await h.click(panel.message, label="Cast from command zone (tax)", user="alice")
    assert "tax paid +0, next cast +2" in cast.followups[0].content  # G3a
    amount = await h.click(panel.message, label="Commander damage", user="alice")
    await h.submit_modal(amount, {"damage": "21"})
    await settled(h)
    state = await state_of(h)
    assert state.player(bob).eliminated.reason == pod.LOST_COMMANDER_DAMAGE  # G5
    assert state.finished
    assert [r.survivors for r in finished] == [[h.user("alice").id]]
    assert finished[0].casts[0]["tax"] == 0
    assert "alice wins" in reply.message.embeds[0]["description"]
    assert [b["label"] for b in reply.message.buttons] == ["History"]


async def test_burst_of_presses_is_coalesced_into_one_edit(h):
    updater = cog(h).updater
    updater.delay = 0.01
    reply = await start(h, "alice", "bob")
    await settled(h)
    before, edits_before = len(reply.message.history), updater.edits
    async with updater.lanes.lane(
        reply.message.channel_id
    ):  # the channel is busy (another game's edit): every press waits
        for _ in range(12):
            await h.click(reply, label="-1", user="bob")
    await settled(h)
    assert (await state_of(h)).player(h.user("bob").id).life == 28
    assert len(reply.message.history) - before == 1 and updater.edits - edits_before == 1
    assert select_labels(reply.message)[1] == "2 bob (28)"  # the final state


async def test_a_press_while_the_board_is_rendered_gets_its_own_edit(h):
    updater = cog(h).updater
    updater.delay = 0.01
    reply = await start(h, "alice", "bob")
    await settled(h)
    rendering, release = asyncio.Event(), asyncio.Event()
    refresh = cog(h).refresh_board

    async def slow_refresh(game_id: int) -> None:
        rendering.set()
        await release.wait()  # the press below lands while this render is in progress
        await refresh(game_id)

    updater.refresh = slow_refresh
    before = len(reply.message.history)
    await h.click(reply, label="-1", user="bob")
    await asyncio.wait_for(rendering.wait(), timeout=5)
    await h.click(reply, label="-5", user="bob")
    release.set()
    await settled(h)
    assert (await state_of(h)).player(h.user("bob").id).life == 34
    assert len(reply.message.history) - before == 2  # the second press was not folded into a stale render
    assert select_labels(reply.message)[1] == "2 bob (34)"


async def test_buttons_of_an_old_board_work_after_a_restart(h):
    reply = await start(h, "alice", "bob")
    await h.click(reply, label="-5", user="alice")
    await h.restart()
    _no_delay(h)
    await h.click(reply, label="-5", user="alice")
    await settled(h)
    assert (await state_of(h)).player(h.user("alice").id).life == 30
    assert select_labels(reply.message)[0] == "1 alice (30)"


async def test_undo_and_history(h):
    reply = await start(h, "alice", "bob")
    await h.click(reply, label="-5", user="bob")
    await h.click(reply, label="Undo", user="alice")
    history = await h.click(reply, label="History", user="carol")  # anyone may read the history
    assert history.ephemeral
    assert "~~" in history.content and "bob life -5" in history.content
    assert "alice undid 1 change" in history.content
    assert (await state_of(h)).player(h.user("bob").id).life == 40
    slash = await h.slash("pod history", user="bob")
    assert slash.ephemeral and "alice started the game" in slash.content


async def test_mulligan_step_on_the_board(h):
    """The short version; tests/pods/test_mulligan_step_cog.py has the 3-player tables."""
    reply = await start(h, "alice", "bob", ruleset="edh-2010")
    panel = await h.click(reply, label="Mulligan", user="alice")
    assert [b["label"] for b in panel.message.buttons][:3] == ["Keep", "1", "2"]
    told = await h.click(panel.message, label="2", user="alice")  # M1: set 2 aside, draw 1
    assert "Draw 1." in told.content and not panel.message.buttons  # the panel now waits for bob
    bob_panel = await h.slash("pod mulligan", user="bob")
    await h.click(bob_panel.message, label="Keep", user="bob")
    await settled(h)
    assert panel.message.buttons  # alice's panel offers her choices again by itself
    done = await h.click(panel.message, label="Keep", user="alice")
    assert "Shuffle the 2 cards you set aside back into your library." in done.content
    await settled(h)
    state = await state_of(h)
    assert state.mulligan.finished
    assert "alice kept 6" in reply.message.embeds[0]["description"]


async def test_slash_alternatives_end_list_and_show(h):
    await start(h, "alice", "bob")
    await h.slash("pod life", user="alice", player=h.user("bob"), amount=-3)
    await h.slash("pod next", user="alice")
    await h.slash("pod damage", user="bob", owner=h.user("bob"), target=h.user("alice"), amount=4)
    state = await state_of(h)
    assert state.player(h.user("bob").id).life == 37
    assert state.player(h.user("alice").id).commander_damage_taken == {
        pod.commander_key(h.user("bob").id, 0): 4
    }
    shown = await h.slash("pod show", user="carol")
    assert shown.files["pod-1.png"][:8] == b"\x89PNG\r\n\x1a\n"
    assert (await cog(h).service.recent(h.guild.id))[0].message_id == shown.message.id
    refused = await h.slash("pod end", user="carol")
    assert refused.ephemeral and "Only the players" in refused.content
    asked = await h.slash("pod end", user="alice")
    assert asked.ephemeral and "can't be undone" in asked.content
    assert (await state_of(h)).ended is None  # asking changes nothing
    await h.click(asked, label="Yes, end it now", user="alice")
    listed = await h.slash("pod list", user="carol")
    assert "#1" in listed.embed["description"] and "Game ended" in listed.embed["description"]
    nothing = await h.slash("pod next", user="alice")
    assert "no running game" in nothing.content


async def test_start_with_bad_options_changes_nothing(h):
    none = await h.slash("pod start", players="nobody here")  # typed words, no member by those names
    assert none.ephemeral and "“nobody”, “here”" in none.content and "No game was started" in none.content
    empty = await h.slash("pod start", players=" , ")
    assert empty.ephemeral and "Mention the players" in empty.content
    for n in range(6):
        h.add_member(f"extra{n}")
    everyone = [h.user(name) for name in ("alice", "bob", "carol", *(f"extra{n}" for n in range(6)))]
    too_many = await h.slash("pod start", players=" ".join(m.mention for m in everyone))
    assert too_many.ephemeral and "at most 8" in too_many.content
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_games") == 0


async def test_own_totals_only_option(h):
    reply = await start(h, "alice", "bob", own_totals_only=True)
    await h.select(reply.message, "pod-pick:1", [str(h.user("bob").id)], user="alice")
    refused = await h.click(reply, label="-1", user="alice")
    assert refused.followups[0].ephemeral and "only their own totals" in refused.followups[0].content


async def test_threads_when_the_server_prefers_them(h):
    await h.bot.guild_settings.update(h.guild.id, pod_threads=True)
    reply = await start(h, "alice", "bob")
    (thread,) = h.threads()
    assert thread.name == "Pod #1"
    row = (await cog(h).service.recent(h.guild.id))[0]
    assert row.channel_id == thread.id
    assert "started in" in reply.content


async def test_commander_by_slash_with_autocomplete_partners_and_unknown_names(h):
    await start(h, "alice", "bob")
    choices = await h.autocomplete("pod commander", "name", "tymn", user="alice")
    assert [c["value"] for c in choices] == [choice_id("Tymna the Weaver")]
    # the picked choice's id, and a name typed without picking, both work
    await h.slash("pod commander", user="alice", name=choices[0]["value"], partner="Thrasios, Triton Hero")
    state = await state_of(h)
    assert [c.name for c in state.player(h.user("alice").id).commanders] == [
        "Tymna the Weaver",
        "Thrasios, Triton Hero",
    ]
    unknown = await h.slash("pod commander", user="bob", name="Atraxa Praetor Voise")
    assert unknown.ephemeral and "No card named" in unknown.content
    assert [c.name for c in (await state_of(h)).player(h.user("bob").id).commanders] == [None]


async def test_a_player_picks_a_registered_deck_for_their_commanders(h):
    decks = cog(h).decks()
    deck_list = (
        "Commander\n1 Tymna the Weaver\n1 Thrasios, Triton Hero\n\nDeck\n1 Kenrith, the Returned King\n"
    )
    saved = await decks.register(h.guild.id, h.user("alice").id, "Blue Farm", deck_list, "commander")
    assert saved.record is not None and set(saved.record.commanders) == {
        "Tymna the Weaver",
        "Thrasios, Triton Hero",
    }
    reply = await start(h, "alice", "bob")
    panel = await h.click(reply, label="My commanders", user="alice")
    assert panel.ephemeral and panel.message.selects[0]["options"][0]["label"] == "Blue Farm"
    await h.select(panel.message, panel.message.selects[0]["custom_id"], ["Blue Farm"], user="alice")
    alice = (await state_of(h)).player(h.user("alice").id)
    assert sorted(c.name for c in alice.commanders) == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    assert alice.deck == "Blue Farm"
    # Bob has no registered deck: the button opens the typing modal straight away.
    assert (await h.click(reply, label="My commanders", user="bob")).modal is not None


async def test_simultaneous_presses_from_two_players_are_all_applied(h):
    from bot.testing.fakediscord import payloads as P

    reply = await start(h, "alice", "bob")
    payloads = [
        h.fake.new_interaction(
            kind=P.MESSAGE_COMPONENT,
            data=P.component_data("pod:1:life:-1", 2),
            channel=h.channel(),
            actor=h.user(name),
            message=reply.message,
        )
        for name in ("alice", "bob") * 15
    ]
    for payload in payloads:  # all in flight before any is handled
        h.bot._connection.parse_interaction_create(payload)
    await settled(h)
    assert all(h.fake.interactions[int(p["id"])].acknowledged for p in payloads)
    state = await state_of(h)
    assert [p.life for p in state.players] == [25, 25]
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'") == 30
    assert select_labels(reply.message) == ["1 alice (25)", "2 bob (25)"]


async def test_board_follows_the_server_language_with_printed_card_names(h):
    await h.bot.guild_settings.update(h.guild.id, locale="ja")
    reply = await start(h, "alice", "bob")
    await h.slash("pod commander", user="alice", name="Atraxa, Praetors' Voice")
    await settled(h)
    state = await state_of(h)
    assert cog(h).commander_names(state, "ja") == {
        pod.commander_key(h.user("alice").id, 0): "法務官の声、アトラクサ"
    }
    assert reply.message.embeds[0]["title"] == "卓#1 · 統率者戦"
    assert "ターン1の前" in reply.message.embeds[0]["description"]


async def test_start_linked_game_for_tournaments_posts_a_board_and_reports_the_round(h):
    finished = []

    async def listener(record):
        finished.append(record)

    h.bot.add_listener(listener, "on_pod_game_finished")
    channel = h.bot.get_channel(h.channel("games").id)
    guild = h.bot.get_guild(h.guild.id)
    members = [await guild.fetch_member(h.user(name).id) for name in ("alice", "bob", "carol")]
    loaded, message = await cog(h).start_linked_game(
        channel, members, ruleset="edh-2010", tournament_id=7, round_number=2
    )
    board_message = h.fake.messages[message.id]
    assert board_message.embeds[0]["footer"]["text"] == "Tournament 7, round 2"
    assert board_message.files[f"pod-{loaded.game_id}.png"][:4] == b"\x89PNG"
    await h.click(board_message, label="Start turn 1", user="alice")
    await h.click(board_message, label="Concede", user="bob")
    await h.click(board_message, label="Concede", user="carol")
    await settled(h)
    (record,) = finished
    assert (record.tournament_id, record.round_number, record.survivors) == (7, 2, [h.user("alice").id])
    assert record.standings == [(1, [h.user("alice").id]), (2, [h.user("carol").id]), (3, [h.user("bob").id])]


async def test_the_game_log_is_stamped_by_the_bots_clock(h):
    """PodService takes its time from the bot's clock, so a test moves it instead of sleeping,
    and the match swap window, timed from these stamps, waits on the same clock."""
    await start(h, "alice", "bob")
    await h.advance(days=3)
    reply = await start(h, "alice", "bob")
    await h.click(reply, label="-1", user="alice")
    events = (await cog(h).service.get(2)).events
    assert {e.at for e in events} == {h.clock.now().isoformat(timespec="seconds")}
    first = (await cog(h).service.get(1)).events[0].at
    assert first == (h.clock.now() - timedelta(days=3)).isoformat(timespec="seconds")


async def test_typed_names_in_the_player_list_are_matched_to_members_or_named_back(h):
    """A name typed instead of picked from the mention list was dropped without a word."""
    alice, bob, dave = (h.user(n).id for n in ("alice", "bob", "dave"))
    reply = await h.slash("pod start", players=f"{mention(h, 'alice', 'bob')} @dave")
    assert not reply.ephemeral
    assert [p.user_id for p in (await state_of(h, 1)).players] == [alice, bob, dave]
    typed = await h.slash("pod start", players=f"{mention(h, 'alice')} Bob")  # any case, no "@"
    assert not typed.ephemeral
    assert [p.user_id for p in (await state_of(h, 2)).players] == [alice, bob]

    unknown = await h.slash("pod start", players=f"{mention(h, 'alice', 'bob')} zed *x*")
    assert (
        unknown.ephemeral
        and "“zed”, “\\*x\\*”" in unknown.content
        and "No game was started" in unknown.content
    )
    h.fake.guilds[h.guild.id].members[dave].nick = "Bob"  # two members answer to "bob" now
    unclear = await h.slash("pod start", players="alice bob", locale="ja")
    assert unclear.ephemeral and "“bob”" in unclear.content and "複数" in unclear.content
    assert len(await cog(h).service.recent(h.guild.id)) == 2  # the refused lists started nothing


async def test_history_pages_through_every_change_and_says_there_are_more(h):
    """/pod history showed the last 25 changes with no word that there were more."""
    await start(h, "alice", "bob")
    alice = h.user("alice").id
    for change in range(59):
        await cog(h).service.change(1, alice, pod.LIFE, player=alice, amount=(-1, 1)[change % 2])
    shown = await h.slash("pod history", user="alice")
    assert shown.ephemeral and shown.content.startswith("Changes 36–60 of 60 (page 1 of 3")
    assert [b["label"] for b in shown.message.buttons] == ["◀ Older"]
    older = await h.click(shown, label="◀ Older", user="alice")
    assert older.message.content.startswith("Changes 11–35 of 60 (page 2 of 3")
    oldest = await h.click(older, label="◀ Older", user="alice", locale="ja")
    assert oldest.message.content.startswith("変更1–10（全60件、3 / 3ページ")
    assert [b["label"] for b in oldest.message.buttons] == ["新しい変更 ▶"]
    assert "alice joined" not in oldest.message.content and oldest.message.content.count("\n") == 10
    short = await h.slash("pod start", players=mention(h, "carol", "dave"), user="carol")
    few = await h.click(short, label="History", user="carol")
    assert "Changes" not in few.content and few.message.buttons == []


async def test_an_ended_board_no_longer_says_join_or_shuffle_seats(h):
    reply = await start(h, "alice", "bob")
    assert "Join, shuffle seats" in reply.embed["description"]
    asked = await h.slash("pod end", user="alice")
    await h.click(asked, custom_id="pod:1:confirm_end", user="alice")
    await settled(h)
    description = reply.message.embeds[0]["description"]
    assert "Join, shuffle seats" not in description and "Seats:" not in description


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
async def test_a_meld_back_face_is_no_commander(tmp_path, locale):
    """Brisela, Voice of Nightmares was accepted: a melded permanent is two cards' back halves."""
    corner_cards = TEST_DATA / "rules_corner_cards.jsonl"
    async with DiscordHarness.start(tmp_path, cards_path=corner_cards, members=("alice", "bob")) as h:
        _no_delay(h)
        await start(h, "alice", "bob")
        refused = await h.slash(
            "pod commander", user="alice", name="Brisela, Voice of Nightmares", locale=locale
        )
        assert (
            refused.ephemeral
            and {"en-US": "melded permanent", "zh-CN": "融合后的永久物"}[locale] in refused.text
        )
        assert h.user("alice").id not in (await state_of(h)).declared
        taken = await h.slash("pod commander", user="alice", name="Gisela, the Broken Blade", locale=locale)
        await settled(h)
        assert [c.name for c in (await state_of(h)).player(h.user("alice").id).commanders] == [
            "Gisela, the Broken Blade"
        ], taken.text
