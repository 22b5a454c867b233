"""``podkeeper db copy``: move a playgroup's data between engines (SQLite -> PostgreSQL and back).

Both databases must be at this Podkeeper's schema version (the target is migrated on open; an older
source is refused so its own migrations run first, where they were written for). Every table is copied in
one target transaction, parents before the tables that reference them, so a failure leaves the target as
it was; afterwards each table's row count is read back from both sides and must agree. PostgreSQL's
self-numbering ids continue after the highest copied id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.storage.db import POSTGRESQL, Connection, Database, DatabaseError, available_migrations

_BATCH = 1000
_CREATE = re.compile(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)\s*\((.*?)\n\);", re.S | re.IGNORECASE)
_REFERENCES = re.compile(r"REFERENCES\s+(\w+)", re.IGNORECASE)
# Tables a migration fills in an empty database, with what counts as a playgroup's data in them: the next
# challenge table's id (migration 0065) is data once a table was made (a fresh database starts at 1).
_SEEDED = {"challenge_table_ids": "SELECT COUNT(*) FROM challenge_table_ids WHERE next_id > 1"}


@dataclass(frozen=True)
class CopiedTable:
    name: str
    rows: int


def table_order(tables: list[str]) -> list[str]:
    """``tables`` with every table after the ones it references (read from the migrations)."""
    parents: dict[str, set[str]] = {}
    for migration in available_migrations():
        for name, body in _CREATE.findall(migration.sql()):
            created = name.lower()
            references = {p.lower() for p in _REFERENCES.findall(body)}
            references.discard(created)  # pragma: no mutate (no table references itself yet)
            parents[created] = references
    ordered: list[str] = []

    def visit(table: str) -> None:
        if table in ordered:
            return
        for parent in sorted(parents.get(table, ())):
            if parent in tables:
                visit(parent)
        ordered.append(table)

    for table in sorted(tables):
        visit(table)
    return ordered


async def _columns(db: Database, table: str) -> list[str]:
    if db.engine == POSTGRESQL:
        rows = await db.fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "current_schema() AND table_name = ? ORDER BY ordinal_position",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (table,),
        )
        return [str(r[0]) for r in rows]
    return [str(r[1]) for r in await db.fetchall(f"PRAGMA table_info({table})")]


async def _count(db: Database, table: str) -> int:
    return int(await db.scalar(f"SELECT COUNT(*) FROM {table}") or 0)


async def _holds_data(db: Database, table: str) -> bool:
    """Whether ``table`` holds a playgroup's data (not only what the migrations put in a new database)."""
    return bool(await db.scalar(_SEEDED[table]) if table in _SEEDED else await _count(db, table))


async def _restart_identities(conn: Connection) -> None:
    """PostgreSQL's identity columns continue after the highest copied id (SQLite's rowids always do)."""
    for table, column in await conn.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
        "AND is_identity = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
        ("YES",),
    ):
        await conn.fetchone(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
            f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
        )


async def copy_database(source: Database, target: Database, *, replace: bool = False) -> list[CopiedTable]:
    """Copy every table of ``source`` into ``target``; returns the verified row count per table."""
    known = max(m.version for m in available_migrations())
    for db, role in ((source, "source"), (target, "target")):
        version = await db.schema_version()
        if version != known:
            raise DatabaseError(
                f"the {role} {db.where} has schema version {version}, this Podkeeper {known}: run "
                f"`podkeeper db migrate` with it first (or use the Podkeeper that wrote it)."
            )
    tables = table_order([t for t in await source.tables() if t != "schema_version"])
    missing = sorted(set(tables) - set(await target.tables()))
    if missing:
        raise DatabaseError(
            f"the target {target.where} lacks the tables {', '.join(missing)}; not a Podkeeper "
            f"database of this version"
        )
    filled = [t for t in tables if await _holds_data(target, t)]
    if filled and not replace:
        raise DatabaseError(
            f"the target {target.where} already holds data ({', '.join(filled)}); refusing to mix "
            f"two playgroups. Pass --replace to delete the target's rows first."
        )
    async with target.transaction() as conn:
        for table in reversed(tables):  # children before the parents they reference
            await conn.execute(f"DELETE FROM {table}")
        for table in tables:
            columns = await _columns(source, table)
            names = ", ".join(columns)
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
            rows = await source.fetchall(f"SELECT {names} FROM {table}")
            for start in range(0, len(rows), _BATCH):
                await conn.executemany(insert, [tuple(row) for row in rows[start : start + _BATCH]])
        if target.engine == POSTGRESQL:
            await _restart_identities(conn)
    copied: list[CopiedTable] = []
    for table in tables:
        expected, found = await _count(source, table), await _count(target, table)
        if expected != found:
            raise DatabaseError(
                f"copy of {table} has {found} rows, the source {expected}; the target is incomplete"
            )
        copied.append(CopiedTable(table, found))
    return copied
