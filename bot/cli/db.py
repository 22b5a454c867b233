"""``podkeeper db migrate|backup|purge-guild``: database maintenance."""

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
    purge = sub.add_parser("purge-guild", help="delete everything stored about one server, now",
                           description="Delete a server's games, decks, Hydra tables and events, tournaments and "
                                       "settings (what the bot does on its own [privacy] retention_days after "
                                       "leaving a server).")
    purge.add_argument("guild_id", type=int, metavar="ID", help="the server (guild) id")
    purge.set_defaults(func=_purge_guild)


def _migrate(args: argparse.Namespace) -> int:
    async def run() -> int:
        db = await Database.open(args.config_obj.database_url, migrate=False)
        try:
            applied = await db.migrate()
            version = await db.schema_version()
        finally:
            await db.close()
        names = ", ".join(f"{m.version:04d}_{m.name}" for m in applied) or "none"
        print(f"{db.where}: schema version {version}; applied: {names}")
        return 0

    return asyncio.run(run())


def _purge_guild(args: argparse.Namespace) -> int:
    from bot.services.privacy import PrivacyService

    async def run() -> int:
        db = await Database.open(args.config_obj.database_url)
        try:
            deleted = await PrivacyService(db).purge_guild(args.guild_id)
        finally:
            await db.close()
        rows = sum(deleted.values())
        detail = ", ".join(f"{table} {count}" for table, count in deleted.items() if count) or "nothing was stored"
        print(f"deleted {rows} rows of server {args.guild_id} from {db.where} ({detail})")
        return 0

    return asyncio.run(run())


def _backup(args: argparse.Namespace) -> int:
    async def run() -> int:
        db = await Database.open(args.config_obj.database_url, migrate=False)
        try:
            target = await db.backup(args.path)
        finally:
            await db.close()
        print(f"backed up {db.where} to {target}")
        return 0

    return asyncio.run(run())
