"""Exact values of the odds' smaller parts, written from mutation testing: the JSON that
``podkeeper mulligan odds --json`` prints, the per-size listing, the Wilson interval, the refusals'
values and the Monte Carlo figures' bookkeeping. Each assertion pins a number or a key a planted bug
(a flipped comparison, a dropped term, a renamed key) changes; the enumeration oracles of
``test_mulligan_odds.py`` check the probabilities themselves."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from bot.domain.mulligan import MulliganError, MulliganStyle
from bot.domain.mulligan.odds import (
    DeckCounts,
    DeckOdds,
    StyleOdds,
    hypergeometric,
    hypergeometric_pmf,
    monte_carlo_odds,
    wilson_interval,
)


def test_deck_refusals_name_the_problem_and_the_count():
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.too_few_cards") as caught:
        DeckCounts(6, 3).check()
    assert caught.value.values == {"count": 6}
    DeckCounts(7, 1).check()  # exactly an opening hand, one land: fine
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.no_lands$"):
        DeckCounts(7, 0).check()
    DeckCounts(5, 2).check(opening=5)  # a smaller opening hand (the partial-Paris oracles use 5 and 6)
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.too_few_cards"):
        DeckCounts(5, 2).check(opening=6)


def test_pmf_bounds_and_exact_fractions():
    assert hypergeometric_pmf(4, 2, 2, exact=True) == [Fraction(1, 6), Fraction(4, 6), Fraction(1, 6)]
    assert hypergeometric_pmf(4, 0, 4, exact=True) == [1, 0, 0, 0, 0]
    assert hypergeometric_pmf(4, 4, 0, exact=True) == [1]
    assert hypergeometric_pmf(0, 0, 0, exact=True) == [1]
    for numbers in ((4, 5, 2), (4, -1, 2), (4, 2, 5), (4, 2, -1)):
        with pytest.raises(MulliganError, match=r"^mulligan\.error\.bad_numbers$"):
            hypergeometric_pmf(*numbers)


def test_the_calculator_reports_its_inputs_and_both_figures():
    result = hypergeometric(4, 2, 2, 1)
    assert (result.population, result.successes, result.draws, result.want) == (4, 2, 2, 1)
    assert result.exactly == pytest.approx(4 / 6, abs=1e-15) and result.at_least == pytest.approx(
        5 / 6, abs=1e-15
    )
    zero = hypergeometric(4, 2, 2, 0)
    assert zero.exactly == pytest.approx(1 / 6, abs=1e-15) and zero.at_least == 1.0
    top = hypergeometric(4, 2, 2, 2)
    assert top.exactly == top.at_least == pytest.approx(1 / 6, abs=1e-15)
    assert isinstance(top.exactly, float) and isinstance(top.at_least, float)


def _style(**extra: object) -> StyleOdds:
    return StyleOdds(MulliganStyle.LONDON, "exact", (0.0, 0.0, 0.0, 0.0, 0.1, 0.0, 0.2, 0.5), True, **extra)  # type: ignore[arg-type]


def test_by_size_lists_possible_sizes_largest_first():
    assert _style().by_size() == [(7, 0.5), (6, 0.2), (4, 0.1)]
    assert _style().total == pytest.approx(0.8) and _style().never == pytest.approx(0.2)
    over = StyleOdds(MulliganStyle.LONDON, "exact", (0.6, 0.6), False)
    assert over.never == 0.0  # rounding past 1 never shows a negative chance


def test_exact_style_json():
    assert _style().to_json() == {
        "method": "exact",
        "free_first_mulligan": True,
        "p_keep_at_size": {"7": 0.5, "6": 0.2, "5": 0.0, "4": 0.1, "3": 0.0, "2": 0.0, "1": 0.0, "0": 0.0},
        "p_keepable": pytest.approx(0.8),
        "p_never_keepable": pytest.approx(0.2),
    }
    assert list(_style().to_json()["p_keep_at_size"]) == ["7", "6", "5", "4", "3", "2", "1", "0"]


def test_monte_carlo_style_json_adds_samples_and_intervals():
    intervals = tuple((i / 10, i / 10 + 0.05) for i in range(8))
    odds = StyleOdds(
        MulliganStyle.VANCOUVER,
        "monte_carlo",
        (0.0,) * 7 + (0.75,),
        False,
        samples=400,
        interval=intervals,
        total_interval=(0.7, 0.8),
    )
    data = odds.to_json()
    assert data["method"] == "monte_carlo" and data["free_first_mulligan"] is False
    assert data["samples"] == 400
    assert data["ci95_at_size"] == {str(h): [h / 10, h / 10 + 0.05] for h in range(7, -1, -1)}
    assert list(data["ci95_at_size"]) == ["7", "6", "5", "4", "3", "2", "1", "0"]
    assert data["ci95_keepable"] == [0.7, 0.8]
    bare = StyleOdds(MulliganStyle.VANCOUVER, "monte_carlo", (0.5,), False, samples=2)
    assert bare.to_json()["ci95_at_size"] == {} and bare.to_json()["ci95_keepable"] == []


def test_deck_json_has_every_figure():
    counts = DeckCounts(99, 38, 2)
    odds = DeckOdds(
        counts, (2, 5), 4, (0.1, 0.2, 0.3, 0.2, 0.1, 0.05, 0.03, 0.02), {MulliganStyle.LONDON: _style()}
    )
    assert odds.p_keepable_opening == pytest.approx(0.3 + 0.2 + 0.1 + 0.05)  # 2 to 5 lands
    assert odds.to_json() == {
        "deck_size": 99,
        "lands": 38,
        "half_lands": 2,
        "land_equivalent": 39.0,
        "p_lands_in_7": [0.1, 0.2, 0.3, 0.2, 0.1, 0.05, 0.03, 0.02],
        "keepable_lands": [2, 5],
        "p_keepable_in_7": pytest.approx(0.65),
        "player_count": 4,
        "policy": "mulligan until keepable (best play where the style leaves a choice)",
        "styles": {"london": _style().to_json()},
    }


def test_wilson_interval_known_values():
    """Reference values of the Wilson score interval (z = 1.96): 0/10, 5/10, 10/10 and 20/100."""
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.236593, abs=1e-6), pytest.approx(0.763407, abs=1e-6))
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.277533, abs=1e-6)
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(0.722467, abs=1e-6) and high == pytest.approx(1.0, abs=1e-12)
    low, high = wilson_interval(20, 100)
    assert (low, high) == (pytest.approx(0.133367, abs=1e-6), pytest.approx(0.288829, abs=1e-6))
    low, high = wilson_interval(20, 100, z=1.0)
    assert (low, high) == (pytest.approx(0.163058, abs=1e-6), pytest.approx(0.242882, abs=1e-6))  # z = 1


def test_monte_carlo_bookkeeping(make_library):
    """Every sample ends somewhere: the per-size shares and the keepable total add up to what was
    counted, each with its own Wilson interval; a deck of only lands keeps five lands, always at five
    cards (London bottoms two of the seven)."""
    library = make_library(12, 28)
    odds = monte_carlo_odds(MulliganStyle.VANCOUVER, library, 300, (2, 5), player_count=2, seed="bookkeeping")
    assert odds.method == "monte_carlo" and odds.samples == 300 and odds.free_first is False
    assert len(odds.keep_at) == 8 and len(odds.interval or ()) == 8
    counts = [round(p * 300) for p in odds.keep_at]
    assert all(math.isclose(p, n / 300) for p, n in zip(odds.keep_at, counts, strict=True))
    assert odds.interval == tuple(wilson_interval(n, 300) for n in counts)
    assert odds.total_interval == wilson_interval(sum(counts), 300)
    assert 0 < sum(counts) <= 300 and counts[7] > 0
    flooded = monte_carlo_odds(MulliganStyle.LONDON, make_library(40, 0), 50, (2, 5), player_count=4, seed=1)
    assert (
        flooded.keep_at == (0.0,) * 5 + (1.0, 0.0, 0.0)
        and flooded.free_first is True
        and flooded.never == 0.0
    )
    assert flooded.total_interval == wilson_interval(50, 50) and flooded.interval[5] == wilson_interval(
        50, 50
    )
    paris = monte_carlo_odds("partial_paris", library, 50, (2, 5), seed=2)
    assert paris.style is MulliganStyle.PARTIAL_PARIS and paris.samples == 50
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.bad_keep_range"):
        monte_carlo_odds(MulliganStyle.LONDON, library, 10, (3, 2))
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.no_lands$"):
        monte_carlo_odds(MulliganStyle.LONDON, make_library(0, 40), 10)
