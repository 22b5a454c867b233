"""``podkeeper season export --guild ID [--season NAME]``: a season's standings as CSV from the database.

The same file ``/season export`` attaches (UTF-8 with a BOM, so spreadsheet apps show CJK names), for an
organiser who keeps the bot's database and wants the standings without Discord, e.g. in a cron job.
Exit status: 0 written, 1 no such season (the message says which), 2 a bad command line.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.domain.season import SeasonError
from bot.i18n import LANGUAGES, t
from bot.services.seasons import CSV_COLUMNS, SeasonService
from bot.storage.db import Database

EXIT_NO_SEASON = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "season", help="seasons and leagues (export standings)", description="Seasons and leagues."
    )
    sub = parser.add_subparsers(dest="season_command", metavar="ACTION", required=True)
    export = sub.add_parser(
        "export",
        help="a season's standings as CSV",
        description="Write a season's standings as CSV (UTF-8 with a BOM), as /season export attaches them.",
    )
    export.add_argument("--guild", type=int, required=True, metavar="ID", help="the server (guild) id")
    export.add_argument(
        "--season", metavar="NAME", help="the season's name (default: the open or latest one)"
    )
    export.add_argument(
        "--database",
        metavar="URL",
        help="the database (a file path, sqlite:///file or postgresql://...; default: the config's)",
    )
    export.add_argument("--language", choices=LANGUAGES, default="en", help="language of the column titles")
    export.add_argument(
        "--output", type=Path, metavar="FILE", help="write to FILE instead of standard output"
    )
    export.set_defaults(func=_export)


def _export(args: argparse.Namespace) -> int:
    async def run() -> bytes:
        db = await Database.open(args.database or args.config_obj.database_url)
        try:
            service = SeasonService(db)
            season = await service.find(args.guild, args.season)
            headers = {key: t(f"season.csv.{key}", args.language) for key in (*CSV_COLUMNS, "yes", "no")}
            return await service.export_csv(season, headers)
        finally:
            await db.close()

    try:
        data = asyncio.run(run())
    except SeasonError as refused:
        print(f"podkeeper season export: {refused.localized(args.language)}", file=sys.stderr)
        return EXIT_NO_SEASON
    if args.output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        args.output.write_bytes(data)
        print(f"wrote {args.output}", file=sys.stderr)
    return 0
