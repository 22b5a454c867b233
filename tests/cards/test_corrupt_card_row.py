"""One corrupt ``cards`` row and no stored index to fall back on: the start stopped with a raw
JSONDecodeError traceback. Now the operator gets one line naming the card and how to replace the card
data, and replacing it with ``podkeeper cards import`` works (it does not need the broken data)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from tests.cards.conftest import SUBSET
from tests.conftest import write_cli_config


def corrupt(database: Path, card: str) -> None:
    with sqlite3.connect(database) as db:
        db.execute('UPDATE cards SET data = \'{"name": "Lightning\' WHERE name = ?', (card,))
        db.execute("DELETE FROM card_snapshots")  # no ready-built index to read instead


def test_a_corrupt_card_row_is_named_with_the_way_to_repair_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_cli_config(tmp_path, SUBSET, log_level="WARNING")
    assert main(["--config", str(config), "cards", "lookup", "Lightning Bolt"]) == 0  # imports the subset
    corrupt(tmp_path / "podkeeper.sqlite3", "Lightning Bolt")
    capsys.readouterr()

    assert main(["--config", str(config), "cards", "lookup", "Sol Ring"]) != 0
    error = capsys.readouterr().err
    assert "'Lightning Bolt' is corrupt" in error and "podkeeper cards import" in error
    assert "Traceback" not in error and "JSONDecodeError" in error  # the cause, on the one line

    assert main(["--config", str(config), "cards", "import", str(SUBSET)]) == 0
    assert main(["--config", str(config), "cards", "lookup", "Lightning Bolt"]) == 0
