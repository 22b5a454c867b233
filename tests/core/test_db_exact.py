"""What ``Database`` says and leaves behind at its edges, word for word, on the engine where it matters.

The refusals an operator reads (a foreign file, a newer schema, a backup on PostgreSQL), the schema version
of a database that was never or only partly migrated, the log line of each applied migration, the stamps'
exact format, and what opening a database leaves on disk (folders made, no lock file for an in-memory
database, the bot's lock freed when its open is refused). A message that only starts right, or a refusal
that keeps the lock, is what the looser tests beside these let through.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.storage.db import (
    Database,
    DatabaseError,
    ProcessLock,
    available_migrations,
    journal_mode_warning,
    split_sql,
)

_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")  # whole seconds, UTC


async def _emptied(db_url: str | Path) -> Database:
    """The test's database with no table at all (a PostgreSQL schema may come migrated from a test before)."""
    db = await Database.open(db_url, migrate=False)
    for table in await db.tables():
        await db.execute(f"DROP TABLE {table}" + (" CASCADE" if db.engine == "postgresql" else ""))
    return db


async def test_a_database_never_or_only_partly_migrated_reads_its_true_version(db_url: str | Path) -> None:
    """Version 0 without the version table and with it empty; then the highest applied. A start that
    misreads 0 as 1 would skip the first migration of a new database."""
    db = await _emptied(db_url)
    try:
        assert await db.schema_version() == 0
        assert await db.migrate([]) == []  # makes the (empty) version table only
        assert await db.tables() == ["schema_version"]
        assert await db.schema_version() == 0
        first_two = available_migrations()[:2]
        assert await db.migrate(first_two) == first_two
        assert await db.schema_version() == first_two[-1].version
    finally:
        await db.close()


async def test_each_applied_migration_is_logged_and_stamped_in_whole_utc_seconds(
    db_url: str | Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await _emptied(db_url)
    try:
        first_two = available_migrations()[:2]
        with caplog.at_level(logging.INFO, logger="bot.storage.db"):
            await db.migrate(first_two)
        assert [r.getMessage() for r in caplog.records if r.name == "bot.storage.db"] == [
            f"applied migration {m.version:04d}_{m.name}" for m in first_two
        ]
        rows = await db.fetchall("SELECT version, name, applied_at FROM schema_version ORDER BY version")
        assert [(int(r[0]), r[1]) for r in rows] == [(m.version, m.name) for m in first_two]
        assert all(_STAMP.match(str(r[2])) for r in rows), [r[2] for r in rows]
    finally:
        await db.close()


async def test_a_newer_schema_is_refused_naming_the_database_and_both_versions(db: Database) -> None:
    known = max(m.version for m in available_migrations())
    await db.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (9999, 'future', 'x')")
    with pytest.raises(DatabaseError) as refused:
        await db.check_schema_not_newer()
    assert str(refused.value) == (
        f"{db.where} has schema version 9999, newer than this Podkeeper knows ({known}). "
        "Upgrade Podkeeper; the database was not changed."
    )


async def test_the_known_version_is_that_of_the_migrations_given(db: Database) -> None:
    """A caller's own list of migrations (an older Podkeeper's) is what "newer" is measured against."""
    current = await db.schema_version()
    await db.check_schema_not_newer(available_migrations())  # the same version: no refusal
    with pytest.raises(
        DatabaseError, match=rf"schema version {current}, newer than this Podkeeper knows \(1\)"
    ):
        await db.check_schema_not_newer(available_migrations()[:1])


async def test_a_refused_start_frees_the_bots_lock_for_the_next_start(db_path: Path) -> None:
    """A bot whose start is refused (a newer schema) must not keep the file's lock: the next start, after
    an upgrade, would otherwise be told another bot is running."""
    db = await Database.open(db_path)
    await db.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (9999, 'future', 'x')")
    await db.close()
    for _ in range(2):
        with pytest.raises(DatabaseError, match="newer than this Podkeeper"):
            await Database.open(db_path, exclusive=True)
    for _ in range(2):
        with pytest.raises(DatabaseError, match="newer than this Podkeeper"):
            await Database.open(db_path, exclusive=True, migrate=False)


def test_the_stamp_is_the_clocks_second_in_utc() -> None:
    db_clock = FakeClock(datetime(2026, 3, 1, 20, 15, 7, 250000, tzinfo=UTC))

    class _Probe(Database):  # only the clock part of Database: no engine needed
        async def close(self) -> None: ...

        def _reader(self):  # type: ignore[no-untyped-def]
            raise AssertionError

        def _begin(self, scope):  # type: ignore[no-untyped-def]
            raise AssertionError

    probe = _Probe("sqlite:///nowhere")
    probe.clock = db_clock
    assert probe.now_iso() == "2026-03-01T20:15:07+00:00"


@pytest.mark.sqlite_only
async def test_an_empty_file_is_a_new_database_and_missing_folders_are_made(tmp_path: Path) -> None:
    """An empty file (``touch podkeeper.sqlite3``) is no foreign data: it becomes the database."""
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    nested = tmp_path / "a" / "b" / "podkeeper.sqlite3"
    for path in (empty, nested):
        db = await Database.open(path, exclusive=True)
        try:
            assert await db.schema_version() == max(m.version for m in available_migrations())
            assert db.where == str(path)
        finally:
            await db.close()
    assert nested.with_name("podkeeper.sqlite3.lock").exists()


@pytest.mark.sqlite_only
async def test_a_foreign_file_is_refused_with_the_way_out(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("my precious notes")
    with pytest.raises(DatabaseError) as refused:
        await Database.open(path)
    assert str(refused.value) == (
        f"{path} exists but is not an SQLite database; refusing to touch it. "
        "Move it away or set [database] path to another file."
    )


@pytest.mark.sqlite_only
async def test_a_broken_sqlite_file_is_refused_untouched_and_frees_the_lock(tmp_path: Path) -> None:
    """The header of an SQLite file with garbage after it: refused at the first statement, the bytes kept,
    and the lock the refused start took given back."""
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4096)
    before = path.read_bytes()
    for _ in range(2):
        with pytest.raises(DatabaseError) as refused:
            await Database.open(path, exclusive=True)
        assert re.fullmatch(
            re.escape(str(path)) + r" is not a usable SQLite database \(.+\); refusing to touch it\.",
            str(refused.value),
        ), str(refused.value)
    assert path.read_bytes() == before


@pytest.mark.sqlite_only
async def test_an_in_memory_database_makes_no_file_and_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``:memory:`` (tools, tests) is no file: no lock file beside it, and its journal mode (``memory``,
    never WAL) is no reason to warn."""
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING, logger="bot.storage.db"):
        db = await Database.open(":memory:", exclusive=True)
        try:
            assert await db.schema_version() == max(m.version for m in available_migrations())
        finally:
            await db.close()
    assert list(tmp_path.iterdir()) == []
    assert caplog.records == []


@pytest.mark.sqlite_only
async def test_a_file_database_opens_in_wal_without_a_warning(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.storage.db"):
        db = await Database.open(db_path)
        await db.close()
    assert caplog.records == []


@pytest.mark.parametrize("kept", ["delete", "truncate", "persist", "off", "DELETE"])
def test_a_file_kept_out_of_wal_is_named_with_the_mode_sqlite_kept(kept: str) -> None:
    """A file system without WAL's shared memory: SQLite answers the WAL pragma with the mode it kept, in
    whatever case it spells it, and the operator reads the file and that mode word for word."""
    path = Path("/srv/podkeeper/podkeeper.sqlite3")
    assert journal_mode_warning(path, kept) == f"database {path} is in {kept} mode, not WAL"


@pytest.mark.parametrize(
    ("path", "mode"), [("podkeeper.sqlite3", "wal"), ("podkeeper.sqlite3", "WAL"), (":memory:", "memory")]
)
def test_wal_and_an_in_memory_database_are_no_reason_to_warn(path: str, mode: str) -> None:
    assert journal_mode_warning(Path(path), mode) is None


@pytest.mark.sqlite_only
async def test_a_file_sqlite_cannot_open_is_refused_by_name_and_frees_the_bots_lock(tmp_path: Path) -> None:
    """The database path is a link into a folder that is gone (a data disk not mounted): it passes the
    checks (nothing there to refuse), SQLite cannot open it, and the lock taken for it is freed again."""
    link = tmp_path / "podkeeper.sqlite3"
    link.symlink_to(tmp_path / "unmounted" / "podkeeper.sqlite3")
    with pytest.raises(DatabaseError) as refused:
        await Database.open(link, exclusive=True)
    assert str(refused.value) == f"cannot open database {link}: unable to open database file"
    lock = ProcessLock(link)
    lock.acquire()  # free: the refused start kept nothing
    lock.release()


@pytest.mark.sqlite_only
async def test_a_bot_closed_twice_frees_its_file_once_and_quietly(db_path: Path) -> None:
    """A failed start's clean-up and then the shutdown may both close the database: the second close does
    nothing, and the file's lock is free for the next bot."""
    db = await Database.open(db_path, exclusive=True)
    await db.close()
    await db.close()
    again = await Database.open(db_path, exclusive=True)
    await again.close()


@pytest.mark.sqlite_only
async def test_a_backup_onto_an_existing_file_is_refused_untouched(db: Database, tmp_path: Path) -> None:
    target = tmp_path / "taken.sqlite3"
    target.write_text("keep me")
    with pytest.raises(DatabaseError) as refused:
        await db.backup(target)
    assert str(refused.value) == f"{target} already exists; choose a new file for the backup."
    assert target.read_text() == "keep me"


@pytest.mark.postgresql_only
async def test_a_postgresql_backup_is_refused_naming_the_server_and_both_tools(
    db: Database, tmp_path: Path
) -> None:
    with pytest.raises(DatabaseError) as refused:
        await db.backup(tmp_path / "copy.sqlite3")
    assert str(refused.value) == (
        f"`podkeeper db backup` copies an SQLite file; back up {db.where} with pg_dump, "
        "or copy it to an SQLite file with `podkeeper db copy`."
    )
    assert not (tmp_path / "copy.sqlite3").exists()


@pytest.mark.postgresql_only
async def test_the_statement_timeout_is_set_in_seconds(db_url: str) -> None:
    db = await Database.open(db_url, statement_timeout=7)
    try:
        assert await db.scalar("SHOW statement_timeout") == "7s"
    finally:
        await db.close()
    db = await Database.open(db_url, statement_timeout=-5)  # below zero: none, as 0
    try:
        assert await db.scalar("SHOW statement_timeout") == "0"
    finally:
        await db.close()


@pytest.mark.postgresql_only
async def test_a_postgresql_database_is_named_without_its_password(db_url: str) -> None:
    """Trust authentication ignores the password, so a URL with one opens the test server too."""
    with_password = db_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@", 1)
    assert with_password != db_url
    db = await Database.open(with_password)
    try:
        assert db.where == db_url.replace("postgresql://postgres@", "postgresql://postgres:***@", 1)
        assert "s3cret" not in db.where
    finally:
        await db.close()


@pytest.mark.sqlite_only
async def test_a_second_bot_is_refused_with_the_whole_reason_and_the_way_out(db_path: Path) -> None:
    first = await Database.open(db_path, exclusive=True)
    try:
        with pytest.raises(DatabaseError) as refused:
            await Database.open(db_path, exclusive=True)
        assert str(refused.value) == (
            f"another Podkeeper bot (pid {os.getpid()}) is already running on {db_path}. "
            "Two bots on one database would apply every button press twice; stop the other one first "
            "or give this one its own [database] path."
        )
        assert refused.value.__cause__ is None and refused.value.__suppress_context__
    finally:
        await first.close()


@pytest.mark.sqlite_only
def test_the_lock_file_holds_the_bots_pid_alone_and_a_silent_holder_is_another_process(
    tmp_path: Path,
) -> None:
    """The pid replaces whatever an earlier, longer-lived bot wrote; a holder that wrote none (another
    tool's flock) is still named."""
    database = tmp_path / "deep" / "er" / "podkeeper.sqlite3"
    lock = ProcessLock(database)
    assert lock.path == tmp_path / "deep" / "er" / "podkeeper.sqlite3.lock"
    umask = os.umask(0o022)
    try:
        lock.acquire()  # makes the folders
    finally:
        os.umask(umask)
    try:
        assert lock.path.read_bytes() == str(os.getpid()).encode()
        assert stat.S_IMODE(lock.path.stat().st_mode) == 0o644  # readable by an operator, not executable
    finally:
        lock.release()
    lock.path.write_text("1234567890123")
    lock.acquire()
    try:
        assert lock.path.read_bytes() == str(os.getpid()).encode()
    finally:
        lock.release()
    lock.path.write_text("")
    with lock.path.open("rb") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(DatabaseError, match=r"^another Podkeeper bot \(pid another process\) is already"):
            ProcessLock(database).acquire()
    lock.path.write_bytes(b"\xff\xfe 42")  # garbage an older tool left: still a message, not a crash
    with lock.path.open("rb") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(DatabaseError, match=r"^another Podkeeper bot \(pid \ufffd\ufffd 42\) is already"):
            ProcessLock(database).acquire()
    lock.acquire()  # the other one gone, the bot takes it
    lock.release()


async def test_an_average_reads_as_a_python_float_on_both_engines(db: Database) -> None:
    """PostgreSQL's AVG is NUMERIC: without the codec the pool's connections are set up with, it arrives as
    a Decimal, which compares equal to the float but is not one (JSON and arithmetic with floats refuse it)."""
    average = await db.scalar("SELECT AVG(v) FROM (SELECT 1 AS v UNION ALL SELECT 2) AS two")
    assert (type(average), average) == (float, 1.5)


_READ_MIGRATIONS = (
    "import sys\n"
    "from bot.storage.db import available_migrations\n"
    "sys.stdout.buffer.write('\\0'.join(m.sql() for m in available_migrations()).encode('utf-8'))\n"
)


def test_the_migrations_read_the_same_under_a_locale_that_is_not_utf8() -> None:
    """A bot started with the C locale and Python's UTF-8 defaults switched off (an old service manager's
    environment) reads files as ASCII unless told otherwise; the migrations hold non-ASCII text."""
    expected = "\0".join(m.sql() for m in available_migrations())
    assert not expected.isascii()  # the test means something only while a migration has such text
    ascii_only = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    run = subprocess.run(
        [sys.executable, "-c", _READ_MIGRATIONS],
        cwd=Path(__file__).parents[2],
        env=ascii_only,
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stdout.decode("utf-8") == expected


@pytest.mark.sqlite_only
def test_a_long_text_in_the_lock_file_is_named_by_its_first_64_bytes(tmp_path: Path) -> None:
    """Whatever another tool left in the lock file, the refusal quotes a bounded part of it."""
    database = tmp_path / "podkeeper.sqlite3"
    lock = ProcessLock(database)
    lock.path.write_text("9" * 64 + "8" * 36)
    with lock.path.open("rb") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(DatabaseError) as refused:
            lock.acquire()
    assert str(refused.value).startswith(f"another Podkeeper bot (pid {'9' * 64}) is already running on ")


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


@pytest.mark.sqlite_only
def test_a_forked_worker_closes_its_copy_of_the_lock_and_the_bot_keeps_it(tmp_path: Path) -> None:
    """Workers are forked from the bot (``bot/workers.py``): each closes its inherited descriptor at once,
    or a worker would keep the lock after the bot itself was killed, and the bot's own copy stays locked."""
    lock = ProcessLock(tmp_path / "podkeeper.sqlite3")
    lock.acquire()
    fd = lock._fd
    assert fd is not None
    report, reported = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: say what it holds, then leave without running pytest's teardown
        try:
            os.write(reported, b"closed" if lock._fd is None and not _is_open(fd) else b"kept")
        finally:
            os._exit(0)
    os.close(reported)
    try:
        answer = os.read(report, 16)
        os.waitpid(child, 0)
        assert answer == b"closed"
        with lock.path.open("rb") as other, pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # still the bot's
    finally:
        os.close(report)
    # The worker's hook once more, here, where a test runner sees it run: it closes the descriptor (the
    # lock goes with the last copy) and forgets it, so a later release has nothing to close.
    lock._forget_in_child()
    assert not _is_open(fd)
    lock.release()
    with lock.path.open("rb") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)


@pytest.mark.sqlite_only
def test_a_worker_whose_copy_of_the_lock_is_already_closed_starts_all_the_same(tmp_path: Path) -> None:
    """A library that closes every inherited descriptor in its children may get there first: the worker's
    hook then has nothing to close, and that is no error (an error in a fork hook is printed to the
    worker's stderr, and the worker would keep a stale number)."""
    lock = ProcessLock(tmp_path / "podkeeper.sqlite3")
    lock.acquire()
    assert lock._fd is not None
    os.close(lock._fd)  # closed behind the lock's back
    lock._forget_in_child()
    assert lock._fd is None
    lock.release()  # nothing left to close


@pytest.mark.sqlite_only
def test_releasing_a_lock_never_taken_or_already_released_does_nothing(tmp_path: Path) -> None:
    lock = ProcessLock(tmp_path / "podkeeper.sqlite3")
    lock.release()  # never taken
    lock.acquire()
    lock.release()
    lock.release()  # already released
    lock.acquire()  # and still free to take
    lock.release()


async def test_a_postgresql_url_without_asyncpg_installed_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "asyncpg", None)  # what an import finds where the package is missing
    with pytest.raises(DatabaseError) as refused:
        await Database.open("postgresql://bot@127.0.0.1:1/podkeeper")
    assert str(refused.value) == "a postgresql:// database needs the asyncpg package (pip install asyncpg)"


@pytest.mark.postgresql_only
async def test_a_server_that_refuses_the_database_is_named_in_the_refusal(db_url: str) -> None:
    """A database the server does not have is the server's refusal (not a lost connection): told as one."""
    missing = db_url.split("?", 1)[0].rsplit("/", 1)[0] + "/no_such_podkeeper_db"
    with pytest.raises(DatabaseError) as refused:
        await Database.open(missing)
    assert str(refused.value).startswith(f"cannot connect to PostgreSQL at {missing}: ")
    assert "no_such_podkeeper_db" in str(refused.value).split(": ", 1)[1]


@pytest.mark.postgresql_only
async def test_a_migration_longer_than_the_statement_timeout_still_runs(db_url: str, tmp_path: Path) -> None:
    """``[database] statement_timeout_seconds`` is for the bot's changes: a migration of a large table may
    take minutes, and one cancelled half-way would stop every start. It is lifted for the migration only."""
    (tmp_path / "0001_slow.sql").write_text("SELECT pg_sleep(1.5);\n", encoding="utf-8")
    db = await _emptied(db_url)
    await db.close()
    db = await Database.open(db_url, migrate=False, statement_timeout=1)
    try:
        assert [m.name for m in await db.migrate(available_migrations(tmp_path))] == ["slow"]
        assert await db.scalar("SHOW statement_timeout") == "1s"  # the bot's own statements keep it
    finally:
        await db.close()


def test_a_statement_over_several_lines_keeps_its_lines_and_inner_comments() -> None:
    """Only a comment between statements is dropped: one inside a statement is part of its text (and
    harmless to both engines), and the lines stay lines."""
    script = "-- header\nCREATE TABLE b (\n  -- the key\n  id INTEGER\n);\n-- trailing\n"
    assert split_sql(script) == ["CREATE TABLE b (\n  -- the key\n  id INTEGER\n);"]


async def test_migrating_with_an_older_list_is_refused_before_any_change(db: Database) -> None:
    """An older Podkeeper (its own, shorter list of migrations) on a newer database: refused, not run."""
    current = await db.schema_version()
    with pytest.raises(
        DatabaseError, match=rf"schema version {current}, newer than this Podkeeper knows \(2\)"
    ):
        await db.migrate(available_migrations()[:2])
    assert await db.schema_version() == current
