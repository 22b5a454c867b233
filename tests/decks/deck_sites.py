"""A local stand-in for Archidekt's and Moxfield's deck APIs (127.0.0.1, never the internet), replaying
recorded response shapes from tests/data/decks/urls/. Shared by the URL tests of the service, CLI and cog."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from aiohttp import web

URLS = Path(__file__).parent.parent / "data" / "decks" / "urls"
ARCHIDEKT_ID = "1234567"
MOXFIELD_ID = "Kx0aLiAvA5tTheVast-C11"
# How long the ``slow`` deck takes to answer: ten times the test fetcher's half-second limit, and short
# enough that a fetcher without its limit (a mutant, a regression) fails on the site's late 404 in seconds
# instead of holding its test (and a mutation run) for half a minute.
SLOW_SITE_SECONDS = 5.0


# Spaces before the recorded Moxfield answer of the ``padded`` deck: JSON allows them, and they make the body
# arrive in several chunks whose first boundary always falls among them (a chunk is at most 64 KiB).
PADDING = 100_000


class FakeDeckSites:
    """``/archidekt/api/decks/<id>/`` and ``/moxfield/v3|v2/decks/all/<id>``; a few ids misbehave on purpose:
    ``401`` and ``403`` (private), ``500``, ``slow`` (answers after ``SLOW_SITE_SECONDS``), ``huge`` (endless body, no
    length), ``html``, ``empty`` (a JSON answer of no bytes), ``dropped`` (the connection closed halfway through
    the promised body), ``padded`` (the recorded deck after ``PADDING`` spaces) and ``redirectN`` (a 302 to
    ``redirect<N-1>``, ``redirect1``'s to the recorded Moxfield deck)."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []
        self.raw_headers: list[tuple[bytes, bytes]] = []  # the last request's, names as they were sent
        self.base = ""

    async def archidekt(self, request: web.Request) -> web.StreamResponse:
        return await self._answer(request, request.match_info["id"], "archidekt_{}.json")

    async def moxfield(self, request: web.Request) -> web.StreamResponse:
        return await self._answer(
            request, request.match_info["id"], f"moxfield_{request.match_info['v']}_{{}}.json"
        )

    async def _answer(self, request: web.Request, deck_id: str, pattern: str) -> web.StreamResponse:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        self.raw_headers = list(request.raw_headers)
        edge = await _transport_edge(request, deck_id, pattern)
        if edge is not None:
            return edge
        if deck_id in ("401", "403", "500"):
            return web.json_response({"error": "nope"}, status=int(deck_id))
        if deck_id == "slow":
            await asyncio.sleep(SLOW_SITE_SECONDS)
        if deck_id == "huge":
            response = web.StreamResponse(headers={"Content-Type": "application/json"})
            await response.prepare(request)
            for _ in range(200):
                await response.write(b"[" * 65536)
            return response
        if deck_id == "html":
            return web.Response(text="<html>Just a moment...</html>", content_type="text/html")
        path = URLS / pattern.format(deck_id)
        if not path.exists():
            return web.json_response({"detail": "Not found."}, status=404)
        return web.Response(body=path.read_bytes(), content_type="application/json")

    def urls(self) -> dict[str, str]:
        """``DeckUrlFetcher`` keyword arguments."""
        return {
            "archidekt_api": f"{self.base}/archidekt/api/decks/",
            "moxfield_api": f"{self.base}/moxfield/v3/decks/all/",
        }

    def urls_by_site(self) -> dict[str, str]:
        return {"archidekt": self.urls()["archidekt_api"], "moxfield": self.urls()["moxfield_api"]}


async def _transport_edge(request: web.Request, deck_id: str, pattern: str) -> web.StreamResponse | None:
    """The answers that test the fetcher's HTTP handling rather than a site's deck (Moxfield-style ids:
    Archidekt's are digits): redirects, a dropped connection, an empty and a padded body."""
    if deck_id.startswith("redirect"):
        hops = int(deck_id.removeprefix("redirect"))
        target = f"redirect{hops - 1}" if hops > 1 else MOXFIELD_ID
        raise web.HTTPFound(request.path.rsplit("/", 1)[0] + "/" + target)
    if deck_id == "dropped":
        return await _dropped_halfway(request)
    if deck_id == "empty":
        return web.Response(body=b"", content_type="application/json")
    if deck_id == "padded":
        recorded = (URLS / pattern.format(MOXFIELD_ID)).read_bytes()
        return web.Response(body=b" " * PADDING + recorded, content_type="application/json")
    return None


async def _dropped_halfway(request: web.Request) -> web.StreamResponse:
    """Promise 1000 bytes, send 10, hang up: what a site restarting or a proxy giving up mid-answer does."""
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    response.content_length = 1000
    await response.prepare(request)
    await response.write(b'{"name": "')
    assert request.transport is not None
    request.transport.close()
    return response


async def start_sites() -> tuple[FakeDeckSites, web.AppRunner]:
    fake = FakeDeckSites()
    app = web.Application()
    app.router.add_get("/archidekt/api/decks/{id}/", fake.archidekt)
    app.router.add_get("/moxfield/{v}/decks/all/{id}", fake.moxfield)
    # Closing cancels a request still being answered (the ``slow`` deck's wait) instead of waiting it out:
    # aiohttp's default would hold every test that asked for it the whole wait at teardown.
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    fake.base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    return fake, runner


def closed_port() -> int:
    """A port nothing listens on (bound, then released): connecting is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def sites_in_thread() -> Iterator[FakeDeckSites]:
    """The fake sites on their own event loop in a thread, for code that calls ``asyncio.run`` (the CLI)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    fake, runner = asyncio.run_coroutine_threadsafe(start_sites(), loop).result(10)
    try:
        yield fake
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
