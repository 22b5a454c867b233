"""``podkeeper deck swap``: swaps checked against a deck file with its sideboard, on a real card database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.conftest import write_cli_config
from tests.matches.conftest import BLUE_SIDEBOARD_DECK, SIDEBOARD_DECK

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    return write_cli_config(tmp_path, DATA / "deck_cards.jsonl")


def run(config_file: Path, *args: str) -> int:
    return main(["--config", str(config_file), "deck", "swap", *args])


def test_accepted_swaps_print_the_verdict_as_json(config_file, capsys):
    code = run(
        config_file,
        str(SIDEBOARD_DECK),
        "--out",
        "Anger",
        "--in",
        "Lightning Bolt",
        "--out",
        "Mountain",
        "--in",
        "Badlands",
        "--ruleset",
        "duel-zh",
        "--json",
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["accepted"] is True
    assert out["swaps"] == [
        {"out": "Anger", "in": "Lightning Bolt", "count": 1},
        {"out": "Mountain", "in": "Badlands", "count": 1},
    ]
    assert out["verdict"]["legal"] is True and out["verdict"]["card_count"] == 100


@pytest.mark.parametrize(
    ("out", "into", "error"),
    [
        ("Kaalia of the Vast", "Duress", "commander"),
        ("Duress", "Anger", "not_in_main"),
        ("Anger", "Akoum Refuge", "not_in_sideboard"),
    ],
)
def test_refused_swaps_exit_1(config_file, capsys, out, into, error):
    code = run(config_file, str(SIDEBOARD_DECK), "--out", out, "--in", into, "--json")
    result = json.loads(capsys.readouterr().out)
    assert code == 1 and result["accepted"] is False and result["error"] == error


def test_a_swap_breaking_colour_identity_is_refused_in_text(config_file, capsys):
    code = run(
        config_file,
        str(BLUE_SIDEBOARD_DECK),
        "--out",
        "Anger",
        "--in",
        "Counterspell",
        "--ruleset",
        "commander",
        "--language",
        "ja",
    )
    assert code == 1 and "CR 903.5c" in capsys.readouterr().out


def test_unpaired_out_and_in_exit_2(config_file, capsys):
    assert run(config_file, str(SIDEBOARD_DECK), "--out", "Anger", "--language", "en") == 2
    assert "Swaps are 1-for-1" in capsys.readouterr().err
