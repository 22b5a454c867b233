"""``podkeeper stats server --guild ID``: one server's statistics from the database, without Discord.

The same figures as ``/stats server`` (bot/services/stats.py), printed as text or, with ``--json``, as
one JSON object. The database is the configured one unless ``--database`` names another (a file path or
a URL); games finished before the statistics existed are summarised first, as the bot does at start.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json

from bot.domain.stats.figures import ServerStats
from bot.services.stats import StatsService
from bot.storage.db import Database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "stats", help="statistics of a server's pod games", description="Statistics of recorded pod games."
    )
    sub = parser.add_subparsers(dest="stats_command", metavar="ACTION", required=True)
    server = sub.add_parser(
        "server",
        help="a server's games, commanders, longest games and leaders",
        description="Print the figures /stats server shows for one server.",
    )
    server.add_argument("--guild", type=int, required=True, metavar="ID", help="the server (guild) id")
    server.add_argument(
        "--database", metavar="URL", help="a database file or URL (default: the configured one)"
    )
    server.add_argument("--json", action="store_true", help="print JSON instead of text")
    server.set_defaults(func=_server)


def _server(args: argparse.Namespace) -> int:
    async def run() -> ServerStats:
        db = await Database.open(args.database or args.config_obj.database_url)
        try:
            service = StatsService(db)
            await service.backfill()
            return await service.server(args.guild)
        finally:
            await db.close()

    figures = asyncio.run(run())
    if args.json:
        print(json.dumps(dataclasses.asdict(figures), ensure_ascii=False, indent=2))
    else:
        print("\n".join(server_lines(figures)))
    return 0


def _percent(wins: int, games: int) -> str:
    return f"{round(100 * wins / games)}%" if games else "0%"


def server_lines(figures: ServerStats) -> list[str]:
    """The figures as plain English lines (the bot's own words are in /stats; this is an operator's tool)."""
    if not figures.games:
        return [f"server {figures.guild_id}: no finished pod games"]
    lines = [f"server {figures.guild_id}: {figures.games} games by {figures.players} players"]
    if figures.average_turns is not None:
        lines.append(f"average game: {figures.average_turns:.1f} turns")
    lines.append("most played commanders:")
    lines += [
        f"  {t.label}: {t.games} games, {t.wins} wins ({_percent(t.wins, t.games)})"
        for t in figures.commanders
    ]
    lines.append("most played colour identities:")
    lines += [f"  {t.label}: {t.games} games" for t in figures.identities]
    lines.append("leaderboard:")
    lines += [
        f"  {rank}. {line.name}: {line.wins}/{line.games} ({_percent(line.wins, line.games)})"
        for rank, line in enumerate(figures.leaderboard, start=1)
    ]
    lines.append("longest games:")
    lines += [f"  game #{g.game_id}: {g.turns} turns" for g in figures.longest]
    return lines
