"""``podkeeper deck check`` reads every format of issue #16 from a file (real SQLite card database built from
the committed card subset), and refuses a file with no cards with exit status 2 and the format it looked like."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write_cli_config
from tests.decks.test_cli import DATA, DECKS, run
from tests.decks.test_formats import FILES


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    return write_cli_config(tmp_path, DATA / "deck_cards.jsonl")


@pytest.mark.parametrize("filename", [name for name, _ in FILES])
def test_every_format_checks_legal_from_the_command_line(config_file: Path, capsys, filename: str) -> None:
    assert run(config_file, str(DECKS / filename), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["legal"], out["commanders"], out["card_count"]) == (True, ["Kaalia of the Vast"], 100)


def test_a_file_with_no_cards_exits_2_naming_the_format(config_file: Path, tmp_path: Path, capsys) -> None:
    empty = tmp_path / "new deck.cod"
    empty.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n'
                     '  <deckname>new deck</deckname>\n  <zone name="main"/>\n</cockatrice_deck>\n', encoding="utf-8")
    assert run(config_file, str(empty), "--json") == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no verdict at all: never "0 cards, no commander"
    assert "it looked like a Cockatrice .cod file" in captured.err


def test_refusal_in_japanese(config_file: Path, tmp_path: Path, capsys) -> None:
    empty = tmp_path / "deck.dck"
    empty.write_text("[metadata]\nName=空\n[Main]\n", encoding="utf-8")
    assert run(config_file, str(empty), "--language", "ja") == 2
    assert "Forge の .dck ファイル" in capsys.readouterr().err
