"""Presses stored per second with several bot processes on one PostgreSQL, and on SQLite.

Run: ``python benchmarks/bench_scale.py`` (PostgreSQL at ``PODKEEPER_BENCH_POSTGRES``, default
postgresql://postgres@127.0.0.1:5432/test; each run gets its own schema, dropped afterwards).

What one "press" is here: ``PodService.change`` of a life total, the work behind a life button after
discord.py parsed the interaction: load the game (cached), check, fold, and commit one event row with
its sequence number in one transaction. Each process is a real OS process with its own database
connection and its own games (as with shards, a server's games live in one process); within a process
``CONCURRENCY`` presses are in flight at once (several servers pressing). Throughput is all presses over
the wall time from a common start; latency is per press, p50/p99 over every process.

The floor beside each PostgreSQL row: the same processes and lanes committing the same transaction
with asyncpg alone (the write lock of the game's scope, one event row), no service, no fold; the ratio
bot/floor says what the bot adds to the database's own cost. Writers of different games take locks of
their own scopes, so the floor and the bot both scale with processes until the machine's cores (or the
server's fsync) are the limit.

``--presses N`` per process (default 2,000), ``--processes 1,2,4``, ``--concurrency 8``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.domain import pod  # noqa: E402
from bot.services.pods import PodService  # noqa: E402
from bot.storage.db import LOCK_CLASS, SCOPE_LOCK_CLASS, SCOPED_WRITE_LOCK_SQL, Database  # noqa: E402
from bot.storage.pods import game_scope  # noqa: E402

POSTGRES = os.environ.get("PODKEEPER_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
PLAYERS = [(1000 + i, f"Player {i}") for i in range(4)]


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _games(service: PodService, server: int, concurrency: int) -> list[int]:
    """One game per lane, in a server of this worker's own (as with shards; a member may have only so
    many open games in one server, so the floor's games are in other servers)."""
    return [
        (
            await service.start_game(
                guild_id=server,
                channel_id=server * 100 + lane,
                created_by=PLAYERS[0][0],
                players=PLAYERS,
                ruleset="commander",
            )
        ).game_id
        for lane in range(concurrency)
    ]


async def _press_loop(url: str, worker: int, presses: int, concurrency: int, start_at: float) -> list[float]:
    db = await Database.open(url)
    try:
        service = PodService(db)
        games = await _games(service, worker + 1, concurrency)
        latencies: list[float] = []

        async def lane(game_id: int, count: int) -> None:
            for n in range(count):
                actor = PLAYERS[n % len(PLAYERS)][0]
                started = time.perf_counter()
                await service.change(game_id, actor, pod.LIFE, player=actor, amount=-1 if n % 2 else 1)
                latencies.append(time.perf_counter() - started)

        await asyncio.sleep(max(0.0, start_at - time.time()))  # every process starts pressing together
        share, extra = divmod(presses, concurrency)
        await asyncio.gather(*(lane(g, share + (i < extra)) for i, g in enumerate(games)))
        return latencies
    finally:
        await db.close()


async def _raw_loop(url: str, worker: int, presses: int, concurrency: int, start_at: float) -> list[float]:
    """The floor: the bot's transaction of one press, sent with asyncpg alone on the bot's own pool."""
    db = await Database.open(url)
    try:
        service = PodService(db)
        games = await _games(service, 1000 + worker, concurrency)
        pool = db.pool  # type: ignore[attr-defined]
        latencies: list[float] = []

        async def lane(game_id: int, count: int) -> None:
            for n in range(count):
                started = time.perf_counter()
                async with pool.acquire() as raw, raw.transaction():
                    await raw.execute(
                        SCOPED_WRITE_LOCK_SQL, LOCK_CLASS, SCOPE_LOCK_CLASS, game_scope(game_id)
                    )
                    await raw.execute(
                        "INSERT INTO pod_events (game_id, seq, kind, actor_id, at, data) "
                        "VALUES ($1, $2, $3, $4, $5, $6)",
                        game_id,
                        n + 2,
                        pod.LIFE,
                        PLAYERS[0][0],
                        "2026-01-01T00:00:00",
                        "{}",
                    )
                latencies.append(time.perf_counter() - started)

        await asyncio.sleep(max(0.0, start_at - time.time()))
        share, extra = divmod(presses, concurrency)
        await asyncio.gather(*(lane(g, share + (i < extra)) for i, g in enumerate(games)))
        return latencies
    finally:
        await db.close()


def _worker(
    url: str,
    worker: int,
    presses: int,
    concurrency: int,
    start_at: float,
    results: multiprocessing.Queue,
    floor: bool = False,
) -> None:  # type: ignore[type-arg]
    loop = _raw_loop if floor else _press_loop
    latencies = asyncio.run(loop(url, worker, presses, concurrency, start_at))
    results.put((time.time(), latencies))


def run(
    url: str, processes: int, presses: int, concurrency: int, *, floor: bool = False
) -> tuple[float, float, float, int]:
    """(presses stored per second, p50 ms, p99 ms, presses) of ``processes`` processes on ``url``."""
    context = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
    start_at = time.time() + 3.0 + processes  # time to import and open the database in each process
    workers = [
        context.Process(target=_worker, args=(url, i, presses, concurrency, start_at, results, floor))
        for i in range(processes)
    ]
    for process in workers:
        process.start()
    finished = [results.get(timeout=600) for _ in workers]
    for process in workers:
        process.join()
        if process.exitcode != 0:
            raise SystemExit(f"a bench process failed (exit {process.exitcode})")
    ended = max(end for end, _ in finished)
    latencies = [lat for _, lats in finished for lat in lats]
    return (
        len(latencies) / (ended - start_at),
        percentile(latencies, 0.5) * 1000,
        percentile(latencies, 0.99) * 1000,
        len(latencies),
    )


async def _count(url: str) -> int:
    db = await Database.open(url)
    try:
        return int(await db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = ?", (pod.LIFE,)))
    finally:
        await db.close()


async def _schema(action: str, name: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(POSTGRES)
    try:
        await connection.execute(f"{action} SCHEMA {name}{' CASCADE' if action == 'DROP' else ''}")
    finally:
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=2_000, help="presses per process")
    parser.add_argument("--processes", default="1,2,4", help="process counts to run on PostgreSQL")
    parser.add_argument("--concurrency", type=int, default=8, help="presses in flight per process")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    print(
        f"{args.presses:,} presses per process, {args.concurrency} in flight per process, "
        f"{os.cpu_count()} cores"
    )
    print(
        f"{'database':<12}{'processes':>10}{'presses':>10}{'stored/s':>11}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'floor/s':>10}{'bot/floor':>10}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        asyncio.run(_migrate(url))
        rate, p50, p99, count = run(url, 1, args.presses, args.concurrency)
        assert asyncio.run(_count(url)) == count, "every press stored once"
        print(f"{'SQLite':<12}{1:>10}{count:>10,}{rate:>11,.0f}{p50:>9.1f}{p99:>9.1f}")
    if args.no_postgres:
        return
    for processes in (int(n) for n in args.processes.split(",")):
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        asyncio.run(_schema("CREATE", schema))
        try:
            url = f"{POSTGRES}?search_path={schema}"
            asyncio.run(_migrate(url))
            rate, p50, p99, count = run(url, processes, args.presses, args.concurrency)
            assert asyncio.run(_count(url)) == count, "every press stored once"
            floor, *_ = run(url, processes, args.presses, args.concurrency, floor=True)
            print(
                f"{'PostgreSQL':<12}{processes:>10}{count:>10,}{rate:>11,.0f}{p50:>9.1f}{p99:>9.1f}"
                f"{floor:>10,.0f}{rate / floor:>10.2f}"
            )
        finally:
            asyncio.run(_schema("DROP", schema))


async def _migrate(url: str) -> None:
    """Create the schema once, before the processes start (as ``podkeeper db migrate`` in a roll-out)."""
    db = await Database.open(url)
    await db.close()


if __name__ == "__main__":
    main()
