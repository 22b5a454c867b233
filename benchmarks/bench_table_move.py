"""How long migration 0065 (every deck's tables into one family of SQL tables) takes on a big database, and
what a table's load costs after it. Run by hand:

    nice python benchmarks/bench_table_move.py [--tables 5000] [--actions 40] [--postgres URL]

An SQLite file (and, with ``--postgres``, a fresh schema of that database) is migrated to the schema before
0065 and filled, in the old tables, with ``--tables`` Hydra tables and as many Horde and God tables (ids
1..n in both families, as a real database has them), each with two seats and ``--actions`` actions. Then
0065 is applied alone and timed (wall clock and this process's CPU; on PostgreSQL the work is the server's,
so compare wall clock), and 500 loads of a table's row, seats and log through the repository are timed
after it (the service's three reads of a load). The figure to compare is the migration's time per
million actions: an operator's database of this size waits that long once, with the bot stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage.challenge import ChallengeRepository  # noqa: E402
from bot.storage.db import Database, available_migrations  # noqa: E402
from bot.storage.hydra import HydraRepository  # noqa: E402

ONE_FAMILY = 65


async def _fill(db: Database, tables: int, actions: int) -> None:
    async with db.transaction() as conn:
        for family in ("hydra", "challenge"):
            games, seats, log = [], [], []
            for game_id in range(1, tables + 1):
                if family == "hydra":
                    games.append((game_id, 1, 10, 100, "t", 5, game_id, "t", "playing"))
                else:
                    games.append(
                        (
                            game_id,
                            1,
                            10,
                            "horde" if game_id % 2 else "god",
                            3,
                            game_id,
                            "playing",
                            100,
                            "t",
                            "t",
                        )
                    )
                seats += [(game_id, seat, 100 + seat, f"P{seat}") for seat in (1, 2)]
                log += [
                    (game_id, seq, "end" if seq % 2 else "choose pass", 101, "t")
                    for seq in range(1, actions + 1)
                ]
            if family == "hydra":
                await conn.executemany(
                    "INSERT INTO hydra_games (game_id, guild_id, channel_id, created_by, "
                    "created_at, heads, seed, updated_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    games,
                )
            else:
                await conn.executemany(
                    "INSERT INTO challenge_games (game_id, guild_id, channel_id, deck, difficulty, "
                    "seed, status, created_by, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    games,
                )
            await conn.executemany(
                f"INSERT INTO {family}_seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)", seats
            )
            await conn.executemany(
                f"INSERT INTO {family}_actions (game_id, seq, line, actor_id, at) VALUES (?, ?, ?, ?, ?)", log
            )


Reads = Callable[[str, int], Awaitable[int]]  # (family, game id) -> actions read


def _old_reads(db: Database) -> Reads:
    """A load's three reads as the repository made them before 0065 (one family's tables)."""

    async def read(family: str, game_id: int) -> int:
        assert await db.fetchone(f"SELECT * FROM {family}_games WHERE game_id = ?", (game_id,)) is not None
        await db.fetchall(
            f"SELECT seat, user_id, name, heroes FROM {family}_seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return len(
            await db.fetchall(
                f"SELECT seq, line, actor_id, at FROM {family}_actions WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        )

    return read


def _new_reads(db: Database) -> Reads:
    repos = {"hydra": HydraRepository(db), "challenge": ChallengeRepository(db)}

    async def read(family: str, game_id: int) -> int:
        repo = repos[family]
        assert await repo.game(game_id) is not None
        await repo.seats(game_id)
        return len(await repo.actions(game_id))

    return read


async def _timed(read: Reads, tables: int, actions: int) -> tuple[float, float]:
    """p50 and p95 in ms of 500 loads of random tables of both families."""
    rng = random.Random(1)
    loads = []
    for _ in range(500):
        start = time.perf_counter()
        assert await read(rng.choice(("hydra", "challenge")), rng.randint(1, tables)) == actions
        loads.append(time.perf_counter() - start)
    loads.sort()
    return loads[250] * 1e3, loads[475] * 1e3


async def _one(url: str | Path, tables: int, actions: int) -> None:
    db = await Database.open(url, migrate=False)
    try:
        migrations = available_migrations()
        await db.migrate([m for m in migrations if m.version < ONE_FAMILY])
        await _fill(db, tables, actions)
        before = await _timed(_old_reads(db), tables, actions)
        wall, cpu = time.perf_counter(), time.process_time()
        applied = await db.migrate([m for m in migrations if m.version == ONE_FAMILY])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert [m.version for m in applied] == [ONE_FAMILY]
        moved = int(await db.scalar("SELECT COUNT(*) FROM challenge_table_actions"))
        assert moved == 2 * tables * actions and not await db.scalar("SELECT COUNT(*) FROM hydra_actions")
        await db.migrate()
        after = await _timed(_new_reads(db), tables, actions)
        print(
            f"{db.engine}: {2 * tables} tables, {moved:,} actions moved in {wall:.2f} s "
            f"({wall / moved * 1e6:.2f} s per million actions; this process's CPU {cpu:.2f} s); "
            f"a load (row, seats, {actions} actions) p50/p95 before {before[0]:.2f}/{before[1]:.2f} ms "
            f"(the old tables' three reads), after {after[0]:.2f}/{after[1]:.2f} ms (the repository)"
        )
    finally:
        await db.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=5000, help="tables per family")
    parser.add_argument("--actions", type=int, default=40, help="actions per table")
    parser.add_argument(
        "--postgres", help="a PostgreSQL database URL to run in a fresh schema of (dropped after)"
    )
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args()
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as folder:
            await _one(Path(folder) / "bench.sqlite3", args.tables, args.actions)
    if args.postgres:
        import asyncpg

        schema = f"bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(args.postgres)
        await admin.execute(f"CREATE SCHEMA {schema}")
        try:
            separator = "&" if "?" in args.postgres else "?"
            await _one(f"{args.postgres}{separator}search_path={schema}", args.tables, args.actions)
        finally:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
