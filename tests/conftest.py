"""Shared fixtures: a real SQLite file per test, real card data from tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.db import Database
from bot.testing.fakediscord.backend import FakeDiscord

TESTS_DIR = Path(__file__).parent
TEST_DATA = TESTS_DIR / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="run long randomized tests at their full counts (e.g. 10,000 Hydra games)")


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
