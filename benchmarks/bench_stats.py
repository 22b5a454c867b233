"""``/stats server`` on a server with 10,000 recorded games. Run: nice python benchmarks/bench_stats.py

The games are random pods played by the real pod rules (tests/stats/games.py: 2-6 of 60 members, 150
commanders with their card rows, ~7 turns on average), summarised by the same ``write_summary`` the
finish uses, in one server, plus 2,000 games in another server (whose rows the queries must skip). Then,
on SQLite and on PostgreSQL (``PODKEEPER_BENCH_POSTGRES``, a schema of its own, dropped after):

1. the whole ``/stats server`` through the real bot (bot.testing harness: the interaction parsed by
   discord.py, the figures' SQL, the embed, the chart drawn in the work pool and the upload to the fake
   Discord), against ``/ping`` measured the same way in the same run, as a ratio of p99s;
   PostgreSQL's tables are vacuumed and analysed after loading (see ``vacuum_analyze``);
2. the figures alone (``StatsService.server``: nine aggregate queries) against a plain ``SELECT 1`` on
   the same database, and ``/stats me`` for the member with the most games.

Figures are p50 / p99 in milliseconds over ``--runs`` calls each (default 100), after 5 warm-up calls.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.services.stats import StatsService  # noqa: E402
from bot.storage.db import Database  # noqa: E402
from bot.storage.stats import write_summary  # noqa: E402
from bot.testing import DiscordHarness  # noqa: E402
from tests.stats.games import START, random_game  # noqa: E402

POSTGRES = os.environ.get("PODKEEPER_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
GAMES, OTHER_SERVER_GAMES = 10_000, 2_000
MEMBERS, COMMANDERS = 60, 150
COMMANDER_NAMES = [f"Bench Commander {i:03}" for i in range(COMMANDERS)]
WARM_UP = 5


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def timed(call: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, float]:
    for _ in range(WARM_UP):
        await call()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    return percentile(samples, 0.5), percentile(samples, 0.99)


async def record_games(db: Database, guild_id: int, count: int, first_id: int) -> None:
    """``count`` finished games of ``guild_id`` (pod_games rows and their statistics), 500 per transaction."""
    for start in range(0, count, 500):
        async with db.transaction() as conn:
            for game_id in range(first_id + start, first_id + min(start + 500, count)):
                record, events = random_game(
                    game_id,
                    game_id=game_id,
                    guild_id=guild_id,
                    pool=MEMBERS,
                    start=START + timedelta(hours=7 * (game_id - first_id)),
                    commanders=COMMANDER_NAMES,
                )
                await conn.execute(
                    "INSERT INTO pod_games (game_id, guild_id, created_at, ruleset, status, ended, "
                    "ended_at) VALUES (?, ?, ?, 'commander', 'finished', ?, ?)",
                    (game_id, guild_id, events[0].at, record.ended, record.ended_at),
                )
                await write_summary(conn, record, events[0].at)


async def add_commander_cards(db: Database) -> None:
    rng = random.Random(1)
    for name in COMMANDER_NAMES:
        identity = "".join(c for c in "WUBRG" if rng.random() < 0.4)
        await db.execute(
            "INSERT INTO cards (name, layout, type_line, color_identity, commander_legality, data) "
            "VALUES (?, 'normal', 'Legendary Creature', ?, 'legal', '{}')",
            (name, identity),
        )


async def vacuum_analyze(schema: str) -> None:
    """What autovacuum has done long before a real server has 10,000 games (they come over months, not in
    one minute): planner statistics and the visibility map that lets index-only scans skip the table."""
    import asyncpg

    conn = await asyncpg.connect(POSTGRES, server_settings={"search_path": schema})
    try:
        await conn.execute("VACUUM ANALYZE stats_players")
        await conn.execute("VACUUM ANALYZE stats_games")
    finally:
        await conn.close()


async def bench_engine(label: str, runs: int, schema: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordHarness.start(Path(tmp), members=("alice",)) as h:
            db, guild = h.bot.db, h.guild.id
            started = time.perf_counter()
            await add_commander_cards(db)
            await record_games(db, guild, GAMES, 1)
            await record_games(db, guild + 1, OTHER_SERVER_GAMES, GAMES + 1)
            if schema is not None:
                await vacuum_analyze(schema)
            setup = time.perf_counter() - started
            rows = await db.scalar("SELECT COUNT(*) FROM stats_players WHERE guild_id = ?", (guild,))
            busiest = await db.scalar(
                "SELECT user_id FROM stats_players WHERE guild_id = ? GROUP BY user_id "
                "ORDER BY COUNT(*) DESC LIMIT 1",
                (guild,),
            )
            service = StatsService(db)
            figures = await service.server(guild)
            assert figures.games > 9_000, figures.games
            reply = await h.slash("stats server", user="alice")
            assert reply.files, "the chart was sent"

            async def stats_command() -> None:
                await h.slash("stats server", user="alice")

            async def ping_command() -> None:
                await h.slash("ping", user="alice")

            command = await timed(stats_command, runs)
            ping = await timed(ping_command, runs)
            server = await timed(lambda: service.server(guild), runs)
            select = await timed(lambda: db.scalar("SELECT 1"), runs)
            member = await timed(lambda: service.member(guild, int(busiest)), runs)
    print(
        f"\n{label}: {figures.games:,} counted games ({rows:,} player rows) in the server, "
        f"{OTHER_SERVER_GAMES:,} in another; set-up {setup:.0f} s"
    )
    print(f"{'':<32}{'p50 ms':>9}{'p99 ms':>9}{'p99 / floor':>13}")
    print(
        f"{'/stats server (whole command)':<32}{command[0]:>9.1f}{command[1]:>9.1f}{command[1] / ping[1]:>13.1f}"
    )
    print(f"{'/ping (floor)':<32}{ping[0]:>9.1f}{ping[1]:>9.1f}")
    print(f"{'StatsService.server':<32}{server[0]:>9.1f}{server[1]:>9.1f}{server[1] / select[1]:>13.1f}")
    print(
        f"{'StatsService.member (busiest)':<32}{member[0]:>9.1f}{member[1]:>9.1f}{member[1] / select[1]:>13.1f}"
    )
    print(f"{'SELECT 1 (floor)':<32}{select[0]:>9.2f}{select[1]:>9.2f}")


async def postgres_schema(action: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES)
    try:
        await conn.execute(f"{action} SCHEMA {name}" + (" CASCADE" if action == "DROP" else ""))
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    os.environ.pop("PODKEEPER_DATABASE_URL", None)
    asyncio.run(bench_engine("SQLite", args.runs))
    if args.no_postgres:
        return
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(postgres_schema("CREATE", schema))
    try:
        os.environ["PODKEEPER_DATABASE_URL"] = f"{POSTGRES}?search_path={schema}"
        asyncio.run(bench_engine("PostgreSQL", args.runs, schema))
    finally:
        os.environ.pop("PODKEEPER_DATABASE_URL", None)
        asyncio.run(postgres_schema("DROP", schema))


if __name__ == "__main__":
    main()
