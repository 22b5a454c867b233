"""What ``Database`` promises around its transactions and the server, on the engine where it matters.

A write of one record may join a transaction that covers it, and never one of another record (its lock
would not be held); a scoped write does not wait for the writers of other records on PostgreSQL; reads
wait out a server that is restarting, for a bounded time, and say which server did not answer, while a
statement the server cancelled is refused at once; a password never reaches a message; a backup makes the
folders it needs.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from bot.storage import db as db_module
from bot.storage.db import (
    Database,
    DatabaseBusy,
    DatabaseError,
    available_migrations,
    parse_database_url,
    redact,
    split_sql,
    while_reachable,
)
from bot.storage.pods import game_scope

PATIENCE = (
    10.0  # seconds: generous for a loaded machine; a writer that waits for the held lock never finishes
)
_NEW_GAME = "INSERT INTO pod_games (created_at, ruleset, status) VALUES ('t', 'commander', 'open')"


async def _games(db: Database) -> int:
    return int(await db.scalar("SELECT COUNT(*) FROM pod_games"))


async def test_a_write_joins_a_transaction_that_covers_its_record_and_no_other(db: Database) -> None:
    async with db.transaction(game_scope(1)):
        with pytest.raises(DatabaseError, match=r"^a write of pod:2 inside a transaction of pod:1$"):
            await db.execute(_NEW_GAME, scope=game_scope(2))
        with pytest.raises(DatabaseError, match=r"^a write of every record inside a transaction of pod:1$"):
            await db.execute(_NEW_GAME)
        await db.execute(_NEW_GAME, scope=game_scope(1))  # the same record: joins
    assert await _games(db) == 1
    with pytest.raises(RuntimeError, match="^undone$"):
        async with db.transaction():  # a rule across records covers every record's write
            await db.execute(_NEW_GAME, scope=game_scope(3))
            await db.insert(_NEW_GAME, returning="game_id", scope=game_scope(4))
            assert await _games(db) == 3  # read inside the transaction: its own writes
            raise RuntimeError("undone")
    assert await _games(db) == 1  # both joined writes were rolled back with it


@pytest.mark.postgresql_only
async def test_a_scoped_insert_does_not_wait_for_a_writer_of_another_record(db: Database) -> None:
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with db.transaction(game_scope(1)) as conn:
            await conn.execute("UPDATE pod_games SET status = status WHERE game_id = 0")
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await holding.wait()
    try:
        new = await asyncio.wait_for(db.insert(_NEW_GAME, returning="game_id", scope=game_scope(2)), PATIENCE)
        assert (
            not holder.done()
            and await db.scalar("SELECT status FROM pod_games WHERE game_id = ?", (new,)) == "open"
        )
        changed = db.execute(
            "UPDATE pod_games SET status = 'open' WHERE game_id = ?", (new,), scope=game_scope(2)
        )
        assert await asyncio.wait_for(changed, PATIENCE) == 1  # a scoped statement does not wait either
        blocked = asyncio.create_task(db.insert(_NEW_GAME, returning="game_id"))  # across records: waits
        await asyncio.sleep(0.3)
        assert not blocked.done()
    finally:
        release.set()
        await holder
    await asyncio.wait_for(blocked, PATIENCE)
    assert await _games(db) == 2


@pytest.mark.postgresql_only
async def test_a_read_the_statement_timeout_cancelled_is_refused_at_once_not_retried(db_url: str) -> None:
    import asyncpg

    db = await Database.open(db_url, statement_timeout=1)
    try:
        started = time.monotonic()
        with pytest.raises(asyncpg.exceptions.QueryCanceledError, match="statement timeout"):
            await db.fetchone("SELECT pg_sleep(3)")
        assert time.monotonic() - started < 2.9  # not waited out as an outage (15 s), not run to its end
    finally:
        await db.close()


@pytest.mark.postgresql_only
async def test_reads_on_a_lost_server_give_up_after_the_window_and_name_the_server(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "RECONNECT_SECONDS", 0.2)
    db = await Database.open(db_url)
    await db.close()  # every connection gone, as after a failover that never came back
    for call in (db.fetchone, db.fetchall, db.scalar, db.execute):  # a write's start is waited out the same
        with pytest.raises(DatabaseError, match=r"^PostgreSQL at .+ did not answer for 0 s: ") as refused:
            await call("SELECT 1")
        assert db.where in str(refused.value)


@pytest.mark.postgresql_only
async def test_a_write_that_timed_out_waiting_for_its_games_lock_gives_its_connection_back(
    db_url: str,
) -> None:
    """Another process holds the game's lock past the statement timeout: the write is refused, and the
    connection it waited on goes back to the pool (with one connection, the bot's next write needs it)."""
    import asyncpg

    other = await Database.open(db_url)
    db = await Database.open(db_url, pool_size=1, statement_timeout=1)
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with other.transaction(game_scope(1)):
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    try:
        await holding.wait()
        with pytest.raises(asyncpg.exceptions.QueryCanceledError):
            await db.execute(_NEW_GAME, scope=game_scope(1))
        release.set()
        await holder
        await asyncio.wait_for(db.execute(_NEW_GAME, scope=game_scope(1)), PATIENCE)
        assert await _games(db) == 1
    finally:
        release.set()
        await holder
        await db.close()
        await other.close()


class _Outage:
    """A server that refuses ``failures`` connections, then answers: what a restart looks like to a read."""

    def __init__(self, failures: int, error: BaseException | None = None) -> None:
        self.failures, self.tries = failures, 0
        self.error = error or ConnectionRefusedError("connection refused")

    async def __call__(self) -> str:
        self.tries += 1
        if self.tries <= self.failures:
            raise self.error
        return "answered"


async def test_a_short_outage_is_waited_out_quickly_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    outage = _Outage(3)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="bot.storage.db"):
        assert await while_reachable(outage, "db.example:5432") == "answered"
    assert time.monotonic() - started < 1.0  # waits of 0.05, 0.1 and 0.2 s
    assert outage.tries == 4
    assert [r.getMessage() for r in caplog.records] == [
        "PostgreSQL at db.example:5432 is unreachable; waiting up to 15 s for it"
    ]


async def test_an_error_that_is_no_outage_is_raised_at_the_first_try() -> None:
    outage = _Outage(1, ValueError("bad SQL"))
    with pytest.raises(ValueError, match="^bad SQL$"):
        await while_reachable(outage, "db.example:5432")
    assert outage.tries == 1


async def test_an_outage_longer_than_the_window_is_refused_naming_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(db_module, "RECONNECT_SECONDS", 0.05)
    outage = _Outage(10)
    with pytest.raises(DatabaseError) as refused:
        await while_reachable(outage, "db.example:5432")
    assert str(refused.value) == "PostgreSQL at db.example:5432 did not answer for 0 s: connection refused"
    assert outage.tries == 2  # the first try, one wait of the window's length, the last try


def _recorded_pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses ``while_reachable`` asks for, taken without waiting them (they are its schedule)."""
    pauses: list[float] = []
    real_sleep = asyncio.sleep

    async def note_the_pause(delay: float) -> None:
        pauses.append(delay)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", note_the_pause)
    return pauses


async def test_the_pauses_double_from_a_twentieth_of_a_second_up_to_one_for_the_whole_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pauses = _recorded_pauses(monkeypatch)
    outage = _Outage(1000)
    with pytest.raises(DatabaseError) as refused:
        await while_reachable(outage, "db.example:5432")
    assert pauses == [0.05, 0.1, 0.2, 0.4, 0.8] + [1.0] * 14  # 15.55 s in all: the first past 15
    assert outage.tries == len(pauses) + 1
    assert str(refused.value) == "PostgreSQL at db.example:5432 did not answer for 16 s: connection refused"


async def test_an_outage_of_exactly_the_window_is_refused_without_another_try(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(db_module, "RECONNECT_SECONDS", 0.05 + 0.1)  # the sum of the first two pauses
    pauses = _recorded_pauses(monkeypatch)
    outage = _Outage(1000)
    with pytest.raises(DatabaseError, match=r"^PostgreSQL at db.example:5432 did not answer for 0 s: "):
        await while_reachable(outage, "db.example:5432")
    assert pauses == [0.05, 0.1]
    assert outage.tries == 3


async def test_a_database_password_never_reaches_a_message() -> None:
    assert (
        redact("postgresql://bot:s3cret@db.example:5432/podkeeper")
        == "postgresql://bot:***@db.example:5432/podkeeper"
    )
    assert redact("postgresql://bot@db.example/podkeeper") == "postgresql://bot@db.example/podkeeper"
    with pytest.raises(DatabaseError) as refused:
        await Database.open("postgresql://bot:s3cret@127.0.0.1:1/podkeeper")
    assert "bot:***@127.0.0.1:1" in str(refused.value) and "s3cret" not in str(refused.value)


@pytest.mark.sqlite_only
async def test_a_backup_makes_its_folders_and_another_goes_beside_it(db: Database, tmp_path: Path) -> None:
    await db.execute(_NEW_GAME)
    first = await db.backup(tmp_path / "backups" / "2026" / "first.sqlite3")
    second = await db.backup(tmp_path / "backups" / "2026" / "second.sqlite3")
    for copy in (first, second):
        with sqlite3.connect(copy) as conn:
            assert conn.execute("SELECT COUNT(*) FROM pod_games").fetchone() == (1,)


@pytest.mark.sqlite_only
async def test_a_write_waits_for_another_connections_write_lock_then_is_refused_untouched(
    db: Database, db_path: Path
) -> None:
    """A ``sqlite3`` shell or backup tool inside a write transaction on the bot's file: the bot's write waits
    for it (SQLite's busy timeout, 5 s) and lands when it commits; held longer, the write is refused as
    busy and nothing of it is stored."""
    other = sqlite3.connect(db_path, isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute(_NEW_GAME)
        waiting = asyncio.create_task(db.execute(_NEW_GAME))
        await asyncio.sleep(0.5)
        assert not waiting.done()
        other.execute("COMMIT")
        await asyncio.wait_for(waiting, PATIENCE)
        assert await _games(db) == 2
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy, match="locked"):
            await db.execute(_NEW_GAME)
        other.execute("ROLLBACK")
        assert await _games(db) == 2
        await db.execute(_NEW_GAME)  # the lock gone, the bot writes again
        assert await _games(db) == 3
    finally:
        other.close()


def test_the_database_url_names_its_engine_and_file() -> None:
    assert parse_database_url("postgresql://bot@db/podkeeper") == (
        "postgresql",
        "postgresql://bot@db/podkeeper",
    )
    assert parse_database_url("postgres://bot@db/podkeeper") == ("postgresql", "postgres://bot@db/podkeeper")
    assert parse_database_url("sqlite:///data/podkeeper.sqlite3") == ("sqlite", "data/podkeeper.sqlite3")
    assert parse_database_url("sqlite:////var/lib/podkeeper.sqlite3") == (
        "sqlite",
        "/var/lib/podkeeper.sqlite3",
    )
    assert parse_database_url(Path("data/podkeeper.sqlite3")) == ("sqlite", "data/podkeeper.sqlite3")
    assert parse_database_url("sqlite://podkeeper.sqlite3") == ("sqlite", "podkeeper.sqlite3")  # two slashes
    with pytest.raises(
        DatabaseError, match=r"^database url 'sqlite:///' names no file; write sqlite:///path"
    ):
        parse_database_url("sqlite:///")
    with pytest.raises(DatabaseError, match=r"^database url 'mysql://bot:\*\*\*@db/p': only sqlite:/// and"):
        parse_database_url("mysql://bot:s3cret@db/p")


def test_migrations_are_split_into_statements_and_named_by_number(tmp_path: Path) -> None:
    script = (
        "-- a comment before the first statement\n"
        "CREATE TABLE a (x TEXT DEFAULT 'one; two');\n"
        "\n"
        "INSERT INTO a (x) VALUES ('-- not a comment');\n"
        ";\n"
        "UPDATE a SET x = 'last'"
    )
    assert split_sql(script) == [
        "CREATE TABLE a (x TEXT DEFAULT 'one; two');",
        "INSERT INTO a (x) VALUES ('-- not a comment');",
        "UPDATE a SET x = 'last'",
    ]
    (tmp_path / "0002_second.sql").write_text("SELECT 1;", encoding="utf-8")
    (tmp_path / "0001_first_one.sql").write_text("SELECT 1;", encoding="utf-8")
    assert [(m.version, m.name) for m in available_migrations(tmp_path)] == [(1, "first_one"), (2, "second")]
    (tmp_path / "0002_again.sql").write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(DatabaseError, match="^two migrations share a number in "):
        available_migrations(tmp_path)
    (tmp_path / "0002_again.sql").unlink()
    (tmp_path / "3_Bad.sql").write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(DatabaseError, match=r"^migration file 3_Bad.sql is not named NNNN_name.sql$"):
        available_migrations(tmp_path)


def test_a_trigger_body_stays_in_its_statement_and_an_unended_last_one_keeps_its_lines() -> None:
    """The ``;`` inside a trigger's ``BEGIN … END`` ends no statement (SQLite's own completeness test
    decides, over the lines joined as written); a last statement without ``;`` is kept whole, and a
    one-letter statement is a statement: only a stray ``;`` is dropped."""
    script = (
        "CREATE TABLE a (x INTEGER);\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n"
        "  UPDATE a SET x = 1;\n"
        "END;\n"
        "X;\n"
        "UPDATE a\n"
        "  SET x = 2"
    )
    assert split_sql(script) == [
        "CREATE TABLE a (x INTEGER);",
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  UPDATE a SET x = 1;\nEND;",
        "X;",
        "UPDATE a\n  SET x = 2",
    ]


@pytest.mark.sqlite_only
async def test_the_sqlite_file_is_set_up_for_one_busy_writer(db: Database) -> None:
    assert await db.scalar("PRAGMA busy_timeout") == 5000
    assert await db.scalar("PRAGMA synchronous") == 1  # NORMAL: safe with WAL, one sync per checkpoint
    assert await db.scalar("PRAGMA foreign_keys") == 1


@pytest.mark.postgresql_only
async def test_two_processes_starting_on_a_new_schema_migrate_it_once(db_url: str) -> None:
    """Two bot processes started at once on an empty schema: one migrates, the other waits for it and finds
    every migration applied (without the migration lock both create the tables and one fails)."""
    empty = await Database.open(db_url, migrate=False)
    try:
        for table in await empty.tables():
            await empty.execute(f"DROP TABLE {table} CASCADE")
    finally:
        await empty.close()
    first, second = await asyncio.gather(Database.open(db_url), Database.open(db_url))
    try:
        versions = [
            int(r[0]) for r in await first.fetchall("SELECT version FROM schema_version ORDER BY version")
        ]
        assert versions == [m.version for m in available_migrations()]
        assert await second.schema_version() == versions[-1]
    finally:
        await first.close()
        await second.close()


@pytest.mark.postgresql_only
async def test_a_pool_of_one_connection_starts_and_a_zero_timeout_is_none(db_url: str) -> None:
    """``pool_size = 1`` (or 0, read as 1) once hung the first start: the migration lock held the pool's only
    connection while the migrations waited for one."""
    empty = await Database.open(db_url, migrate=False)
    try:
        for table in await empty.tables():
            await empty.execute(f"DROP TABLE {table} CASCADE")
    finally:
        await empty.close()
    db = await asyncio.wait_for(Database.open(db_url, pool_size=0, statement_timeout=0), PATIENCE * 3)
    try:
        assert db.pool.get_max_size() == 1  # type: ignore[attr-defined]
        assert await db.scalar("SHOW statement_timeout") == "0"  # 0: no timeout
        assert await db.schema_version() == max(m.version for m in available_migrations())
    finally:
        await db.close()


@pytest.mark.postgresql_only
async def test_a_write_whose_connection_breaks_after_its_commit_returns_as_committed(
    db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The server drops the connection between the commit and the pool's reset of it (a restart just
    then): the change is stored, so the write returns normally instead of an error that invites a
    second press; the next write gets a fresh connection."""
    import asyncpg

    db = await Database.open(db_url, pool_size=1)
    killer = await asyncpg.connect(db_url)
    real_reset = asyncpg.Connection.reset
    dropped: list[int] = []

    async def reset_after_the_server_dropped_it(raw: asyncpg.Connection, **kwargs: object) -> None:
        monkeypatch.setattr(asyncpg.Connection, "reset", real_reset)  # the first connection back only
        dropped.append(raw.get_server_pid())
        await killer.execute("SELECT pg_terminate_backend($1)", dropped[0])
        await real_reset(raw, **kwargs)  # type: ignore[arg-type]

    try:
        monkeypatch.setattr(asyncpg.Connection, "reset", reset_after_the_server_dropped_it)
        with caplog.at_level(logging.WARNING, logger="bot.storage.db"):
            await db.execute(_NEW_GAME, scope=game_scope(1))
        assert dropped  # the connection really broke on its way back
        prefix = f"a PostgreSQL connection at {db.where} broke on its way back to the pool: "
        [warning] = [r.getMessage() for r in caplog.records if r.name == "bot.storage.db"]
        assert warning.startswith(prefix) and warning[len(prefix) :] not in ("", "None")  # with the reason
        assert await _games(db) == 1
        await asyncio.wait_for(db.execute(_NEW_GAME, scope=game_scope(1)), PATIENCE)
        assert await _games(db) == 2
    finally:
        await killer.close()
        await db.close()
