"""The fake Discord over real sockets: REST and a gateway websocket on 127.0.0.1.

The bot's real start-up path (``login`` → ``setup_hook`` → command sync → gateway IDENTIFY →
READY/GUILD_CREATE → INTERACTION_CREATE) runs unmodified against it: ``redirect_discord_py``
points discord.py's ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` here. REST requests go
to the shared ``FakeDiscord.handle``; the gateway speaks zlib-stream (when asked), HELLO, heartbeats
with ACKs, IDENTIFY → READY + GUILD_CREATE, RESUME, member chunk requests, and dispatches events
(INTERACTION_CREATE sent by ``RemoteDriver``, THREAD_CREATE and friends emitted by the fake).

Pitfalls honoured (see the design note on Discord testing): ``Content-Type`` is exactly
``application/json``; unknown routes answer a loud 404; the interaction deadline is real time.
Used by ``tests/e2e`` and by the sandbox (``bot.sandbox``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import aiohttp
import yarl
from aiohttp import web

from bot.shards import shard_of
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.backend import FakeDiscord, Response, Upload
from bot.testing.fakediscord.commands import CommandCatalog
from bot.testing.fakediscord.driver import HarnessError, InteractionDriver, Reply
from bot.testing.fakediscord.model import FakeGuild

log = logging.getLogger(__name__)
HEARTBEAT_INTERVAL_MS = 41250
INVALID_SHARD = 4010  # Discord's gateway close codes for a shard set-up it refuses
SHARDING_REQUIRED = 4011
AUTHENTICATION_FAILED = 4004  # ...for an IDENTIFY with a bad token
INVALID_INTENTS = 4013  # ...for an intents value that is not a set of Discord's intents
DISALLOWED_INTENTS = 4014  # ...for a privileged intent the application is not approved for
# Discord's gateway intents (bit numbers), and the privileged ones an application must be approved for.
KNOWN_INTENTS = sum(1 << bit for bit in (*range(0, 17), 20, 21, 24, 25))
PRIVILEGED_INTENTS = {"GUILD_MEMBERS": 1 << 1, "GUILD_PRESENCES": 1 << 8, "MESSAGE_CONTENT": 1 << 15}


def intents_refusal(intents: Any, approved: int) -> tuple[int, str] | None:
    """Discord's answer to IDENTIFY's ``intents``: 4013 for a value that is not a set of known intents,
    4014 for a privileged intent the application is not approved for (``approved`` bits); None if fine."""
    if type(intents) is not int or intents < 0 or intents & ~KNOWN_INTENTS:
        return INVALID_INTENTS, "Invalid intent(s)."
    if intents & sum(PRIVILEGED_INTENTS.values()) & ~approved:
        return DISALLOWED_INTENTS, "Disallowed intent(s)."
    return None


def event_guild_id(event: str, data: Any) -> int | None:
    """The guild a gateway event belongs to (``guild_id``, or the guild itself for GUILD_CREATE and
    friends); None for direct messages and session events (READY)."""
    if not isinstance(data, dict):
        return None
    guild_id = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
    return int(guild_id) if guild_id else None


class GatewaySession:
    """One websocket connection from the bot."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.sequence = 0
        self.identified = False
        self.identify: dict[str, Any] = {}
        self.shard: tuple[int, int] | None = (
            None  # (id, count) from IDENTIFY; None = unsharded, gets everything
        )
        self.events: list[
            tuple[str, int | None]
        ] = []  # (event, guild id) dispatched, so tests can check routing
        self._lock = asyncio.Lock()

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets events of ``guild_id``: Discord sends a guild's events only to shard
        ``(guild_id >> 22) % count``, and direct messages (no guild) only to shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))

    async def send(self, payload: dict[str, Any]) -> bool:
        """Send one frame; False when the connection is gone (closed, or its transport already closing as
        its process dies): Discord cannot deliver to such a connection either."""
        async with self._lock:
            if self.ws.closed:
                return False
            if payload.get("op") == 0:
                self.sequence += 1
                payload = {**payload, "s": self.sequence}
            data = json.dumps(payload).encode()
            try:
                if self.compressor is not None:
                    # zlib-stream: one compressor per connection, each frame ends with a sync flush (00 00 ff ff).
                    await self.ws.send_bytes(
                        self.compressor.compress(data) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
                    )
                else:
                    await self.ws.send_str(data.decode())
            except ConnectionResetError:
                return False
            return True

    async def dispatch(self, event: str, data: Any) -> bool:
        self.events.append((event, event_guild_id(event, data)))
        return await self.send({"op": 0, "t": event, "d": data})


class FakeDiscordServer:
    """Serve a ``FakeDiscord`` on 127.0.0.1. ``async with FakeDiscordServer.running(fake) as server:``."""

    def __init__(self, fake: FakeDiscord, *, token: str | None = None) -> None:
        self.fake = fake
        self.token = token  # when set, REST calls and IDENTIFYs with another bot token are refused
        self.approved_intents = 0  # privileged intents the application may ask for (none: Discord's default)
        self.sessions: list[GatewaySession] = []
        self.identified = asyncio.Event()
        self.identify_count = 0
        self.refused_identifies: list[tuple[Any, int]] = []  # (IDENTIFY's shard, close code) refused
        # (close code, reason) for every IDENTIFY refused, whatever the reason (token, intents, shard)
        self.closed_identifies: list[tuple[int, str]] = []
        self.heartbeats = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._unsubscribe = fake.subscribe(self._on_event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/ws", self._gateway)
        app.router.add_route("GET", "/attachments/{id}/{filename}", self._cdn)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.fake.base_url = self.url

    async def stop(self) -> None:
        self._unsubscribe()
        for session in list(self.sessions):
            await session.ws.close(code=1001, message=b"fake discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls, fake: FakeDiscord, *, token: str | None = None, port: int = 0
    ) -> AsyncIterator[FakeDiscordServer]:
        """Start the server and point discord.py at it; undo both on exit."""
        server = cls(fake, token=token)
        await server.start(port)
        try:
            with redirect_discord_py(server.url, server.gateway_url):
                yield server
        finally:
            await server.stop()

    # -- REST -------------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        needs_token = self.token is not None and not path.startswith(("/interactions/", "/webhooks/"))
        if needs_token and request.headers.get("Authorization") != f"Bot {self.token}":
            return _json(Response(401, {"code": 0, "message": "401: Unauthorized"}))
        body: Any = None
        uploads: list[Upload] = []
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, aiohttp.BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    uploads.append(
                        Upload(
                            part.name or "",
                            part.filename or part.name or "",
                            bytes(await part.read(decode=False)),
                            part.headers.get("Content-Type"),
                        )
                    )
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        response = self.fake.handle(
            request.method, path, query=dict(request.query), body=body, uploads=uploads
        )
        return _json(response)

    async def _cdn(self, request: web.Request) -> web.Response:
        data = self.fake.cdn.get(self.url + request.path)
        if data is None:
            return web.Response(status=404, text="no such attachment")
        return web.Response(body=data, content_type="application/octet-stream")

    async def _unknown(self, request: web.Request) -> web.Response:
        log.warning("fake discord: unknown URL %s %s", request.method, request.path)
        return _json(Response(404, {"code": 0, "message": f"404: fake Discord has no URL {request.path}"}))

    # -- gateway ------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws, request.query.get("compress") == "zlib-stream")
        self.sessions.append(session)
        try:
            await session.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                await self._on_gateway_message(session, json.loads(message.data))
        finally:
            self.sessions.remove(session)
        return ws

    async def _on_gateway_message(self, session: GatewaySession, message: dict[str, Any]) -> None:
        op, data = message.get("op"), message.get("d")
        if op == 1:
            self.heartbeats += 1
            await session.send({"op": 11})
        elif op == 2:
            await self._identify(session, data or {})
        elif op == 6:
            session.identified = True
            await session.dispatch("RESUMED", {})
        elif op == 8:
            await self._member_chunk(session, data or {})

    async def _identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        session.identify = data
        self.identify_count += 1
        refusal = self._session_refusal(data)
        if refusal is None:
            refusal = self._shard_refusal(data.get("shard"))
            if refusal is not None:
                self.refused_identifies.append((data.get("shard"), refusal[0]))
        if refusal is not None:
            self.closed_identifies.append(refusal)
            await session.ws.close(code=refusal[0], message=refusal[1].encode())
            return
        session.shard = tuple(data["shard"]) if data.get("shard") else None  # type: ignore[assignment]
        guilds = [g for g in self.fake.guilds.values() if session.receives(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": P.user(self.fake.bot_user),
            "session_id": f"fake-session-{self.identify_count}",
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "application": {"id": str(self.fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
        }
        if data.get("shard"):
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", P.guild(guild))
        session.identified = True
        self.identified.set()

    def _session_refusal(self, data: dict[str, Any]) -> tuple[int, str] | None:
        """4004 for a token other than the bot's (when the server knows it), then the intents' answer."""
        if self.token is not None and data.get("token") not in (self.token, f"Bot {self.token}"):
            return AUTHENTICATION_FAILED, "Authentication failed."
        return intents_refusal(data.get("intents"), self.approved_intents)

    def _shard_refusal(self, shard: Any) -> tuple[int, str] | None:
        """Discord's answer to IDENTIFY's ``shard`` field: a malformed pair or an id outside the count is
        4010 Invalid shard; a session that would hold more than ``max_guilds_per_session`` guilds is
        4011 Sharding required. None when the shard is accepted."""
        count = 1
        if shard is not None:
            valid = (
                isinstance(shard, list)
                and len(shard) == 2
                and all(type(n) is int for n in shard)
                and shard[1] >= 1
                and 0 <= shard[0] < shard[1]
            )
            if not valid:
                return INVALID_SHARD, "Invalid shard."
            count = shard[1]
        per_session = -(-len(self.fake.guilds) // count)
        if per_session > self.fake.max_guilds_per_session:
            return SHARDING_REQUIRED, "Sharding required."
        return None

    async def _member_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        await session.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": [P.member(m) for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
            },
        )

    def _on_event(self, event: str, data: dict[str, Any]) -> None:
        for session in self._receivers(event, data):
            asyncio.get_running_loop().create_task(session.dispatch(event, data))

    def _receivers(self, event: str, data: dict[str, Any]) -> list[GatewaySession]:
        """The live sessions that get ``event``: only the shard of the guild it belongs to."""
        guild_id = event_guild_id(event, data)
        return [s for s in self.sessions if s.identified and not s.ws.closed and s.receives(guild_id)]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the connected bot sessions that should get it (its guild's shard)."""
        delivered = [await session.dispatch(event, data) for session in self._receivers(event, data)]
        if not any(delivered):  # none, or only connections whose process just died
            raise HarnessError(
                f"no bot is connected to the fake gateway to receive {event}"
                + (f" for guild {data['guild_id']}" if data.get("guild_id") else "")
            )

    async def wait_until_connected(self, timeout: float = 30.0, *, shards: Iterable[int] = ()) -> None:
        """Wait for a bot session that has identified (READY and GUILD_CREATE sent); with ``shards``, for
        an identified session of each of those shard ids."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        wanted = set(shards)
        while True:
            live = [s for s in self.sessions if s.identified and not s.ws.closed]
            connected = {s.shard[0] for s in live if s.shard is not None}
            if (live and not wanted) or (wanted and wanted <= connected):
                return
            if loop.time() > deadline:
                raise TimeoutError(
                    f"the bot did not connect to the fake gateway (shards {sorted(wanted)} wanted, "
                    f"{sorted(connected)} connected)"
                )
            await asyncio.sleep(0.02)


def _json(response: Response) -> web.Response:
    """The answer with Discord's headers (``X-RateLimit-*``, ``Retry-After``, ``Via``: discord.py's
    rate-limit handling reads them, and gives up on a 429 without ``Via``)."""
    if response.status == 204 or response.body is None:
        return web.Response(status=response.status, headers=response.headers)
    # Exactly "application/json": discord.py compares the header with == (no charset suffix).
    return web.Response(
        status=response.status,
        body=response.json_bytes,
        headers={**response.headers, "Content-Type": "application/json"},
    )


@contextlib.contextmanager
def redirect_discord_py(base_url: str, gateway_url: str) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the stand-in (process-wide)."""
    import discord.gateway
    import discord.http

    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = f"{base_url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


TIMER_AFTER = 2.0  # a bot task asleep for longer than this is a timer, not output on its way


class RemoteDriver(InteractionDriver):
    """Act as users against a bot connected to a ``FakeDiscordServer``, via the gateway.

    Commands are built from what the bot *synced* (``fake.synced_commands``), as a real Discord
    client would; a reply is complete when the interaction is acknowledged and the bot has been
    quiet for ``quiet`` seconds (and a deferred "thinking" message has been filled).
    """

    def __init__(
        self,
        server: FakeDiscordServer,
        guild: FakeGuild,
        *,
        quiet: float = 0.6,
        min_quiet: float = 0.08,
        max_wait: float = 60.0,
        stuck_after: float | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(server.fake, guild, **kwargs)
        self.server = server
        self.quiet = quiet
        self.min_quiet = min_quiet
        self.max_wait = max_wait
        # A bot task silent this long waits on something else (default ``quiet``; the sandbox, whose
        # transcript must not miss a late edit on a busy machine, waits longer).
        self.stuck_after = quiet if stuck_after is None else stuck_after
        self.working: Any = lambda: False  # the bot's work pool is running jobs (the sandbox sets it)
        self.watch_logs()  # call close() when done

    def catalog(self) -> CommandCatalog:
        schemas = self.fake.synced_commands.get(None, []) + self.fake.synced_commands.get(self.guild.id, [])
        if not schemas:
            raise HarnessError("the bot has not synced any commands to the fake Discord")
        return CommandCatalog(schemas)

    def guild_command_names(self) -> set[str]:
        return {c["name"] for c in self.fake.synced_commands.get(self.guild.id, [])}

    async def _deliver(self, payload: dict[str, Any], expect_error: bool) -> Reply:
        marker = self.mark()
        before = set(asyncio.all_tasks())
        await self.server.dispatch("INTERACTION_CREATE", payload)
        await self.wait_for(int(payload["id"]), before)
        return self.reply_since(payload, marker, expect_error)

    async def wait_for(self, interaction_id: int, before: set[asyncio.Task[Any]] | None = None) -> None:
        record = self.fake.interactions[interaction_id]
        deadline = self.fake.interaction_deadline or 3.0
        started = time.monotonic()
        while not record.acknowledged and time.monotonic() - started < deadline + 0.5:
            await asyncio.sleep(0.01)
        await self.wait_quiet(
            lambda: record.original_id is not None and self.fake.messages[record.original_id].loading, before
        )

    async def wait_quiet(
        self, busy: Any = lambda: False, before: set[asyncio.Task[Any]] | None = None
    ) -> None:
        """Until the bot is idle and ``busy()`` is false (bounded by ``max_wait``).

        Idle means no request for ``min_quiet`` seconds and none of the tasks the bot started since
        ``before`` still working: each has ended or sleeps until later than ``TIMER_AFTER`` (or ``quiet``)
        from now (a timer; a board edit's short coalescing sleep is not one).
        A fixed wait once missed a board edit on a busy machine; now the wait follows the bot's tasks
        and its work pool (``working``). A task that neither ends nor changes anything for
        ``stuck_after`` seconds (waiting on something nobody will set) no longer holds the wait. The
        bot runs on this same loop (e2e tests, sandbox), so its tasks are visible.
        """
        from bot.testing.harness import _wakes_at

        loop = asyncio.get_running_loop()
        current = asyncio.current_task()
        started = time.monotonic()
        seen, since = (len(self.fake.requests), frozenset[int]()), time.monotonic()
        while time.monotonic() - started < self.max_wait:
            await asyncio.sleep(0.02)
            pending = [
                t
                for t in asyncio.all_tasks()
                if before is not None and t not in before and t is not current and not t.done()
            ]
            state = (len(self.fake.requests), frozenset(map(id, pending)))
            if state != seen or self.working():
                seen, since = state, time.monotonic()
                continue
            active = [t for t in pending if (_wakes_at(t) or 0) <= loop.time() + max(self.quiet, TIMER_AFTER)]
            needed = self.stuck_after if active else self.min_quiet
            if time.monotonic() - since >= needed and not busy():
                return
