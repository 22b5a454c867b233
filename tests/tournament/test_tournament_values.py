"""Exact values of small tournament helpers the broader tests only touch: the CSV line ends and
formula guard, a drawn game's flag and draw count (T3), prize leaders with nothing or one scored,
repeated pairings counted per meeting, and the seeded pods of fixed rounds. Pure domain, fast."""

from __future__ import annotations

import pytest

from bot.domain.tournament import DEMOCRATIC
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.pairing import opponent_counts, pair_round, repeat_pairings
from bot.domain.tournament.prizes import PrizeStats, prize_leaders
from bot.domain.tournament.scoring import score_games
from bot.domain.tournament.standings import compute_standings, csv_safe, standings_csv


def test_standings_csv_ends_lines_with_a_newline_only():
    games = [checked_game(1, ["ann", "bea", "cid"], {"ann", "bea"}, draw=True)]
    assert standings_csv(compute_standings(games, DEMOCRATIC, seed=1)) == (
        "rank,player,points,opponents_average,votes,survivals,wins,draws,eliminations,games,dropped,"
        "combat_damage,commander_kills,commander_mana,mana_pool\n"
        "1,bea,2,1.00,0,1,0,1,0,1,no,0,0,0,0\n"
        "2,ann,2,1.00,0,1,0,1,0,1,no,0,0,0,0\n"
        "3,cid,0,2.00,0,0,0,0,0,1,no,0,0,0,0\n"
    )


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+a", "'+a"),
        ("-a", "'-a"),
        ("@a", "'@a"),
        ("\ta", "'\ta"),
        ("\ra", "'\ra"),
        ("a=", "a="),
        ("", ""),
        ("\na", "\na"),
    ],
)
def test_csv_safe_guards_formula_starts(name, safe):
    assert csv_safe(name) == safe


def test_a_drawn_game_keeps_its_flag_and_draws_add_up():
    draw = checked_game(1, ["ann", "bea", "cid"], {"ann", "bea"}, draw=True)
    assert draw.draw is True
    assert checked_game(2, ["ann", "bea"], {"ann"}).draw is False
    tallies = score_games(
        [draw, checked_game(2, ["ann", "bea", "cid"], {"ann", "cid"}, draw=True)], DEMOCRATIC
    )
    assert [(tallies[p].draws, tallies[p].games, tallies[p].survivals) for p in ("ann", "bea", "cid")] == [
        (2, 2, 2),
        (1, 2, 1),
        (1, 2, 1),
    ]


def test_prize_leaders_leave_out_goals_nobody_scored():
    assert prize_leaders({}) == {}
    assert prize_leaders({"ann": PrizeStats(), "bea": PrizeStats()}) == {}
    assert prize_leaders(
        {
            "ann": PrizeStats(commander_kills=1),
            "bea": PrizeStats(commander_kills=1),
            "cid": PrizeStats(combat_damage=1),
        }
    ) == {"combat_damage": (1, ["cid"]), "commander_kills": (1, ["ann", "bea"])}


def test_repeated_pairings_count_every_meeting():
    past = [["a", "b", "c"], ["a", "b", "d"], ["a", "c"]]
    counts = opponent_counts(past)
    assert counts == {
        frozenset("ab"): 2,
        frozenset("ac"): 2,
        frozenset("bc"): 1,
        frozenset("ad"): 1,
        frozenset("bd"): 1,
    }
    assert repeat_pairings([["a", "b", "c", "d"]], past) == 7


ROUNDS = [  # (players, round, seed, points, past pods) -> pods in seat order, as pair_round gives them
    (
        (
            ["p0", "p1", "p2", "p3", "p4", "p5"],
            3,
            23,
            {"p0": 4, "p1": 4, "p2": 2, "p3": 2, "p4": 3, "p5": 1},
            [["p2", "p5", "p4", "p0", "p1"], ["p4", "p1", "p5", "p0"], ["p2", "p5", "p1", "p0", "p4"]],
        ),
        [["p3", "p0", "p1"], ["p5", "p4", "p2"]],
    ),
    # Round 1 is a draw: the points given are not used.
    (
        (["p0", "p1", "p2", "p3", "p4"], 1, 91, {"p0": 0, "p2": 0, "p3": 0, "p4": 5}, []),
        [["p1", "p2", "p3", "p0", "p4"]],
    ),
    # From round 2 the order is by points, most first, a player without points counting 0.
    (
        (
            ["p0", "p1", "p2", "p3", "p4"],
            4,
            19,
            {"p0": 2, "p1": 3, "p2": 1, "p3": 5, "p4": 3},
            [["p3", "p0", "p2", "p4", "p1"], ["p2", "p1", "p4", "p0"]],
        ),
        [["p4", "p1", "p2", "p3", "p0"]],
    ),
    (
        (
            ["p0", "p1", "p2", "p3", "p4"],
            3,
            47,
            {"p0": 0, "p2": 4, "p3": 4},
            [["p1", "p4", "p0", "p2", "p3"], ["p1", "p4", "p2", "p0", "p3"], ["p2", "p1", "p0", "p3", "p4"]],
        ),
        [["p1", "p0", "p4", "p3", "p2"]],
    ),
    # Repeats avoided by swaps between pods and by the random restarts (the cheapest arrangement kept).
    (
        (
            ["p0", "p1", "p2", "p3", "p4"],
            1,
            21,
            {"p0": 1, "p1": 2, "p2": 1, "p3": 5, "p4": 1},
            [["p4", "p1", "p0", "p2"]],
        ),
        [["p1", "p2", "p3", "p4", "p0"]],
    ),
    (
        (
            ["p0", "p1", "p2", "p3", "p4", "p5", "p6"],
            1,
            36,
            {"p0": 5, "p1": 6, "p2": 6, "p4": 2, "p5": 4, "p6": 3},
            [
                ["p0", "p3", "p1", "p4", "p5"],
                ["p0", "p3", "p1", "p4", "p2"],
                ["p0", "p5", "p4", "p1"],
                ["p6", "p3", "p0", "p5"],
            ],
        ),
        [["p0", "p6", "p1", "p2"], ["p4", "p5", "p3"]],
    ),
    (
        (
            ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"],
            4,
            97,
            {"p0": 3, "p1": 2, "p2": 1, "p3": 3, "p4": 2, "p5": 4, "p6": 4, "p7": 0, "p8": 1, "p9": 3},
            [
                ["p5", "p6", "p8", "p2"],
                ["p1", "p7", "p4", "p3"],
                ["p3", "p6", "p4", "p1"],
                ["p7", "p9", "p5", "p8"],
            ],
        ),
        [["p2", "p0", "p1", "p9"], ["p3", "p6", "p5"], ["p8", "p7", "p4"]],
    ),
]


@pytest.mark.parametrize(("args", "pods"), ROUNDS)
def test_fixed_rounds_give_fixed_pods(args, pods):
    players, round_number, seed, points, past = args
    assert pair_round(players, round_number, seed, points=points, past_pods=past) == pods


def test_round_one_ignores_points():
    players = ["p0", "p1", "p2", "p3", "p4"]
    assert (
        pair_round(players, 1, 91, points={"p4": 5})
        == pair_round(players, 1, 91)
        == [["p1", "p2", "p3", "p0", "p4"]]
    )
