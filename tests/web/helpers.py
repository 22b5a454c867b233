"""Shared by the page tests: a bot with the page server on, links from the real commands, SSE reading."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import aiohttp

from bot.testing import DiscordHarness
from bot.web.server import KEEPALIVE_SECONDS

TOURNAMENT_CARDS = Path(__file__).parent.parent / "data" / "tournament_cards.jsonl"
LINK = re.compile(r"http://\S+/p/[A-Za-z0-9_-]+")

# The page tests' clients talk to a server on 127.0.0.1: an answer that has not come within seconds is a
# broken server (a connection gate that holds every connection, say), and the test must fail then, not
# after aiohttp's default of five minutes (a mutation run pays that wait once a mutant). Generous for a
# busy 2-core machine all the same. A page's whole answer gets PAGE_TIMEOUT; an event stream lives as
# long as its test wants, so its silence is bounded instead: the server breaks it with a keep-alive every
# KEEPALIVE_SECONDS.
PAGE_TIMEOUT = aiohttp.ClientTimeout(total=15)
STREAM_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=KEEPALIVE_SECONDS + 10)


def start(tmp_path: Path, **options):
    """The harness with ``[web] enabled`` on an ephemeral port of 127.0.0.1."""
    options = {"members": ("alice", "bob", "carol", "dave"), "web__enabled": True, "web__port": 0} | options
    return DiscordHarness.start(tmp_path, **options)


def client() -> aiohttp.ClientSession:
    """A client session whose requests fail within PAGE_TIMEOUT (streams: see ``stream_get``)."""
    return aiohttp.ClientSession(timeout=PAGE_TIMEOUT)


def stream_get(session: aiohttp.ClientSession, url: str, **params: str) -> Any:
    """``session.get`` of an event stream, with STREAM_TIMEOUT instead of the page's total (awaited or
    used as ``async with``, like ``session.get``)."""
    return session.get(url, params=params, timeout=STREAM_TIMEOUT)


def cells(html: str, testid: str) -> list[list[str]]:
    """The rows of a page's table as lists of cell texts (tags dropped)."""
    table = re.search(rf'<table data-testid="{testid}">(.*?)</table>', html, re.S)
    assert table, testid
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)[1:]
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)]
        for r in rows
    ]


def link_in(text: str) -> str:
    found = LINK.findall(text)
    assert len(found) == 1, text
    return found[0]


async def pod_game(h: DiscordHarness, *names: str) -> tuple[int, str]:
    """A pod game started with /pod start, and its overlay link from /pod overlay (asked by a player)."""
    names = names or ("alice", "bob")
    await h.slash("pod start", players=" ".join(h.user(n).mention for n in names))
    reply = await h.slash("pod overlay", user=names[0])
    assert reply.ephemeral, reply.content
    running = await h.bot.get_cog("Pods").service.open_in_channel(h.channel("general").id)
    return running[0].game_id, link_in(reply.content)


class EventStream:
    """A server-sent event stream, read event by event."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self, timeout: float = 1.0) -> tuple[str, str]:
        """(event name, data) of the next event, keep-alive comments skipped."""
        name, data = "message", []
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.response.content.readline()
                if not raw and self.response.content.at_eof():
                    raise EOFError  # checked first: the blank line that ends an event reads "" too
                line = raw.decode().rstrip("\n")
                if line.startswith(":"):
                    continue
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: ") or line == "data:":
                    data.append(line[6:])
                elif line == "" and (data or name != "message"):
                    return name, "\n".join(data)


async def open_stream(session: aiohttp.ClientSession, url: str) -> EventStream:
    response = await stream_get(session, url + "/events")
    assert response.status == 200 and response.headers["Content-Type"] == "text/event-stream"
    return EventStream(response)
