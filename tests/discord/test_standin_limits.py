"""The stand-in refuses what real Discord refuses, the way Discord does, so a test that breaks a rule fails.

Each limit class of ``shared/design/discord-limits.md`` is provoked through real discord.py (the
``limits`` test cog) or, where discord.py can't send it, straight at the fake's REST door.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord
import pytest

from bot.invite import PERMISSIONS, permissions_integer
from bot.testing import DiscordHarness
from bot.testing.fakediscord.backend import FakeDiscord, Request
from bot.testing.fakediscord.contract import command_length
from bot.testing.fakediscord.driver import HarnessError
from bot.testing.fakediscord.model import PERMISSIONS as FAKE_PERMISSIONS
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import standard_world
from tests.discord.limitcog import add_limit_cog


def refusal(requests: list[Request], status: int = 400) -> dict[str, Any]:
    refused = [r for r in requests if r.status == status]
    assert len(refused) == 1, [(r.method, r.path, r.status) for r in requests]
    return refused[0].response


def error_at(body: dict[str, Any], *path: str | int) -> list[dict[str, str]]:
    """The ``_errors`` Discord lists at ``path`` in an Invalid Form Body answer."""
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body", body
    node = body["errors"]
    for key in path:
        node = node[str(key)]
    return node["_errors"]


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, on_boot=add_limit_cog) as harness:
        yield harness


@pytest.mark.parametrize(
    ("case", "path", "code"),
    [
        ("content_2001", ("data", "content"), "BASE_TYPE_MAX_LENGTH"),
        ("field_1025", ("data", "embeds", 0, "fields", 0, "value"), "BASE_TYPE_MAX_LENGTH"),
        ("embeds_6001", ("data", "embeds"), "MAX_EMBED_SIZE_EXCEEDED"),
        ("fields_26", ("data", "embeds", 0, "fields"), "BASE_TYPE_MAX_LENGTH"),
        (
            "duplicate_custom_id",
            ("data", "components", 0, "components", 1, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        ("select_sharing_a_row", ("data", "components", 0, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
        ("six_rows", ("data", "components"), "BASE_TYPE_MAX_LENGTH"),
        ("modal_title_46", ("data", "title"), "BASE_TYPE_MAX_LENGTH"),
        ("thread_name_101", ("name",), "BASE_TYPE_MAX_LENGTH"),
        ("event_name_101", ("name",), "BASE_TYPE_MAX_LENGTH"),
    ],
)
async def test_a_body_over_a_limit_is_refused_with_invalid_form_body_naming_the_field(h, case, path, code):
    reply = await h.slash("limits break", case=case, expect_refusal=50035)
    assert [e["code"] for e in error_at(refusal(reply.requests), *path)] == [code]


async def test_a_refusal_the_bot_swallows_still_fails_the_test(h):
    with pytest.raises(HarnessError, match="Discord refused POST /interactions/.* 400"):
        await h.slash("limits break", case="content_2001")
    with pytest.raises(HarnessError, match="expected Discord to refuse"):
        await h.slash("limits break", case="channel_send", expect_refusal=50013)


async def test_autocomplete_values_over_100_and_more_than_25_choices_are_refused(h):
    await h.autocomplete("limits pick", "value", "long", expect_refusal=50035)
    assert (
        error_at(h.fake.refusals[-1].response, "data", "choices", 0, "value")[0]["code"]
        == "BASE_TYPE_MAX_LENGTH"
    )
    await h.autocomplete("limits pick", "value", "many", expect_refusal=50035)
    assert error_at(h.fake.refusals[-1].response, "data", "choices")[0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert len(await h.autocomplete("limits pick", "value", "few")) == 3


def _command(**extra: Any) -> dict[str, Any]:
    return {"name": "deck", "description": "Decks", "type": 1, **extra}


def test_a_command_over_8000_characters_counting_its_longest_localisation_is_refused():
    fake = FakeDiscord()
    options = [
        {
            "type": 3,
            "name": f"o{n}",
            "description": "d" * 100,
            "description_localizations": {"ja": "日" * 100},
        }
        for n in range(25)
    ]
    fitting = _command(options=options)
    assert command_length(fitting) < 8000
    assert fake.handle("PUT", f"/applications/{fake.application_id}/commands", body=[fitting]).status == 200
    choices = [
        {"name": "c" * 100, "value": "v" * 100, "name_localizations": {"zh-TW": "長" * 100}}
        for _ in range(25)
    ]
    huge = _command(
        options=[{**o, "choices": choices} for o in options[:2]], description_localizations={"ja": "説" * 100}
    )
    assert command_length(huge) > 8000
    answer = fake.handle("PUT", f"/applications/{fake.application_id}/commands", body=[huge])
    assert answer.status == 400
    assert error_at(answer.body, 0)[0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"


def test_command_names_must_be_lowercase_and_localisation_keys_discord_locales():
    fake = FakeDiscord()
    path = f"/applications/{fake.application_id}/commands"
    answer = fake.handle("PUT", path, body=[_command(name="Deck")])
    assert error_at(answer.body, 0, "name")[0]["code"] == "APPLICATION_COMMAND_INVALID_NAME"
    answer = fake.handle("PUT", path, body=[_command(description_localizations={"zh-Hans": "套牌"})])
    assert error_at(answer.body, 0, "description_localizations", "zh-Hans")[0]["code"] == "LOCALE_INVALID"
    assert (
        fake.handle("PUT", path, body=[_command(description_localizations={"zh-CN": "套牌"})]).status == 200
    )
    assert len(fake.refusals) == 2


async def test_the_bots_real_command_tree_syncs_within_every_limit(h):
    await h.bot.tree.sync()  # with its translator: every localisation is in the body; raises on a refusal
    synced = h.fake.synced_commands[None]
    assert {c["name"] for c in synced} >= {"deck", "card", "pod"}
    assert all(set(c.get("description_localizations") or {}) <= {"ja", "zh-CN", "zh-TW"} for c in synced)
    assert any(c.get("description_localizations") for c in synced)
    assert max(command_length(c) for c in synced) <= 8000


async def test_sending_without_permission_in_a_channel_is_403_missing_permissions(h):
    general = h.channel("general")
    general.overwrites[h.fake.bot_role(h.guild).id] = (0, FAKE_PERMISSIONS["send_messages"], 0)
    reply = await h.slash("limits break", case="channel_send", expect_refusal=50013)
    assert refusal(reply.requests, 403)["code"] == 50013
    await h.slash("limits break", case="channel_send", channel="games")  # other channels are unaffected


async def test_the_bot_can_only_give_roles_below_its_own_highest_role(h):
    top = h.fake.bot_role(h.guild).position
    h.fake.add_role(h.guild, "Champion", position=top + 1)
    h._refresh_guild()
    reply = await h.slash("limits break", case="give_top_role", expect_refusal=50013)
    assert "not below the bot's highest role" in refusal(reply.requests, 403)["message"]
    assert not h.user("alice").role_ids


async def test_creating_a_scheduled_event_needs_create_events_not_manage_events(tmp_path):
    without = (
        permissions_integer([n for n in PERMISSIONS if n != "create_events"])
        | FAKE_PERMISSIONS["manage_events"]
    )
    async with DiscordHarness.start(tmp_path, on_boot=add_limit_cog, bot_permissions=without) as h:
        reply = await h.slash("limits break", case="event", expect_refusal=50013)
        assert "create_events" in refusal(reply.requests, 403)["message"] and not h.guild.scheduled_events
    async with DiscordHarness.start(tmp_path / "2", on_boot=add_limit_cog) as h:
        await h.slash("limits break", case="event")
        assert [e.data["name"] for e in h.guild.scheduled_events.values()] == ["Hydra night"]


async def test_an_upload_over_10_mib_on_an_unboosted_server_is_413(h):
    reply = await h.slash("limits break", case="upload_10mib_plus_1", expect_refusal=40005)
    assert refusal(reply.requests, 413)["code"] == 40005
    h.guild.premium_tier = 2  # 50 MiB at boost level 2
    reply = await h.slash("limits break", case="upload_10mib_plus_1")
    assert len(reply.files["big.bin"]) == 10 * 1024 * 1024 + 1


def test_a_second_initial_response_is_40060():
    fake = FakeDiscord()
    guild = standard_world(fake)
    payload = fake.new_interaction(
        kind=2,
        data={"id": "1", "name": "x", "type": 1},
        channel=guild.channel_named("general"),
        actor=guild.member_named("alice"),
    )
    path = f"/interactions/{payload['id']}/{payload['token']}/callback"
    assert fake.handle("POST", path, body={"type": 4, "data": {"content": "one"}}).status == 204
    again = fake.handle("POST", path, body={"type": 4, "data": {"content": "two"}})
    assert (again.status, again.body["code"]) == (400, 40060)
    assert fake.refusals[-1].response["code"] == 40060


async def test_a_sixth_send_in_five_seconds_waits_for_the_channel_bucket_in_process(tmp_path):
    async with DiscordHarness.start(tmp_path, on_boot=add_limit_cog, rate_limit=(5, 0.2)) as h:
        channel = h.bot.get_channel(h.channel("games").id)
        started = time.monotonic()
        for n in range(7):
            await channel.send(f"message {n}")
        assert [m.content for m in h.messages("games")] == [f"message {n}" for n in range(7)]
        assert time.monotonic() - started >= 0.15  # discord.py waited for the bucket to refill
        # Another client (a second process of the same bot) empties the bucket: Discord answers 429.
        for _ in range(5):
            h.fake.rate_limiter.take(h.channel("general").id)
        await h.bot.get_channel(h.channel("general").id).send("after the 429")
        statuses = [
            r.status for r in h.fake.requests if r.path.endswith(f"{h.channel('general').id}/messages")
        ]
        assert statuses[-2:] == [429, 200]
        assert h.fake.requests[-2].response["retry_after"] > 0


async def test_discord_py_retries_a_429_over_the_http_stand_in(tmp_path):
    fake = FakeDiscord(rate_limit=(2, 0.4))
    guild = standard_world(fake)
    channel = guild.channel_named("general")
    async with FakeDiscordServer.running(fake, token="t") as server:
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        await http.static_login("t")
        try:
            for _ in range(2):
                fake.rate_limiter.take(channel.id)  # the bucket is empty when the bot's first request arrives
            params = discord.http.handle_message_parameters(content="hello")
            await http.send_message(channel.id, params=params)
        finally:
            await http.close()
    sends = [r for r in fake.requests if r.path == f"/channels/{channel.id}/messages"]
    assert [r.status for r in sends] == [429, 200]
    assert [m.content for m in fake.channel_messages(channel)] == ["hello"]
    assert server.fake is fake


def test_the_fakes_permission_bits_agree_with_discord_py():
    for name, bit in FAKE_PERMISSIONS.items():
        assert getattr(discord.Permissions, name).flag == bit, name


def test_a_refusal_aimed_at_sends_lets_the_channels_edits_through():
    """``throttle_next(..., method="POST")`` refuses the channel's next new message only: an edit that
    comes first (a board's background update) goes through and leaves the refusal for the post."""
    fake = FakeDiscord(rate_limit=(5, 5.0))
    channel = standard_world(fake).channel_named("general")
    messages = f"/channels/{channel.id}/messages"
    posted = fake.handle("POST", messages, body={"content": "board"})
    fake.rate_limiter.throttle_next(channel.id, 120.0, method="POST")
    edit = fake.handle("PATCH", f"{messages}/{posted.body['id']}", body={"content": "board, edited"})
    assert edit.status == 200
    refused = fake.handle("POST", messages, body={"content": "results"})
    assert (refused.status, refused.body["code"], refused.body["retry_after"]) == (429, 20028, 120.0)
    assert fake.handle("POST", messages, body={"content": "results"}).status == 200  # once, then as usual
