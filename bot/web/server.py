"""The optional page server: aiohttp inside the bot process, read-only, one secret link per resource.

``GET /p/<token>`` is the page, ``GET /p/<token>/events`` its server-sent events: an ``update`` with the
page's live part as HTML whenever the change hub says the resource changed (and a ``gone`` when the
link is revoked), ``GET /static/<file>`` the page's CSS and JavaScript. Nothing else exists: no index, no
listing, and an unknown token is the same 404 as a mistyped path.

Each live part is rendered once per change and language, however many people watch it (a cache keyed
by the topics' versions; one render at a time per page): 500 overlays on one game cost one render per
change, not 500.

The server must never take the bot down with it (it shares the process's file descriptors with Discord
and the database): connections are capped in total and event streams per link, slow requests and
viewers that stop reading are dropped, and a flood is logged once (see ``bot.web.guard``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import hdrs, web

from bot.changes import ChangeHub
from bot.i18n import LANGUAGES, Translate, language_for, pick_language
from bot.storage.db import Database
from bot.storage.pages import PageLink, PageLinkRepository
from bot.web.guard import (
    BUSY_PAGE,
    RETRY_AFTER_SECONDS,
    ConnectionGate,
    FloodFilter,
    FloodLog,
    accept_retry_passed,
    connection_cap,
    raise_descriptor_limit,
)
from bot.web.views import NotShown, PageData, Sources, link_topic, page_data

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
KEEPALIVE_SECONDS = 15.0
WRITE_TIMEOUT_SECONDS = 30.0  # a viewer that has not taken an event in this long is gone (or hostile)
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token is in the URL: never send it to another site
    "X-Robots-Tag": "noindex, nofollow",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}


GONE = b"event: gone\ndata: \n\n"
UNSEEN = -1  # a version no topic has (they count from 0): a topic first seen in a read forces another


@dataclass
class _Rendered:
    versions: tuple[int, ...]
    html: str
    data: PageData
    event: bytes = b""  # the server-sent event carrying ``html``, encoded once for every viewer


@dataclass(frozen=True)
class PageLimits:
    """How much the page server takes on (the ``[web]`` settings of the same names)."""

    max_connections: int = 2000
    max_viewers_per_link: int = 300
    header_timeout: float = 10.0


class PageServer:
    def __init__(
        self,
        db: Database,
        sources: Sources,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        public_url: str = "",
        limits: PageLimits = PageLimits(),
    ) -> None:
        self.db, self.sources, self.limits = db, sources, limits
        self.hub: ChangeHub = db.changes
        self.links = PageLinkRepository(db)
        self.host, self.port, self._public_url = host, port, public_url.rstrip("/")
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self._cache: dict[tuple[str, int, str], _Rendered] = {}
        self._render_locks: dict[tuple[str, int, str], asyncio.Lock] = {}
        self._runner: web.AppRunner | None = None
        self._streams: set[asyncio.Task[Any]] = set()
        self._viewers: Counter[str] = Counter()  # token -> open event streams
        self._crowded = FloodLog("a page link has too many viewers")
        self._flood_filter = FloodFilter()
        self._listener: asyncio.Server | None = None
        self.gate: ConnectionGate | None = None  # pragma: no mutate (read only once start has set it)

    # -- lifecycle -------------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._deadlines])
        app.router.add_get("/p/{token}", self.page)
        app.router.add_get("/p/{token}/events", self.events)
        app.router.add_static(
            "/static/",
            HERE / "static",
            show_index=False,  # pragma: no mutate (aiohttp's default, said aloud: no listing, ever)
        )
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> None:
        """Listen behind the connection gate (not aiohttp's own site: the gate refuses a connection
        beyond the cap before aiohttp spends anything on it)."""
        # handler_cancellation: a viewer who leaves ends their event stream at once (and frees its place
        # under the link's cap), not at the next keep-alive write.
        self._runner = web.AppRunner(
            self.app(),
            access_log=None,
            shutdown_timeout=1.0,
            handler_cancellation=True,
            keepalive_timeout=self.limits.header_timeout,  # pragma: no mutate (the gate closes it first)
        )
        await self._runner.setup()
        assert self._runner.server is not None
        cap = connection_cap(self.limits.max_connections, raise_descriptor_limit())
        self.gate = ConnectionGate(self._runner.server, cap=cap, header_timeout=self.limits.header_timeout)
        self._listener = await asyncio.get_running_loop().create_server(
            self.gate.protocol, self.host, self.port
        )
        # the port bound: the one asked for, or the one the system picked for port 0 (the tests')
        self.port = self._listener.sockets[0].getsockname()[1]
        for name in ("aiohttp.server", "asyncio"):
            logging.getLogger(name).addFilter(self._flood_filter)
        log.info(
            "live pages on http://%s:%s (links show %s; at most %s connections, %s viewers a link)",
            self.host,
            self.port,
            self.public_url,
            cap,
            self.limits.max_viewers_per_link,
        )

    async def stop(self) -> None:
        """End the open event streams (they would otherwise hold the shutdown), then the server."""
        for task in list(self._streams):
            task.cancel()
        if self._listener is not None:
            await accept_retry_passed(self._flood_filter)
            self._listener.close()
            self._listener = None
        for name in ("aiohttp.server", "asyncio"):
            logging.getLogger(name).removeFilter(self._flood_filter)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def public_url(self) -> str:
        return self._public_url or f"http://{self.host}:{self.port}"

    def url(self, link: PageLink) -> str:
        return f"{self.public_url}/p/{link.token}"

    async def revoke(self, link: PageLink) -> None:
        """Tell the pages open on a replaced link to stop (the new token is already stored)."""
        self.hub.publish(link_topic(link))

    # -- handlers --------------------------------------------------------------------------------------

    @web.middleware
    async def _deadlines(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """The headers arrived: stop their deadline while the request is served, and start it again for
        the next request on this connection (an idle kept-alive connection is closed by the same rule)."""
        guarded = self.gate.of(request.transport) if self.gate is not None else None
        if guarded is not None:
            guarded.headers_arrived()
        try:
            return await handler(request)
        finally:
            if guarded is not None and guarded.transport is not None and not guarded.transport.is_closing():
                guarded.expect_headers()

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)

    async def _link(self, request: web.Request) -> PageLink:
        link = await self.links.by_token(request.match_info["token"])
        if link is None:
            language = pick_language(request.query.get("lang"))  # no guild to ask: English by default
            raise web.HTTPNotFound(text=Translate(language)("web.not_found"))
        return link

    async def _language(self, request: web.Request, link: PageLink) -> str:
        asked = language_for(request.query.get("lang"))
        if asked in LANGUAGES:
            return asked
        return await self.sources.language(link.guild_id)

    async def page(self, request: web.Request) -> web.Response:
        link = await self._link(request)
        language = await self._language(request, link)
        try:
            rendered = await self.live_part(link, language)
        except NotShown:
            raise web.HTTPNotFound(text=Translate(language)("web.not_found")) from None
        tr = Translate(language)
        title = dict(rendered.data.title)
        key = title.pop("key")  # a catalogue key and its values, or "" and the page's own name as text
        html = self.env.get_template("page.html").render(
            tr=tr,
            lang=language,
            kind=link.kind,
            live=rendered.html,
            title=tr(key, **title) if key else title["text"],
            events_url=f"/p/{link.token}/events?lang={language}",
        )
        return web.Response(
            text=html,
            content_type="text/html",
            charset="utf-8",  # pragma: no mutate (aiohttp's default for text)
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        link = await self._link(request)
        if self._viewers[link.token] >= self.limits.max_viewers_per_link:
            self._crowded.refusing(
                f"{link.kind} {link.resource_id} has {self._viewers[link.token]} viewers, "
                f"the cap is {self.limits.max_viewers_per_link}"
            )
            return busy()
        self._crowded.check_ended()
        language = await self._language(request, link)
        async with self._viewing(link.token):
            response = web.StreamResponse(
                headers={
                    hdrs.CONTENT_TYPE: "text/event-stream",
                    "X-Accel-Buffering": "no",  # pragma: no mutate (a header name in any case is the same)
                }
            )
            await response.prepare(request)
            # the viewer left or stopped reading, or the server is stopping
            with suppress(ConnectionResetError, TimeoutError, asyncio.CancelledError):
                await self._stream(_TimedWrites(response), link, language)
            return response

    @asynccontextmanager
    async def _viewing(self, token: str) -> AsyncIterator[None]:
        """Count one event stream of ``token`` (and its task, which ``stop`` cancels) while it is open."""
        task = asyncio.current_task()
        assert task is not None
        self._streams.add(task)
        self._viewers[token] += 1
        try:
            yield
        finally:
            self._streams.discard(task)
            self._viewers[token] -= 1
            if not self._viewers[token]:
                del self._viewers[token]

    async def _stream(self, response: _TimedWrites, link: PageLink, language: str) -> None:
        """Send the live part, then again after each change of its topics, until the link is replaced.
        The token is looked up again only when its own topic says so (not once per viewer per change)."""
        revocation = link_topic(link)
        with self.hub.subscribe([revocation]) as subscription:
            checked = self.hub.version(revocation)  # pragma: no mutate (a wrong one: one more lookup)
            sent: bytes | None = None  # pragma: no mutate (any value that is no render's event)
            while True:
                if self.hub.version(revocation) != checked:
                    checked = self.hub.version(revocation)  # pragma: no mutate (as above)
                    if await self.links.by_token(link.token) is None:
                        await response.write(GONE)
                        return
                try:
                    rendered = await self.live_part(link, language)
                except NotShown:
                    await response.write(GONE)
                    return
                subscription.watch(rendered.data.topics)
                if rendered.event is not sent:
                    await response.write(rendered.event)
                    sent = rendered.event
                if not await subscription.wait(KEEPALIVE_SECONDS):
                    await response.write(b": keep-alive\n\n")

    # -- rendering ------------------------------------------------------------------------------------

    async def live_part(self, link: PageLink, language: str) -> _Rendered:
        """The page's live part, rendered again only when one of its topics changed since the last time."""
        key = (link.kind, link.resource_id, language)
        cached = self._cache.get(key)  # pragma: no mutate (a fast path: the locked one reads the same)
        if cached is not None and cached.versions == self._versions(cached.data.topics):
            return cached
        lock = self._render_locks.setdefault(key, asyncio.Lock())  # pragma: no mutate (shared: only slower)
        async with lock:
            cached = self._cache.get(key)
            if cached is not None and cached.versions == self._versions(cached.data.topics):
                return cached
            # Versions are read before the state, so a change landing during the read makes the next look
            # stale; a topic first seen in this read has no "before" (UNSEEN), which forces one more read.
            before = {topic: self.hub.version(topic) for topic in (cached.data.topics if cached else ())}
            data = await page_data(link, self.sources)
            versions = tuple(
                before.get(t, UNSEEN)  # pragma: no mutate (None, the default, is no version either)
                for t in data.topics
            )
            html = self.env.get_template(data.template).render(tr=Translate(language), **data.data)
            if cached is not None and cached.html == html:  # a change that does not show here (a vote)
                rendered = _Rendered(versions, html, data, cached.event)
            else:
                rendered = _Rendered(versions, html, data, _event("update", html))
            self._cache[key] = rendered
            return rendered

    def _versions(self, topics: list[str]) -> tuple[int, ...]:
        return tuple(self.hub.version(t) for t in topics)


class _TimedWrites:
    """An event stream whose every write must be taken by the viewer within ``WRITE_TIMEOUT_SECONDS``:
    a viewer that stopped reading would otherwise hold its connection (and a descriptor) forever."""

    def __init__(self, response: web.StreamResponse) -> None:
        self.response = response

    async def write(self, data: bytes) -> None:
        async with asyncio.timeout(WRITE_TIMEOUT_SECONDS):
            await self.response.write(data)


def busy() -> web.Response:
    """The polite refusal: 503, when to come back, and a small page in the four languages."""
    return web.Response(
        status=503,
        text=BUSY_PAGE,
        content_type="text/html",
        charset="utf-8",  # pragma: no mutate (aiohttp's default for text)
        headers={hdrs.RETRY_AFTER: str(RETRY_AFTER_SECONDS)},
    )


def _event(name: str, html: str) -> bytes:
    """One server-sent event carrying ``html`` on one ``data:`` line: the templates' line breaks are only
    whitespace between tags (no ``<pre>``), and one line is cheaper for every viewer to parse."""
    return f"event: {name}\ndata: {' '.join(line.strip() for line in html.splitlines())}\n\n".encode()


def page_server_for(bot: Any) -> PageServer:
    """The page server of a running bot, from its ``[web]`` settings."""
    config = bot.config
    limits = PageLimits(
        max_connections=config.get("web", "max_connections"),
        max_viewers_per_link=config.get("web", "max_viewers_per_link"),
        header_timeout=float(config.get("web", "header_timeout_seconds")),
    )
    return PageServer(
        bot.db,
        BotSources(bot),
        host=config.get("web", "host"),
        port=config.get("web", "port"),
        public_url=config.get("web", "public_url"),
        limits=limits,
    )


class BotSources:
    """The services of the running bot's cogs (looked up each time: a reloaded cog has new ones)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def _service(self, cog_name: str) -> Any:
        cog = self.bot.get_cog(cog_name)
        return getattr(cog, "service", None)

    @property
    def pods(self) -> Any:
        return self._service("Pods")

    @property
    def tournaments(self) -> Any:
        return self._service("Tournaments")

    @property
    def match_tournaments(self) -> Any:
        """The service of 1-vs-1 tournaments of matches (it needs the Pods cog's match service)."""
        cog = self.bot.get_cog("Tournaments")
        if cog is None or self.bot.get_cog("Pods") is None:
            return None
        return cog.match_rounds.service

    @property
    def hydra_events(self) -> Any:
        return self._service("HydraEvents")

    @property
    def stats(self) -> Any:
        return self._service("Stats")

    async def language(self, guild_id: int | None) -> str:
        return await self.bot.guild_language(guild_id)
