"""``podkeeper db migrate|backup``: database maintenance."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bot.storage.db import Database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("db", help="database maintenance (migrate, backup)",
                                   description="Database maintenance.")
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    migrate = sub.add_parser("migrate", help="apply pending schema migrations",
                             description="Apply pending schema migrations (the bot also does this at start).")
    migrate.set_defaults(func=_migrate)
    backup = sub.add_parser("backup", help="consistent copy of the database, safe while the bot runs",
                            description="Copy the database with SQLite's online backup API.")
    backup.add_argument("path", type=Path, help="the new backup file (must not exist)")
    backup.set_defaults(func=_backup)


def _migrate(args: argparse.Namespace) -> int:
    async def run() -> int:
        db = await Database.open(args.config_obj.database_path, migrate=False)
        try:
            applied = await db.migrate()
            version = await db.schema_version()
        finally:
            await db.close()
        names = ", ".join(f"{m.version:04d}_{m.name}" for m in applied) or "none"
        print(f"{args.config_obj.database_path}: schema version {version}; applied: {names}")
        return 0

    return asyncio.run(run())


def _backup(args: argparse.Namespace) -> int:
    async def run() -> int:
        db = await Database.open(args.config_obj.database_path, migrate=False)
        try:
            target = await db.backup(args.path)
        finally:
            await db.close()
        print(f"backed up {args.config_obj.database_path} to {target}")
        return 0

    return asyncio.run(run())
