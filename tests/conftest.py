"""Shared fixtures: a real SQLite file per test, real card data from tests/data."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bot.storage.db import Database, available_migrations
from bot.testing.fakediscord.backend import FakeDiscord

# Hypothesis's 200 ms per-example deadline measures the machine, not the code: on CI's shared two cores
# under load a property test failed with DeadlineExceeded now and then (tests/hydra_events/test_summary.py).
# Slowness is the benchmarks' business; the properties keep every other setting (and their example counts).
settings.register_profile("podkeeper", deadline=None)
settings.load_profile("podkeeper")

TESTS_DIR = Path(__file__).parent
TEST_DATA = TESTS_DIR / "data"


# Cache compiled modules in __pycache__ (git-ignored) even where the environment sets PYTHONDONTWRITEBYTECODE,
# as Python and pytest do by default. Without it every xdist worker of every run compiles the ~130 test modules
# again with pytest's assertion rewriting (~4 s of CPU per worker), every bot a test boots compiles the cogs
# again (``load_extension`` executes their modules afresh: ~0.2 s of each ~0.5 s boot), and so does every
# subprocess the e2e, CLI and sandbox tests start (hence the environment variable too).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run long randomized tests at their full counts (e.g. 10,000 Hydra games)",
    )


# The default run (pyproject's addopts): what a developer runs, the first part of CI. `-m ""` runs everything;
# .ci/run runs the rest as `-m "(slow or postgres) and not randomized"` and `--full -m randomized`.
DEFAULT_MARKS = "not slow and not postgres"


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects, so `-m randomized` sees the added marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test using ``full_run`` is randomized with a count ``--full`` raises: mark it so CI can run just
    those at their full counts (``pytest --full -m randomized``); the default run has them at their small
    counts. A test using the ``browser`` fixture (tests/web/browser.py: Chromium) is slow. Then put the long
    tests first."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "full_run" in fixtures:
            item.add_marker(pytest.mark.randomized)
        if "browser" in fixtures:
            item.add_marker(pytest.mark.slow)
    # Long tests first (a stable sort keeps each module's order): with `-n auto` the workers start them
    # early instead of one worker finishing a subprocess test while the other idles.
    items.sort(
        key=lambda item: not any(item.get_closest_marker(m) for m in ("slow", "randomized", "postgres"))
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the machine has cores. Much of the suite waits (a bot's database on
    a thread, worker processes, sockets): on 2 cores, 2 workers left a core idle for ~20 % of the run
    (75 s for 112 s of CPU), 3 workers took 60 s for the same CPU."""
    return (os.cpu_count() or 1) + 1


_INSPECTED = {"messages": 0, "with_allowed_mentions": 0, "user_pings": 0}


@pytest.fixture(autouse=True)
def no_message_pings_a_crowd():
    """After every test: no message any stand-in received (harness, e2e, sandbox) would ping
    @everyone, @here or a role. The harness already fails the call that sent one; this also covers
    messages sent outside any call, and counts what was inspected for the session summary."""
    before = len(FakeDiscord.instances)  # module-scoped stand-ins (the sandbox's) stay before the mark
    yield
    made, FakeDiscord.instances[before:] = FakeDiscord.instances[before:], []
    for fake in made:
        for message in fake.messages.values():
            _INSPECTED["messages"] += 1
            _INSPECTED["with_allowed_mentions"] += message.allowed_mentions is not None
            _INSPECTED["user_pings"] += len(message.pings.users)
            assert not message.pings.mass, (
                f"message {message.id} would ping @everyone/@here or a role: {message.content[:200]!r} "
                f"(allowed_mentions={message.allowed_mentions})"
            )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if _POSTGRES_SKIP in str(r.longrepr)]
    if skipped:
        reason = str(skipped[0].longrepr[2]) if isinstance(skipped[0].longrepr, tuple) else ""
        terminalreporter.write_line(
            f"{len(skipped)} PostgreSQL tests skipped: no server at {reason.split(_POSTGRES_SKIP, 1)[-1]} "
            f"(set PODKEEPER_REQUIRE_POSTGRES=1 to fail instead)"
        )
    if terminalreporter.config.option.markexpr == DEFAULT_MARKS:
        terminalreporter.write_line(
            f"The default run (-m '{DEFAULT_MARKS}'): the slow tests (subprocesses, a browser, "
            "the bundled card data) and the PostgreSQL runs were left out; -m '' runs them "
            "too, as .ci/run does"
        )
    if _INSPECTED["messages"]:
        terminalreporter.write_line(
            "Discord stand-in: {messages} messages inspected ({with_allowed_mentions} with allowed_mentions, "
            "{user_pings} user pings), none pinging @everyone, @here or a role".format(**_INSPECTED)
        )


@pytest.fixture
def full_run(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--full"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "podkeeper.sqlite3"


# -- both engines ---------------------------------------------------------------------------------
# Every test using the ``db`` (or ``db_url``) fixture, and every test marked ``both_engines`` (service and Discord-layer
# suites run through the harness), runs twice: on an SQLite file and on PostgreSQL, in a schema of its
# own in the `test` database (created before, dropped after), so pytest-xdist workers never collide.
# Without a reachable server the PostgreSQL runs skip, and the session ends with one line saying so;
# with PODKEEPER_REQUIRE_POSTGRES=1 (CI) they fail instead.

POSTGRES_TEST_URL = os.environ.get("PODKEEPER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
_POSTGRES_SKIP = "PostgreSQL test skipped: no server at "
_postgres_down: list[str] = []  # the connection error, once found (each worker checks once)


def _run(coro: Any) -> Any:
    """Run set-up or clean-up on a loop of its own (the test's loop is not running yet, or any more)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


async def _admin(sql: str, *args: Any) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES_TEST_URL, timeout=3)
    try:
        return list(await conn.fetch(sql, *args)) if args else [await conn.execute(sql)]
    finally:
        await conn.close()


# Migrating a schema costs PostgreSQL about as much as a small test (DDL for ~45 tables), so a schema a test
# leaves with exactly the migrated tables is emptied (rows deleted, identities restarted) and given to this
# worker's next test instead of dropped; one with other tables or schema versions is dropped.
_clean_schemas: list[str] = []
_MIGRATED_TABLES = frozenset(
    {"schema_version"}
    | {
        name.lower()
        for migration in available_migrations()
        for name in re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", migration.sql())
    }
)
_MIGRATION_VERSIONS = frozenset(m.version for m in available_migrations())


def postgres_schema_url() -> str:
    """A fresh, empty (or emptied, migrated) schema for one test: its URL, with search_path set."""
    if _postgres_down:
        raise OSError(_postgres_down[0])
    if _clean_schemas:
        return f"{POSTGRES_TEST_URL}?search_path={_clean_schemas.pop()}"
    schema = f"t_{uuid.uuid4().hex[:16]}"
    try:
        _run(_admin(f"CREATE SCHEMA {schema}"))
    except Exception as exc:
        _postgres_down.append(f"{type(exc).__name__}: {exc}")
        raise OSError(_postgres_down[0]) from None
    return f"{POSTGRES_TEST_URL}?search_path={schema}"


async def _empty_or_drop(schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES_TEST_URL, timeout=3)
    try:
        tables = {
            r[0]
            for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", schema
            )
        }
        versions = set()
        if tables == _MIGRATED_TABLES:
            versions = {r[0] for r in await conn.fetch(f"SELECT version FROM {schema}.schema_version")}
        if versions != _MIGRATION_VERSIONS:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            return
        identities = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = $1 AND is_identity = 'YES'",
            schema,
        )
        statements = ["SET session_replication_role = replica"]  # no foreign-key order to respect
        statements += [f"DELETE FROM {schema}.{table}" for table in sorted(tables - {"schema_version"})]
        statements += [
            f"SELECT setval(pg_get_serial_sequence('{schema}.{t}', '{c}'), 1, false)" for t, c in identities
        ]
        # what a migration put in the new database goes back (the next challenge table's id, migration 0065)
        statements.append(f"INSERT INTO {schema}.challenge_table_ids (next_id) VALUES (1)")
        statements.append("SET session_replication_role = origin")
        await conn.execute(";\n".join(statements))
        _clean_schemas.append(schema)
    finally:
        await conn.close()


def drop_postgres_schema(url: str) -> None:
    _run(_empty_or_drop(url.rsplit("search_path=", 1)[1]))


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _clean_schemas:
        _run(_admin("DROP SCHEMA " + ", ".join(_clean_schemas) + " CASCADE"))
        _clean_schemas.clear()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "both_engines: run the test on SQLite and on PostgreSQL "
        "(the harness's bot gets its database from the `engine` fixture)",
    )
    config.addinivalue_line(
        "markers",
        "sqlite_only: the test is about the SQLite file itself (PRAGMAs, "
        "the online backup): its `db` is SQLite only",
    )
    config.addinivalue_line(
        "markers", "postgresql_only: the test is about PostgreSQL itself: its `db` is PostgreSQL only"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("sqlite_only"):
        return
    on_postgres = pytest.param("postgresql", marks=pytest.mark.postgres)
    if metafunc.definition.get_closest_marker("postgresql_only"):
        metafunc.parametrize("engine", [on_postgres], indirect=True)
    elif {"db", "db_url"} & set(metafunc.fixturenames) or metafunc.definition.get_closest_marker(
        "both_engines"
    ):
        metafunc.parametrize("engine", ["sqlite", on_postgres], indirect=True)


@pytest.fixture(autouse=True)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """The engine this run of the test uses. On PostgreSQL its fresh schema's URL is in
    PODKEEPER_DATABASE_URL, which the ``db`` fixture and the harness's bot (default_config) use."""
    name = getattr(request, "param", "sqlite")
    if name != "postgresql":
        yield name
        return
    try:
        url = postgres_schema_url()
    except OSError as exc:
        if os.environ.get("PODKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail(
                f"PODKEEPER_REQUIRE_POSTGRES=1 but PostgreSQL is unreachable at {POSTGRES_TEST_URL}: {exc}"
            )
        pytest.skip(f"{_POSTGRES_SKIP}{POSTGRES_TEST_URL} ({exc})")
    monkeypatch.setenv("PODKEEPER_DATABASE_URL", url)
    yield name
    drop_postgres_schema(url)


@pytest.fixture
def db_url(db_path: Path, engine: str) -> str | Path:
    """Where this test's database is, for tests that close and reopen it (a restart): the SQLite file, or
    the PostgreSQL schema's URL."""
    return os.environ["PODKEEPER_DATABASE_URL"] if engine == "postgresql" else db_path


@pytest.fixture
async def db(db_url: str | Path):
    database = await Database.open(db_url)
    yield database
    await database.close()


def write_cli_config(tmp_path: Path, cards_path: Path, *, log_level: str | None = None) -> Path:
    """A config.toml for CLI tests: a database in ``tmp_path`` and ``cards_path`` as the card data
    imported on first use (a small committed subset, so commands start fast)."""
    path = tmp_path / "config.toml"
    text = f'[database]\npath = "{tmp_path / "podkeeper.sqlite3"}"\n[cards]\npath = "{cards_path}"\n'
    if log_level:
        text += f'[logging]\nlevel = "{log_level}"\n'
    path.write_text(text, encoding="utf-8")
    return path
