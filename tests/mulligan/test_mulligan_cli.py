"""`podkeeper mulligan odds FILE` and `podkeeper odds`: real deck parser, real card database (SQLite)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bot.cli import main
from bot.domain.mulligan.odds import hypergeometric_pmf
from tests.conftest import write_cli_config

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    return write_cli_config(tmp_path, DATA / "mulligan_cards.jsonl")


def run(config_file: Path, *argv: str) -> int:
    return main(["--config", str(config_file), *argv])


def test_odds_json_for_a_real_deck(config_file, capsys):
    status = run(config_file, "mulligan", "odds", str(DATA / "mulligan_heavenly_inferno.txt"), "--json")
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert (out["deck_size"], out["lands"], out["commanders"]) == (99, 38, ["Kaalia of the Vast"])
    assert len(out["p_lands_in_7"]) == 8
    assert all(
        math.isclose(a, b, rel_tol=1e-12)
        for a, b in zip(out["p_lands_in_7"], hypergeometric_pmf(99, 38, 7), strict=True)
    )
    assert set(out["styles"]) == {"partial_paris", "london", "vancouver"}
    assert out["styles"]["london"]["method"] == "exact" and out["styles"]["london"]["free_first_mulligan"]
    assert out["unknown_cards"] == []


def test_odds_text_in_japanese_with_monte_carlo(config_file, capsys, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(
        "Commander: Kaalia of the Vast\n30 Plains\n1 Agadeem's Awakening\n68 Sol Ring\n1 Not A Card\n",
        encoding="utf-8",
    )
    status = run(
        config_file,
        "mulligan",
        "odds",
        str(deck),
        "--language",
        "ja",
        "--monte-carlo",
        "200",
        "--seed",
        "1",
        "--keep",
        "3-4",
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "ライブラリー：100枚（統率者を除く）、土地30枚。" in out
    assert "裏面が土地" in out and "（半分と数えると30.5）" in out
    assert "モンテカルロ法、手札200通り" in out and "Not A Card" in out


@pytest.mark.parametrize(
    ("text", "key_text", "status"),
    [
        ("Commander: Kaalia of the Vast\n40 Sol Ring\n", "no lands", 1),
        ("Commander: Kaalia of the Vast\n3 Plains\n2 Sol Ring\n", "only 5 cards", 1),
    ],
)
def test_decks_the_odds_cannot_describe(config_file, capsys, tmp_path, text, key_text, status):
    deck = tmp_path / "deck.txt"
    deck.write_text(text, encoding="utf-8")
    assert run(config_file, "mulligan", "odds", str(deck)) == status
    captured = capsys.readouterr()
    assert key_text in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_unreadable_input(config_file, capsys, tmp_path):
    binary = tmp_path / "deck.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    assert run(config_file, "mulligan", "odds", str(binary)) == 2
    assert capsys.readouterr().err.strip()
    assert run(config_file, "mulligan", "odds", str(tmp_path / "missing.txt")) == 2
    assert "missing.txt" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="^2$"):  # argparse's usage error
        run(config_file, "mulligan", "odds", str(binary), "--keep", "two")


def test_free_calculator(config_file, capsys):
    assert run(config_file, "odds", "99", "1", "8", "1", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert math.isclose(out["exactly"], 8 / 99) and math.isclose(out["at_least"], 8 / 99)
    assert run(config_file, "odds", "60", "4", "7", "1") == 0
    assert "at least 1: 39.9%" in capsys.readouterr().out
    assert run(config_file, "odds", "10", "11", "3", "1") == 2
    assert "between 0 and the deck size" in capsys.readouterr().err


def test_a_list_without_commander_counts_everything_and_says_so(config_file, capsys, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("40 Plains\n60 Sol Ring\n", encoding="utf-8")
    assert run(config_file, "mulligan", "odds", str(deck)) == 0
    captured = capsys.readouterr()
    assert "Library: 100 cards" in captured.out and "names no commander" in captured.err
    assert run(config_file, "mulligan", "odds", str(deck), "--commander", "Plains", "--json") == 0
    assert json.loads(capsys.readouterr().out)["deck_size"] == 99
