"""Shared fixtures: a real SQLite file per test, real card data from tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.db import Database

TESTS_DIR = Path(__file__).parent
TEST_DATA = TESTS_DIR / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="run long randomized tests at their full counts (e.g. 10,000 Hydra games)")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects, so `-m randomized` sees the added marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test using ``full_run`` is randomized with a count ``--full`` raises: mark it so CI can run just
    those at their full counts (``pytest --full -m randomized``)."""
    for item in items:
        if "full_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.randomized)
            item.add_marker(pytest.mark.slow)


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
