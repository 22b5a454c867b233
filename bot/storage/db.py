"""The database: SQLite (embedded, the default) or PostgreSQL (many bot processes), migrations,
transactions and online backup.

``Database.open(url)`` picks the engine from ``[database] url``. Repositories use one interface on
both: ``db.fetchall/fetchone/scalar`` for reads, ``db.transaction()`` yielding a
:class:`~bot.storage.engines.Connection` for writes that commit or roll back as a unit. The SQL in
``migrations/`` and the repositories sticks to what both engines accept (no engine-only functions;
``INSERT ... ON CONFLICT`` is shared); what differs lives in ``bot/storage/engines.py``.
On SQLite one process owns the file (one aiosqlite connection = one writer thread, ProcessLock); on
PostgreSQL a pool per process, writers of one game (table, event, match) serialised by an advisory lock
keyed by it, so writers of different games never wait on each other (``PostgresDatabase``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from bot.changes import ChangeHub
from bot.clock import SYSTEM_CLOCK, Clock
from bot.storage.commits import note_commit
from bot.storage.engines import (
    POSTGRESQL,
    SQLITE,
    Connection,
    Dialect,
    IntegrityError,
    Params,
    PostgresConnection,
    Row,
    SqliteConnection,
    init_postgres_connection,
)
from bot.storage.press_journal import CURRENT_ARRIVAL

__all__ = [
    "POSTGRESQL",
    "SQLITE",
    "Connection",
    "Database",
    "DatabaseError",
    "IntegrityError",
    "Row",
    "now_iso",
    "parse_database_url",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
SQLITE_HEADER = b"SQLite format 3\x00"
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class DatabaseBusy(Exception):
    """Another process held the SQLite file's write lock for longer than ``busy_timeout`` (a ``sqlite3``
    shell inside a transaction, a backup tool): nothing was changed; the member is told to try again."""


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
                f"or give this one its own [database] path."
            ) from None
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
            with contextlib.suppress(OSError):  # pragma: no mutate (our own open descriptor unlocks)
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
        raise DatabaseError(
            f"{path} exists but is not an SQLite database; refusing to touch it. "
            f"Move it away or set [database] path to another file."
        )


def parse_database_url(target: str | Path) -> tuple[str, str]:
    """(engine, where) of ``[database] url``: ``postgresql://...``, ``sqlite:///relative/file``,
    ``sqlite:////absolute/file`` (SQLAlchemy's spelling) or a plain file path (SQLite, the default)."""
    text = str(target)
    if text.startswith(("postgresql://", "postgres://")):
        return POSTGRESQL, text
    if text.startswith("sqlite://"):
        rest = text[len("sqlite://") :]
        path = rest[1:] if rest.startswith("/") else rest
        if not path:
            raise DatabaseError(f"database url {text!r} names no file; write sqlite:///path/to/file.sqlite3")
        return SQLITE, path
    if "://" in text:
        raise DatabaseError(f"database url {redact(text)!r}: only sqlite:/// and postgresql:// are supported")
    return SQLITE, text


DEFAULT_POOL_SIZE = 10  # [database] pool_size
DEFAULT_STATEMENT_TIMEOUT = 30  # [database] statement_timeout_seconds


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


# The connection of the transaction the current task is inside, so reads made there (``db.fetchone``
# called by a repository in the middle of a transaction) see its uncommitted writes on both engines.
# A task started inside the transaction inherits the variable; ``open`` turns False at its end, so such a
# task's later reads go back to the ordinary reader instead of a connection returned to the pool.
@dataclass
class _Open:
    db: Database
    conn: Connection
    scope: str | None
    task: asyncio.Task[Any] | None
    open: bool = True


_current: ContextVar[_Open | None] = ContextVar("podkeeper_transaction", default=None)


class Database(ABC):
    """An open database on either engine. Use ``await Database.open(url_or_path)``; close with
    ``await db.close()``. ``engine`` is "sqlite" or "postgresql"; ``url`` says where it lives."""

    engine: str
    dialect: Dialect

    def __init__(self, url: str) -> None:
        self.url = url
        # The clock the stored stamps (created_at, updated_at, …) follow: the bot sets its own, so a
        # test on a fake clock writes the same rows however long the machine takes between two calls.
        self.clock: Clock = SYSTEM_CLOCK
        # Committed-change notices for live readers (the web pages): see bot.changes.
        self.changes = ChangeHub()

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrate: bool = True,
        exclusive: bool = False,
        pool_size: int = DEFAULT_POOL_SIZE,
        statement_timeout: int = DEFAULT_STATEMENT_TIMEOUT,
    ) -> Database:
        """Open (and migrate) the database at ``target`` (a file path or a URL, see
        :func:`parse_database_url`). ``exclusive``: the bot's own open; on SQLite it is refused while
        another bot holds the file (:class:`ProcessLock`), on PostgreSQL many processes share it.
        ``pool_size`` and ``statement_timeout`` (seconds, 0 = none) are PostgreSQL's."""
        engine, where = parse_database_url(target)
        db: Database
        if engine == POSTGRESQL:
            db = await PostgresDatabase.connect(
                where, pool_size=pool_size, statement_timeout=statement_timeout
            )
        else:
            db = await SqliteDatabase.connect(Path(where), exclusive=exclusive)
        try:
            if migrate:
                await db.migrate()
            else:
                await db.check_schema_not_newer()
        except BaseException:
            await db.close()
            raise
        return db

    def now_iso(self) -> str:
        """Now on :attr:`clock`, as the ISO text (whole seconds, UTC) the records store."""
        return self.clock.now().isoformat(timespec="seconds")

    @property
    def where(self) -> str:
        """Where the database is, for messages (no password)."""
        return redact(self.url)

    @abstractmethod
    async def close(self) -> None: ...

    # -- reading ---------------------------------------------------------------------------------

    @abstractmethod
    def _reader(self) -> Connection:
        """The connection reads outside any transaction go to."""

    def _connection(self) -> Connection:
        current = _current.get()
        return current.conn if current is not None and current.open and current.db is self else self._reader()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._connection().fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._connection().fetchone(sql, params)

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        return await self._connection().scalar(sql, params)

    # -- writing ---------------------------------------------------------------------------------

    @abstractmethod
    def _begin(self, scope: str | None) -> AbstractAsyncContextManager[Connection]:
        """The engine's write transaction, serialised with the writers of the same ``scope`` (and, without
        one, with every writer of this database)."""

    @asynccontextmanager
    async def transaction(self, scope: str | None = None) -> AsyncIterator[Connection]:
        """Write transaction: commit on success, roll back on any exception.

        ``scope`` names the one record whose rows this transaction reads and extends ("pod:12",
        "hydra:3", "event:5"): writers of one scope run one at a time across every process, so what the
        transaction reads of that record (the next seat, whether the event still runs) stays true until
        it commits, while writers of other scopes go on beside it. A transaction without a scope is for
        a rule that spans records (migrations, the card-set swap, deleting a member everywhere, finishing
        a game that updates its players' profiles): it waits for every writer and every writer waits for
        it. SQLite has one writer whatever the scope (its write lock); on PostgreSQL the scopes are
        advisory locks (``PostgresDatabase._begin``)."""
        current = _current.get()
        if (
            current is not None
            and current.open
            and current.db is self
            and current.task is asyncio.current_task()
        ):
            yield self._joined(current, scope)  # the same task writing again inside its transaction
            return
        async with self._begin(scope) as conn:
            state = _Open(self, conn, scope, asyncio.current_task())
            token = _current.set(state)
            try:
                yield conn
                await _mark_press_applied(conn)
            finally:
                state.open = False
                _current.reset(token)

    @staticmethod
    def _joined(current: _Open, scope: str | None) -> Connection:
        """A write inside a transaction the same task holds joins it (it commits with it): a repository
        call made under a service's own transaction of that record, e.g. a retry that reads the record's
        log and appends to it under the record's lock. The outer transaction's locks must cover it: one of
        the same scope, or one without a scope (which excludes every writer)."""
        if current.scope is not None and scope != current.scope:
            raise DatabaseError(
                f"a write of {scope or 'every record'} inside a transaction of {current.scope}"
            )
        return current.conn

    async def execute(self, sql: str, params: Params = (), *, scope: str | None = None) -> int:
        """One write statement in its own transaction (of ``scope``, see :meth:`transaction`); returns how
        many rows it changed."""
        async with self.transaction(scope) as conn:
            return await conn.execute(sql, params)

    async def insert(self, sql: str, params: Params = (), *, returning: str, scope: str | None = None) -> int:
        """One INSERT in its own transaction; returns the new row's ``returning`` column (its id)."""
        async with self.transaction(scope) as conn:
            return await conn.insert(sql, params, returning=returning)

    # -- schema ----------------------------------------------------------------------------------

    async def tables(self) -> list[str]:
        """Every table of the database (of its schema, on PostgreSQL), by name."""
        return [str(row[0]) for row in await self.fetchall(self.dialect.tables_sql)]

    async def schema_version(self) -> int:
        if "schema_version" not in await self.tables():
            return 0
        # "no mutate (case)": both engines read SQL keywords and unquoted names in any case.
        newest = await self.scalar(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version"  # pragma: no mutate (case)
        )
        return int(newest or 0)

    async def check_schema_not_newer(self, migrations: list[Migration] | None = None) -> None:
        # No default for max(): an empty list falls back to the package's migrations, which are never empty.
        known = max(m.version for m in (migrations or available_migrations()))
        current = await self.schema_version()
        if current > known:
            raise DatabaseError(
                f"{self.where} has schema version {current}, newer than this Podkeeper knows ({known}). "
                f"Upgrade Podkeeper; the database was not changed."
            )

    def _migrating(self) -> AbstractAsyncContextManager[None]:
        """Held while migrating: another process starting at the same moment waits, then finds the
        migrations applied (PostgreSQL). SQLite's one bot per file needs nothing."""
        return contextlib.nullcontext()

    async def migrate(self, migrations: list[Migration] | None = None) -> list[Migration]:
        """Apply every migration the database has not had yet, in number order, each in its own
        transaction. Not only those above the highest applied: features developed in parallel merge
        numbers out of order (0009 may land after 0012), and a skipped one would never run.
        Migrations are written in SQLite's spelling; the dialect translates them for PostgreSQL."""
        migrations = available_migrations() if migrations is None else migrations
        async with self._migrating():
            await self.check_schema_not_newer(migrations)
            async with self.transaction() as conn:  # "no mutate (case)": as in schema_version
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("  # pragma: no mutate (case)
                    " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"  # pragma: no mutate (case)
                )
            rows = await self.fetchall("SELECT version FROM schema_version")  # pragma: no mutate (case)
            done = {int(row[0]) for row in rows}
            applied: list[Migration] = []
            for migration in migrations:
                if migration.version in done:
                    continue
                async with self.transaction() as conn:
                    # A migration of a large table may take minutes, and may: [database]'s timeout is for
                    # the changes members make.
                    if self.engine == POSTGRESQL:
                        await conn.execute("SET LOCAL statement_timeout = 0")  # pragma: no mutate (case)
                    for statement in split_sql(migration.sql()):
                        await conn.execute(self.dialect.ddl(statement))
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at)"  # pragma: no mutate (case)
                        " VALUES (?, ?, ?)",  # pragma: no mutate (case)
                        (migration.version, migration.name, now_iso()),
                    )
                log.info("applied migration %04d_%s", migration.version, migration.name)
                applied.append(migration)
        return applied

    async def backup(self, target: str | Path) -> Path:
        raise DatabaseError(
            f"`podkeeper db backup` copies an SQLite file; back up {self.where} with pg_dump, "
            f"or copy it to an SQLite file with `podkeeper db copy`."
        )


def journal_mode_warning(path: Path, mode: object) -> str | None:
    """What to tell the operator when SQLite kept ``path`` out of WAL mode, or ``None``.

    SQLite answers ``PRAGMA journal_mode = WAL`` with the mode it kept when the file system cannot give
    WAL its shared memory (some network and FUSE mounts): the bot still works, but each writer then
    blocks every reader. No file system here refuses WAL, so the decision and its words are a function of
    their own, checked with the answers SQLite gives. ``:memory:`` has no WAL and needs none.
    """
    if str(path) == ":memory:" or str(mode).lower() == "wal":
        return None
    return f"database {path} is in {mode} mode, not WAL"


class SqliteDatabase(Database):
    """The embedded default: one file, one aiosqlite connection (one writer thread), one bot."""

    engine = SQLITE
    dialect = SqliteConnection.dialect

    def __init__(self, conn: aiosqlite.Connection, path: Path, process_lock: ProcessLock | None) -> None:
        super().__init__(f"sqlite:///{path}")
        self.conn = conn
        self.path = path
        self._connection_wrapper = SqliteConnection(conn)
        self._write_lock = asyncio.Lock()
        self._process_lock = process_lock  # released by close

    @property
    def where(self) -> str:
        return str(self.path)

    @classmethod
    async def connect(cls, path: Path, *, exclusive: bool) -> SqliteDatabase:
        """The open file; ``exclusive`` as in :meth:`Database.open`, where the defaults are."""
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
        db = cls(conn, path, process_lock)
        try:
            await db._configure()
        except BaseException:
            await db.close()
            raise
        return db

    async def _configure(self) -> None:
        # "no mutate (case)": SQLite reads a PRAGMA's name and value in any case.
        try:
            await self.conn.execute("PRAGMA busy_timeout = 5000")  # pragma: no mutate (case)
            mode = await self.scalar("PRAGMA journal_mode = WAL")  # pragma: no mutate (case)
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(
                f"{self.path} is not a usable SQLite database ({exc}); refusing to touch it."
            ) from None
        warning = journal_mode_warning(self.path, mode)
        if warning is not None:
            log.warning(warning)
        await self.conn.execute("PRAGMA foreign_keys = ON")  # pragma: no mutate (case)
        await self.conn.execute("PRAGMA synchronous = NORMAL")  # pragma: no mutate (case)

    async def close(self) -> None:
        async with self._write_lock:
            await self.conn.close()
        if self._process_lock is not None:
            self._process_lock.release()
            self._process_lock = None

    def _reader(self) -> Connection:
        return self._connection_wrapper

    @asynccontextmanager
    async def _begin(self, scope: str | None) -> AsyncIterator[Connection]:
        async with self._write_lock:  # one writer for the file: every scope is the whole database
            try:
                await self.conn.execute("BEGIN IMMEDIATE")  # where another process's write lock is waited for
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise DatabaseBusy(str(exc)) from None
                raise
            try:
                yield self._connection_wrapper
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            else:
                await self.conn.execute("COMMIT")
                note_commit()  # an error reply after this must not say "nothing was changed"

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


# pg_advisory_xact_lock(key1, key2): key1 "podk" marks Podkeeper's locks (other helpers' leases use
# other key1 values); key2 is the schema's hash, so databases in different schemas never wait on each other.
# A write transaction without a scope takes the schema's lock exclusively: it waits for every writer and
# every writer waits for it. A scoped one takes it shared (so it still waits for those) and then the
# scope's own lock (key1 "pods"), exclusively: writers of one game one at a time, of different games
# side by side. Both in one statement, one round trip; a hash collision of two scopes only makes them wait.
LOCK_CLASS = 0x706F646B
SCOPE_LOCK_CLASS = 0x706F6473
_WRITE_LOCK_SQL = "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))"
SCOPED_WRITE_LOCK_SQL = (
    "SELECT pg_advisory_xact_lock_shared($1, hashtext(current_schema())), "
    "pg_advisory_xact_lock($2, hashtext(current_schema() || ':' || $3))"
)
_MIGRATE_LOCK_KEY = "migrate:"


RECONNECT_SECONDS = 15  # how long a write waits for a restarting PostgreSQL before it is refused


def _is_reconnectable(exc: BaseException) -> bool:
    """A connection that broke or could not be made because the server is restarting or unreachable."""
    import asyncpg

    if isinstance(exc, asyncpg.exceptions.QueryCanceledError):  # the statement timeout: refused, not retried
        return False
    return isinstance(
        exc,
        (
            asyncpg.PostgresConnectionError,
            asyncpg.exceptions.OperatorInterventionError,
            asyncpg.InterfaceError,
            ConnectionError,
            OSError,
        ),
    )


async def while_reachable(operation: Callable[[], Awaitable[T]], where: str) -> T:
    """``operation()``, tried again while PostgreSQL is restarting or unreachable, for up to
    ``RECONNECT_SECONDS``. Only for operations that are safe to repeat: a read, or the start of a write
    transaction before any of its statements ran."""
    waited, pause = 0.0, 0.05
    while True:
        try:
            return await operation()
        except BaseException as exc:
            if not _is_reconnectable(exc):
                raise
            if waited >= RECONNECT_SECONDS:
                raise DatabaseError(
                    f"PostgreSQL at {where} did not answer for {waited:.0f} s: {exc}"
                ) from None
        if waited == 0:
            log.warning(
                "PostgreSQL at %s is unreachable; waiting up to %d s for it", where, RECONNECT_SECONDS
            )
        await asyncio.sleep(pause)
        waited, pause = waited + pause, min(1.0, pause * 2)


class _PoolReader(PostgresConnection):
    """Reads outside a transaction, on any pooled connection: safe to repeat, so they wait out a restart."""

    def __init__(self, pool: Any, where: str) -> None:
        super().__init__(pool)
        self.where = where

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await while_reachable(lambda: super(_PoolReader, self).fetchall(sql, params), self.where)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await while_reachable(lambda: super(_PoolReader, self).fetchone(sql, params), self.where)


class PostgresDatabase(Database):
    """A PostgreSQL database shared by any number of bot processes: a pool of asyncpg connections.

    Every write transaction first takes transaction-scoped advisory locks (see ``transaction``): the
    writers of one game, table, event or match run one at a time across all processes, so what such a
    transaction reads of its record (the next sequence number, whether an event is still running) stays
    true until it commits, whichever process wrote last; writers of different records do not wait on
    each other, so adding processes adds write capacity. Reads run concurrently on the pool."""

    engine = POSTGRESQL
    dialect = PostgresConnection.dialect

    def __init__(self, pool: Any, url: str) -> None:
        super().__init__(url)
        self.pool = pool
        self._pool_reader = _PoolReader(pool, self.where)

    @classmethod
    async def connect(cls, url: str, *, pool_size: int, statement_timeout: int) -> PostgresDatabase:
        """The pool; ``pool_size`` and ``statement_timeout`` as in :meth:`Database.open`, where the defaults are."""
        try:  # imported here: only a postgresql:// database needs it (a SQLite bot starts without)
            import asyncpg
        except ImportError:  # asyncpg is a runtime dependency, but a hand-made install may lack it
            raise DatabaseError(
                "a postgresql:// database needs the asyncpg package (pip install asyncpg)"
            ) from None
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max(1, pool_size),
                init=init_postgres_connection,
                timeout=10,
                server_settings={"statement_timeout": f"{max(0, statement_timeout) * 1000}"},
            )
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseError(f"cannot connect to PostgreSQL at {redact(url)}: {exc}") from None
        return cls(pool, url)

    async def close(self) -> None:
        await self.pool.close()

    def _reader(self) -> Connection:
        return self._pool_reader

    @asynccontextmanager
    async def _begin(self, scope: str | None) -> AsyncIterator[Connection]:
        raw, transaction = await self._started(scope)
        try:
            try:
                yield PostgresConnection(raw)
            except BaseException:
                if not raw.is_closed():
                    with contextlib.suppress(Exception):  # a broken connection: the server rolled back
                        await transaction.rollback()
                raise
            await transaction.commit()
            note_commit()  # committed: an error reply after this must not say "nothing was changed"
        finally:
            await self._give_back(raw)

    async def _give_back(self, raw: Any) -> None:
        """Return a connection to the pool after its transaction ended, whichever way.

        The pool resets a returned connection with a query of its own; when the server went down just
        after the commit, that reset fails and asyncpg re-raises it (having already dropped the
        connection). The transaction's outcome is settled by then: a committed change must return as
        committed, not as an error that makes the member press again and the change land twice."""
        try:
            await self.pool.release(raw)
        except Exception as exc:  # noqa: BLE001 - the pool dropped the broken connection; nothing to undo
            log.warning(
                "a PostgreSQL connection at %s broke on its way back to the pool: %s", self.where, exc
            )

    async def _started(self, scope: str | None) -> tuple[Any, Any]:
        """A pooled connection inside a begun transaction holding the write locks of ``scope``.

        A restart or failover of the server breaks every pooled connection and refuses new ones for a
        moment; up to that point nothing of the transaction has been sent, so it is safe to wait and try
        again on a fresh connection (the pool replaces broken ones), see :func:`while_reachable`. Once
        the caller's statements run, a lost connection is an error: whether the commit landed is unknown,
        and only the caller's own checks (a unique sequence number) can tell."""

        async def start() -> tuple[Any, Any]:
            raw = await self.pool.acquire()
            transaction = raw.transaction()
            try:
                await transaction.start()
                if scope is None:
                    await raw.execute(_WRITE_LOCK_SQL, LOCK_CLASS)
                else:
                    await raw.execute(SCOPED_WRITE_LOCK_SQL, LOCK_CLASS, SCOPE_LOCK_CLASS, scope)
            except BaseException:
                await self._give_back(raw)
                raise
            return raw, transaction

        return await while_reachable(start, self.where)

    @asynccontextmanager
    async def raw_connection(self) -> AsyncIterator[Any]:
        """An asyncpg connection of the pool, for what only PostgreSQL has (LISTEN/NOTIFY, advisory
        locks held across transactions); returned to the pool on exit."""
        async with self.pool.acquire() as raw:
            yield raw

    @asynccontextmanager
    async def _migrating(self) -> AsyncIterator[None]:
        """The migration lock, held on a connection of its own: each migration's transaction takes a pooled
        connection while it is held, and a lock holder taken from the pool left none with ``pool_size = 1``
        (the first start waited for itself, for ever). The lock ends with that connection's session."""
        import asyncpg

        try:
            raw = await asyncpg.connect(self.url, timeout=10)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseError(f"cannot connect to PostgreSQL at {self.where}: {exc}") from None
        try:
            await raw.execute(
                "SELECT pg_advisory_lock($1, hashtext($2 || current_schema()))", LOCK_CLASS, _MIGRATE_LOCK_KEY
            )
            yield
        finally:
            await raw.close()


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


async def _mark_press_applied(conn: Connection) -> None:
    """In the transaction of a journaled press's change (bot/storage/press_journal.py ``Arrival``): the
    press's id, committed with its change, so a replay after a crash applies it only if this is missing."""
    arrival = CURRENT_ARRIVAL.get()
    if arrival is not None and arrival.stored_by(asyncio.current_task()):
        await conn.execute(
            "INSERT INTO applied_presses (press_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING",  # pragma: no mutate (case)
            (arrival.press_id, now_iso()),
        )


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
