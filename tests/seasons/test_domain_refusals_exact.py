"""Each refusal of the season rules with its exact key and values: the member's message is built from
both, so a wrong or missing value is a message that names the wrong limit, part or status."""

from __future__ import annotations

import pytest

from bot.domain import season
from bot.domain.season import SeasonError


def _refusal(call, *args, **kwargs) -> tuple[str, dict[str, object]]:
    with pytest.raises(SeasonError) as refused:
        call(*args, **kwargs)
    return refused.value.key, refused.value.values


def test_points_refusals_name_the_part_the_key_and_the_limits() -> None:
    assert _refusal(season.parse_points, "", min_games=1001) == (
        "season.error.min_games_out_of_range",
        {"limit": 1000, "games": 1001},
    )
    assert _refusal(season.parse_points, "win=3 " + "x" * 50) == (
        "season.error.bad_points",
        {"part": "x" * 40},
    )
    assert _refusal(season.parse_points, "w=3 win=4") == ("season.error.points_twice", {"what": "win"})
    assert _refusal(season.parse_points, "e=101") == (
        "season.error.points_out_of_range",
        {"what": "elimination", "limit": 100, "points": 101},
    )


def test_the_limits_themselves_are_allowed_and_a_leading_comma_reads_on() -> None:
    assert season.parse_points("", min_games=1000).min_games == 1000
    assert season.parse_points(",win=5; s=-100").win == 5
    assert season.parse_points(",win=5; s=-100").survive == -100
    assert season.check_name("n" * 64) == "n" * 64
    assert _refusal(season.check_name, "n" * 65) == ("season.error.bad_name", {"limit": 64})


def test_answer_and_decision_refusals_name_the_status() -> None:
    state = season.ResultState(players=frozenset({1, 2}))
    assert _refusal(season.answer, state, 1, "maybe") == ("season.error.bad_answer", {})
    assert _refusal(season.answer, state, 3, season.CONFIRM) == ("season.error.not_at_table", {})
    final = season.decide(state, season.VOID)
    assert _refusal(season.answer, final, 1, season.CONFIRM) == (
        "season.error.already_final",
        {"status": "voided"},
    )
    assert _refusal(season.decide, state, "maybe") == ("season.error.bad_decision", {})
    assert _refusal(season.decide, final, season.VOID) == (
        "season.error.already_decided",
        {"status": "voided"},
    )
