"""``podkeeper db migrate|backup|copy|purge-guild``: database maintenance."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bot.storage.db import Database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "db", help="database maintenance (migrate, backup)", description="Database maintenance."
    )
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    migrate = sub.add_parser(
        "migrate",
        help="apply pending schema migrations",
        description="Apply pending schema migrations (the bot also does this at start).",
    )
    migrate.set_defaults(func=_migrate)
    backup = sub.add_parser(
        "backup",
        help="consistent copy of the database, safe while the bot runs",
        description="Copy the database with SQLite's online backup API.",
    )
    backup.add_argument("path", type=Path, help="the new backup file (must not exist)")
    backup.set_defaults(func=_backup)
    copy = sub.add_parser(
        "copy",
        help="copy all data to another database (e.g. SQLite to PostgreSQL)",
        description="Copy every table from one database to another, in one transaction, and "
        "verify each table's row count. Stop the bot first so nothing changes "
        "meanwhile. URLs: a file path, sqlite:///file or postgresql://user@host/db.",
    )
    copy.add_argument("--from", dest="source", required=True, metavar="URL", help="the database to copy")
    copy.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="the database to fill (created and migrated when empty)",
    )
    copy.add_argument(
        "--replace",
        action="store_true",
        help="delete the target's rows first (otherwise a target holding data is refused)",
    )
    copy.set_defaults(func=_copy)
    purge = sub.add_parser(
        "purge-guild",
        help="delete everything stored about one server, now",
        description="Delete a server's games, decks, Hydra tables and events, tournaments and "
        "settings (what the bot does on its own [privacy] retention_days after "
        "leaving a server).",
    )
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
        detail = (
            ", ".join(f"{table} {count}" for table, count in deleted.items() if count) or "nothing was stored"
        )
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


def _copy(args: argparse.Namespace) -> int:
    from bot.storage.copy import copy_database

    async def run() -> int:
        source = await Database.open(args.source, migrate=False)
        try:
            target = await Database.open(args.target)
            try:
                copied = await copy_database(source, target, replace=args.replace)
            finally:
                await target.close()
        finally:
            await source.close()
        for table in copied:
            print(f"{table.name:32} {table.rows:>9} rows")
        print(
            f"copied {sum(t.rows for t in copied)} rows in {len(copied)} tables from {source.where} to "
            f"{target.where}; every table's count verified"
        )
        return 0

    return asyncio.run(run())
