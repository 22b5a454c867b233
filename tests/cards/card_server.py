"""A local stand-in for Scryfall's bulk-data list and MTGJSON's AtomicCards, served on 127.0.0.1 for the
card-sync tests (``tests/cards``) and the running bot's own syncs (``tests/decks``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Protocol

from aiohttp import web

Route = Callable[[web.Request], Awaitable[web.StreamResponse]]


class CardSources(Protocol):
    """A fake's three endpoints; ``base`` is set to the server's URL once it listens."""

    base: str
    bulk: Route
    oracle: Route
    atomic: Route


@asynccontextmanager
async def serving(fake: CardSources) -> AsyncIterator[str]:
    """Serve ``fake`` at ``/bulk-data``, ``/oracle-cards.json`` and ``/AtomicCards.json.gz`` on a free port;
    yields (and sets ``fake.base`` to) the server's URL."""
    app = web.Application()
    app.router.add_get("/bulk-data", fake.bulk)
    app.router.add_get("/oracle-cards.json", fake.oracle)
    app.router.add_get("/AtomicCards.json.gz", fake.atomic)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    fake.base = f"http://127.0.0.1:{port}"
    try:
        yield fake.base
    finally:
        await runner.cleanup()
