"""1-vs-1 tournaments of matches (G9), value for value: match and game points, the standings with every
tie-breaker worked out by hand (MTR appendix C, floors at 1/3), the CSV text, and Swiss pairing."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.matches import (
    MatchRecord,
    MatchStanding,
    Pairing,
    match_standings,
    match_standings_csv,
    pair_round,
    percent,
)

F = Fraction


def test_one_match_from_each_side():
    won = MatchRecord("a", "b", (2, 1), draws=1)
    assert [won.points_for("a"), won.points_for("b")] == [3, 0]
    assert [won.games_won("a"), won.games_won("b")] == [2, 1]
    assert [won.game_points_for("a"), won.game_points_for("b")] == [3 * 2 + 1, 3 * 1 + 1]
    assert (won.games, won.opponent("a"), won.opponent("b")) == (4, "b", "a")
    drawn = MatchRecord("a", "b", (1, 1))
    assert [drawn.points_for("a"), drawn.points_for("b"), drawn.games] == [1, 1, 2]
    for read in (won.points_for, won.games_won, won.game_points_for):
        with pytest.raises(TournamentError) as refused:
            read("z")
        assert (refused.value.key, refused.value.values) == ("tournament.error.not_in_match", {})


def test_standings_worked_out_by_hand():
    """a beats b 2-0; c and d draw 1-1 with a drawn game; c beats a 2-1; e has a bye; f has not played;
    d dropped. MW% and GW% floored at 1/3; a player with no opponent has 0 for the opponents' figures."""
    records = [MatchRecord("a", "b", (2, 0)), MatchRecord("c", "d", (1, 1), 1), MatchRecord("a", "c", (1, 2))]
    standings = match_standings(records, seed=4, players=["f"], byes=["e"], dropped=["d"])
    assert [
        (
            s.rank,
            s.player,
            s.match_points,
            s.matches,
            s.record,
            s.opponents_match_win,
            s.game_win,
            s.opponents_game_win,
            s.dropped,
            s.game_wins,
            s.games,
        )
        for s in standings
    ] == [
        (1, "c", 4, 2, (1, 0, 1), F(5, 12), F(5, 9), F(47, 90), False, 3, 6),
        (2, "a", 3, 2, (1, 1, 0), F(1, 2), F(3, 5), F(4, 9), False, 3, 5),
        (3, "e", 3, 1, (1, 0, 0), F(0), F(1), F(0), False, 2, 2),
        (4, "d", 1, 1, (0, 0, 1), F(2, 3), F(4, 9), F(5, 9), True, 1, 3),
        (5, "b", 0, 1, (0, 1, 0), F(1, 2), F(1, 3), F(3, 5), False, 0, 2),
        (6, "f", 0, 0, (0, 0, 0), F(0), F(1, 3), F(0), False, 0, 0),
    ]
    assert match_standings_csv(standings, name=str.upper) == (
        "rank,player,match_points,matches,match_wins,match_losses,match_draws,game_wins,games,"
        "opponents_match_win_percent,game_win_percent,opponents_game_win_percent,dropped\n"
        "1,C,4,2,1,0,1,3,6,41.7%,55.6%,52.2%,no\n"
        "2,A,3,2,1,1,0,3,5,50.0%,60.0%,44.4%,no\n"
        "3,E,3,1,1,0,0,2,2,0.0%,100.0%,0.0%,no\n"
        "4,D,1,1,0,0,1,1,3,66.7%,44.4%,55.6%,yes\n"
        "5,B,0,1,0,1,0,0,2,50.0%,33.3%,60.0%,no\n"
        "6,F,0,0,0,0,0,0,0,0.0%,33.3%,0.0%,no\n"
    )
    assert match_standings_csv(
        [MatchStanding(1, "=x", 0, 0, (0, 0, 0), F(0), F(1, 3), F(0), 0.5)]
    ).splitlines()[1] == ("1,'=x,0,0,0,0,0,0,0,0.0%,33.3%,0.0%,no")


def test_later_tiebreakers_own_game_win_then_opponents_then_the_coin_lowest_first():
    """p and r (3 points, opponents floored at 1/3): p's own GW% 1 beats r's 2/3. q and s (0 points,
    opponents 1): equal own GW% (floored 1/3), q's opponents' GW% 1 beats 2/3. t and u tie on all: the
    lower coin goes first."""
    records = [MatchRecord("p", "q", (2, 0)), MatchRecord("r", "s", (2, 1)), MatchRecord("t", "u", (1, 1))]
    standings = match_standings(records, seed=4)
    assert [
        (s.player, s.match_points, s.opponents_match_win, s.game_win, s.opponents_game_win) for s in standings
    ] == [
        ("p", 3, F(1, 3), F(1), F(1, 3)),
        ("r", 3, F(1, 3), F(2, 3), F(1, 3)),
        ("t", 1, F(1, 3), F(1, 2), F(1, 2)),
        ("u", 1, F(1, 3), F(1, 2), F(1, 2)),
        ("q", 0, F(1), F(1, 3), F(1)),
        ("s", 0, F(1), F(1, 3), F(2, 3)),
    ]
    assert standings[2].coin < standings[3].coin


@pytest.mark.parametrize(
    ("value", "shown"), [(F(2, 3), "66.7%"), (F(0), "0.0%"), (F(1), "100.0%"), (F(1, 8), "12.5%")]
)
def test_percent_has_one_decimal(value, shown):
    assert percent(value) == shown


def test_round_one_is_a_seeded_shuffle_paired_in_order():
    order = ["a", "b", "c", "d", "e", "f"]
    shuffled = list(order)
    random.Random("tournament:5:round:1").shuffle(shuffled)
    assert shuffled == ["c", "a", "e", "d", "b", "f"]
    assert pair_round(order, seed=5, round_number=1) == Pairing([("c", "a"), ("e", "d"), ("b", "f")], None)
    assert pair_round(order, seed=5, round_number=2) == Pairing([("a", "b"), ("c", "d"), ("e", "f")], None)


def test_later_rounds_avoid_rematches_and_give_the_bye_to_the_lowest_without_one():
    assert pair_round(
        ["a", "b", "c", "d", "e"], seed=5, round_number=2, had_bye=["e"], past_pairs=[("b", "a")]
    ) == Pairing([("a", "c"), ("b", "e")], "d")
    assert pair_round(["a", "b", "c"], seed=5, round_number=3, had_bye=["a", "b", "c"]) == Pairing(
        [("a", "b")], "c"
    )
    # Nobody else left: the rematch is the only pairing.
    assert pair_round(["a", "b", "a"], seed=5, round_number=2, past_pairs=[("a", "b")]) == Pairing(
        [("a", "b")], None
    )


@pytest.mark.parametrize("order", [[], ["a"], ["a", "a"]])
def test_pairing_needs_two_different_players(order):
    with pytest.raises(TournamentError) as refused:
        pair_round(order, seed=1, round_number=1)
    assert (refused.value.key, refused.value.values) == (
        "tournament.error.too_few_players",
        {"count": len(set(order)), "minimum": 2},
    )
