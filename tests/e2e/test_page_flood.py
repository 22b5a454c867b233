"""A page flood cannot take the bot down: ``podkeeper run`` as a real process with only 256 open files
(it cannot raise the limit), the page server on 127.0.0.1, and against it 300 event-stream viewers of
one link plus 150 requests that never finish their headers. Without caps those used up every
descriptor: ``/ping`` went unanswered, presses were not stored and asyncio logged a traceback for every
refused ``accept``. Now the connections beyond the cap get a 503 with ``Retry-After``, half-sent requests
are closed after the header timeout, ``/ping`` and a board press are still served, and the flood is one
log line."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest

from bot.domain import pod
from bot.storage.db import Database
from bot.storage.pods import PodRepository
from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
from bot.testing.harness import standard_world
from tests.e2e.bot_process import TOKEN, BotProcess
from tests.web.helpers import link_in

pytestmark = pytest.mark.slow

OPEN_FILES = 256  # the bot keeps 128 for itself, so at most 128 page connections
VIEWERS, HALF_SENT = 300, 150


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def open_viewer(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    return reader, writer


async def open_half_sent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /p/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never ends its headers
    await writer.drain()
    return reader, writer


async def first_line(reader: asyncio.StreamReader, timeout: float = 30.0) -> bytes | None:
    """The status line the server sent: b"" when it closed without one, None when it left the
    connection hanging."""
    try:
        async with asyncio.timeout(timeout):
            return await reader.readline()
    except ConnectionError:
        return b""
    except TimeoutError:
        return None


async def test_a_page_flood_leaves_ping_and_presses_served(tmp_path: Path, capsys) -> None:
    fake = FakeDiscord()
    guild = standard_world(fake, members=("alice", "bob"))
    port = free_port()
    environment = {
        "PODKEEPER_WEB_ENABLED": "true",
        "PODKEEPER_WEB_PORT": str(port),
        "PODKEEPER_WEB_HEADER_TIMEOUT_SECONDS": "2",
    }
    connections: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        bot = BotProcess(server, tmp_path, environment=environment, open_files=OPEN_FILES)
        driver = RemoteDriver(server, guild, quiet=0.05, min_quiet=0.02, max_wait=10)
        try:
            await bot.start()
            board = await driver.slash(
                "pod start", players=f"{driver.user('alice').mention} {driver.user('bob').mention}"
            )
            events_path = link_in((await driver.slash("pod overlay", user="alice")).content).split(
                str(port), 1
            )[1]
            events_path += "/events"

            viewers = [await open_viewer(port, events_path) for _ in range(VIEWERS)]
            half_sent = [await open_half_sent(port) for _ in range(HALF_SENT)]
            connections = viewers + half_sent
            statuses = await asyncio.gather(*(first_line(reader) for reader, _ in viewers))
            served = sum(line is not None and line.startswith(b"HTTP/1.1 200") for line in statuses)
            refused = sum(line is not None and line.startswith(b"HTTP/1.1 503") for line in statuses)
            closed = statuses.count(b"")  # beyond the refusals that linger to be read: closed at once
            # More served than the cap means admitted streams ended early and freed their places: the
            # bot's log says why (a refusal of the gate, an error in a stream).
            assert served + refused + closed == VIEWERS and 0 < served <= OPEN_FILES - 128 and refused > 0, (
                f"{served} served, {refused} refused, {closed} closed; the bot's log ends: {bot.log()[-3000:]}"
            )

            # Under the flood, the bot still answers, and a press is stored.
            pinged = time.perf_counter()
            assert "Pong!" in (await driver.slash("ping")).content
            ping_seconds = time.perf_counter() - pinged
            await driver.click(board, label="+1", user="bob")
            for _ in range(100):
                if await life_changes(bot.db_path) == 1:
                    break
                await asyncio.sleep(0.1)
            assert await life_changes(bot.db_path) == 1

            # The half-sent requests are closed by the header timeout (no status line, or the 503).
            endings = await asyncio.gather(*(first_line(reader) for reader, _ in half_sent))
            assert all(
                line is not None and (line == b"" or line.startswith(b"HTTP/1.1 503")) for line in endings
            ), set(endings)
        finally:
            for _, writer in connections:
                writer.close()
            bot.stop()
            driver.close()
    log = bot.log()
    assert "Traceback" not in log and "out of system resource" not in log, log[-3000:]
    assert log.count("page server full: refusing") == 1, log
    assert len(log) < 20_000, len(log)
    with capsys.disabled():
        print(
            f"\npage flood at {OPEN_FILES} open files: {VIEWERS} viewers of one link -> {served} served, "
            f"{refused} refused with 503, {closed} closed at once; {HALF_SENT} half-sent requests closed by the "
            f"header timeout; /ping answered in {ping_seconds:.2f} s and a press stored under the flood; "
            f"log {len(log)} bytes, flood lines: {log.count('refusing')}"
        )


async def life_changes(db_path: Path) -> int:
    db = await Database.open(db_path)
    try:
        return sum(event.kind == pod.LIFE for event in await PodRepository(db).events(1))
    finally:
        await db.close()
