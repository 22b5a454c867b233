"""The board's mulligan texts in all four languages (the catalogue itself is checked by tests/core)."""

from __future__ import annotations

import pytest

from bot.domain.mulligan import Choice, MulliganError, TableMulligan
from bot.services.mulligan import error_text, instruction_text, status_line, style_name

NAMES = {1: "Alice", 2: "Bob", 3: "Carol"}


def test_status_line_reads_like_the_issue():
    table = TableMulligan.start("partial_paris", [1, 2, 3])
    table, _ = table.decide(1, 0)
    table, told = table.decide(2, 2)
    assert instruction_text(told, "en") == "Draw 1."
    assert (
        status_line(table, NAMES, "en")
        == "Alice kept 7 · Bob waiting (6 in hand) · Carol deciding (7 in hand)"
    )
    assert (
        status_line(table, NAMES, "ja") == "Alice 7枚でキープ・Bob待機中（手札6枚）・Carol検討中（手札7枚）"
    )


def test_error_text_names_the_expected_player():
    table = TableMulligan.start("london", [1, 2, 3])
    with pytest.raises(MulliganError) as caught:
        table.decide(3, Choice.KEEP)
    assert (
        error_text(caught.value, "en", NAMES) == "Mulligans go in turn order: it is Alice's turn to answer."
    )
    assert "Alice" in error_text(caught.value, "zh-Hant", NAMES)


def test_london_keep_after_two_mulligans_in_chinese():
    table = TableMulligan.start("london", [1, 2, 3])
    table, _ = table.decide(1, Choice.MULLIGAN)
    table, _ = table.decide(2, Choice.KEEP)
    table, _ = table.decide(3, Choice.KEEP)
    table, _ = table.decide(1, Choice.MULLIGAN)
    table, told = table.decide(1, Choice.KEEP)
    assert instruction_text(told, "zh-Hans") == "保留，并将1张手牌置于牌库底。"
    assert style_name("london", "zh-Hant") == "倫敦再調度"
