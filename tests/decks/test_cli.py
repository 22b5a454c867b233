"""``podkeeper deck check``: exit status 0/1/2 and exactly the JSON shape scripts rely on, on a real SQLite
card database imported from the committed card subset."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from bot.cli import main
from tests.conftest import write_cli_config

DATA = Path(__file__).parent.parent / "data"
DECKS = DATA / "decks"


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    return write_cli_config(tmp_path, DATA / "deck_cards.jsonl")


def run(config_file: Path, *args: str) -> int:
    return main(["--config", str(config_file), "deck", "check", *args])


def test_legal_deck_exits_0_with_exact_json(config_file, capsys) -> None:
    code = run(config_file, str(DECKS / "heavenly_inferno_cmd2011.txt"), "--json")
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "legal": True,
        "ruleset": "commander",
        "commanders": ["Kaalia of the Vast"],
        "color_identity": "WBR",
        "card_count": 100,
        "problems": [],
        "bracket": {
            "minimum": 1,
            "findings": [],
            "game_changers": {"source": "bundled", "date": "2025-10-21"},
        },
    }


def test_illegal_deck_exits_1_and_lists_problems(config_file, capsys) -> None:
    code = run(
        config_file,
        str(DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt"),
        "--ruleset",
        "edh-2010",
        "--json",
    )
    assert code == 1
    out = json.loads(capsys.readouterr().out)
    assert list(out) == [
        "legal",
        "ruleset",
        "commanders",
        "color_identity",
        "card_count",
        "problems",
        "bracket",
    ]
    assert out["legal"] is False and out["ruleset"] == "edh-2010" and out["color_identity"] == "UR"
    assert out["problems"] == [
        {"rule": "D3", "card": None, "message": "2 commanders; this ruleset allows at most 1."}
    ]


def test_unverifiable_deck_exits_1(config_file, tmp_path, capsys) -> None:
    deck = tmp_path / "typo.txt"
    deck.write_text("Commander: Kaalia of the Vast\n1 Sol Rign\n98 Plains\n", encoding="utf-8")
    assert run(config_file, str(deck), "--json") == 1
    [problem] = json.loads(capsys.readouterr().out)["problems"]
    assert problem["rule"] == "UNKNOWN" and problem["card"] == "Sol Rign"
    assert "Did you mean “Sol Ring”" in problem["message"]


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n\x00\x00binary", b""])
def test_unreadable_input_exits_2(config_file, tmp_path, capsys, content) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(content)
    assert run(config_file, str(deck)) == 2
    assert capsys.readouterr().err.strip()


def test_missing_file_exits_2(config_file, tmp_path, capsys) -> None:
    assert run(config_file, str(tmp_path / "nope.txt")) == 2
    assert "nope.txt" in capsys.readouterr().err


def test_text_output_in_japanese(config_file, capsys) -> None:
    assert run(config_file, str(DECKS / "kaalia_mtgo.dek"), "--language", "ja") == 0
    out = capsys.readouterr().out
    assert "統率者戦で適正です。" in out
    assert "統率者：Kaalia of the Vast" in out
    assert "  （MTGO・Cockatrice・XMage の書き出し形式に従い" in out  # the note in Japanese parentheses
    assert "カード・タイプ：クリーチャー29、インスタント12" in out


def test_commander_option_names_the_commander(config_file, tmp_path, capsys) -> None:
    deck = tmp_path / "no_commander.txt"
    deck.write_text(
        "\n".join((DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8").splitlines()[1:]),
        encoding="utf-8",
    )
    assert run(config_file, str(deck), "--json") == 1
    missing, size = json.loads(capsys.readouterr().out)["problems"]
    assert missing["rule"] == "CR 903.3" and "No commander" in missing["message"]
    assert size["rule"] == "CR 903.5a" and "99 cards" in size["message"]
    assert run(config_file, str(deck), "--json", "--commander", "kaalia of the vast") == 0
    assert json.loads(capsys.readouterr().out)["commanders"] == ["Kaalia of the Vast"]


def test_a_reader_that_leaves_early_ends_it_quietly(config_file, monkeypatch, capsys) -> None:
    """``podkeeper deck check … | head`` ended in a BrokenPipeError traceback: the reader had gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader left, as ``head`` does after its lines
    gone = open(write_end, "w", encoding="utf-8")  # noqa: SIM115 (closed below, after stdout is restored)
    monkeypatch.setattr(sys, "stdout", gone)
    try:
        code = run(config_file, str(DECKS / "kaalia_mtgo.dek"))
    finally:
        monkeypatch.undo()
        gone.close()
    assert code == 141  # 128 + SIGPIPE, as a Unix tool ends
    assert "Traceback" not in capsys.readouterr().err


def test_problem_tags_and_the_ruleset_read_in_chinese(config_file, tmp_path, capsys) -> None:
    deck = tmp_path / "unknown.txt"
    deck.write_text("Commander\n1 Kaalia of the Vast\n\nDeck\n1 No Such Card Anywhere\n", encoding="utf-8")
    assert run(config_file, str(deck), "--language", "zh-Hans") == 1
    out = capsys.readouterr().out
    assert "[未知]" in out and "UNKNOWN" not in out  # the check no rule numbers, in the reader's words
    assert "指挥官" in out.splitlines()[0] and "commander" not in out.splitlines()[0]
