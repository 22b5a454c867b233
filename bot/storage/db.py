"""The SQLite database: connection settings, migrations, transactions and online backup.

One process owns the database (one aiosqlite connection = one writer thread). Mutations go through
``Database.transaction()``, which serialises writers with an asyncio lock and commits or rolls back
as a unit. A PostgreSQL backend would replace this module and keep the repositories' interface;
the SQL in ``migrations/`` and the repositories sticks to what both engines accept (no SQLite-only
functions in queries; ``INSERT ... ON CONFLICT`` is shared by both).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.changes import ChangeHub
from bot.storage.commits import note_commit

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
SQLITE_HEADER = b"SQLite format 3\x00"
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class DatabaseError(Exception):
    """The database can't be used as it is; the message says why and what to do."""


class ProcessLock:
    """One bot per database file: an exclusive ``flock`` on ``<database>.lock``, held while the bot runs.

    Two bots on one database both receive every Discord interaction and both apply it (50 presses
    became 77 events), so the second one refuses to start. The kernel drops the lock when the process
    dies, even by ``kill -9``: a crash never leaves a stale lock behind. Command-line tools (backup,
    card import) don't take it; they may run beside the bot.
    """

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "another process"
            os.close(fd)
            raise DatabaseError(
                f"another Podkeeper bot (pid {holder}) is already running on {self.path.with_suffix('')}. "
                f"Two bots on one database would apply every button press twice; stop the other one first "
                f"or give this one its own [database] path.") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd
        # Worker processes are forked from the bot (bot/workers.py) and would inherit the descriptor,
        # keeping the lock after the bot itself was killed. A child closes its copy at once (closing,
        # not unlocking: the lock belongs to the bot's copy).
        os.register_at_fork(after_in_child=self._forget_in_child)

    def _forget_in_child(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")


def available_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise DatabaseError(f"migration file {path.name} is not named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), match.group(2), path))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise DatabaseError(f"two migrations share a number in {directory}")
    return found


def check_is_sqlite(path: Path) -> None:
    """Refuse a file that exists but is not an SQLite database: we never overwrite it."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise DatabaseError(f"{path} exists but is not an SQLite database; refusing to touch it. "
                            f"Move it away or set [database] path to another file.")


class Database:
    """An open database. Use ``await Database.open(path)``; close with ``await db.close()``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()
        self._process_lock: ProcessLock | None = None
        # Committed-change notices for live readers (the web pages): see bot.changes.
        self.changes = ChangeHub()

    @classmethod
    async def open(cls, path: str | Path, *, migrate: bool = True, exclusive: bool = False) -> Database:
        """Open (and migrate) the database. ``exclusive``: the bot's own open, refused while another
        bot holds the file (:class:`ProcessLock`); the lock is released by :meth:`close`."""
        path = Path(path)
        process_lock = None
        if str(path) != ":memory:":
            check_is_sqlite(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                process_lock = ProcessLock(path)
                process_lock.acquire()
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            if process_lock is not None:
                process_lock.release()
            raise DatabaseError(f"cannot open database {path}: {exc}") from None
        conn.row_factory = aiosqlite.Row
        db = cls(conn, path)
        db._process_lock = process_lock
        try:
            await db._configure()
            if migrate:
                await db.migrate()
            else:
                await db.check_schema_not_newer()
        except BaseException:
            await conn.close()
            if process_lock is not None:
                process_lock.release()
            raise
        return db

    async def _configure(self) -> None:
        try:
            await self.conn.execute("PRAGMA busy_timeout = 5000")
            mode = await self.scalar("PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(f"{self.path} is not a usable SQLite database ({exc}); refusing to touch it.") from None
        if str(self.path) != ":memory:" and str(mode).lower() != "wal":
            log.warning("database %s is in %s mode, not WAL", self.path, mode)
        await self.conn.execute("PRAGMA foreign_keys = ON")
        await self.conn.execute("PRAGMA synchronous = NORMAL")

    async def close(self) -> None:
        async with self._write_lock:
            await self.conn.close()
        if self._process_lock is not None:
            self._process_lock.release()
            self._process_lock = None

    # -- reading ---------------------------------------------------------------------------------

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def scalar(self, sql: str, params: Iterable[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    # -- writing ---------------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Serialised write transaction: commit on success, roll back on any exception."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            else:
                await self.conn.execute("COMMIT")
                note_commit()  # an error reply after this must not say "nothing was changed"

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One write statement in its own transaction; returns lastrowid."""
        async with self.transaction() as conn:
            cursor = await conn.execute(sql, tuple(params))
            return cursor.lastrowid or 0

    # -- schema ----------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        exists = await self.scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
        if not exists:
            return 0
        return int(await self.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_version") or 0)

    async def check_schema_not_newer(self, migrations: list[Migration] | None = None) -> None:
        known = max((m.version for m in (migrations or available_migrations())), default=0)
        current = await self.schema_version()
        if current > known:
            raise DatabaseError(
                f"{self.path} has schema version {current}, newer than this Podkeeper knows ({known}). "
                f"Upgrade Podkeeper; the database was not changed.")

    async def migrate(self, migrations: list[Migration] | None = None) -> list[Migration]:
        """Apply every migration the database has not had yet, in number order, each in its own
        transaction. Not only those above the highest applied: features developed in parallel merge
        numbers out of order (0009 may land after 0012), and a skipped one would never run."""
        migrations = available_migrations() if migrations is None else migrations
        await self.check_schema_not_newer(migrations)
        async with self.transaction() as conn:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        done = {int(row[0]) for row in await self.fetchall("SELECT version FROM schema_version")}
        applied: list[Migration] = []
        for migration in migrations:
            if migration.version in done:
                continue
            async with self.transaction() as conn:
                for statement in split_sql(migration.sql()):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, now_iso()))
            log.info("applied migration %04d_%s", migration.version, migration.name)
            applied.append(migration)
        return applied

    async def backup(self, target: str | Path) -> Path:
        """A consistent copy via SQLite's online backup API, safe while the bot is writing."""
        target = Path(target)
        if target.exists():
            raise DatabaseError(f"{target} already exists; choose a new file for the backup.")
        target.parent.mkdir(parents=True, exist_ok=True)
        async with self._write_lock:
            destination = await aiosqlite.connect(target)
            try:
                await self.conn.backup(destination)
            finally:
                await destination.close()
        return target


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (migrations use plain ``;``-terminated statements)."""
    statements: list[str] = []
    buffer: list[str] = []
    for line in script.splitlines():
        stripped = line.strip()
        if stripped.startswith("--") and not buffer:
            continue
        buffer.append(line)
        if sqlite3.complete_statement("\n".join(buffer)):
            statement = "\n".join(buffer).strip()
            if statement.strip(";").strip():
                statements.append(statement)
            buffer = []
    rest = "\n".join(buffer).strip()
    if rest:
        statements.append(rest)
    return statements


def inserted_id(cursor: aiosqlite.Cursor) -> int:
    """The rowid an INSERT just made (sqlite always sets it after an INSERT into a rowid table)."""
    if cursor.lastrowid is None:
        raise DatabaseError("the INSERT made no row")
    return cursor.lastrowid


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
