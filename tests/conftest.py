"""Shared fixtures: a real SQLite file per test, real card data from tests/data."""

from __future__ import annotations

import hashlib
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import CodeType
from typing import Any

import pytest

from bot.storage.db import Database
from bot.testing.fakediscord.backend import FakeDiscord

TESTS_DIR = Path(__file__).parent
TEST_DATA = TESTS_DIR / "data"


def _reuse_compiled_modules() -> None:
    """Every bot a test boots loads the cogs afresh (``load_extension`` executes their modules again),
    which compiles them again when Python may not write bytecode (PYTHONDONTWRITEBYTECODE): about
    0.2 s of each ~0.5 s boot. Keep the compiled code in memory, keyed by the source's hash, instead."""
    compiled: dict[tuple[str, bytes], CodeType] = {}
    compile_source = SourceFileLoader.source_to_code

    def source_to_code(self: SourceFileLoader, data: Any, path: Any, *, _optimize: int = -1) -> CodeType:
        key = (str(path), hashlib.blake2b(bytes(data), digest_size=16).digest())
        if key not in compiled:
            compiled[key] = compile_source(self, data, path, _optimize=_optimize)  # type: ignore[call-arg]
        return compiled[key]

    SourceFileLoader.source_to_code = source_to_code  # type: ignore[assignment,method-assign]


if sys.dont_write_bytecode:
    _reuse_compiled_modules()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="run long randomized tests at their full counts (e.g. 10,000 Hydra games)")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects, so `-m randomized` sees the added marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test using ``full_run`` is randomized with a count ``--full`` raises: mark it so CI can run just
    those at their full counts (``pytest --full -m randomized``). Then put the slow tests first."""
    for item in items:
        if "full_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.randomized)
            item.add_marker(pytest.mark.slow)
    # Slow tests first (a stable sort keeps each module's order): with `-n auto` the workers start the
    # long ones early instead of one worker finishing a subprocess test while the other idles.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
                f"(allowed_mentions={message.allowed_mentions})")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _INSPECTED["messages"]:
        terminalreporter.write_line(
            "Discord stand-in: {messages} messages inspected ({with_allowed_mentions} with allowed_mentions, "
            "{user_pings} user pings), none pinging @everyone, @here or a role".format(**_INSPECTED))


@pytest.fixture
def full_run(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--full"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "podkeeper.sqlite3"


@pytest.fixture
async def db(db_path: Path):
    database = await Database.open(db_path)
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
