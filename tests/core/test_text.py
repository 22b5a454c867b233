"""``bot.text``: any text a user types fits Discord's limits, shown as typed, cut on a safe boundary."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from bot.text import ELLIPSIS, escape_markdown, fit, fit_lines

MARKDOWN_HEAVY = st.text(
    alphabet=st.sampled_from(list("*_~`|>#-[]()\\ \nabcé\u0301👍\u200d🏽日")), max_size=6000
)


@given(MARKDOWN_HEAVY, st.integers(min_value=1, max_value=2000))
def test_fitted_text_never_passes_the_budget_and_never_splits_an_escape(text, budget):
    shown = fit(text, budget)
    assert len(shown) <= budget
    escaped = escape_markdown(text)
    if len(escaped) <= budget:
        assert shown == escaped  # what fits is shown whole
    else:
        assert shown.endswith(ELLIPSIS)
        kept = shown[: -len(ELLIPSIS)]
        assert escaped.startswith(kept.rstrip()) or escaped.startswith(kept)
        trailing = len(kept) - len(kept.rstrip("\\"))
        assert trailing % 2 == 0, "an escape was cut in half"
        if kept and len(kept) < len(escaped):
            assert not unicodedata.combining(escaped[len(kept)]) or kept == ""


@given(st.text(max_size=300))
def test_escaped_text_has_no_unescaped_markdown(text):
    escaped = escape_markdown(text)
    index, line_start = 0, True
    while index < len(escaped):
        if escaped[index] == "\\":
            index, line_start = index + 2, False
            continue
        assert escaped[index] not in "*_~`|[]", escaped
        assert not (line_start and escaped[index] in ">#-"), escaped  # quote, heading, list at a line start
        line_start = escaped[index] == "\n" or (line_start and escaped[index].isspace())
        index += 1


def test_escaping_can_double_the_length_and_the_cut_comes_after():
    assert escape_markdown("*_" * 3) == "\\*\\_" * 3
    assert fit("*" * 6000, 2000) == "\\*" * 999 + ELLIPSIS
    assert fit("word " * 50, 30) == "word word word word word…"  # cut at a space, not inside a word
    assert fit("e\u0301" * 10, 6) == "e\u0301" * 2 + ELLIPSIS  # an accent stays with its letter


@given(st.lists(st.text(min_size=1, max_size=80), max_size=200), st.integers(min_value=40, max_value=1024))
def test_lists_are_cut_whole_line_by_line_with_and_n_more(lines, budget):
    def more(count: int) -> str:
        return f"… and {count} more"

    shown = fit_lines(lines, budget, more)
    assert len(shown) <= budget
    if len("\n".join(lines)) <= budget:
        assert shown == "\n".join(lines)
    else:
        kept = shown.split("\n")[:-1]
        left = len(lines) - len(kept)
        if kept == lines[: len(kept)]:
            assert shown.endswith(more(left))


def test_the_latest_lines_are_kept_for_a_history():
    lines = [f"turn {n}" for n in range(100)]
    shown = fit_lines(lines, 60, lambda count: f"({count} earlier)", keep_last=True)
    assert shown.startswith("(") and shown.endswith("turn 99") and len(shown) <= 60
