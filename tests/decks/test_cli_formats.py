"""``podkeeper deck check`` reads every export format players use from a file (real SQLite card database built from
the committed card subset), and refuses a file with no cards with exit status 2 and the format it looked like."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.conftest import write_cli_config
from tests.decks.deck_sites import ARCHIDEKT_ID, MOXFIELD_ID, closed_port, sites_in_thread
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
    empty.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n'
        '  <deckname>new deck</deckname>\n  <zone name="main"/>\n</cockatrice_deck>\n',
        encoding="utf-8",
    )
    assert run(config_file, str(empty), "--json") == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no verdict at all: never "0 cards, no commander"
    assert "it looked like a Cockatrice .cod file" in captured.err


def test_refusal_in_japanese(config_file: Path, tmp_path: Path, capsys) -> None:
    empty = tmp_path / "deck.dck"
    empty.write_text("[metadata]\nName=空\n[Main]\n", encoding="utf-8")
    assert run(config_file, str(empty), "--language", "ja") == 2
    assert "Forge の .dck ファイル" in capsys.readouterr().err


# -- deck links ------------------------------------------------------------------------------------------


def _config_with_sites(tmp_path: Path, archidekt: str, moxfield: str) -> Path:
    config = write_cli_config(tmp_path, DATA / "deck_cards.jsonl")
    with config.open("a", encoding="utf-8") as handle:
        handle.write(f'\n[decks]\narchidekt_api_url = "{archidekt}"\nmoxfield_api_url = "{moxfield}"\n')
    return config


def test_a_deck_link_is_checked_from_the_command_line(tmp_path: Path, capsys) -> None:
    with sites_in_thread() as sites:
        config = _config_with_sites(tmp_path, **sites.urls_by_site())
        assert run(config, f"https://www.moxfield.com/decks/{MOXFIELD_ID}", "--json") == 0
        out = json.loads(capsys.readouterr().out)
        assert (out["legal"], out["commanders"], out["card_count"]) == (True, ["Kaalia of the Vast"], 100)
        assert run(config, f"https://archidekt.com/decks/{ARCHIDEKT_ID}") == 0
        assert "Legal under commander." in capsys.readouterr().out


def test_an_unreachable_site_exits_2_within_seconds(tmp_path: Path, capsys) -> None:
    dead = f"http://127.0.0.1:{closed_port()}"
    config = _config_with_sites(tmp_path, f"{dead}/api/decks/", f"{dead}/v3/decks/all/")
    started = time.monotonic()
    assert run(config, "https://archidekt.com/decks/1234567", "--language", "zh-Hans") == 2
    assert time.monotonic() - started < 5
    assert "目前无法连接Archidekt" in capsys.readouterr().err
