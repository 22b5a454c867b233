"""Exact values of 1-vs-1 tournaments of best-of-three matches (docs/rules/RULES.md G9): every field of the standings
(match points 3/1/0, a bye as a 2-0 win, MW%/GW% with the 1/3 floor, each tie-breaker in its turn), the CSV,
and the Swiss pairs. Pure domain and fast: the mutation map runs it for bot/domain/tournament/*."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.matches import (
    FLOOR,
    MatchRecord,
    MatchStanding,
    Pairing,
    match_standings,
    match_standings_csv,
    pair_round,
    percent,
)
from bot.domain.tournament.standings import coin_flip

R = MatchRecord
# Three rounds of five players plus gus (a bye only) and fay (entered, never played); dan dropped.
RECORDS = [
    R("ann", "bea", (2, 0)),
    R("cid", "dan", (1, 1), draws=1),
    R("eve", "ann", (2, 1)),
    R("bea", "cid", (2, 1)),
    R("ann", "cid", (1, 2)),
]


def _table(seed: int = 7) -> list[MatchStanding]:
    return match_standings(
        RECORDS, seed=seed, players=["fay", "ann"], byes=["eve", "dan", "gus"], dropped=["dan"]
    )


def test_a_record_from_each_side():
    record = R("ann", "bea", (2, 1), draws=1)
    assert (record.points_for("ann"), record.points_for("bea")) == (3, 0)
    assert (record.games_won("ann"), record.games_won("bea")) == (2, 1)
    assert (record.game_points_for("ann"), record.game_points_for("bea")) == (3 * 2 + 1, 3 * 1 + 1)
    assert record.games == 4
    assert (record.opponent("ann"), record.opponent("bea")) == ("bea", "ann")
    draw = R("ann", "bea", (1, 1), draws=1)
    assert (draw.points_for("ann"), draw.points_for("bea")) == (1, 1)
    assert R("ann", "bea", (0, 2)).points_for("ann") == 0 and R("ann", "bea", (0, 2)).points_for("bea") == 3
    with pytest.raises(TournamentError) as refused:
        record.points_for("cid")
    assert refused.value.key == "tournament.error.not_in_match" and refused.value.values == {}


def test_every_field_of_the_standings():
    # Worked by hand for eve: a bye (3 points, 2 games won of 2) and a 2-1 win over ann: GW% 12/15 = 4/5;
    # her only opponent ann has 3 of 9 match points (1/3) and 12 of 24 game points (1/2).
    coins = {p: coin_flip(7, p) for p in ("eve", "cid", "dan", "ann", "bea", "gus", "fay")}
    assert _table() == [
        MatchStanding(
            1, "eve", 6, 2, (2, 0, 0), FLOOR, Fraction(4, 5), Fraction(1, 2), coins["eve"], False, 4, 5
        ),
        MatchStanding(
            2,
            "cid",
            4,
            3,
            (1, 1, 1),
            Fraction(1, 2),
            Fraction(13, 27),
            Fraction(47, 90),
            coins["cid"],
            False,
            4,
            9,
        ),
        MatchStanding(
            3,
            "dan",
            4,
            2,
            (1, 0, 1),
            Fraction(4, 9),
            Fraction(2, 3),
            Fraction(13, 27),
            coins["dan"],
            True,
            3,
            5,
        ),
        MatchStanding(
            4,
            "ann",
            3,
            3,
            (1, 2, 0),
            Fraction(35, 54),
            Fraction(1, 2),
            Fraction(227, 405),
            coins["ann"],
            False,
            4,
            8,
        ),
        MatchStanding(
            5,
            "bea",
            3,
            2,
            (1, 1, 0),
            Fraction(7, 18),
            Fraction(2, 5),
            Fraction(53, 108),
            coins["bea"],
            False,
            2,
            5,
        ),
        # A bye is no opponent: nobody met, so both opponents' averages are 0.
        MatchStanding(
            6, "gus", 3, 1, (1, 0, 0), Fraction(0), Fraction(1), Fraction(0), coins["gus"], False, 2, 2
        ),
        # No game played: the own GW% is the floor.
        MatchStanding(7, "fay", 0, 0, (0, 0, 0), Fraction(0), FLOOR, Fraction(0), coins["fay"], False, 0, 0),
    ]


def test_records_alone_give_the_players_who_played():
    table = match_standings([R("ann", "bea", (2, 1))], seed=1)
    assert [(s.rank, s.player, s.match_points, s.game_win, s.dropped) for s in table] == [
        (1, "ann", 3, Fraction(2, 3), False),
        (2, "bea", 0, FLOOR, False),
    ]
    assert match_standings([], seed=1) == []


def test_opponents_game_win_breaks_a_tie_of_points_omw_and_own_gw():
    # A and B: 3 points, OMW 1/2, own GW 1; A's opponent X has GW 1/2, B's opponent Y 2/5 (won 2-1).
    # X and Y: 3 points, OMW 2/3, X ahead on own GW. P and Q tie on points, OMW and GW (floored).
    table = match_standings(
        [R("A", "X", (2, 0)), R("X", "P", (2, 0)), R("B", "Y", (2, 0)), R("Y", "Q", (2, 1))], seed=1
    )
    assert [(s.player, s.opponents_match_win, s.game_win, s.opponents_game_win) for s in table] == [
        ("X", Fraction(2, 3), Fraction(1, 2), Fraction(2, 3)),
        ("Y", Fraction(2, 3), Fraction(2, 5), Fraction(2, 3)),
        ("A", Fraction(1, 2), Fraction(1), Fraction(1, 2)),
        ("B", Fraction(1, 2), Fraction(1), Fraction(2, 5)),
        ("P", Fraction(1, 2), FLOOR, Fraction(1, 2)),
        ("Q", Fraction(1, 2), FLOOR, Fraction(2, 5)),
    ]


def test_own_game_win_breaks_a_tie_of_points_and_omw():
    table = match_standings([R("B", "Y", (2, 1)), R("A", "X", (2, 0))], seed=1)
    assert [(s.player, s.opponents_match_win, s.game_win, s.opponents_game_win) for s in table] == [
        ("A", FLOOR, Fraction(1), FLOOR),
        ("B", FLOOR, Fraction(2, 3), FLOOR),
        ("X", Fraction(1), FLOOR, Fraction(1)),
        ("Y", Fraction(1), FLOOR, Fraction(2, 3)),
    ]


def test_the_seeded_coin_breaks_a_full_tie():
    records = [R("A", "X", (2, 0)), R("B", "Y", (2, 0))]
    assert [s.player for s in match_standings(records, seed=0)] == ["B", "A", "X", "Y"]
    assert [s.player for s in match_standings(records, seed=2)] == ["A", "B", "Y", "X"]
    assert [s.player for s in match_standings(records, seed=2)] == [
        "A",
        "B",
        "Y",
        "X",
    ]  # same seed, same order


def test_percent_has_one_decimal():
    assert [percent(v) for v in (FLOOR, Fraction(2, 3), Fraction(1), Fraction(0), Fraction(13, 27))] == [
        "33.3%",
        "66.7%",
        "100.0%",
        "0.0%",
        "48.1%",
    ]


def test_the_csv_row_by_row():
    def name(player: object) -> str:
        return "=bea" if player == "bea" else str(player).title()

    assert match_standings_csv(_table(), name=name) == (
        "rank,player,match_points,matches,match_wins,match_losses,match_draws,game_wins,games,"
        "opponents_match_win_percent,game_win_percent,opponents_game_win_percent,dropped\n"
        "1,Eve,6,2,2,0,0,4,5,33.3%,80.0%,50.0%,no\n"
        "2,Cid,4,3,1,1,1,4,9,50.0%,48.1%,52.2%,no\n"
        "3,Dan,4,2,1,0,1,3,5,44.4%,66.7%,48.1%,yes\n"
        "4,Ann,3,3,1,2,0,4,8,64.8%,50.0%,56.0%,no\n"
        "5,'=bea,3,2,1,1,0,2,5,38.9%,40.0%,49.1%,no\n"
        "6,Gus,3,1,1,0,0,2,2,0.0%,100.0%,0.0%,no\n"
        "7,Fay,0,0,0,0,0,0,0,0.0%,33.3%,0.0%,no\n"
    )
    assert match_standings_csv([]).count("\n") == 1
    assert match_standings_csv(match_standings([R(1, 2, (2, 0))], seed=1)).splitlines()[1:] == [
        "1,1,3,1,1,0,0,2,2,33.3%,100.0%,33.3%,no",
        "2,2,0,1,0,1,0,0,2,100.0%,33.3%,100.0%,no",
    ]


def test_round_one_is_a_seeded_draw():
    assert pair_round(list("abcdef"), seed=0, round_number=1) == Pairing(
        [("f", "e"), ("d", "b"), ("c", "a")], None
    )
    assert pair_round(list("abcdef"), seed=1, round_number=1) == Pairing(
        [("a", "e"), ("c", "d"), ("b", "f")], None
    )
    assert pair_round(list("abcde"), seed=3, round_number=1) == Pairing([("c", "a"), ("b", "d")], "e")


def test_later_rounds_pair_down_the_standings():
    assert pair_round(list("abcdef"), seed=0, round_number=2) == Pairing(
        [("a", "b"), ("c", "d"), ("e", "f")], None
    )
    assert pair_round(list("abcd"), past_pairs=[("b", "a")], seed=0, round_number=2) == Pairing(
        [("a", "c"), ("b", "d")], None
    )
    # a has met everybody: the rematch is with the next-ranked player.
    assert pair_round(
        list("abcd"), past_pairs=[("a", "b"), ("a", "c"), ("a", "d")], seed=0, round_number=3
    ) == Pairing([("a", "b"), ("c", "d")], None)
    assert pair_round(list("abbcac"), seed=0, round_number=2) == Pairing(
        [("a", "b")], "c"
    )  # each player once
    assert pair_round(["a", "b"], seed=0, round_number=2) == Pairing([("a", "b")], None)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    assert pair_round(list("abcde"), seed=0, round_number=2).bye == "e"
    assert pair_round(list("abcde"), had_bye=["e", "d"], seed=0, round_number=2) == Pairing(
        [("a", "b"), ("d", "e")], "c"
    )
    assert pair_round(list("abcde"), had_bye=list("abcde"), seed=0, round_number=3) == Pairing(
        [("a", "b"), ("c", "d")], "e"
    )


@pytest.mark.parametrize("order", [[], ["a"], ["a", "a"]])
def test_pairing_needs_two_players(order):
    with pytest.raises(TournamentError) as refused:
        pair_round(order, seed=1, round_number=2)
    assert refused.value.key == "tournament.error.too_few_players"
    assert refused.value.values == {"count": len(set(order)), "minimum": 2}
    assert str(refused.value) == (f"Pairing needs at least 2 active players; there are {len(set(order))}.")
