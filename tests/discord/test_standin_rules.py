"""Every rule the stand-in enforces refuses a request that breaks it, with Discord's status and code.

Loosening any rule of ``bot/testing/fakediscord`` must fail a test here: each test sends one request
that breaks one rule (straight at the fake's REST door, or through real discord.py where its behaviour
is the point) and checks the answer, next to a request that keeps the rule and is accepted. The rules
that only show over time (edits of hour-old messages, token lifetime, thread archiving, events ending)
run on a ``FakeClock``, never on wall time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import pytest

from bot.clock import FakeClock
from bot.testing import DiscordHarness
from bot.testing.fakediscord.backend import FakeDiscord, Response
from bot.testing.fakediscord.driver import HarnessError
from bot.testing.fakediscord.model import PERMISSIONS, FakeChannel, FakeGuild
from bot.testing.fakediscord.policy import RateLimiter
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import standard_world
from tests.discord.refusals import form_error, refused


@dataclass
class World:
    """A stand-in on a fake clock with the standard guild, and shortcuts for its REST door."""

    fake: FakeDiscord
    guild: FakeGuild
    clock: FakeClock

    def channel(self, name: str = "general") -> FakeChannel:
        return self.guild.channel_named(name)

    def send(self, channel: FakeChannel, body: dict[str, Any] | None = None) -> Response:
        return self.fake.handle(
            "POST",
            f"/channels/{channel.id}/messages",
            body=body if body is not None else {"content": "hello"},
        )

    def post(self, channel: FakeChannel, text: str = "board") -> int:
        answer = self.send(channel, {"content": text})
        assert answer.status == 200, answer.body
        return int(answer.body["id"])

    def edit(self, channel: FakeChannel, message_id: int, text: str = "edited") -> Response:
        return self.fake.handle(
            "PATCH", f"/channels/{channel.id}/messages/{message_id}", body={"content": text}
        )

    def thread(self, parent: FakeChannel, **body: Any) -> FakeChannel:
        answer = self.fake.handle(
            "POST", f"/channels/{parent.id}/threads", body={"name": "table 1", "type": 11, **body}
        )
        assert answer.status == 200, answer.body
        return self.fake.channels[int(answer.body["id"])]


@pytest.fixture
def world() -> World:
    clock = FakeClock()
    fake = FakeDiscord(clock=clock, rate_limit=None, global_rate_limit=None, webhook_rate_limit=None)
    return World(fake, standard_world(fake), clock)


# -- edits of messages older than one hour ---------------------------------------------------------------


async def test_edits_of_an_hour_old_message_are_capped_per_channel_with_30046_and_a_long_retry_after(world):
    general = world.channel()
    board = world.post(general)
    for _ in range(10):  # a young message: any number of edits (the channel bucket is off here)
        assert world.edit(general, board).status == 200
    await world.clock.advance(hours=1, seconds=1)
    for _ in range(3):  # a few edits per hour...
        assert world.edit(general, board).status == 200
    capped = world.edit(general, board)  # ...then Discord refuses
    refused(capped, 429, 30046)
    assert capped.body["retry_after"] > 60 * 50 and capped.body["global"] is False
    assert capped.headers["Via"] and int(capped.headers["Retry-After"]) >= capped.body["retry_after"]
    assert (
        world.fake.refusals[-1].response["code"] == 30046
    )  # a test that meets it fails unless it expects it
    assert world.fake.messages[board].content == "edited"  # the refused edit changed nothing


async def test_the_old_message_cap_is_per_channel_and_refills_after_an_hour(world):
    general, games = world.channel("general"), world.channel("games")
    boards = [world.post(general), world.post(general), world.post(games)]
    await world.clock.advance(hours=2)
    for board in boards[:2] + boards[:1]:
        assert world.edit(general, board).status == 200
    refused(world.edit(general, boards[1]), 429, 30046)  # the cap counts the channel, not the message
    assert world.edit(games, boards[2]).status == 200  # another channel has its own allowance
    fresh = world.post(general)
    assert world.edit(general, fresh).status == 200  # a young message in the same channel is not capped
    await world.clock.advance(minutes=61)
    assert world.edit(general, boards[0]).status == 200


async def test_discord_py_gives_up_on_30046_when_its_rate_limit_timeout_is_shorter(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        channel = h.bot.get_channel(h.channel("games").id)
        board = await channel.send("board")
        await h.advance(hours=1, minutes=5)
        for n in range(3):
            await board.edit(content=f"edit {n}")
        h.bot.http.max_ratelimit_timeout = 30.0  # else discord.py sleeps the whole retry_after inside edit()
        with pytest.raises(discord.RateLimited) as raised:
            await board.edit(content="one too many")
        assert raised.value.retry_after > 30
        # The harness counts it as a broken rule (reading the problems here marks this one as expected).
        assert ["30046" in problem for problem in h.contract_problems()] == [True]


# -- threads archive after their auto-archive duration ------------------------------------------------------


async def test_a_thread_archives_after_its_auto_archive_duration_and_refuses_sends_and_edits_with_50083(
    world,
):
    thread = world.thread(world.channel(), auto_archive_duration=60)
    board = world.post(thread)
    await world.clock.advance(minutes=59)
    assert world.edit(thread, board).status == 200  # an edit is not activity...
    await world.clock.advance(minutes=1)
    refused(world.send(thread), 400, 50083)  # ...so an hour after the last message the thread is archived
    refused(world.edit(thread, board), 400, 50083)
    assert thread.archived and world.fake.messages[board].content == "edited"
    unarchive = world.fake.handle("PATCH", f"/channels/{thread.id}", body={"archived": False})
    assert unarchive.status == 200 and not thread.archived
    assert world.edit(thread, board).status == 200


async def test_a_new_message_keeps_a_thread_open_and_expire_archives_it_with_a_thread_update(world):
    events: list[str] = []
    world.fake.subscribe(lambda event, data: events.append(event))
    thread = world.thread(world.channel(), auto_archive_duration=1440)
    await world.clock.advance(hours=23)
    world.post(thread)
    await world.clock.advance(hours=23)
    world.fake.expire()
    assert not thread.archived
    await world.clock.advance(hours=1)
    world.fake.expire()
    assert thread.archived and events[-1] == "THREAD_UPDATE"


async def test_follow_ups_and_original_edits_in_an_archived_thread_are_50083(world):
    thread = world.thread(world.channel(), auto_archive_duration=60)
    world.post(thread)
    await world.clock.advance(minutes=50)
    payload = interaction_in(world, thread)  # an ephemeral answer is no thread activity
    token = payload["token"]
    assert (
        world.fake.handle(
            "POST",
            f"/interactions/{payload['id']}/{token}/callback",
            body={"type": 4, "data": {"content": "ok", "flags": 64}},
        ).status
        == 204
    )
    await world.clock.advance(minutes=11)  # the token still works (15 minutes); the thread has archived
    app = world.fake.application_id
    refused(world.fake.handle("POST", f"/webhooks/{app}/{token}", body={"content": "late"}), 400, 50083)
    refused(
        world.fake.handle("PATCH", f"/webhooks/{app}/{token}/messages/@original", body={"content": "x"}),
        400,
        50083,
    )


def interaction_in(world: World, channel: FakeChannel) -> dict[str, Any]:
    return world.fake.new_interaction(
        kind=2,
        data={"id": "1", "name": "x", "type": 1},
        channel=channel,
        actor=world.guild.member_named("alice"),
    )


# -- interaction tokens live 15 minutes ------------------------------------------------------------------------


async def test_an_interaction_token_works_for_15_minutes_then_follow_ups_and_edits_are_401_50027(world):
    payload = interaction_in(world, world.channel())
    token, app = payload["token"], world.fake.application_id
    callback = f"/interactions/{payload['id']}/{token}/callback"
    assert world.fake.handle("POST", callback, body={"type": 5}).status == 204  # "thinking…"
    await world.clock.advance(minutes=14, seconds=59)
    assert world.fake.handle("POST", f"/webhooks/{app}/{token}", body={"content": "done"}).status == 200
    await world.clock.advance(seconds=2)
    for method, path, body in (
        ("POST", f"/webhooks/{app}/{token}", {"content": "late"}),
        ("PATCH", f"/webhooks/{app}/{token}/messages/@original", {"content": "late"}),
        ("GET", f"/webhooks/{app}/{token}/messages/@original", None),
        ("DELETE", f"/webhooks/{app}/{token}/messages/@original", None),
    ):
        refused(world.fake.handle(method, path, body=body), 401, 50027)
    assert world.fake.refusals[-1].status == 401


async def test_the_first_response_after_15_minutes_finds_no_interaction(world):
    payload = interaction_in(world, world.channel())
    await world.clock.advance(minutes=16)
    answer = world.fake.handle(
        "POST",
        f"/interactions/{payload['id']}/{payload['token']}/callback",
        body={"type": 4, "data": {"content": "hi"}},
    )
    refused(answer, 404, 10062)


# -- budgets: the global limit and interaction webhooks ------------------------------------------------------------


def test_the_global_limit_is_50_requests_per_second_and_spares_interaction_routes():
    fake = FakeDiscord(rate_limit=None, global_rate_limit=(50, 60.0), webhook_rate_limit=None)
    guild = standard_world(fake)
    for _ in range(50):
        assert fake.handle("GET", f"/guilds/{guild.id}/roles").status == 200
    over = fake.handle("GET", f"/channels/{guild.channel_named('general').id}")
    assert (over.status, over.body["global"], over.headers["X-RateLimit-Global"]) == (429, True, "true")
    assert over.body["retry_after"] > 0 and over.headers["Via"]
    payload = fake.new_interaction(
        kind=2,
        data={"id": "1", "name": "x", "type": 1},
        channel=guild.channel_named("general"),
        actor=guild.member_named("alice"),
    )
    callback = fake.handle(
        "POST",
        f"/interactions/{payload['id']}/{payload['token']}/callback",
        body={"type": 4, "data": {"content": "still answered"}},
    )
    assert callback.status == 204  # interaction endpoints are not bound to the global limit
    followup = fake.handle(
        "POST", f"/webhooks/{fake.application_id}/{payload['token']}", body={"content": "x"}
    )
    assert followup.status == 200


def test_an_interaction_token_has_a_bucket_of_its_own():
    fake = FakeDiscord(rate_limit=None, global_rate_limit=None, webhook_rate_limit=(5, 60.0))
    guild = standard_world(fake)
    general, alice = guild.channel_named("general"), guild.member_named("alice")
    tokens = []
    for _ in range(2):
        payload = fake.new_interaction(
            kind=2, data={"id": "1", "name": "x", "type": 1}, channel=general, actor=alice
        )
        fake.handle("POST", f"/interactions/{payload['id']}/{payload['token']}/callback", body={"type": 5})
        tokens.append(payload["token"])
    path = f"/webhooks/{fake.application_id}/{tokens[0]}"
    for _ in range(5):
        assert fake.handle("POST", path, body={"content": "step"}).status == 200
    over = fake.handle("POST", path, body={"content": "one too many"})
    assert (over.status, over.body["global"]) == (429, False) and "interaction-webhook" in over.headers[
        "X-RateLimit-Bucket"
    ]
    assert (
        fake.handle("POST", f"/webhooks/{fake.application_id}/{tokens[1]}", body={"content": "x"}).status
        == 200
    )


def hold_still_until_it_refuses(limiter: RateLimiter) -> None:
    """Stop ``limiter``'s time until it has refused a request, then let it run on from there.

    The harness compresses Discord's global second into 10 ms of real time: filling the bucket and
    sending behind it raced the machine (on a busy one the 10 ms passed first and nothing was refused).
    Held still, the bucket filled is the bucket the send meets, however slowly the send comes; once it
    has said 429, real time runs again, so the retry comes through only if discord.py waited."""
    held_at, released_at = time.monotonic(), [0.0]
    limiter.clock = lambda: held_at + (time.monotonic() - released_at[0] if released_at[0] else 0.0)
    take = limiter.take

    def take_then_release(key: Any) -> tuple[float | None, dict[str, str]]:
        wait, headers = take(key)
        if wait is not None and not released_at[0]:
            released_at[0] = time.monotonic()
        return wait, headers

    limiter.take = take_then_release  # type: ignore[method-assign]


async def test_discord_py_sleeps_out_the_global_limit_in_process(tmp_path):
    async with DiscordHarness.start(tmp_path, rate_limit=(5, 0.05)) as h:
        limiter = h.fake.global_rate_limiter
        assert limiter is not None
        hold_still_until_it_refuses(limiter)
        for _ in range(limiter.limit):
            limiter.take("bot")  # another process of the bot used the second up
        await h.bot.get_channel(h.channel("games").id).send("after the global wait")
        statuses = [r.status for r in h.fake.requests if r.path.endswith("/messages")]
        assert statuses[-2:] == [429, 200] and h.fake.requests[-2].response["global"] is True


# -- visibility -------------------------------------------------------------------------------------------------


def test_a_channel_the_bot_cannot_see_is_50001_and_one_it_cannot_send_in_is_50013(world):
    general, games = world.channel("general"), world.channel("games")
    bot_role = world.fake.bot_role(world.guild).id
    general.overwrites[bot_role] = (0, PERMISSIONS["view_channel"], 0)
    games.overwrites[bot_role] = (0, PERMISSIONS["send_messages"], 0)
    refused(world.send(general), 403, 50001)
    refused(world.fake.handle("GET", f"/channels/{general.id}"), 403, 50001)
    refused(world.fake.handle("GET", f"/channels/{general.id}/messages"), 403, 50001)
    refused(world.send(games), 403, 50013)


def test_a_private_thread_the_bot_is_not_in_is_50001_until_it_is_added(world):
    general = world.channel()
    private = world.fake.add_channel(
        world.guild, "secret", kind=12, parent=general, owner_id=world.guild.member_named("alice").id
    )
    refused(world.send(private), 403, 50001)
    private.member_ids.add(world.fake.bot_user.id)
    assert world.send(private).status == 200
    world.fake.bot_role(world.guild).permissions |= PERMISSIONS["create_private_threads"]
    own = world.thread(general, type=12)  # a private thread the bot starts has it as a member
    assert world.send(own).status == 200


def test_a_locked_thread_refuses_a_bot_without_manage_threads(world):
    thread = world.thread(world.channel())
    thread.locked = True
    refused(world.send(thread), 403, 50013)
    world.fake.bot_role(world.guild).permissions |= PERMISSIONS["manage_threads"]
    assert world.send(thread).status == 200


def test_a_second_thread_on_one_message_is_160004(world):
    general = world.channel()
    message = world.post(general)
    path = f"/channels/{general.id}/messages/{message}/threads"
    assert world.fake.handle("POST", path, body={"name": "table 1"}).status == 200
    refused(world.fake.handle("POST", path, body={"name": "table 1 again"}), 400, 160004)


# -- message bodies -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [{}, {"content": ""}, {"content": "", "embeds": [], "components": []}])
def test_an_empty_message_is_50006_on_every_way_of_sending(world, body):
    refused(world.send(world.channel(), body), 400, 50006)
    payload = interaction_in(world, world.channel())
    refused(
        world.fake.handle(
            "POST",
            f"/interactions/{payload['id']}/{payload['token']}/callback",
            body={"type": 4, "data": body},
        ),
        400,
        50006,
    )
    assert (
        world.fake.handle(
            "POST", f"/interactions/{payload['id']}/{payload['token']}/callback", body={"type": 5}
        ).status
        == 204
    )  # a deferral has no message yet: fine
    refused(
        world.fake.handle("POST", f"/webhooks/{world.fake.application_id}/{payload['token']}", body=body),
        400,
        50006,
    )


def test_a_request_over_25_mib_is_413_even_when_each_file_fits(world):
    from bot.testing.fakediscord.backend import Upload

    world.guild.premium_tier = 1  # 10 MiB per file
    general = world.channel()
    files = [Upload(f"files[{n}]", f"part{n}.bin", b"x" * (9 * 1024 * 1024)) for n in range(3)]
    answer = world.fake.handle(
        "POST", f"/channels/{general.id}/messages", body={"content": "parts"}, uploads=files
    )
    refused(answer, 413, 40005)
    assert (
        world.fake.handle(
            "POST", f"/channels/{general.id}/messages", body={"content": "parts"}, uploads=files[:2]
        ).status
        == 200
    )


def test_a_reply_to_an_unknown_message_is_refused_unless_fail_if_not_exists_is_false(world):
    general = world.channel()
    known = world.post(general)
    assert (
        world.send(general, {"content": "re", "message_reference": {"message_id": str(known)}}).status == 200
    )
    unknown = {"content": "re", "message_reference": {"message_id": str(known + 12345)}}
    assert (
        form_error(world.send(general, unknown), "message_reference") == "MESSAGE_REFERENCE_UNKNOWN_MESSAGE"
    )
    lenient = {
        "content": "re",
        "message_reference": {"message_id": str(known + 12345), "fail_if_not_exists": False},
    }
    assert world.send(general, lenient).status == 200


@pytest.mark.parametrize(
    ("button", "field", "code"),
    [
        ({"type": 2, "style": 1, "label": "Go"}, "custom_id", "BASE_TYPE_REQUIRED"),
        (
            {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org", "custom_id": "x"},
            "custom_id",
            "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
        ),
    ],
)
def test_a_button_needs_a_custom_id_unless_it_is_a_link_which_may_not_have_one(world, button, field, code):
    body = {"content": "b", "components": [{"type": 1, "components": [button]}]}
    assert form_error(world.send(world.channel(), body), "components", 0, "components", 0, field) == code
    good = [
        {"type": 2, "style": 1, "label": "Go", "custom_id": "go"},
        {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"},
    ]
    assert (
        world.send(world.channel(), {"content": "b", "components": [{"type": 1, "components": good}]}).status
        == 200
    )


@pytest.mark.parametrize("kind", ["users", "roles"])
def test_parse_and_a_list_of_the_same_kind_in_allowed_mentions_are_exclusive(world, kind):
    body = {"content": "hi", "allowed_mentions": {"parse": [kind], kind: ["1"]}}
    assert form_error(world.send(world.channel(), body), "allowed_mentions", "parse") == (
        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"
    )
    assert (
        world.send(world.channel(), {"content": "hi", "allowed_mentions": {"parse": [], kind: ["1"]}}).status
        == 200
    )


# -- command registration ------------------------------------------------------------------------------------------


def _option(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": f"the {name}", **extra}


@pytest.mark.parametrize(
    ("commands", "path", "code"),
    [
        ([{"name": "deck", "description": "", "type": 1}], (0, "description"), "BASE_TYPE_MIN_LENGTH"),
        (
            [
                {
                    "name": "deck",
                    "description": "Decks",
                    "type": 1,
                    "options": [_option("list", description="")],
                }
            ],
            (0, "options", 0, "description"),
            "BASE_TYPE_MIN_LENGTH",
        ),
        (
            [
                {
                    "name": "deck",
                    "description": "Decks",
                    "type": 1,
                    "options": [_option("format", choices=[{"name": "long", "value": "v" * 101}])],
                }
            ],
            (0, "options", 0, "choices", 0, "value"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [
                {
                    "name": "deck",
                    "description": "Decks",
                    "type": 1,
                    "options": [_option("note"), _option("list", required=True)],
                }
            ],
            (0, "options", 1, "required"),
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        ),
        (
            [
                {
                    "name": "deck",
                    "description": "Decks",
                    "type": 1,
                    "options": [_option("list"), _option("list")],
                }
            ],
            (0, "options", 1, "name"),
            "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
        ),
        (
            [
                {"name": "deck", "description": "Decks", "type": 1},
                {"name": "deck", "description": "Again", "type": 1},
            ],
            (1, "name"),
            "APPLICATION_COMMANDS_DUPLICATE_NAME",
        ),
        (
            [
                {
                    "name": "deck",
                    "description": "Decks",
                    "type": 1,
                    "options": [_option("card", autocomplete=True, choices=[{"name": "a", "value": "a"}])],
                }
            ],
            (0, "options", 0, "autocomplete"),
            "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
        ),
    ],
)
def test_a_command_sync_breaking_a_registration_rule_is_refused(commands, path, code):
    fake = FakeDiscord()
    answer = fake.handle("PUT", f"/applications/{fake.application_id}/commands", body=commands)
    assert form_error(answer, *path) == code


def test_a_command_sync_keeping_the_registration_rules_is_accepted():
    fake = FakeDiscord()
    fine = [
        {
            "name": "deck",
            "description": "Decks",
            "type": 1,
            "options": [
                _option("list", required=True),
                _option("note"),
                _option("card", autocomplete=True),
                _option("format", choices=[{"name": "long", "value": "v" * 100}]),
            ],
        },
        {"name": "deck", "type": 2},
    ]  # a user command may share a chat-input command's name and has no description
    assert fake.handle("PUT", f"/applications/{fake.application_id}/commands", body=fine).status == 200


# -- scheduled events --------------------------------------------------------------------------------------------


def _event_body(world: World, start_in: timedelta, length: timedelta | None) -> dict[str, Any]:
    start = world.clock.now() + start_in
    body: dict[str, Any] = {
        "name": "Hydra night",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": start.isoformat(),
        "entity_metadata": {"location": "#games"},
    }
    if length is not None:
        body["scheduled_end_time"] = (start + length).isoformat()
    return body


def test_an_external_event_needs_an_end_time_after_its_start(world):
    path = f"/guilds/{world.guild.id}/scheduled-events"
    no_end = world.fake.handle("POST", path, body=_event_body(world, timedelta(hours=1), None))
    assert form_error(no_end, "scheduled_end_time") == "BASE_TYPE_REQUIRED"
    backwards = world.fake.handle(
        "POST", path, body=_event_body(world, timedelta(hours=1), -timedelta(minutes=5))
    )
    assert form_error(backwards, "scheduled_end_time") == "GUILD_SCHEDULED_EVENT_END_BEFORE_START"


async def test_scheduled_events_allow_only_discords_status_transitions_and_end_by_themselves(world):
    path = f"/guilds/{world.guild.id}/scheduled-events"

    def create() -> str:
        answer = world.fake.handle(
            "POST", path, body=_event_body(world, timedelta(minutes=10), timedelta(hours=3))
        )
        assert answer.status == 200, answer.body
        return str(answer.body["id"])

    def status(event_id: str, value: int) -> Response:
        return world.fake.handle("PATCH", f"{path}/{event_id}", body={"status": value})

    first = create()
    assert form_error(status(first, 3), "status") == "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION"
    assert status(first, 2).status == 200  # SCHEDULED → ACTIVE
    assert form_error(status(first, 4), "status") == "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION"
    await world.clock.advance(hours=3, minutes=11)  # past its end: Discord completes it by itself
    refused(status(first, 3), 400, 180000)  # COMPLETED is final
    assert world.fake.handle("GET", f"{path}/{first}").body["status"] == 3
    second = create()
    assert status(second, 4).status == 200  # SCHEDULED → CANCELED
    refused(status(second, 2), 400, 180000)  # CANCELED is final


# -- the gateway's IDENTIFY -----------------------------------------------------------------------------------------


async def _identify(server: FakeDiscordServer, **identify: Any) -> int | None:
    """Open a gateway session, IDENTIFY, and return the close code (None when READY arrives)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(server.gateway_url) as ws:
        assert (await ws.receive_json())["op"] == 10  # HELLO
        await ws.send_json(
            {"op": 2, "d": {"token": "fake-token", "properties": {}, "intents": 1, **identify}}
        )
        message = await ws.receive()
        if message.type == aiohttp.WSMsgType.TEXT:
            assert message.json()["t"] == "READY"
            return None
        return ws.close_code


@pytest.mark.parametrize(
    ("identify", "close_code"),
    [
        ({"token": "not-the-token"}, 4004),
        ({"intents": -1}, 4013),
        ({"intents": 1 << 30}, 4013),
        ({"intents": "1"}, 4013),
        ({"intents": 1 | (1 << 1)}, 4014),  # GUILD_MEMBERS
        ({"intents": 1 | (1 << 15)}, 4014),  # MESSAGE_CONTENT
        ({"intents": 1 | (1 << 9)}, None),  # GUILD_MESSAGES is not privileged
    ],
)
async def test_identify_is_closed_for_a_bad_token_invalid_intents_or_unapproved_privileged_ones(
    identify, close_code
):
    fake = FakeDiscord()
    standard_world(fake)
    async with FakeDiscordServer.running(fake, token="fake-token") as server:
        assert await _identify(server, **identify) == close_code
        assert [code for code, _ in server.closed_identifies] == ([close_code] if close_code else [])


async def test_an_approved_privileged_intent_is_accepted_and_discord_py_raises_for_an_unapproved_one():
    fake = FakeDiscord()
    standard_world(fake)
    async with FakeDiscordServer.running(fake, token="fake-token") as server:
        server.approved_intents = 1 << 1
        assert await _identify(server, intents=1 | (1 << 1)) is None
        client = discord.Client(intents=discord.Intents.all())
        try:
            with pytest.raises(discord.PrivilegedIntentsRequired):
                await client.start("fake-token")
        finally:
            await client.close()


# -- the older rules, at every door they guard --------------------------------------------------------------------


def _rows(count: int) -> list[dict[str, Any]]:
    return [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": str(n), "custom_id": f"b{n}"}]}
        for n in range(count)
    ]


def _doors(world: World) -> dict[str, tuple[str, str]]:
    """Every way a message body reaches Discord: (method, path) by name."""
    general = world.channel()
    message = world.post(general)
    payload = interaction_in(world, general)
    callback = f"/interactions/{payload['id']}/{payload['token']}/callback"
    assert (
        world.fake.handle("POST", callback, body={"type": 4, "data": {"content": "original"}}).status == 204
    )
    webhook = f"/webhooks/{world.fake.application_id}/{payload['token']}"
    return {
        "send": ("POST", f"/channels/{general.id}/messages"),
        "edit": ("PATCH", f"/channels/{general.id}/messages/{message}"),
        "follow-up": ("POST", webhook),
        "original edit": ("PATCH", f"{webhook}/messages/@original"),
    }


@pytest.mark.parametrize("door", ["send", "edit", "follow-up", "original edit"])
@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
        ({"content": "x", "components": _rows(6)}, ("components",), "BASE_TYPE_MAX_LENGTH"),
        (
            {"content": "x", "embeds": [{"description": "d" * 4096}, {"description": "d" * 2000}]},
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
        ),
    ],
)
def test_message_limits_hold_on_every_door_including_edits(world, door, body, path, code):
    method, target = _doors(world)[door]
    assert form_error(world.fake.handle(method, target, body=body), *path) == code


def test_a_modal_of_six_rows_is_refused():
    fake = FakeDiscord()
    guild = standard_world(fake)
    payload = fake.new_interaction(
        kind=2,
        data={"id": "1", "name": "x", "type": 1},
        channel=guild.channel_named("general"),
        actor=guild.member_named("alice"),
    )
    rows = [
        {"type": 1, "components": [{"type": 4, "custom_id": f"t{n}", "label": "L", "style": 1}]}
        for n in range(6)
    ]
    answer = fake.handle(
        "POST",
        f"/interactions/{payload['id']}/{payload['token']}/callback",
        body={"type": 9, "data": {"custom_id": "m", "title": "Form", "components": rows}},
    )
    assert form_error(answer, "data", "components") == "BASE_TYPE_MAX_LENGTH"


@pytest.mark.parametrize(
    ("permission", "body", "uploads"),
    [
        ("embed_links", {"embeds": [{"title": "board"}]}, False),
        ("attach_files", {"content": "image"}, True),
        ("read_message_history", {"content": "re", "message_reference": {"message_id": "0"}}, False),
    ],
)
def test_each_permission_a_message_needs_is_checked_with_50013(world, permission, body, uploads):
    from bot.testing.fakediscord.backend import Upload

    general = world.channel()
    if "message_reference" in body:
        body["message_reference"]["message_id"] = str(world.post(general))
    general.overwrites[world.fake.bot_role(world.guild).id] = (0, PERMISSIONS[permission], 0)
    files = [Upload("files[0]", "board.png", b"png")] if uploads else []
    answer = world.fake.handle("POST", f"/channels/{general.id}/messages", body=body, uploads=files)
    refused(answer, 403, 50013)
    assert permission in answer.body["message"]


def test_sending_in_a_thread_needs_send_messages_in_threads_not_send_messages(world):
    general = world.channel()
    thread = world.thread(general)
    general.overwrites[world.fake.bot_role(world.guild).id] = (0, PERMISSIONS["send_messages_in_threads"], 0)
    refused(world.send(thread), 403, 50013)
    general.overwrites[world.fake.bot_role(world.guild).id] = (0, PERMISSIONS["send_messages"], 0)
    refused(world.send(general), 403, 50013)
    assert world.send(thread).status == 200


def test_editing_another_users_message_is_50005_and_a_thread_in_a_thread_is_50024(world):
    general = world.channel()
    theirs = world.fake.add_user("someone")
    from bot.testing.fakediscord.model import FakeMessage

    message = FakeMessage(world.fake.snowflake(), general.id, theirs, content="mine", guild_id=world.guild.id)
    world.fake.messages[message.id] = message
    refused(world.edit(general, message.id), 403, 50005)
    thread = world.thread(general)
    refused(
        world.fake.handle("POST", f"/channels/{thread.id}/threads", body={"name": "inner", "type": 11}),
        400,
        50024,
    )


def test_editing_a_scheduled_event_needs_manage_events_unless_the_bot_created_it(world):
    path = f"/guilds/{world.guild.id}/scheduled-events"
    created = world.fake.handle("POST", path, body=_event_body(world, timedelta(hours=1), timedelta(hours=2)))
    assert created.status == 200
    event_id = int(created.body["id"])
    world.guild.scheduled_events[event_id].data["creator_id"] = "1"  # someone else's event
    world.fake.bot_role(world.guild).permissions &= ~PERMISSIONS["manage_events"]
    refused(world.fake.handle("PATCH", f"{path}/{event_id}", body={"name": "renamed"}), 403, 50013)
    world.fake.bot_role(world.guild).permissions |= PERMISSIONS["manage_events"]
    assert world.fake.handle("PATCH", f"{path}/{event_id}", body={"name": "renamed"}).status == 200


async def test_an_ephemeral_first_follow_up_after_a_public_deferral_is_shown_to_all_and_fails_the_call(
    tmp_path,
):
    async def careless(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)  # public "thinking…"
        await interaction.followup.send("only for you", ephemeral=True)  # Discord ignores EPHEMERAL here

    async def careful(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("only for you", ephemeral=True)

    async def add_commands(bot: Any) -> None:
        bot.tree.command(name="careless", description="Defers publicly")(careless)
        bot.tree.command(name="careful", description="Defers privately")(careful)

    async with DiscordHarness.start(tmp_path, on_boot=add_commands) as h:
        with pytest.raises(HarnessError, match="Discord shows it to everyone"):
            await h.slash("careless")
        (shown,) = [m for m in h.fake.messages.values() if m.content == "only for you"]
        assert not shown.ephemeral and h.fake.ignored_ephemeral == [shown.id]
        reply = await h.slash("careful")
        assert reply.ephemeral and reply.content == "only for you"


def test_a_thread_takes_only_discords_four_auto_archive_durations(world):
    refused(
        world.fake.handle(
            "POST",
            f"/channels/{world.channel().id}/threads",
            body={"name": "t", "type": 11, "auto_archive_duration": 61},
        ),
        400,
        50035,
    )
    thread = world.thread(world.channel(), auto_archive_duration=4320)
    assert (
        form_error(
            world.fake.handle("PATCH", f"/channels/{thread.id}", body={"auto_archive_duration": 61}),
            "auto_archive_duration",
        )
        == "BASE_TYPE_CHOICES"
    )
    assert (
        world.fake.handle("PATCH", f"/channels/{thread.id}", body={"auto_archive_duration": 60}).status == 200
    )
    assert thread.auto_archive_duration == 60


def test_joining_a_private_thread_needs_to_see_it_and_an_archived_thread_refuses_members(world):
    general = world.channel()
    private = world.fake.add_channel(
        world.guild, "secret", kind=12, parent=general, owner_id=world.guild.member_named("alice").id
    )
    refused(world.fake.handle("PUT", f"/channels/{private.id}/thread-members/@me"), 403, 50001)
    public = world.thread(general, auto_archive_duration=60)
    alice = world.guild.member_named("alice").id
    assert world.fake.handle("PUT", f"/channels/{public.id}/thread-members/{alice}").status == 204
    public.archived = True
    refused(world.fake.handle("PUT", f"/channels/{public.id}/thread-members/{alice}"), 400, 50083)
