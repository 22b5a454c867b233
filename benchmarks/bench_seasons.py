"""``/season standings`` and ``/season export`` on a season of 10,000 scored games. Run by hand:

    .venv/bin/python benchmarks/bench_seasons.py [--games 10000] [--postgres postgresql://postgres@127.0.0.1/test]

Fills a fresh database (SQLite in a temporary folder, or a schema of its own on PostgreSQL) with one server's
season: ``--games`` finished pod games of four players drawn from 64 members, their season lines scored by the
real domain, nine in ten confirmed by every player, one in twenty disputed and one in twenty voided by an
organiser. Then times what the two commands do below Discord (the service: read, rank, and for the export the
CSV), 30 times each: wall clock p50/p99 and the CPU time of the event loop's thread (what the loop is held
for, without the wait for a shared core).

Measured 2026-12-02 on the shared 2-core machine (load 14-17), 10,000 games, 64 players, 1,000 results waiting:
SQLite: standings p50 60 ms, p99 196 ms wall, event-loop CPU p99 1.0 ms; export p50 82 ms, p99 131 ms wall,
loop CPU p99 1.2 ms. PostgreSQL: standings p50 109 ms, p99 216 ms wall, loop CPU p99 1.9 ms; export p50 86 ms,
p99 197 ms wall, loop CPU p99 1.5 ms. A first version that read all 40,000 player lines and ranked them in
Python held the loop for 170-250 ms of CPU per call (p99 wall 1.3-2.0 s): the totals are now summed in SQL
over each game's stored state (judged by the domain at every answer and decision) and only ranked in Python.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from bot.domain.season import VOID, PointsRule, ResultState
from bot.services.seasons import CSV_COLUMNS, SeasonService
from bot.storage.db import Database

GUILD = 1000
MEMBERS = [10_000 + n for n in range(64)]
RUNS = 30


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


async def fill(db: Database, games: int, rng: random.Random) -> int:
    service = SeasonService(db)
    season = await service.open(GUILD, "Bench", PointsRule(min_games=10))
    rows, lines = [], []
    for game_id in range(1, games + 1):
        table = rng.sample(MEMBERS, 4)
        winner = rng.choice(table)
        answers = {}
        for seat, user in enumerate(table, 1):
            kills = rng.randint(0, 2) if user == winner else rng.randint(0, 1)
            answer = "dispute" if game_id % 20 == 1 and seat == 2 else "confirm" if game_id % 10 else None
            if answer:
                answers[user] = answer
            lines.append(
                (
                    game_id,
                    user,
                    f"player {user}",
                    seat,
                    int(user == winner),
                    0,
                    kills,
                    3 * (user == winner) + kills,
                    answer,
                )
            )
        decision = VOID if game_id % 20 == 0 else None
        state = ResultState(
            players=frozenset(table),
            confirmed=frozenset(u for u, a in answers.items() if a == "confirm"),
            disputed=frozenset(u for u, a in answers.items() if a == "dispute"),
            decision=decision,
        )
        rows.append(
            (game_id, season.season_id, decision, state.status)
        )  # judged by the domain, as the bot does
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO pod_games (game_id, guild_id, created_at, ruleset, status) VALUES (?, ?, ?, ?, 'finished')",
            [(game_id, GUILD, "2026-12-01T00:00:00+00:00", "commander") for game_id in range(1, games + 1)],
        )
        await conn.executemany(
            "INSERT INTO season_games (game_id, season_id, decision, status) VALUES (?, ?, ?, ?)", rows
        )
        await conn.executemany(
            "INSERT INTO season_game_players (game_id, user_id, name, seat, won, survived, eliminations, points, answer) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            lines,
        )
    return season.season_id


async def timed(label: str, run) -> None:
    wall, cpu = [], []
    for _ in range(RUNS):
        start, started_cpu = time.perf_counter(), time.thread_time()
        await run()
        cpu.append(time.thread_time() - started_cpu)
        wall.append(time.perf_counter() - start)
    print(
        f"{label}: wall p50 {statistics.median(wall) * 1000:.1f} ms, p99 {percentile(wall, 0.99) * 1000:.1f} ms; "
        f"loop CPU p50 {statistics.median(cpu) * 1000:.1f} ms, p99 {percentile(cpu, 0.99) * 1000:.1f} ms"
    )


async def bench(url: str, games: int) -> None:
    db = await Database.open(url)
    try:
        season_id = await fill(db, games, random.Random(7))
        service = SeasonService(db)
        season = await service.repo.season(season_id)
        assert season is not None
        standings = await service.standings(season)
        print(f"{db.where}: {games} games, {len(standings.lines)} players, {standings.waiting} waiting")
        headers = {key: key for key in (*CSV_COLUMNS, "yes", "no")}
        await timed("/season standings", lambda: service.standings(season))
        await timed("/season export", lambda: service.export_csv(season, headers))
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument(
        "--postgres", metavar="URL", help="run on PostgreSQL (a schema of its own) instead of SQLite"
    )
    args = parser.parse_args()
    if args.postgres:
        schema = f"bench_seasons_{secrets.token_hex(4)}"
        url = f"{args.postgres}?search_path={schema}"
        asyncio.run(_with_schema(args.postgres, schema, url, args.games))
    else:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(bench(str(Path(folder) / "bench.sqlite3"), args.games))


async def _with_schema(admin_url: str, schema: str, url: str, games: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        await bench(url, games)
    finally:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()


if __name__ == "__main__":
    main()
