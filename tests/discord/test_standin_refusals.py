"""The stand-in's remaining rules, each refused with Discord's status and code at the fake's REST door.

``test_standin_rules.py`` and ``test_standin_limits.py`` cover the rules a bot meets most (message limits,
visibility, threads, tokens, budgets, command registration). The rules here are the rest of what
``bot/testing/fakediscord`` enforces: the permissions behind roles, channel edits, thread creation, history
and scheduled-event deletion; interaction callbacks that do not fit their interaction; member search's
bounds; link buttons; command syncs over Discord's count or alphabet; the gateway's shard checks; and the
404 codes of unknown resources. Each test breaks one rule, checks Discord's answer, and shows the request
that keeps the rule accepted, so loosening any of them fails here.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import aiohttp
import pytest

from bot.clock import FakeClock
from bot.testing.fakediscord.backend import FakeDiscord, Response
from bot.testing.fakediscord.contract import command_length
from bot.testing.fakediscord.model import PERMISSIONS, FakeChannel, FakeGuild, FakeMember
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import standard_world
from tests.discord.refusals import form_error, refused


class World:
    """A stand-in on a fake clock with the standard guild (no rate limits: each test breaks one rule)."""

    def __init__(self, **fake_options: Any) -> None:
        self.clock = FakeClock()
        self.fake = FakeDiscord(
            clock=self.clock, rate_limit=None, global_rate_limit=None, webhook_rate_limit=None, **fake_options
        )
        self.guild: FakeGuild = standard_world(self.fake)

    def channel(self, name: str = "general") -> FakeChannel:
        return self.guild.channel_named(name)

    def member(self, name: str) -> FakeMember:
        return self.guild.member_named(name)

    def grant(self, *names: str) -> None:
        for name in names:
            self.fake.bot_role(self.guild).permissions |= PERMISSIONS[name]

    def revoke(self, *names: str) -> None:
        for name in names:
            self.fake.bot_role(self.guild).permissions &= ~PERMISSIONS[name]

    def interaction(self, kind: int = 2, message_id: int | None = None) -> dict[str, Any]:
        data = (
            {"id": "1", "name": "x", "type": 1} if kind in (2, 4) else {"custom_id": "c", "component_type": 2}
        )
        message = self.fake.messages[message_id] if message_id is not None else None
        return self.fake.new_interaction(
            kind=kind, data=data, channel=self.channel(), actor=self.member("alice"), message=message
        )

    def callback(self, payload: dict[str, Any], body: dict[str, Any]) -> Response:
        return self.fake.handle(
            "POST", f"/interactions/{payload['id']}/{payload['token']}/callback", body=body
        )

    def post(self, channel: FakeChannel | None = None, text: str = "board") -> int:
        answer = self.fake.handle(
            "POST", f"/channels/{(channel or self.channel()).id}/messages", body={"content": text}
        )
        assert answer.status == 200, answer.body
        return int(answer.body["id"])


@pytest.fixture
def world() -> World:
    return World()


# -- roles ---------------------------------------------------------------------------------------------------


def test_creating_a_role_needs_manage_roles(world):
    path = f"/guilds/{world.guild.id}/roles"
    assert world.fake.handle("POST", path, body={"name": "Champion"}).status == 200
    world.revoke("manage_roles")
    refused(world.fake.handle("POST", path, body={"name": "Champion again"}), 403, 50013)
    assert [r.name for r in world.guild.roles.values()].count("Champion again") == 0


def test_giving_a_role_needs_manage_roles_and_a_role_strictly_below_the_bots_highest(world):
    alice = world.member("alice")
    below = world.fake.add_role(world.guild, "Below")  # at the bottom: under the bot's role
    level = world.fake.add_role(world.guild, "Level")
    level.position = world.guild.top_position(world.fake.bot_member(world.guild))  # a tie is not "below"
    path = f"/guilds/{world.guild.id}/members/{alice.user.id}/roles"
    assert world.fake.handle("PUT", f"{path}/{below.id}").status == 204
    refused(world.fake.handle("PUT", f"{path}/{level.id}"), 403, 50013)  # the bot's own level is not below it
    refused(world.fake.handle("PUT", f"{path}/{world.guild.id}"), 403, 50013)  # @everyone
    managed = world.fake.add_role(world.guild, "Other bot", position=1)
    managed.managed = True
    refused(world.fake.handle("PUT", f"{path}/{managed.id}"), 403, 50013)
    assert alice.role_ids == [below.id]
    world.revoke("manage_roles")
    other = world.fake.add_role(world.guild, "Other", position=1)
    refused(world.fake.handle("PUT", f"{path}/{other.id}"), 403, 50013)
    assert other.id not in alice.role_ids


def test_taking_a_role_away_follows_the_same_rules(world):
    alice = world.member("alice")
    top = world.guild.top_position(world.fake.bot_member(world.guild))
    above = world.fake.add_role(world.guild, "Above", position=top + 1)
    alice.role_ids.append(above.id)
    path = f"/guilds/{world.guild.id}/members/{alice.user.id}/roles"
    refused(world.fake.handle("DELETE", f"{path}/{above.id}"), 403, 50013)
    assert above.id in alice.role_ids
    below = world.fake.add_role(world.guild, "Below", position=1)
    alice.role_ids.append(below.id)
    assert world.fake.handle("DELETE", f"{path}/{below.id}").status == 204
    assert below.id not in alice.role_ids


# -- channels, threads and history -------------------------------------------------------------------------------


def test_editing_a_channel_needs_manage_channels_and_a_thread_of_someone_else_manage_threads(world):
    general = world.channel()
    refused(world.fake.handle("PATCH", f"/channels/{general.id}", body={"name": "renamed"}), 403, 50013)
    assert general.name == "general"
    theirs = world.fake.add_channel(
        world.guild, "their table", kind=11, parent=general, owner_id=world.member("alice").user.id
    )
    refused(world.fake.handle("PATCH", f"/channels/{theirs.id}", body={"locked": True}), 403, 50013)
    assert not theirs.locked
    own = world.fake.handle("POST", f"/channels/{general.id}/threads", body={"name": "table 1", "type": 11})
    own_id = int(own.body["id"])
    assert world.fake.handle("PATCH", f"/channels/{own_id}", body={"locked": True}).status == 200  # its own
    world.grant("manage_threads", "manage_channels")
    assert world.fake.handle("PATCH", f"/channels/{theirs.id}", body={"locked": True}).status == 200
    assert world.fake.handle("PATCH", f"/channels/{general.id}", body={"name": "renamed"}).status == 200
    assert theirs.locked and general.name == "renamed"


@pytest.mark.parametrize(
    ("kind", "permission"), [(11, "create_public_threads"), (12, "create_private_threads")]
)
def test_starting_a_thread_needs_the_permission_of_its_kind(world, kind, permission):
    general, bot_role = world.channel(), world.fake.bot_role(world.guild).id
    world.grant("create_private_threads")
    general.overwrites[bot_role] = (0, PERMISSIONS[permission], 0)
    path = f"/channels/{general.id}/threads"
    refused(world.fake.handle("POST", path, body={"name": "table", "type": kind}), 403, 50013)
    del general.overwrites[bot_role]
    assert world.fake.handle("POST", path, body={"name": "table", "type": kind}).status == 200


def test_a_thread_from_a_message_needs_create_public_threads(world):
    general = world.channel()
    message = world.post(general)
    general.overwrites[world.fake.bot_role(world.guild).id] = (0, PERMISSIONS["create_public_threads"], 0)
    path = f"/channels/{general.id}/messages/{message}/threads"
    refused(world.fake.handle("POST", path, body={"name": "table"}), 403, 50013)
    del general.overwrites[world.fake.bot_role(world.guild).id]
    assert world.fake.handle("POST", path, body={"name": "table"}).status == 200


def test_threads_and_thread_members_only_exist_where_discord_has_threads(world):
    dm = world.fake.dm_channel(world.member("alice").user)
    refused(
        world.fake.handle("POST", f"/channels/{dm.id}/threads", body={"name": "t", "type": 11}), 400, 50024
    )
    general = world.channel()
    refused(world.fake.handle("PUT", f"/channels/{general.id}/thread-members/@me"), 400, 50024)
    thread = world.fake.handle("POST", f"/channels/{general.id}/threads", body={"name": "t", "type": 11})
    assert world.fake.handle("PUT", f"/channels/{thread.body['id']}/thread-members/@me").status == 204


def test_reading_a_channels_history_or_one_message_needs_read_message_history(world):
    general = world.channel()
    message = world.post(general)
    assert world.fake.handle("GET", f"/channels/{general.id}/messages").status == 200
    general.overwrites[world.guild.id] = (0, PERMISSIONS["read_message_history"], 0)
    refused(world.fake.handle("GET", f"/channels/{general.id}/messages"), 403, 50013)
    refused(world.fake.handle("GET", f"/channels/{general.id}/messages/{message}"), 403, 50013)


# -- scheduled events --------------------------------------------------------------------------------------------


def test_deleting_someone_elses_scheduled_event_needs_manage_events(world):
    start = world.clock.now() + timedelta(hours=1)
    body = {
        "name": "Hydra night",
        "privacy_level": 2,
        "entity_type": 3,
        "entity_metadata": {"location": "#games"},
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + timedelta(hours=2)).isoformat(),
    }
    path = f"/guilds/{world.guild.id}/scheduled-events"
    own, theirs = (int(world.fake.handle("POST", path, body=body).body["id"]) for _ in range(2))
    world.guild.scheduled_events[theirs].data["creator_id"] = str(world.member("alice").user.id)
    refused(world.fake.handle("DELETE", f"{path}/{theirs}"), 403, 50013)
    assert theirs in world.guild.scheduled_events
    # Its own event needs no Manage Events.
    assert world.fake.handle("DELETE", f"{path}/{own}").status == 204
    world.grant("manage_events")
    assert world.fake.handle("DELETE", f"{path}/{theirs}").status == 204
    assert world.guild.scheduled_events == {}


# -- interaction callbacks that do not fit their interaction -----------------------------------------------------


@pytest.mark.parametrize("kind", [6, 7])
def test_updating_the_message_of_a_slash_command_is_refused_it_has_none(world, kind):
    refused(world.callback(world.interaction(kind=2), {"type": kind, "data": {"content": "x"}}), 400, 50035)
    press = world.interaction(kind=3, message_id=world.post())
    assert world.callback(press, {"type": kind, "data": {"content": "x"}}).status == 204


def test_autocomplete_choices_answer_only_an_autocomplete(world):
    choices = {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}]}}
    refused(world.callback(world.interaction(kind=2), choices), 400, 50035)
    assert world.callback(world.interaction(kind=4), choices).status == 204


@pytest.mark.parametrize("kind", [4, 5])  # autocomplete, modal submit
def test_a_modal_cannot_answer_an_autocomplete_or_a_modal_submit(world, kind):
    modal = {
        "type": 9,
        "data": {
            "custom_id": "m",
            "title": "Form",
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": "t", "label": "L", "style": 1}]}
            ],
        },
    }
    refused(world.callback(world.interaction(kind=kind), modal), 400, 50035)
    assert world.callback(world.interaction(kind=2), modal).status == 204


def test_an_unknown_callback_type_is_refused(world):
    answer = world.callback(world.interaction(), {"type": 3})  # type 3 was removed from Discord's API
    refused(answer, 400, 50035)
    assert world.callback(world.interaction(), {"type": 5}).status == 204


def test_a_follow_up_before_the_interaction_is_answered_finds_no_webhook(world):
    payload = world.interaction()
    path = f"/webhooks/{world.fake.application_id}/{payload['token']}"
    refused(world.fake.handle("POST", path, body={"content": "too early"}), 404, 10015)
    assert world.callback(payload, {"type": 5}).status == 204
    assert world.fake.handle("POST", path, body={"content": "now"}).status == 200


def test_a_webhook_message_of_another_interaction_is_unknown(world):
    first, second = world.interaction(), world.interaction()
    for payload in (first, second):
        assert world.callback(payload, {"type": 4, "data": {"content": "hi"}}).status == 204
    app = world.fake.application_id
    theirs = world.fake.interactions[int(second["id"])].original_id
    refused(
        world.fake.handle(
            "PATCH", f"/webhooks/{app}/{first['token']}/messages/{theirs}", body={"content": "x"}
        ),
        404,
        10008,
    )
    assert (
        world.fake.handle(
            "PATCH", f"/webhooks/{app}/{second['token']}/messages/{theirs}", body={"content": "x"}
        ).status
        == 200
    )


def test_an_interaction_answered_after_its_real_time_deadline_is_unknown(world):
    """Discord gives a bot 3 seconds of real time for the first answer. The late interaction is dated
    back instead of waited for, so a busy machine cannot make the prompt one late too."""
    late, prompt = world.interaction(), world.interaction()
    world.fake.interactions[int(late["id"])].created -= world.fake.interaction_deadline + 0.5
    assert world.callback(prompt, {"type": 5}).status == 204
    refused(world.callback(late, {"type": 5}), 404, 10062)
    assert world.fake.interactions[int(late["id"])].late


# -- member search, link buttons, command syncs -------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"query": ""},
        {"query": "x" * 101},
        {"query": "al", "limit": "0"},
        {"query": "al", "limit": "1001"},
        {"query": "al", "limit": "many"},
    ],
)
def test_member_search_needs_a_query_of_1_to_100_and_a_limit_of_1_to_1000(world, query):
    path = f"/guilds/{world.guild.id}/members/search"
    assert form_error(world.fake.handle("GET", path, query=query), "query") == "BASE_TYPE_BAD_LENGTH"
    found = world.fake.handle("GET", path, query={"query": "AL", "limit": "1000"})
    assert [m["user"]["username"] for m in found.body] == ["alice"]


def test_a_link_button_needs_a_url(world):
    link = {"type": 2, "style": 5, "label": "Rules"}
    body = {"content": "b", "components": [{"type": 1, "components": [link]}]}
    answer = world.fake.handle("POST", f"/channels/{world.channel().id}/messages", body=body)
    assert form_error(answer, "components", 0, "components", 0, "url") == "BASE_TYPE_REQUIRED"
    link["url"] = "https://example.org"
    assert world.fake.handle("POST", f"/channels/{world.channel().id}/messages", body=body).status == 200


def _chat(name: str, **more: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "d", **more}


@pytest.mark.parametrize("guild_sync", [False, True])
def test_a_sync_of_more_than_100_chat_commands_is_refused_on_either_route(world, guild_sync):
    app = world.fake.application_id
    path = (
        f"/applications/{app}/guilds/{world.guild.id}/commands"
        if guild_sync
        else f"/applications/{app}/commands"
    )
    answer = world.fake.handle("PUT", path, body=[_chat(f"c{n}") for n in range(101)])
    refused(answer, 400, 50035)
    assert answer.body["errors"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    fine = [_chat(f"c{n}") for n in range(100)] + [{"type": 2, "name": "look"}]  # user commands count apart
    assert world.fake.handle("PUT", path, body=fine).status == 200


@pytest.mark.parametrize(
    ("command", "path"),
    [
        (_chat("pi ng"), (0, "name")),
        (_chat("pi~ng"), (0, "name")),  # punctuation above the letters' code points is outside it too
        (_chat("ping", name_localizations={"ja": "Ping"}), (0, "name_localizations", "ja")),
        (_chat("ping", options=[{"type": 3, "name": "Card", "description": "d"}]), (0, "options", 0, "name")),
    ],
)
def test_a_command_or_option_name_outside_discords_alphabet_is_refused(world, command, path):
    route = f"/applications/{world.fake.application_id}/commands"
    assert (
        form_error(world.fake.handle("PUT", route, body=[command]), *path)
        == "APPLICATION_COMMAND_INVALID_NAME"
    )
    fine = _chat(
        "ping", name_localizations={"ja": "ピン"}, options=[{"type": 3, "name": "card", "description": "d"}]
    )
    assert world.fake.handle("PUT", route, body=[fine]).status == 200


# -- unknown resources -----------------------------------------------------------------------------------------


def test_each_unknown_resource_is_404_with_discords_code(world):
    gid, general, alice = world.guild.id, world.channel().id, world.member("alice").user.id
    nowhere = 1
    for method, path, code in [
        ("GET", f"/channels/{nowhere}", 10003),
        ("GET", f"/guilds/{nowhere}", 10004),
        ("GET", f"/users/{nowhere}", 10013),
        ("GET", f"/channels/{general}/messages/{nowhere}", 10008),
        ("GET", f"/guilds/{gid}/members/{nowhere}", 10007),
        ("PUT", f"/guilds/{gid}/members/{alice}/roles/{nowhere}", 10011),
        ("GET", f"/guilds/{gid}/scheduled-events/{nowhere}", 10070),
        ("POST", f"/webhooks/{world.fake.application_id}/no-such-token", 10015),
        ("POST", f"/interactions/{nowhere}/no-such-token/callback", 10062),
    ]:
        body = (
            {"content": "x"}
            if method == "POST" and "webhooks" in path
            else ({"type": 5} if method == "POST" else None)
        )
        refused(world.fake.handle(method, path, body=body), 404, code)
    other_channel = world.channel("games")
    message = world.post(other_channel)
    # A message of another channel is unknown in this one.
    refused(world.fake.handle("GET", f"/channels/{general}/messages/{message}"), 404, 10008)
    assert world.fake.handle("GET", f"/channels/{other_channel.id}/messages/{message}").status == 200


# -- the gateway's shard checks ------------------------------------------------------------------------------------


async def _identify_shard(server: FakeDiscordServer, shard: Any) -> int | None:
    """IDENTIFY with ``shard`` and return the close code (None when READY arrives)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(server.gateway_url) as ws:
        assert (await ws.receive_json())["op"] == 10  # HELLO
        await ws.send_json(
            {"op": 2, "d": {"token": "fake-token", "properties": {}, "intents": 1, "shard": shard}}
        )
        message = await ws.receive()
        if message.type == aiohttp.WSMsgType.TEXT:
            assert message.json()["t"] == "READY"
            return None
        return ws.close_code


@pytest.mark.parametrize(
    ("shard", "close_code"),
    [
        ([0, 0], 4010),
        ([1, 1], 4010),
        ([-1, 2], 4010),
        ([0], 4010),
        ([0, "2"], 4010),
        ("0,1", 4010),
        ([0, 1], 4011),  # three guilds, two per session: one shard is not enough
        ([1, 2], None),
        (None, 4011),
    ],
)
async def test_identify_with_an_invalid_shard_or_too_many_guilds_per_session_is_closed(shard, close_code):
    fake = FakeDiscord()
    for n in range(3):
        fake.add_guild(f"Server {n}")
    fake.max_guilds_per_session = 2
    async with FakeDiscordServer.running(fake, token="fake-token") as server:
        assert await _identify_shard(server, shard) == close_code
        assert [code for code, _ in server.closed_identifies] == ([close_code] if close_code else [])


def test_a_command_without_a_type_is_a_chat_command_and_needs_a_description(world):
    route = f"/applications/{world.fake.application_id}/commands"
    answer = world.fake.handle("PUT", route, body=[{"name": "deck"}])
    assert form_error(answer, 0, "description") == "BASE_TYPE_MIN_LENGTH"
    assert world.fake.handle("PUT", route, body=[{"name": "deck", "type": 2}]).status == 200  # a user command


def test_a_text_a_command_does_not_have_counts_nothing_toward_its_size():
    assert command_length({"type": 2, "name": "look"}) == 4  # a user command: its name, no description
    assert command_length({"type": 2, "name": "look", "name_localizations": {"ja": "見る"}}) == 4


def test_a_command_without_a_type_counts_as_chat_input_toward_duplicates_and_the_100(world):
    route = f"/applications/{world.fake.application_id}/commands"
    twice = [{"name": "deck", "description": "d"}, {"name": "deck", "description": "d", "type": 1}]
    assert (
        form_error(world.fake.handle("PUT", route, body=twice), 1, "name")
        == "APPLICATION_COMMANDS_DUPLICATE_NAME"
    )
    untyped = [{"name": f"c{n}", "description": "d"} for n in range(101)]
    answer = world.fake.handle("PUT", route, body=untyped)
    refused(answer, 400, 50035)
    assert answer.body["errors"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert world.fake.handle("PUT", route, body=untyped[:100]).status == 200


def test_duplicates_are_found_past_an_entry_that_is_not_a_command_and_among_subcommands(world):
    route = f"/applications/{world.fake.application_id}/commands"
    answer = world.fake.handle(
        "PUT", route, body=["not a command", _chat("same"), _chat("same"), _chat("Up")]
    )
    assert form_error(answer, 2, "name") == "APPLICATION_COMMANDS_DUPLICATE_NAME"
    assert form_error(answer, 3, "name") == "APPLICATION_COMMAND_INVALID_NAME"
    sub = {"type": 1, "name": "show", "description": "d"}
    answer = world.fake.handle("PUT", route, body=[_chat("deck", options=[sub, dict(sub)])])
    assert form_error(answer, 0, "options", 1, "name") == "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"
    other = {**sub, "name": "list"}
    assert world.fake.handle("PUT", route, body=[_chat("deck", options=[sub, other])]).status == 200


def test_a_command_of_exactly_8000_characters_fits_and_one_more_is_too_large(world):
    route = f"/applications/{world.fake.application_id}/commands"
    options = [{"type": 3, "name": f"o{n:02}", "description": "d" * 97} for n in range(25)]
    options[0]["choices"] = [{"name": "c" * 100, "value": "v" * 100} for _ in range(25)]
    options[1]["choices"] = [{"name": "c" * 100, "value": "v" * 100}, {"name": "c" * 96, "value": "v" * 100}]
    command = {"type": 1, "name": "deck", "description": "d" * 100, "options": options}
    assert command_length(command) == 8000
    assert world.fake.handle("PUT", route, body=[command]).status == 200
    options[1]["choices"][1]["name"] += "c"
    answer = world.fake.handle("PUT", route, body=[command])
    assert form_error(answer, 0) == "APPLICATION_COMMAND_TOO_LARGE"


# -- polls: the schema's references with notes beside them -------------------------------------------------


def _poll(question: str, *answers: str) -> dict[str, Any]:
    return {
        "poll": {"question": {"text": question}, "answers": [{"poll_media": {"text": a}} for a in answers]}
    }


def test_a_poll_is_judged_by_discords_schema_and_refused_where_it_breaks_it(world):
    """A poll's question is a reference with a description beside it: the stand-in used to raise on it
    (the reference pointed into the route's own schema) instead of answering as Discord does."""
    path = f"/channels/{world.channel().id}/messages"
    assert world.fake.handle("POST", path, body=_poll("Which deck tonight?", "Hydra", "Horde")).status == 200
    answer = world.fake.handle("POST", path, body=_poll("q" * 301, "Hydra"))
    assert form_error(answer, "poll", "question", "text") == "BASE_TYPE_MAX_LENGTH"
    assert form_error(world.fake.handle("POST", path, body=_poll("Which?")), "poll", "answers") == (
        "BASE_TYPE_MIN_LENGTH"
    )
    assert world.fake.refusals[-1].status == 400


# -- a field that may be one of several kinds: the error names the kind the body meant ------------------------


@pytest.mark.parametrize(
    ("nonce", "code"),
    [("n" * 26, "BASE_TYPE_MAX_LENGTH"), (2**64, "NUMBER_TYPE_MAX"), (1.5, "BASE_TYPE_INVALID")],
)
def test_a_nonce_is_refused_for_what_is_wrong_with_the_kind_it_is(world, nonce, code):
    """A nonce is an integer or a string of at most 25: a 26-character string is too long (not "not an
    integer"), a huge integer too big, and a float neither, which Discord can only call invalid."""
    path = f"/channels/{world.channel().id}/messages"
    answer = world.fake.handle("POST", path, body={"content": "x", "nonce": nonce})
    assert form_error(answer, "nonce") == code
    assert len(answer.body["errors"]["nonce"]["_errors"]) == 1
    for fine in ("n" * 25, 2**63 - 1):
        assert world.fake.handle("POST", path, body={"content": "x", "nonce": fine}).status == 200


@pytest.mark.parametrize("value", ["v", 7, 7.5])
def test_an_autocomplete_choice_is_refused_only_for_its_own_fault(world, value):
    """A choice's value may be a string, an integer or a number; a choice with a too-long name is refused
    for the name alone, whatever kind its value is."""
    payload = world.interaction(kind=4)
    answer = world.callback(payload, {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": value}]}})
    assert form_error(answer, "data", "choices", 0, "name") == "BASE_TYPE_MAX_LENGTH"
    assert set(answer.body["errors"]["data"]["choices"]["0"]) == {"name"}
