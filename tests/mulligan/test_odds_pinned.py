"""Exact odds at small sizes, pinned as fractions (the mutation run's fast selection).

The partial-Paris figures below are the values of the brute-force walk over labelled cards in
``test_mulligan_odds.py`` (``test_pinned_partial_paris_values_are_the_enumeration`` checks each one
against it); here they are plain constants, so a planted bug in the dynamic programming, the bottom
choice or the argument checks is caught in milliseconds instead of seconds of enumeration.
Rules: M1 (partial Paris), CR 103.5 (London), CR 103.5c (the free first mulligan in multiplayer).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from bot.domain.mulligan import MulliganError, MulliganStyle
from bot.domain.mulligan.odds import (
    DeckCounts,
    attempt_sizes,
    deck_odds,
    exact_style_odds,
    hypergeometric,
    hypergeometric_pmf,
    keep_distribution,
    london_keepable,
    london_lands_to_keep,
    monte_carlo_odds,
    paris_policy,
    wilson_interval,
)

# (deck size, lands, keep range, opening hand) -> P(keepable at hand size h), h = 0..opening
PARIS_PINNED: dict[tuple[int, int, tuple[int, int], int], tuple[F, ...]] = {
    (8, 3, (2, 3), 5): (F(0), F(0), F(0), F(0), F(2, 7), F(5, 7)),
    (8, 5, (1, 2), 5): (F(0), F(0), F(0), F(0), F(23, 28), F(5, 28)),
    (8, 2, (2, 3), 5): (F(0), F(0), F(0), F(0), F(9, 14), F(5, 14)),
    (8, 4, (0, 0), 5): (F(0), F(0), F(0), F(4, 7), F(3, 7), F(0)),
    (9, 2, (2, 2), 5): (F(0), F(0), F(0), F(5, 36), F(7, 12), F(5, 18)),
    (9, 6, (1, 1), 5): (F(0), F(0), F(0), F(5, 12), F(7, 12), F(0)),
    (10, 3, (3, 3), 5): (F(0), F(0), F(0), F(3, 10), F(13, 40), F(1, 12)),
}
# Which of PARIS_PINNED the default run enumerates (the others take seconds: `pytest --full`).
PARIS_QUICK_ORACLE = ((8, 2, (2, 3), 5),)  # the first two: test_partial_paris_matches_enumeration


@pytest.mark.parametrize("case", list(PARIS_PINNED))
def test_partial_paris_exact_values(case):
    """M1: set-aside cards stay out of the library, one card fewer each round."""
    deck, lands, keep, opening = case
    want = PARIS_PINNED[case]
    assert (
        tuple(keep_distribution(MulliganStyle.PARTIAL_PARIS, deck, lands, keep, opening=opening, exact=True))
        == want
    )
    floats = keep_distribution(MulliganStyle.PARTIAL_PARIS, deck, lands, keep, opening=opening)
    assert floats == pytest.approx([float(p) for p in want], abs=1e-15)
    assert all(isinstance(p, float) for p in floats)


@pytest.mark.parametrize(
    ("case", "states"),
    [
        (
            (10, 3, (3, 3), 5),
            {
                (5, 0, 5, 3): (0, 5),
                (5, 1, 5, 2): (0, 4),
                (5, 2, 5, 1): (0, 3),
                (5, 3, 5, 0): None,
                (4, 0, 5, 3): (0, 4),
                (4, 2, 5, 1): (0, 2),
                (3, 0, 5, 3): None,
            },
        ),
        (
            (9, 6, (1, 1), 5),
            {(5, 2, 4, 4): (1, 0), (5, 3, 4, 3): (3, 0), (5, 5, 4, 1): (5, 0), (2, 2, 4, 4): (1, 0)},
        ),
        (
            (8, 4, (0, 0), 5),
            {(5, 1, 3, 3): (1, 0), (5, 4, 3, 0): (4, 0), (1, 1, 3, 3): (1, 0), (1, 0, 3, 3): None},
        ),
        (
            (99, 38, (2, 5), 7),
            {
                (7, 0, 92, 38): (0, 7),
                (7, 1, 92, 37): (0, 6),
                (7, 2, 92, 36): None,
                (7, 5, 92, 33): None,
                (7, 6, 92, 32): (1, 0),
                (7, 7, 92, 31): (5, 0),
                (6, 0, 92, 38): (0, 6),
                (2, 0, 92, 38): None,
            },
        ),
    ],
)
def test_partial_paris_policy(case, states):
    """The choice the odds assume (lands, non-lands set aside): all non-lands of a land-light hand
    (each redraw is one card short, so the fewest kept spells give the most lands), and for a flooded
    99-card hand five of its seven lands (four cards come back, P(2-5 lands) is then highest)."""
    policy = paris_policy(*case)
    for state, want in states.items():
        choice = policy(*state)
        assert (None if choice is None else (choice.lands, choice.others)) == want, state


def test_partial_paris_default_keep_and_opening():
    assert paris_policy(99, 38)(7, 7, 92, 31) == paris_policy(99, 38, (2, 5), 7)(7, 7, 92, 31)
    assert paris_policy(99, 38)(7, 1, 92, 37).others == 6


@pytest.mark.parametrize(
    ("style", "players", "free"),
    [
        (MulliganStyle.LONDON, 2, False),
        (MulliganStyle.LONDON, 3, True),
        (MulliganStyle.VANCOUVER, 4, True),
        (MulliganStyle.PARTIAL_PARIS, 4, False),
    ],
)
def test_attempt_sizes(style, players, free):
    """CR 103.5c: London and Vancouver give the first mulligan free in games of 3+ players."""
    assert attempt_sizes(style, players) == [7] * free + [7, 6, 5, 4, 3, 2, 1, 0]
    assert attempt_sizes(style, players, opening=3) == [3] * free + [3, 2, 1, 0]


def _possible_kept_lands(lands_drawn: int, kept: int, opening: int) -> list[int]:
    """Lands a ``kept``-card part of an ``opening``-card hand with ``lands_drawn`` lands can hold."""
    return [j for j in range(kept + 1) if j <= lands_drawn and kept - j <= opening - lands_drawn]


@pytest.mark.parametrize("keep", [(2, 5), (0, 0), (3, 3), (1, 7), (4, 6)])
@pytest.mark.parametrize("opening", [7, 5])
def test_london_bottom_choice(keep, opening):
    """CR 103.5: the cards put on the bottom choose how many lands stay; keepable when some count
    is, and the count nearest the middle of the keep range."""
    middle = (keep[0] + keep[1]) // 2
    for drawn in range(opening + 1):
        for kept in range(opening + 1):
            possible = _possible_kept_lands(drawn, kept, opening)
            keepable = [j for j in possible if keep[0] <= j <= keep[1]]
            assert london_keepable(drawn, kept, keep, opening) is bool(keepable), (drawn, kept)
            want = min(keepable or possible, key=lambda j: abs(j - middle))
            assert london_lands_to_keep(drawn, kept, keep, opening) == want, (drawn, kept)
    assert london_keepable(1, 6, (2, 5)) is False and london_keepable(6, 6, (2, 5)) is True
    assert (
        london_lands_to_keep(7, 6, (2, 5)) == 6
        and london_lands_to_keep(6, 5, (2, 5)) == 4
        and london_lands_to_keep(0, 4, (2, 5)) == 0
    )


@pytest.mark.parametrize("keep", [(-1, 2), (5, 2), (2, 8), (8, 8)])
def test_keep_ranges_outside_the_hand_are_refused(keep):
    for style in MulliganStyle:
        with pytest.raises(MulliganError, match=r"^mulligan\.error\.bad_keep_range") as caught:
            keep_distribution(style, 99, 38, keep)
        assert caught.value.values == {"opening": 7}
    with pytest.raises(MulliganError) as caught:
        keep_distribution(MulliganStyle.LONDON, 20, 8, (2, 6), opening=5)
    assert (caught.value.key, caught.value.values) == ("mulligan.error.bad_keep_range", {"opening": 5})


def test_keep_ranges_at_the_edges_are_fine():
    """(0, 7) keeps everything; (7, 7) needs seven lands."""
    assert keep_distribution(MulliganStyle.LONDON, 10, 4, (0, 7), exact=True) == [0] * 7 + [1]
    assert keep_distribution(MulliganStyle.VANCOUVER, 7, 7, (7, 7), exact=True) == [0] * 7 + [1]
    assert keep_distribution(MulliganStyle.PARTIAL_PARIS, 7, 0, (0, 0), exact=True) == [0] * 7 + [1]


@pytest.mark.parametrize(("deck", "lands"), [(6, 3), (20, 21), (20, -1)])
def test_impossible_decks_are_refused(deck, lands):
    for style in MulliganStyle:
        with pytest.raises(MulliganError, match=r"^mulligan\.error\.bad_numbers$"):
            keep_distribution(style, deck, lands, (2, 5))


def test_a_deck_of_exactly_an_opening_hand():
    """Seven cards, three lands: every hand is the whole deck; London keeps it at once."""
    assert keep_distribution(MulliganStyle.LONDON, 7, 3, (2, 5), exact=True) == [0] * 7 + [1]
    assert keep_distribution(MulliganStyle.PARTIAL_PARIS, 7, 1, (2, 5), exact=True) == [0] * 8
    assert keep_distribution(MulliganStyle.VANCOUVER, 7, 1, (1, 1), player_count=2, exact=True) == [0] * 7 + [
        1
    ]


def test_exact_style_odds_takes_the_style_by_name():
    odds = exact_style_odds("vancouver", 11, 4, (2, 3), player_count=2)
    assert odds.style is MulliganStyle.VANCOUVER and odds.method == "exact" and odds.free_first is False
    assert odds.keep_at == pytest.approx(
        [0, 0, 1949696 / 2717735625, 376832 / 148240125, 7168 / 898425, 1792 / 59895, 160 / 1089, 133 / 165],
        abs=1e-15,
    )
    assert exact_style_odds("london", 11, 4, (2, 3)).free_first is True  # default pod of four
    small = exact_style_odds(MulliganStyle.PARTIAL_PARIS, 8, 3, (2, 3), opening=5)
    assert small.keep_at == (0.0, 0.0, 0.0, 0.0, 2 / 7, 5 / 7) and small.free_first is False


def test_deck_odds_passes_keep_and_players_on():
    """40 cards, 16 lands, keep 3-4, two players (no free mulligan)."""
    odds = deck_odds(DeckCounts(40, 16), keep=(3, 4), player_count=2)
    assert (odds.keep, odds.player_count) == ((3, 4), 2)
    assert odds.p_lands_in_opening == pytest.approx(
        [
            0.018564265623089153,
            0.11551098609922139,
            0.2735786512876296,
            0.3191750931689012,
            0.19758458148551028,
            0.06466404484980337,
            0.010308760773157058,
            0.0006136167126879202,
        ],
        rel=1e-12,
    )
    london = odds.styles[MulliganStyle.LONDON]
    assert london.free_first is False and london.keep_at[7] == pytest.approx(0.5167596746544114, rel=1e-12)
    assert london.keep_at[6] == pytest.approx(0.280967387376859, rel=1e-12)
    assert odds.styles[MulliganStyle.VANCOUVER].keep_at[6] == pytest.approx(0.20593719084282952, rel=1e-12)
    assert odds.styles[MulliganStyle.PARTIAL_PARIS].keep_at[6] == pytest.approx(
        0.35544870073568974, rel=1e-12
    )
    assert list(odds.styles) == list(MulliganStyle)
    default = deck_odds(DeckCounts(99, 38))
    assert (default.keep, default.player_count) == ((2, 5), 4)
    assert default.styles[MulliganStyle.LONDON].free_first is True
    assert default.styles[MulliganStyle.VANCOUVER].keep_at[6] == pytest.approx(
        0.025044370552467787, rel=1e-12
    )
    assert default.styles[MulliganStyle.PARTIAL_PARIS].keep_at[5] == pytest.approx(
        0.015598011136636959, rel=1e-12
    )
    assert isinstance(default.p_lands_in_opening[0], float)


def test_deck_odds_checks_the_deck_and_the_keep_range():
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.no_lands$"):
        deck_odds(DeckCounts(99, 0))
    with pytest.raises(MulliganError) as caught:
        deck_odds(DeckCounts(99, 38), keep=(2, 8))
    assert caught.value.values == {"opening": 7}


def test_calculator_wanting_more_than_drawn():
    """Wanting more copies than cards drawn: both figures are zero (no index error)."""
    result = hypergeometric(10, 4, 3, 4)
    assert (result.exactly, result.at_least) == (0.0, 0.0)
    edge = hypergeometric(10, 4, 3, 3)
    assert edge.exactly == edge.at_least == pytest.approx(4 / 120, abs=1e-15)
    assert hypergeometric(10, 4, 3, 0).at_least == 1.0


def test_monte_carlo_partial_paris_plays_the_policy_of_its_own_keep_range(make_library):
    """Keep 0 lands, one land among ten cards (M1): the land is in 7 of 10 opening hands; set aside
    alone, it is replaced by nothing (one card fewer), so every hand ends keepable at 7 or 6 cards.
    The policy of another keep range would keep the land and never reach a keepable hand."""
    odds = monte_carlo_odds(MulliganStyle.PARTIAL_PARIS, make_library(1, 9), 200, (0, 0), seed="own-keep")
    assert odds.total == 1.0 and odds.keep_at[7] + odds.keep_at[6] == 1.0
    assert odds.free_first is False  # M1 has no free mulligan, even in a pod of four (the default)
    assert 0.5 < odds.keep_at[6] < 0.9  # 0.7 expected


@pytest.mark.parametrize(("style", "players"), [(MulliganStyle.LONDON, 2), (MulliganStyle.VANCOUVER, 3)])
def test_monte_carlo_plays_the_seeded_hands_of_the_given_pod(make_library, style, players):
    """The figures are the practice hands of that seed and pod size, shuffle for shuffle (CR 103.5c: the
    free mulligan only in games of 3+ players changes which hands are played)."""
    from bot.domain.mulligan.practice import play_to_keep

    library = make_library(14, 26)
    odds = monte_carlo_odds(style, library, 120, (3, 3), player_count=players, seed="pod")
    kept = play_to_keep(style, library, 120, (3, 3), player_count=players, seed="pod")
    assert odds.keep_at == tuple(sum(size == h for size in kept) / 120 for h in range(8))
    other = play_to_keep(style, library, 120, (3, 3), player_count=2 if players >= 3 else 4, seed="pod")
    assert other != kept  # the pod size matters for these hands
    assert odds.free_first is (players >= 3)


def test_wilson_interval_stays_within_zero_and_one():
    """All successes: the upper bound is 1 in exact arithmetic, one ulp above it in floats for 16/16
    (1.0000000000000002), and is shown as 1; no bound ever leaves [0, 1]."""
    assert wilson_interval(16, 16)[1] == 1.0
    for samples in range(1, 101):
        for successes in (0, samples // 2, samples):
            low, high = wilson_interval(successes, samples)
            assert 0.0 <= low <= high <= 1.0, (successes, samples)


def test_london_and_vancouver_with_a_two_card_opening_hand():
    """4 cards, 2 lands, keep exactly 1, no free mulligan. London always sees 2 cards: P(1 land) = 4/6 at
    size 2, then P(at least 1 land) = 5/6 kept at size 1. Vancouver's second hand is 1 card: P(land) = 1/2."""
    london = keep_distribution(MulliganStyle.LONDON, 4, 2, (1, 1), player_count=2, opening=2, exact=True)
    assert london == [F(0), F(1, 3) * F(5, 6), F(2, 3)]
    vancouver = keep_distribution(
        MulliganStyle.VANCOUVER, 4, 2, (1, 1), player_count=2, opening=2, exact=True
    )
    assert vancouver == [F(0), F(1, 3) * F(1, 2), F(2, 3)]


@pytest.mark.parametrize("style", list(MulliganStyle))
def test_float_figures_are_floats_at_every_size(style):
    """Without ``exact`` every entry is a float, the sizes never reached included."""
    figures = keep_distribution(style, 11, 4, (2, 3))
    assert [type(p) for p in figures] == [float] * 8
    assert [type(p) for p in keep_distribution(style, 11, 4, (2, 3), exact=True)] == [F] * 8


def test_the_probability_mass_function_is_floats_unless_exact():
    """One division per entry: correctly rounded floats by default, fractions with ``exact``."""
    pmf = hypergeometric_pmf(13, 5, 7)
    assert [type(p) for p in pmf] == [float] * 8
    assert pmf == [float(F(math.comb(5, k) * math.comb(8, 7 - k), math.comb(13, 7))) for k in range(8)]
    assert [type(p) for p in hypergeometric_pmf(13, 5, 7, exact=True)] == [F] * 8
