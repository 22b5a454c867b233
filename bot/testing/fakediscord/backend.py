"""The fake Discord's behaviour, independent of how requests arrive.

``FakeDiscord`` holds the world (users, guilds, channels, messages), answers REST requests
(``handle(method, path, ...)``) the way Discord does for the routes a bot uses, records every
request, and tells subscribers about gateway events it would send (THREAD_CREATE, ...).

Two front ends share it: ``edge.py`` routes discord.py's HTTP client and webhook adapter straight
into ``handle`` (in-process tests), and ``server.py`` serves it over real HTTP + websocket on
127.0.0.1 (end-to-end tests and the sandbox). Unknown routes answer a loud 404 so that a route the
fake lacks shows up as ``discord.NotFound`` instead of passing silently.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.clock import SYSTEM_CLOCK, Clock
from bot.invite import permissions_integer
from bot.shards import shard_of
from bot.testing.fakediscord import contract
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.model import (
    EPHEMERAL_FLAG,
    EVERYONE_PERMISSIONS,
    LOADING_FLAG,
    PERMISSIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeScheduledEvent,
    FakeUser,
    SnowflakeFactory,
    permission_value,
)
from bot.testing.fakediscord.policy import (
    ChannelRateLimiter,
    GlobalRateLimiter,
    OldMessageEditLimiter,
    RateLimiter,
    WebhookRateLimiter,
    pings_of,
    upload_limit,
)

log = logging.getLogger(__name__)

# Interaction callback types (Discord's InteractionResponseType).
(
    PONG,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    AUTOCOMPLETE_RESULT,
    MODAL,
) = (1, 4, 5, 6, 7, 8, 9)


@dataclass
class Upload:
    """One uploaded file of a multipart request (``files[N]`` field)."""

    field_name: str
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Request:
    """A request the bot made, as recorded by the fake (``FakeDiscord.requests``)."""

    method: str
    path: str
    json: Any
    files: list[tuple[str, bytes]]
    query: dict[str, str]
    status: int = 0
    response: Any = None

    @property
    def is_callback(self) -> bool:
        return self.path.startswith("/interactions/")


@dataclass
class Response:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def json_bytes(self) -> bytes:
        return b"" if self.body is None else json.dumps(self.body).encode()


@dataclass
class InteractionRecord:
    """What Discord knows about one interaction it delivered to the bot."""

    id: int
    token: str
    kind: int
    actor: FakeUser
    channel_id: int
    guild_id: int | None
    created: float  # real time (monotonic): the 3-second deadline of the first response
    payload: dict[str, Any]
    issued_at: float = 0.0  # the stand-in's clock: the token works for follow-ups for 15 minutes
    message_id: int | None = None  # the message a component or modal-from-component belongs to
    response_type: int | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    late: bool = False

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            body["errors"] = errors
        self.response = Response(status, body)


def missing_permissions(what: str) -> DiscordError:
    return DiscordError(403, 50013, f"Missing Permissions ({what})")


def missing_access(what: str) -> DiscordError:
    """A channel the bot cannot see (no View Channel, a private thread it is not in): Discord says 50001."""
    return DiscordError(403, 50001, f"Missing Access ({what})")


def rate_limited(
    code: int, message: str, wait: float, headers: dict[str, str], *, is_global: bool = False
) -> DiscordError:
    """A 429 as Discord sends it: ``retry_after`` in the body, ``Retry-After`` and ``Via`` in the headers."""
    error = DiscordError(429, code, message)
    error.response.body.update(retry_after=wait, **{"global": is_global})
    error.response.headers = {**headers, "Retry-After": str(max(1, math.ceil(wait))), "Via": "1.1 google"}
    return error


REFUSED_STATUSES = (400, 401, 403, 413)  # what a correct bot never provokes (404s can be races)
# 429s are retried, except the cap on edits of messages over an hour old: its retry_after is up to an hour,
# so a bot that meets it has a board that stopped following the game.
REFUSED_RATE_LIMIT_CODES = (30046,)
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token works for follow-ups and edits of its messages
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes
EVENT_SCHEDULED, EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED = 1, 2, 3, 4
EVENT_TRANSITIONS = {EVENT_SCHEDULED: {EVENT_ACTIVE, EVENT_CANCELED}, EVENT_ACTIVE: {EVENT_COMPLETED}}
REQUEST_SIZE_LIMIT = 25 * 1024 * 1024  # a whole request body, whatever the per-file limit


def is_refusal(status: int, body: Any) -> bool:
    """Whether Discord's answer means the bot broke a rule (and a test should fail unless it expects it)."""
    code = body.get("code") if isinstance(body, dict) else None
    return status in REFUSED_STATUSES or (status == 429 and code in REFUSED_RATE_LIMIT_CODES)


Route = tuple[str, re.Pattern[str], Callable[..., Any]]


class FakeDiscord:
    """A small, faithful-enough Discord for one bot application."""

    # Every stand-in made since the list was last emptied, so a test session can inspect every message
    # any of them received (``tests/conftest.py`` empties it after each test).
    instances: ClassVar[list[FakeDiscord]] = []

    def __init__(
        self,
        *,
        interaction_deadline: float | None = 3.0,
        base_url: str = "http://fake-discord",
        bot_permissions: int | None = None,
        rate_limit: tuple[int, float] | None = (5, 5.0),
        global_rate_limit: tuple[int, float] | None = (50, 1.0),
        webhook_rate_limit: tuple[int, float] | None = (5, 2.0),
        clock: Clock | None = None,
    ) -> None:
        """``rate_limit`` (per channel), ``global_rate_limit`` (per bot) and ``webhook_rate_limit`` (per
        interaction token) are (requests, seconds) of real time, which discord.py waits out; ``clock``
        is the time of Discord's slow rules (edits of hour-old messages, token lifetime, thread
        archiving, scheduled events ending): the bot's fake clock in tests, the system clock otherwise."""
        self.clock: Clock = clock or SYSTEM_CLOCK
        self.snowflake = SnowflakeFactory()
        self.application_id = self.snowflake()
        self.bot_user = FakeUser(self.application_id, "Podkeeper", bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.requests: list[Request] = []
        self.message_log: list[tuple[str, int]] = []  # ("create"|"edit"|"delete", message id), in order
        self.synced_commands: dict[int | None, list[dict[str, Any]]] = {}
        self.cdn: dict[str, bytes] = {}
        self.interaction_deadline = interaction_deadline
        self.base_url = base_url
        # The bot's own role in every guild it joins: what the invite link asks for (README), unless told.
        self.bot_permissions = permissions_integer() if bot_permissions is None else bot_permissions
        self.rate_limiter = ChannelRateLimiter(*rate_limit) if rate_limit else None
        self.global_rate_limiter: RateLimiter | None = (
            GlobalRateLimiter(*global_rate_limit) if global_rate_limit else None
        )
        self.webhook_rate_limiter: RateLimiter | None = (
            WebhookRateLimiter(*webhook_rate_limit) if webhook_rate_limit else None
        )
        self.old_message_edits = OldMessageEditLimiter(self.now)
        # Sharding, as Discord does it: /gateway/bot recommends a shard per ``guilds_per_shard`` guilds and a
        # session that would hold more than ``max_guilds_per_session`` is closed with 4011 (tests lower both).
        self.guilds_per_shard = 1000
        self.max_guilds_per_session = 2500
        self.refusals: list[
            Request
        ] = []  # requests Discord refused (see ``is_refusal``): the bot broke a rule
        # Messages the bot asked to be private that Discord showed to everyone (the first follow-up after a
        # public "thinking…" deferral keeps the deferral's visibility): the harness fails the test.
        self.ignored_ephemeral: list[int] = []
        self._listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self._routes: list[Route] = self._build_routes()
        FakeDiscord.instances.append(self)

    def now(self) -> float:
        """Seconds on the stand-in's clock (the bot's fake clock in tests)."""
        return self.clock.now().timestamp()

    # -- building the world ---------------------------------------------------------------------

    def add_user(self, name: str, *, bot: bool = False) -> FakeUser:
        new = FakeUser(self.snowflake(), name, bot=bot)
        self.users[new.id] = new
        return new

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        owner: FakeUser | None = None,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild the bot is in; ``shard=(id, count)`` picks an id whose events go to that shard."""
        owner = owner or self.add_user(f"{name.lower().replace(' ', '')}-owner")
        gid = self.snowflake() if shard is None else self._snowflake_on_shard(*shard)
        new = FakeGuild(gid, name, owner.id, preferred_locale=locale)
        new.roles[gid] = FakeRole(gid, "@everyone", EVERYONE_PERMISSIONS, position=0)
        self.guilds[gid] = new
        self.add_member(new, owner)
        bot_role = self.add_role(new, self.bot_user.name, self.bot_permissions)
        bot_role.managed = True
        self.add_member(new, self.bot_user, roles=[bot_role])
        return new

    def _snowflake_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh id whose timestamp part (``id >> 22``) puts it on ``shard_id`` of ``shard_count``: a few
        milliseconds ahead at most, and ids made later are larger still (ids keep increasing)."""
        candidate = self.snowflake()
        millis = (candidate >> 22) + (shard_id - shard_of(candidate, shard_count)) % shard_count
        candidate = (millis << 22) | (candidate & 0x3FFFFF)
        self.snowflake.skip_to(candidate)
        return candidate

    def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        kind: int = 0,
        parent: FakeChannel | None = None,
        owner_id: int | None = None,
        channel_id: int | None = None,
    ) -> FakeChannel:
        new = FakeChannel(
            channel_id or self.snowflake(),
            name,
            guild.id,
            kind,
            parent.id if parent else None,
            owner_id,
            last_activity=self.now(),
        )
        guild.channels[new.id] = new
        self.channels[new.id] = new
        return new

    def add_role(
        self,
        guild: FakeGuild,
        name: str,
        permissions: int | str | list[str] | None = None,
        *,
        position: int | None = None,
    ) -> FakeRole:
        """A new role; as on Discord it lands at the bottom (position 1), under every existing role,
        unless ``position`` puts it elsewhere (e.g. above the bot's role)."""
        position = 1 if position is None else position
        for other in guild.roles.values():
            if other.position >= position and other.id != guild.id:
                other.position += 1
        new = FakeRole(self.snowflake(), name, permission_value(permissions), position=position)
        guild.roles[new.id] = new
        return new

    def bot_member(self, guild: FakeGuild) -> FakeMember:
        return guild.members[self.bot_user.id]

    def bot_role(self, guild: FakeGuild) -> FakeRole:
        """The bot's own (managed) role."""
        return next(r for r in guild.roles.values() if r.managed and r.id in self.bot_member(guild).role_ids)

    def bot_channel_permissions(self, channel: FakeChannel) -> int:
        """What the bot may do in a channel (DMs: everything a DM allows)."""
        if channel.guild_id is None:
            return EVERYONE_PERMISSIONS
        guild = self.guilds[channel.guild_id]
        return guild.channel_permissions(self.bot_member(guild), channel)

    def _require(self, channel: FakeChannel, *names: str) -> None:
        """403/50001 Missing Access when the bot cannot see the channel (no View Channel, or a private
        thread it is not a member of), else 403/50013 unless it has every one of these permissions."""
        if channel.guild_id is None:
            return
        have = self.bot_channel_permissions(channel)
        if not have & PERMISSIONS["view_channel"]:
            raise missing_access(f"no view_channel in #{channel.name}")
        if (
            channel.is_private_thread
            and self.bot_user.id not in channel.member_ids
            and not have & PERMISSIONS["manage_threads"]
        ):
            raise missing_access(f"not a member of the private thread {channel.name!r}")
        lacking = [n for n in names if not have & PERMISSIONS[n]]
        if lacking:
            raise missing_permissions(", ".join(lacking))

    def _require_guild(self, guild: FakeGuild, name: str) -> None:
        if not guild.permissions_of(self.bot_member(guild)) & PERMISSIONS[name]:
            raise missing_permissions(name)

    def add_member(
        self,
        guild: FakeGuild,
        who: FakeUser | str,
        *,
        roles: list[FakeRole] = (),  # type: ignore[assignment]
        permissions: int | str | list[str] | None = None,
    ) -> FakeMember:
        """Add a user to a guild. ``permissions`` gives them a personal role with those permissions."""
        the_user = self.add_user(who) if isinstance(who, str) else who
        role_ids = [r.id for r in roles]
        if permissions is not None:
            role_ids.append(self.add_role(guild, f"{the_user.name}-role", permissions).id)
        new = FakeMember(the_user, guild.id, role_ids)
        guild.members[the_user.id] = new
        return new

    def dm_channel(self, who: FakeUser) -> FakeChannel:
        for existing in self.channels.values():
            if existing.type == 1 and existing.recipient_id == who.id:
                return existing
        new = FakeChannel(self.snowflake(), f"dm-{who.name}", None, 1, recipient_id=who.id)
        self.channels[new.id] = new
        return new

    def subscribe(self, listener: Callable[[str, dict[str, Any]], None]) -> Callable[[], None]:
        """Receive gateway events (name, data); returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def emit(self, event: str, data: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(event, data)

    # -- interactions as the user's client creates them -----------------------------------------

    def new_interaction(
        self,
        *,
        kind: int,
        data: dict[str, Any],
        channel: FakeChannel,
        actor: FakeMember | FakeUser,
        locale: str = "en-US",
        message: FakeMessage | None = None,
    ) -> dict[str, Any]:
        """Register an interaction and return its INTERACTION_CREATE payload."""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        if guild is not None and isinstance(actor, FakeUser):
            actor = guild.members[actor.id]
        interaction_id = self.snowflake()
        payload = P.interaction(
            interaction_id=interaction_id,
            kind=kind,
            application_id=self.application_id,
            data=data,
            guild=guild,
            channel_obj=channel,
            actor=actor,
            locale=locale,
            message_payload=self.message_payload(message) if message is not None else None,
            app_permissions=self.bot_channel_permissions(channel),
        )
        the_user = actor.user if isinstance(actor, FakeMember) else actor
        self.interactions[interaction_id] = InteractionRecord(
            interaction_id,
            payload["token"],
            kind,
            the_user,
            channel.id,
            guild.id if guild else None,
            time.monotonic(),
            payload,
            self.now(),
            message.id if message else None,
        )
        return payload

    def message_payload(self, message: FakeMessage) -> dict[str, Any]:
        return P.message(message, self.base_url, self.application_id)

    # -- REST ------------------------------------------------------------------------------------

    def handle(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, str] | None = None,
        body: Any = None,
        uploads: list[Upload] | None = None,
    ) -> Response:
        """Answer one REST request (path relative to ``/api/v10``) and record it."""
        query = dict(query or {})
        uploads = uploads or []
        record = Request(method, path, body, [(u.filename, u.data) for u in uploads], query)
        self.requests.append(record)
        headers: dict[str, str] = {}
        try:
            self._check_contract(method, path, body, uploads)
            headers = self._rate_limit(method, path)
            response = self._dispatch(
                method, path, query, body if isinstance(body, dict) else {"_": body}, uploads
            )
        except DiscordError as error:
            response = error.response
        response.headers = {**headers, **response.headers}
        record.status, record.response = response.status, response.body
        if response.status >= 400:
            log.info("fake discord: %s %s -> %s %s", method, path, response.status, response.body)
        if is_refusal(response.status, response.body):
            self.refusals.append(record)
        return response

    def _check_contract(self, method: str, path: str, body: Any, uploads: list[Upload]) -> None:
        """400/50035 for a body Discord's schema or rules refuse; 413/40005 for a file over the limit."""
        problems = contract.problems_of(method, path, body)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", contract.error_tree(problems))
        if contract.is_empty_message(method, path, body, bool(uploads)):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        if uploads:
            limit = upload_limit(self._guild_tier(path))
            if any(len(u.data) > limit for u in uploads):
                raise DiscordError(413, 40005, "Request entity too large")
            if sum(len(u.data) for u in uploads) + len(json.dumps(body)) > max(REQUEST_SIZE_LIMIT, limit):
                raise DiscordError(413, 40005, "Request entity too large")

    def _guild_tier(self, path: str) -> int:
        match = re.match(r"^/channels/(\d+)", path)
        channel = self.channels.get(int(match.group(1))) if match else None
        if channel is None:
            match = re.match(r"^/(?:interactions/(\d+)|webhooks/\d+/([^/]+))", path)
            record = None
            if match and match.group(1):
                record = self.interactions.get(int(match.group(1)))
            elif match:
                record = next((r for r in self.interactions.values() if r.token == match.group(2)), None)
            channel = self.channels.get(record.channel_id) if record else None
        guild = self.guilds.get(channel.guild_id or 0) if channel else None
        return guild.premium_tier if guild else 0

    _RATE_LIMITED = re.compile(r"^/channels/(\d+)/messages(?:/\d+)?$")
    _INTERACTION_WEBHOOK = re.compile(r"^/webhooks/\d+/([^/]+)")

    def _rate_limit(self, method: str, path: str) -> dict[str, str]:
        """Discord's buckets, in the order it applies them: the global 50 requests per second (every
        route but interaction callbacks and interaction webhooks), then an interaction token's own
        bucket (its follow-ups and edits), or a channel's small bucket for message sends and edits."""
        webhook = self._INTERACTION_WEBHOOK.match(path)
        if self.global_rate_limiter is not None and not webhook and not path.startswith("/interactions/"):
            wait, headers = self.global_rate_limiter.take("bot")
            if wait is not None:
                raise rate_limited(0, "You are being rate limited.", wait, headers, is_global=True)
        if webhook is not None and self.webhook_rate_limiter is not None:
            return self._take(self.webhook_rate_limiter, webhook.group(1), method)
        match = self._RATE_LIMITED.match(path)
        if self.rate_limiter is None or method not in ("POST", "PATCH") or not match:
            return {}
        return self._take(self.rate_limiter, int(match.group(1)), method)

    @staticmethod
    def _take(limiter: RateLimiter, key: Any, method: str) -> dict[str, str]:
        wait, headers = limiter.take(key, method)
        if wait is not None:
            raise rate_limited(20028, "You are being rate limited.", wait, headers)
        return headers

    def _dispatch(
        self, method: str, path: str, query: dict[str, str], body: dict[str, Any], uploads: list[Upload]
    ) -> Response:
        for route_method, pattern, handler in self._routes:
            if route_method != method:
                continue
            match = pattern.fullmatch(path)
            if match:
                result = handler(*match.groups(), query=query, body=body, uploads=uploads)
                return result if isinstance(result, Response) else Response(200, result)
        return Response(404, {"code": 0, "message": f"404: fake Discord has no route {method} {path}"})

    def _build_routes(self) -> list[Route]:
        sf = r"(\d+)"
        table: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", "/users/@me", lambda **_: P.user(self.bot_user)),
            ("GET", "/oauth2/applications/@me", lambda **_: self._application()),
            ("GET", "/applications/@me", lambda **_: self._application()),
            ("GET", "/gateway", lambda **_: {"url": self._gateway_url()}),
            ("GET", "/gateway/bot", lambda **_: self._gateway_bot()),
            ("PUT", f"/applications/{sf}/commands", self._sync_global),
            ("PUT", f"/applications/{sf}/guilds/{sf}/commands", self._sync_guild),
            ("GET", f"/applications/{sf}/commands", lambda app, **_: self.synced_commands.get(None, [])),
            (
                "GET",
                f"/applications/{sf}/guilds/{sf}/commands",
                lambda app, gid, **_: self.synced_commands.get(int(gid), []),
            ),
            ("POST", rf"/interactions/{sf}/([^/]+)/callback", self._callback),
            ("POST", rf"/webhooks/{sf}/([^/]+)", self._followup),
            ("GET", rf"/webhooks/{sf}/([^/]+)/messages/(@original|\d+)", self._webhook_get),
            ("PATCH", rf"/webhooks/{sf}/([^/]+)/messages/(@original|\d+)", self._webhook_edit),
            ("DELETE", rf"/webhooks/{sf}/([^/]+)/messages/(@original|\d+)", self._webhook_delete),
            ("POST", f"/channels/{sf}/messages", self._channel_send),
            ("GET", f"/channels/{sf}/messages", self._channel_history),
            ("GET", f"/channels/{sf}/messages/{sf}", self._channel_get_message),
            ("PATCH", f"/channels/{sf}/messages/{sf}", self._channel_edit_message),
            ("DELETE", f"/channels/{sf}/messages/{sf}", self._channel_delete_message),
            ("POST", f"/channels/{sf}/messages/{sf}/threads", self._thread_from_message),
            ("POST", f"/channels/{sf}/threads", self._thread_create),
            ("PUT", f"/channels/{sf}/thread-members/(@me|\\d+)", self._thread_member_add),
            ("DELETE", f"/channels/{sf}/thread-members/(@me|\\d+)", self._thread_member_remove),
            ("GET", f"/channels/{sf}", self._channel_get),
            ("PATCH", f"/channels/{sf}", self._channel_edit),
            ("PUT", rf"/channels/{sf}/messages/{sf}/reactions/([^/]+)/@me", lambda *a, **_: Response(204)),
            ("DELETE", rf"/channels/{sf}/messages/{sf}/reactions/([^/]+)/@me", lambda *a, **_: Response(204)),
            ("PUT", f"/channels/{sf}/(?:messages/)?pins/{sf}", lambda *a, **_: Response(204)),
            ("DELETE", f"/channels/{sf}/(?:messages/)?pins/{sf}", lambda *a, **_: Response(204)),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", f"/users/{sf}", lambda uid, **_: P.user(self._user(uid))),
            ("GET", f"/guilds/{sf}", lambda gid, **_: P.guild(self._guild(gid), full=False)),
            (
                "GET",
                f"/guilds/{sf}/channels",
                lambda gid, **_: [P.channel(c) for c in self._guild(gid).channels.values()],
            ),
            (
                "GET",
                f"/guilds/{sf}/roles",
                lambda gid, **_: [P.role(r) for r in self._guild(gid).roles.values()],
            ),
            ("POST", f"/guilds/{sf}/roles", self._role_create),
            ("GET", f"/guilds/{sf}/members/search", self._member_search),
            ("GET", f"/guilds/{sf}/members/{sf}", self._member_get),
            ("PUT", f"/guilds/{sf}/members/{sf}/roles/{sf}", self._member_role_add),
            ("DELETE", f"/guilds/{sf}/members/{sf}/roles/{sf}", self._member_role_remove),
            ("POST", f"/guilds/{sf}/scheduled-events", self._event_create),
            (
                "GET",
                f"/guilds/{sf}/scheduled-events",
                lambda gid, **_: [e.data for e in self._guild(gid).scheduled_events.values()],
            ),
            ("GET", f"/guilds/{sf}/scheduled-events/{sf}", lambda gid, eid, **_: self._event(gid, eid).data),
            ("PATCH", f"/guilds/{sf}/scheduled-events/{sf}", self._event_edit),
            ("DELETE", f"/guilds/{sf}/scheduled-events/{sf}", self._event_delete),
        ]
        return [(method, re.compile(pattern), handler) for method, pattern, handler in table]

    # -- lookups -----------------------------------------------------------------------------------

    @staticmethod
    def _missing(code: int, what: str) -> DiscordError:
        return DiscordError(404, code, f"Unknown {what}")

    def _channel(self, cid: str | int) -> FakeChannel:
        found = self.channels.get(int(cid))
        if found is None:
            raise self._missing(10003, "Channel")
        return found

    def _guild(self, gid: str | int) -> FakeGuild:
        found = self.guilds.get(int(gid))
        if found is None:
            raise self._missing(10004, "Guild")
        return found

    def _user(self, uid: str | int) -> FakeUser:
        found = self.users.get(int(uid))
        if found is None:
            raise self._missing(10013, "User")
        return found

    def _message(self, cid: str | int, mid: str | int) -> FakeMessage:
        found = self.messages.get(int(mid))
        if found is None or found.deleted or found.channel_id != int(cid):
            raise self._missing(10008, "Message")
        return found

    def _interaction_by_token(self, token: str) -> InteractionRecord:
        for record in reversed(self.interactions.values()):
            if record.token == token:
                return record
        raise self._missing(10015, "Webhook")

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": P.user(next(iter(self.users.values()))),
            "summary": "",
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "interactions_endpoint_url": None,
            "bot": P.user(self.bot_user),
        }

    def _gateway_url(self) -> str:
        return self.base_url.replace("http", "ws", 1) + "/ws"

    def recommended_shards(self) -> int:
        """What ``GET /gateway/bot`` recommends: one shard per ``guilds_per_shard`` guilds (at least one)."""
        return max(1, -(-len(self.guilds) // self.guilds_per_shard))

    def _gateway_bot(self) -> dict[str, Any]:
        return {
            "url": self._gateway_url(),
            "shards": self.recommended_shards(),
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    # -- messages ----------------------------------------------------------------------------------

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        interaction: InteractionRecord | None = None,
        flags: int | None = None,
        message_type: int = 0,
    ) -> FakeMessage:
        channel = self._channel(channel_id)
        message = FakeMessage(
            self.snowflake(), channel.id, self.bot_user, guild_id=channel.guild_id, message_type=message_type
        )
        if interaction is not None:
            message.interaction_id, message.interaction_user = interaction.id, interaction.actor
            message.webhook_id = self.application_id
        self._apply(message, body, uploads, creating=True)
        if flags is not None:
            message.flags = flags
        self._record_pings(message, body)
        message.created_at = self.now()
        if channel.is_thread and not message.ephemeral:
            channel.last_activity = message.created_at  # a new message keeps a thread from archiving
        self.messages[message.id] = message
        message.snapshot()
        self.message_log.append(("create", message.id))
        return message

    def _apply(
        self, message: FakeMessage, body: dict[str, Any], uploads: list[Upload], *, creating: bool
    ) -> None:
        """Apply a create/edit body: only the keys present change (Discord's PATCH semantics)."""
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        elif "embed" in body:
            message.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            message.components = list(body["components"] or [])
        if creating and "flags" in body:
            message.flags = int(body["flags"] or 0) & ~LOADING_FLAG | (message.flags & LOADING_FLAG)
        described = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
        if "attachments" in body or uploads:
            kept = [a for a in message.attachments if str(a.id) in described] if not creating else []
            added = []
            for upload in uploads:
                index = upload.field_name.removeprefix("files[").removesuffix("]")
                meta = described.get(index, {})
                added.append(
                    FakeAttachment(
                        self.snowflake(),
                        meta.get("filename") or upload.filename,
                        upload.data,
                        meta.get("description"),
                        upload.content_type,
                    )
                )
            message.attachments = kept + added
            for attachment in added:
                self.cdn[P.attachment(attachment, self.base_url)["url"]] = attachment.data

    @staticmethod
    def _record_pings(message: FakeMessage, body: dict[str, Any]) -> None:
        """Who a new message notifies (edits notify no one; ephemeral messages only their reader)."""
        message.allowed_mentions = body.get("allowed_mentions")
        if not message.ephemeral:
            message.pings = pings_of(message.content, message.allowed_mentions)

    def _edit(self, message: FakeMessage, body: dict[str, Any], uploads: list[Upload]) -> FakeMessage:
        was_loading = message.loading
        self._apply(message, body, uploads, creating=False)
        if was_loading:  # the first content of a "thinking..." message notifies like a new one
            self._record_pings(message, body)
        message.flags &= ~LOADING_FLAG
        message.edited = True
        message.snapshot()
        self.message_log.append(("edit", message.id))
        return message

    def _delete(self, message: FakeMessage) -> Response:
        message.deleted = True
        self.message_log.append(("delete", message.id))
        return Response(204)

    def _require_for_message(
        self, channel: FakeChannel, body: dict[str, Any], uploads: list[Upload], *, creating: bool
    ) -> None:
        self._require_open_thread(channel, creating=creating)
        needed = ["view_channel"]
        if creating:
            needed.append("send_messages_in_threads" if channel.is_thread else "send_messages")
        if body.get("embeds") or body.get("embed"):
            needed.append("embed_links")
        if uploads:
            needed.append("attach_files")
        if creating and body.get("message_reference"):
            needed.append("read_message_history")
        self._require(channel, *needed)

    def _require_open_thread(self, channel: FakeChannel, *, creating: bool) -> None:
        """Sending or editing in an archived thread is 400/50083; sending in a locked one needs Manage
        Threads (403/50013). Checked after access, so a thread the bot cannot see still says 50001."""
        if not channel.is_thread:
            return
        self._require(channel, "view_channel")
        self._archive_if_idle(channel)
        if channel.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        if creating and channel.locked:
            self._require(channel, "manage_threads")

    def _archive_if_idle(self, channel: FakeChannel) -> None:
        """Archive a thread that has had no new message for its ``auto_archive_duration`` (Discord does
        this by itself; the stand-in notices when the thread is next used or ``expire()`` runs)."""
        if (
            channel.is_thread
            and not channel.archived
            and (self.now() - channel.last_activity >= channel.auto_archive_duration * 60)
        ):
            channel.archived = True
            self.emit("THREAD_UPDATE", P.channel(channel))

    def expire(self) -> None:
        """Apply what Discord does by itself as time passes: idle threads archive, active scheduled events
        whose end time has come complete. The harness calls it after moving the clock."""
        for channel in list(self.channels.values()):
            self._archive_if_idle(channel)
        for guild in self.guilds.values():
            for event in guild.scheduled_events.values():
                self._complete_if_ended(event)

    def _require_known_reference(self, channel: FakeChannel, body: dict[str, Any]) -> None:
        """A reply to a message Discord does not know is refused unless ``fail_if_not_exists`` is false."""
        reference = body.get("message_reference")
        if not isinstance(reference, dict) or reference.get("fail_if_not_exists") is False:
            return
        target = self.messages.get(int(reference.get("message_id") or 0))
        in_channel = int(reference.get("channel_id") or channel.id) == channel.id
        if target is None or target.deleted or (in_channel and target.channel_id != channel.id):
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                contract.error_tree(
                    [(("message_reference",), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")]
                ),
            )

    def _channel_send(
        self, cid: str, *, body: dict[str, Any], uploads: list[Upload], **_: Any
    ) -> dict[str, Any]:
        channel = self._channel(cid)
        self._require_for_message(channel, body, uploads, creating=True)
        self._require_known_reference(channel, body)
        reference = body.get("message_reference")
        message = self._new_message(channel.id, body, uploads, message_type=19 if reference else 0)
        return self.message_payload(message)

    def _channel_history(self, cid: str, *, query: dict[str, str], **_: Any) -> list[dict[str, Any]]:
        channel = self._channel(cid)
        self._require(channel, "view_channel", "read_message_history")
        limit = int(query.get("limit", 50))
        found = [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        return [self.message_payload(m) for m in sorted(found, key=lambda m: -m.id)[:limit]]

    def _channel_get_message(self, cid: str, mid: str, **_: Any) -> dict[str, Any]:
        self._require(self._channel(cid), "view_channel", "read_message_history")
        return self.message_payload(self._message(cid, mid))

    def _channel_edit_message(
        self, cid: str, mid: str, *, body: dict[str, Any], uploads: list[Upload], **_: Any
    ) -> dict[str, Any]:
        message = self._message(cid, mid)
        if message.author.id != self.bot_user.id and set(body) - {"flags"}:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._require_for_message(self._channel(cid), body, uploads, creating=False)
        self._count_old_message_edit(message)
        return self.message_payload(self._edit(message, body, uploads))

    def _count_old_message_edit(self, message: FakeMessage) -> None:
        """Edits of messages over an hour old are capped per channel: 429/30046 with a long retry_after."""
        if not self.old_message_edits.is_old(message.created_at):
            return
        wait = self.old_message_edits.take(message.channel_id)
        if wait is not None:
            raise rate_limited(
                30046,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
                wait,
                {"X-RateLimit-Scope": "user"},
            )

    def _channel_delete_message(self, cid: str, mid: str, **_: Any) -> Response:
        return self._delete(self._message(cid, mid))

    # -- threads, channels, roles, members, events ----------------------------------------------------

    def _make_thread(
        self, parent: FakeChannel, body: dict[str, Any], kind: int, message_id: int | None
    ) -> dict[str, Any]:
        if parent.guild_id is None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        guild = self._guild(parent.guild_id)
        if parent.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require(
            parent, "view_channel", "create_private_threads" if kind == 12 else "create_public_threads"
        )
        if message_id is not None and self.messages[message_id].thread_id is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        # A thread started from a message has the message's id, as on Discord.
        thread = self.add_channel(
            guild,
            body.get("name", "thread"),
            kind=kind,
            parent=parent,
            owner_id=self.bot_user.id,
            channel_id=message_id,
        )
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        thread.member_ids.add(self.bot_user.id)  # whoever starts a thread is in it
        if message_id is not None:
            self.messages[message_id].thread_id = thread.id
        data = P.channel(thread)
        data["newly_created"] = True
        self.emit("THREAD_CREATE", data)
        return P.channel(thread)

    def _thread_from_message(self, cid: str, mid: str, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        message = self._message(cid, mid)
        return self._make_thread(self._channel(cid), body, 11, message.id)

    def _thread_create(self, cid: str, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        return self._make_thread(self._channel(cid), body, int(body.get("type") or 11), None)

    def _thread_member_add(self, cid: str, who: str, **_: Any) -> Response:
        """Join a thread (``@me``) or add a member; an archived thread refuses (50083), as does a private
        thread the bot cannot see (50001)."""
        thread = self._channel(cid)
        if not thread.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require_open_thread(thread, creating=False)  # sees it (50001), not archived (50083)
        thread.member_ids.add(self.bot_user.id if who == "@me" else int(who))
        return Response(204)

    def _thread_member_remove(self, cid: str, who: str, **_: Any) -> Response:
        thread = self._channel(cid)
        thread.member_ids.discard(self.bot_user.id if who == "@me" else int(who))
        return Response(204)

    @staticmethod
    def _archive_duration(value: Any) -> int:
        """A thread's auto-archive duration: one of Discord's four (the schema checks it on creation only)."""
        if value not in THREAD_ARCHIVE_DURATIONS:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                contract.error_tree(
                    [
                        (
                            ("auto_archive_duration",),
                            "BASE_TYPE_CHOICES",
                            f"{value!r} is not one of {THREAD_ARCHIVE_DURATIONS}",
                        )
                    ]
                ),
            )
        return int(value)

    def _channel_get(self, cid: str, **_: Any) -> dict[str, Any]:
        channel = self._channel(cid)
        self._require(channel, "view_channel")
        self._archive_if_idle(channel)
        return P.channel(channel)

    def _channel_edit(self, cid: str, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        channel = self._channel(cid)
        if channel.guild_id is not None and not (channel.is_thread and channel.owner_id == self.bot_user.id):
            self._require(
                channel, "view_channel", "manage_threads" if channel.is_thread else "manage_channels"
            )
        if "name" in body:
            channel.name = body["name"]
        if "auto_archive_duration" in body:
            channel.auto_archive_duration = self._archive_duration(body["auto_archive_duration"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "archived" in body:
            channel.archived = bool(body["archived"])
            if not channel.archived:
                channel.last_activity = self.now()  # unarchived: its inactivity count starts again
        data = P.channel(channel)
        self.emit("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
        return data

    def _open_dm(self, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        return P.channel(self.dm_channel(self._user(body.get("recipient_id", 0))))

    def _role_create(self, gid: str, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        guild = self._guild(gid)
        self._require_guild(guild, "manage_roles")
        new = self.add_role(guild, body.get("name", "new role"), int(body.get("permissions") or 0))
        self.emit("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": P.role(new)})
        return P.role(new)

    def _member(self, gid: str, uid: str) -> FakeMember:
        found = self._guild(gid).members.get(int(uid))
        if found is None:
            raise self._missing(10007, "Member")
        return found

    def _member_search(self, gid: str, *, query: dict[str, str], **_: Any) -> list[dict[str, Any]]:
        """Search Guild Members: members whose username or server nickname starts with ``query``
        (ignoring case), at most ``limit`` (1-1000, default 1); Discord refuses a missing or empty query."""
        guild = self._guild(gid)
        text = query.get("query", "")
        try:
            limit = int(query.get("limit", "1"))
        except ValueError:
            limit = 0
        if not 1 <= len(text) <= 100 or not 1 <= limit <= 1000:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "query": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_BAD_LENGTH",
                                "message": "query must be 1-100 characters; limit 1-1000",
                            }
                        ]
                    }
                },
            )
        wanted = text.casefold()
        found = [
            m
            for m in guild.members.values()
            if any(n and n.casefold().startswith(wanted) for n in (m.user.name, m.nick))
        ]
        return [P.member(m) for m in found[:limit]]

    def _member_get(self, gid: str, uid: str, **_: Any) -> dict[str, Any]:
        return P.member(self._member(gid, uid))

    def _member_role_add(self, gid: str, uid: str, rid: str, **_: Any) -> Response:
        member, guild = self._member(gid, uid), self._guild(gid)
        if int(rid) not in guild.roles:
            raise self._missing(10011, "Role")
        self._require_role_manageable(guild, guild.roles[int(rid)])
        if int(rid) not in member.role_ids:
            member.role_ids.append(int(rid))
        return Response(204)

    def _require_role_manageable(self, guild: FakeGuild, role: FakeRole) -> None:
        """Manage Roles, and only roles below the bot's highest role (not managed ones, not @everyone)."""
        self._require_guild(guild, "manage_roles")
        if role.managed or role.id == guild.id or role.position >= guild.top_position(self.bot_member(guild)):
            raise missing_permissions(f"role {role.name!r} is not below the bot's highest role")

    def _member_role_remove(self, gid: str, uid: str, rid: str, **_: Any) -> Response:
        member, guild = self._member(gid, uid), self._guild(gid)
        if int(rid) in guild.roles:
            self._require_role_manageable(guild, guild.roles[int(rid)])
        if int(rid) in member.role_ids:
            member.role_ids.remove(int(rid))
        return Response(204)

    def _event(self, gid: str, eid: str) -> FakeScheduledEvent:
        found = self._guild(gid).scheduled_events.get(int(eid))
        if found is None:
            raise self._missing(10070, "Guild Scheduled Event")
        self._complete_if_ended(found)
        return found

    def _event_create(self, gid: str, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        guild = self._guild(gid)
        # Since February 2026 creating needs Create Events; Manage Events alone no longer does.
        self._require_guild(guild, "create_events")
        self._require_event_times(body)
        eid = self.snowflake()
        data = {
            "id": str(eid),
            "guild_id": str(guild.id),
            "channel_id": body.get("channel_id"),
            "creator_id": str(self.bot_user.id),
            "creator": P.user(self.bot_user),
            "name": body.get("name"),
            "description": body.get("description"),
            "scheduled_start_time": body.get("scheduled_start_time"),
            "scheduled_end_time": body.get("scheduled_end_time"),
            "privacy_level": body.get("privacy_level", 2),
            "status": 1,
            "entity_type": body.get("entity_type", 3),
            "entity_id": None,
            "entity_metadata": body.get("entity_metadata"),
            "user_count": 0,
            "image": None,
            "recurrence_rule": None,
        }
        guild.scheduled_events[eid] = FakeScheduledEvent(eid, guild.id, data)
        self.emit("GUILD_SCHEDULED_EVENT_CREATE", data)
        return data

    def _require_event_editable(self, gid: str, event: FakeScheduledEvent) -> None:
        """Its creator may edit or delete an event; anyone else needs Manage Events."""
        if event.data.get("creator_id") != str(self.bot_user.id):
            self._require_guild(self._guild(gid), "manage_events")

    @staticmethod
    def _require_event_times(data: dict[str, Any]) -> None:
        """An EXTERNAL event (entity type 3) needs an end time, after its start."""
        if int(data.get("entity_type") or 0) != 3:
            return
        end, start = data.get("scheduled_end_time"), data.get("scheduled_start_time")
        if not end:
            problem = (("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required")
        elif start and P.parse_iso(end) <= P.parse_iso(start):
            problem = (
                ("scheduled_end_time",),
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "The end time must be after the start time",
            )
        else:
            return
        raise DiscordError(400, 50035, "Invalid Form Body", contract.error_tree([problem]))

    def _complete_if_ended(self, event: FakeScheduledEvent) -> None:
        """Discord completes an active event by itself once its end time has passed."""
        end = event.data.get("scheduled_end_time")
        if event.data.get("status") == EVENT_ACTIVE and end and P.parse_iso(end).timestamp() <= self.now():
            event.data["status"] = EVENT_COMPLETED
            self.emit("GUILD_SCHEDULED_EVENT_UPDATE", event.data)

    def _require_status_transition(self, event: FakeScheduledEvent, body: dict[str, Any]) -> None:
        """COMPLETED and CANCELED are final (180000); otherwise only SCHEDULED→ACTIVE|CANCELED and
        ACTIVE→COMPLETED (50035 on ``status``)."""
        current = int(event.data.get("status") or EVENT_SCHEDULED)
        if current in (EVENT_COMPLETED, EVENT_CANCELED):
            raise DiscordError(400, 180000, "Cannot update a finished event")
        if "status" not in body or int(body["status"]) == current:
            return
        if int(body["status"]) not in EVENT_TRANSITIONS.get(current, set()):
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                contract.error_tree(
                    [
                        (
                            ("status",),
                            "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                            f"Cannot change an event's status from {current} to {body['status']}",
                        )
                    ]
                ),
            )

    def _event_edit(self, gid: str, eid: str, *, body: dict[str, Any], **_: Any) -> dict[str, Any]:
        event = self._event(gid, eid)
        self._require_event_editable(gid, event)
        self._complete_if_ended(event)
        self._require_status_transition(event, body)
        self._require_event_times({**event.data, **body})
        event.data.update({k: v for k, v in body.items() if k in event.data})
        self.emit("GUILD_SCHEDULED_EVENT_UPDATE", event.data)
        return event.data

    def _event_delete(self, gid: str, eid: str, **_: Any) -> Response:
        event = self._event(gid, eid)
        self._require_event_editable(gid, event)
        del self._guild(gid).scheduled_events[event.id]
        self.emit("GUILD_SCHEDULED_EVENT_DELETE", event.data)
        return Response(204)

    # -- command sync ----------------------------------------------------------------------------------

    def _store_commands(self, guild_id: int | None, body: Any) -> list[dict[str, Any]]:
        commands = body.get("_") if isinstance(body, dict) and "_" in body else body
        stored = []
        for command in commands or []:
            stored.append(
                {
                    **command,
                    "id": str(self.snowflake()),
                    "application_id": str(self.application_id),
                    "version": str(self.snowflake()),
                    **({"guild_id": str(guild_id)} if guild_id else {}),
                }
            )
        self.synced_commands[guild_id] = stored
        return stored

    def _sync_global(self, app: str, *, body: Any, **_: Any) -> list[dict[str, Any]]:
        return self._store_commands(None, body)

    def _sync_guild(self, app: str, gid: str, *, body: Any, **_: Any) -> list[dict[str, Any]]:
        return self._store_commands(int(gid), body)

    # -- interaction responses -------------------------------------------------------------------------

    def _callback(
        self, iid: str, token: str, *, query: dict[str, str], body: dict[str, Any], uploads: list[Upload]
    ) -> Response:
        record = self.interactions.get(int(iid))
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        late = (
            self.interaction_deadline is not None
            and time.monotonic() - record.created > self.interaction_deadline
        )
        if late or self.now() - record.issued_at > TOKEN_LIFETIME:
            record.late = True
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body.get("type", 0))
        message = self._respond(record, kind, body.get("data") or {}, uploads)
        record.response_type = kind
        if message is not None:
            record.original_id = message.id
        if "with_response" not in query:
            return Response(204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.kind,
                "activity_instance_id": None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            answer["resource"] = {"type": kind, "message": self.message_payload(message)}
        else:
            answer["resource"] = {"type": kind}
        return Response(200, answer)

    def _respond(
        self, record: InteractionRecord, kind: int, data: dict[str, Any], uploads: list[Upload]
    ) -> FakeMessage | None:
        """Apply one interaction response of callback type ``kind``; the message it made or updated."""
        message: FakeMessage | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._new_message(
                record.channel_id,
                data,
                uploads,
                interaction=record,
                flags=int(data.get("flags") or 0) & EPHEMERAL_FLAG,
                message_type=20 if record.kind == P.APPLICATION_COMMAND else 0,
            )
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL_FLAG) | LOADING_FLAG
            message = self._new_message(
                record.channel_id,
                {},
                [],
                interaction=record,
                flags=flags,
                message_type=20 if record.kind == P.APPLICATION_COMMAND else 0,
            )
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if record.message_id is None:
                raise DiscordError(400, 50035, "Invalid Form Body: this interaction has no message to update")
            message = self.messages[record.message_id]
            if kind == UPDATE_MESSAGE:
                self._edit(message, data, uploads)
        elif kind == AUTOCOMPLETE_RESULT:
            if record.kind != P.AUTOCOMPLETE:
                raise DiscordError(
                    400, 50035, "Invalid Form Body: autocomplete result for a non-autocomplete"
                )
            record.choices = list(data.get("choices", []))
        elif kind == MODAL:
            if record.kind in (P.AUTOCOMPLETE, P.MODAL_SUBMIT):
                raise DiscordError(
                    400, 50035, "Invalid Form Body: cannot answer this interaction with a modal"
                )
            record.modal = data
        else:
            raise DiscordError(400, 50035, f"Invalid Form Body: unsupported callback type {kind}")
        return message

    def _followup(
        self, app: str, token: str, *, body: dict[str, Any], uploads: list[Upload], **_: Any
    ) -> dict[str, Any]:
        record = self._live_token(token)
        if not record.acknowledged:
            raise DiscordError(404, 10015, "Unknown Webhook")
        self._require_open_thread(self._channel(record.channel_id), creating=False)
        original = self.messages.get(record.original_id or 0)
        if (
            record.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not record.followup_ids
        ):
            # Discord fills the "thinking..." message with the first followup, and keeps its visibility:
            # EPHEMERAL asked for here is ignored after a public deferral (a private refusal shown to all).
            if int(body.get("flags") or 0) & EPHEMERAL_FLAG and not original.ephemeral:
                self.ignored_ephemeral.append(original.id)
            return self.message_payload(self._edit(original, body, uploads))
        flags = int(body.get("flags") or 0) & EPHEMERAL_FLAG
        message = self._new_message(record.channel_id, body, uploads, interaction=record, flags=flags)
        record.followup_ids.append(message.id)
        return self.message_payload(message)

    def _live_token(self, token: str) -> InteractionRecord:
        """The interaction of a token that still works: 15 minutes on the stand-in's clock, then
        401/50027 for follow-ups and for every edit, fetch or deletion of its messages."""
        record = self._interaction_by_token(token)
        if self.now() - record.issued_at > TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return record

    def _webhook_message(self, token: str, which: str) -> FakeMessage:
        record = self._live_token(token)
        if which == "@original":
            if record.original_id is None:
                raise self._missing(10008, "Message")
            return self.messages[record.original_id]
        if int(which) not in record.followup_ids and int(which) != record.original_id:
            raise self._missing(10008, "Message")
        return self.messages[int(which)]

    def _webhook_get(self, app: str, token: str, which: str, **_: Any) -> dict[str, Any]:
        return self.message_payload(self._webhook_message(token, which))

    def _webhook_edit(
        self, app: str, token: str, which: str, *, body: dict[str, Any], uploads: list[Upload], **_: Any
    ) -> dict[str, Any]:
        message = self._webhook_message(token, which)
        self._require_open_thread(self._channel(message.channel_id), creating=False)
        return self.message_payload(self._edit(message, body, uploads))

    def _webhook_delete(self, app: str, token: str, which: str, **_: Any) -> Response:
        return self._delete(self._webhook_message(token, which))

    # -- queries for tests ---------------------------------------------------------------------------

    def channel_messages(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]
