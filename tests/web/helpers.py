"""Shared by the page tests: a bot with the page server on, links from the real commands, SSE reading."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from bot.testing import DiscordHarness

TOURNAMENT_CARDS = Path(__file__).parent.parent / "data" / "tournament_cards.jsonl"
LINK = re.compile(r"http://\S+/p/[A-Za-z0-9_-]+")


def start(tmp_path: Path, **options):
    """The harness with ``[web] enabled`` on an ephemeral port of 127.0.0.1."""
    options = {"members": ("alice", "bob", "carol", "dave"), "web__enabled": True, "web__port": 0} | options
    return DiscordHarness.start(tmp_path, **options)


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
    response = await session.get(url + "/events")
    assert response.status == 200 and response.headers["Content-Type"] == "text/event-stream"
    return EventStream(response)
