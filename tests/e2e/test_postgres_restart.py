"""A PostgreSQL restart in the middle of a night: the bot reconnects by itself and no stored press is lost.

A throwaway cluster of its own (initdb into a temporary folder, a free port on 127.0.0.1, run as the
``postgres`` user) is restarted while presses go on. A press either commits and says so, or fails and says
so: after the restart every press that returned is in the log exactly once, the log has no gaps, presses
succeed again without restarting the bot, and a press that failed is stored whole or not at all.
Writes that had not started and reads wait for the server (``bot.storage.db.while_reachable``), so only a
press caught mid-statement fails.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.domain import pod
from bot.leases import PostgresLeases
from bot.notify import PostgresNotifier
from bot.services.pods import PodService
from bot.storage.db import Database

pytestmark = pytest.mark.slow

BIN = Path("/usr/lib/postgresql/15/bin")
PLAYERS = [(101, "alice"), (102, "bob")]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A PostgreSQL cluster in a folder of its own, started and restarted with pg_ctl as ``postgres``."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, _free_port()
        self.options = f"-p {self.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(BIN / "pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-l",
                str(self.folder / "log"),
                "-o",
                self.options,
                "-w",
                *args,
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def create(self) -> None:
        shutil.chown(self.folder, "postgres")
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(BIN / "initdb"),
                "-D",
                str(self.folder / "data"),
                "-A",
                "trust",
                "-U",
                "postgres",
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
        self._ctl("start")

    def restart(self) -> None:
        self._ctl("-m", "fast", "restart")

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    if not (BIN / "initdb").exists() or shutil.which("runuser") is None:
        pytest.skip("needs PostgreSQL 15's server binaries and runuser")
    # Not under pytest's tmp_path: its parents are private to root, and the server runs as postgres.
    folder = Path(tempfile.mkdtemp(prefix="podkeeper-throwaway-postgres-"))
    throwaway = Cluster(folder)
    try:
        throwaway.create()
        yield throwaway
        throwaway.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def test_presses_go_on_after_a_postgresql_restart_and_none_that_returned_is_lost(
    cluster: Cluster,
) -> None:
    db = await Database.open(cluster.url, pool_size=4)
    try:
        service = PodService(db)
        games = [
            (
                await service.start_game(
                    guild_id=1, channel_id=lane, created_by=101, players=PLAYERS, ruleset="commander"
                )
            ).game_id
            for lane in range(4)
        ]
        stored: dict[int, int] = dict.fromkeys(games, 0)
        failed: dict[int, int] = dict.fromkeys(games, 0)

        async def lane(game_id: int) -> None:
            for _ in range(60):
                try:
                    await service.change(game_id, 101, pod.LIFE, player=102, amount=1)
                    stored[game_id] += 1
                except Exception:  # noqa: BLE001 - the press failed loudly
                    failed[game_id] += 1
                    service.forget(game_id)
                await asyncio.sleep(0.02)

        presses = asyncio.gather(*(lane(g) for g in games))
        await asyncio.sleep(0.4)
        await asyncio.to_thread(cluster.restart)
        await presses
        after = {g: await service.change(g, 101, pod.LIFE, player=102, amount=1) for g in games}
        for game_id in games:
            rows = await db.fetchall("SELECT seq FROM pod_events WHERE game_id = ? ORDER BY seq", (game_id,))
            seqs = [row[0] for row in rows]
            assert seqs == list(range(1, len(seqs) + 1))  # no gap, no sequence number twice
            # Creation, every press that returned, one more; and of the presses that failed, only those
            # whose commit the server made but could not confirm before it went down (no client can know
            # such a commit's outcome). A commit the server confirmed is never reported as failed: that
            # would ask the member for a second press.
            presses_stored = len(seqs) - 2
            assert stored[game_id] <= presses_stored <= stored[game_id] + failed[game_id]
            assert after[game_id].state.player(102).life == 40 + presses_stored + 1
        assert sum(stored.values()) + sum(failed.values()) == 4 * 60
        # Only a press whose statements were on the wire when the server went down fails (one per lane at
        # most, twice if the shutdown and the start-up each catch one); the others wait for the server.
        assert sum(failed.values()) <= 2 * len(games), failed
    finally:
        await db.close()


async def test_after_a_restart_one_process_holds_the_timers_again(cluster: Cluster) -> None:
    """Both processes' lease sessions die with the server; when it is back, exactly one of them takes the
    kind again and re-arms its timers from the database, the other does not run them."""
    armed: list[set[str]] = [set(), set()]

    def timers(index: int) -> tuple[object, object]:
        async def rearm(taking_over: bool) -> None:
            armed[index] |= {"vote-1"}

        def release() -> None:
            armed[index].clear()

        return rearm, release

    processes = [
        PostgresLeases(cluster.url, "restart", PostgresNotifier(cluster.url, "restart"), poll_seconds=0.2)
        for _ in range(2)
    ]
    for leases in processes:
        await leases.start()
    try:
        kinds = [await leases.register("tournament-votes", *timers(i)) for i, leases in enumerate(processes)]
        assert [kind.held for kind in kinds] == [True, False]
        await asyncio.to_thread(cluster.restart)
        for _ in range(600):  # up to a minute on a busy machine
            if any(kind.held for kind in kinds):
                break
            await asyncio.sleep(0.1)
        [holder] = [kind for kind in kinds if kind.held]
        await holder.wait_rearmed()
        await asyncio.sleep(1.0)  # a few polls later: still one owner
        assert sum(kind.held for kind in kinds) == 1
        assert sorted(map(len, armed)) == [0, 1]
    finally:
        for leases in processes:
            await leases.close()
