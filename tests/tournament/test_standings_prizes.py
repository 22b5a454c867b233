"""Standings with tiebreakers and corrections, CSV export, and the prize goals of T2."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from bot.domain.tournament import DEMOCRATIC, scoring_rule
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.prizes import (
    PRIZE_GOALS,
    CombatDamage,
    CommanderCast,
    Elimination,
    ManaPoolReport,
    PrizeStats,
    combine_stats,
    game_prize_stats,
    prize_leaders,
)
from bot.domain.tournament.standings import (
    CSV_COLUMNS,
    Correction,
    coin_flip,
    compute_standings,
    standings_csv,
)


def test_points_then_opponents_average_then_votes():
    games = [
        checked_game(1, ["ann", "ben", "cat"], {"ann"}, {"ben": "ann", "cat": "ann", "ann": "ben"}),
        checked_game(2, ["dan", "eve", "fay"], {"dan", "eve"}, {"fay": "dan", "dan": "eve", "eve": "dan"}),
    ]
    # ann: 2+2=4 ; dan: 2+2=4 ; eve: 2+1=3 ; ben: 1 ; fay: 0 ; cat: 0
    standings = compute_standings(games, DEMOCRATIC, seed=1)
    assert [s.player for s in standings][:3] == ["dan", "ann", "eve"]
    dan, ann = standings[0], standings[1]
    assert dan.opponents_average == Fraction(3 + 0, 2) and ann.opponents_average == Fraction(1 + 0, 2)


def test_opponents_average_breaks_a_tie_in_points():
    games = [
        checked_game(1, ["ann", "ben"], {"ann"}, {"ben": "ann"}),  # ann 3, ben 0
        checked_game(2, ["cat", "dan"], {"cat", "dan"}, {"cat": "dan"}, draw=True),  # cat 2, dan 3
    ]
    standings = compute_standings(games, DEMOCRATIC, seed=1)
    ann, dan = (next(s for s in standings if s.player == p) for p in ("ann", "dan"))
    assert ann.points == dan.points == 3
    # dan's opponent (cat, 2) beats ann's (ben, 0): opponents' average first
    assert standings[0].player == "dan"


def test_opponents_average_outranks_votes_when_they_disagree():
    games = [
        checked_game(1, ["x", "p"], {"x", "p"}, {"x": "p", "p": "x"}, draw=True),  # x 3, p 3
        checked_game(2, ["y", "q", "r", "s"], {"q"}, {"q": "y", "r": "y", "s": "y", "y": "q"}),
    ]  # y 3, q 3
    standings = {s.player: s for s in compute_standings(games, DEMOCRATIC, seed=1)}
    x, y = standings["x"], standings["y"]
    assert x.points == y.points == 3
    assert (x.opponents_average, x.tally.votes) == (3, 1) and (y.opponents_average, y.tally.votes) == (1, 3)
    # x's opponents did better, y got more votes: the opponents' average decides first
    assert x.rank < y.rank


def test_votes_break_a_tie_in_points_and_opponents_average():
    # a: survived (2) + 1 vote; b: knocked out + 3 votes. Both 3 points, same opponents' average.
    games = [checked_game(1, ["a", "b", "c", "d"], {"a"}, {"a": "b", "c": "b", "d": "b", "b": "a"})]
    for seed in range(5):  # whatever the coin says
        first, second = compute_standings(games, DEMOCRATIC, seed=seed)[:2]
        assert (first.player, second.player) == ("b", "a")
        assert first.points == second.points and first.opponents_average == second.opponents_average


def test_seeded_coin_flip_breaks_full_ties_reproducibly():
    players = [f"p{i}" for i in range(10)]
    first = [s.player for s in compute_standings([], DEMOCRATIC, seed=5, players=players)]
    again = [s.player for s in compute_standings([], DEMOCRATIC, seed=5, players=players)]
    other = [s.player for s in compute_standings([], DEMOCRATIC, seed=6, players=players)]
    assert first == again and sorted(first) == players and first != other


def test_corrections_change_points_and_dropped_players_stay_listed():
    games = [checked_game(1, ["ann", "ben"], {"ann"}, {"ben": "ann"})]
    standings = compute_standings(
        games,
        DEMOCRATIC,
        seed=1,
        dropped=["ann"],
        corrections=[Correction("ben", 5, "scorekeeper missed a vote", by="judge")],
    )
    assert [(s.player, s.points, s.dropped) for s in standings] == [("ben", 5, False), ("ann", 3, True)]


@pytest.mark.parametrize("name", ["=cmd()", "+1+cmd()", "-1+cmd()", "@SUM(A1)", "\tcmd"])
def test_csv_neutralises_every_formula_prefix(name):
    games = [checked_game(1, [name, "ben"], {"ben"}, {name: "ben"})]
    rows = list(csv.DictReader(io.StringIO(standings_csv(compute_standings(games, DEMOCRATIC, seed=1)))))
    assert rows[1]["player"] == "'" + name


def test_corrections_add_to_points_and_reach_players_who_never_played():
    games = [checked_game(1, ["ann", "ben"], {"ann"}, {"ben": "ann"})]  # ann 3, ben 0
    standings = compute_standings(
        games,
        DEMOCRATIC,
        seed=1,
        corrections=[
            Correction("ann", 2, "late vote", by="judge"),
            Correction("ann", -1, "slow play", by="judge"),
            Correction("zed", 4, "bye", by="judge"),
        ],
    )
    assert [(s.player, s.points, s.opponents_average) for s in standings] == [
        ("ann", 4, 0),
        ("zed", 4, 0),
        ("ben", 0, 4),
    ]  # ann: 3 + 2 - 1; zed never sat down


def test_full_ties_follow_the_coin_highest_first():
    players = [f"p{i}" for i in range(8)]
    standings = compute_standings([], DEMOCRATIC, seed=11, players=players)
    coins = [s.coin for s in standings]
    assert coins == sorted(coins, reverse=True) and len(set(coins)) == len(coins)
    assert all(s.coin == coin_flip(11, s.player) for s in standings)


def test_csv_rows_hold_every_column_exactly():
    rule = scoring_rule("custom", win=5, draw=1, survival=2, vote=1, elimination=3)
    games = [
        checked_game(
            1, ["ann", "ben", "cat"], {"ann"}, {"ben": "ann", "cat": "ann"}, eliminations={"ann": 2}
        ),
        checked_game(2, ["ann", "ben"], {"ann", "ben"}, {"ann": "ben"}, draw=True),
    ]
    standings = compute_standings(
        games, rule, seed=1, dropped=["cat"], prizes={"ann": PrizeStats(7, 2, 12, 9)}
    )
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings, name=str.upper))))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert rows == [
        {
            "rank": "1",
            "player": "ANN",
            "points": str(5 + 2 + 2 + 6 + 1 + 2),
            "opponents_average": "2.67",
            "votes": "2",
            "survivals": "2",
            "wins": "1",
            "draws": "1",
            "eliminations": "2",
            "games": "2",
            "dropped": "no",
            "combat_damage": "7",
            "commander_kills": "2",
            "commander_mana": "12",
            "mana_pool": "9",
        },
        {
            "rank": "2",
            "player": "BEN",
            "points": str(1 + 2 + 1),
            "opponents_average": "12.00",
            "votes": "1",
            "survivals": "1",
            "wins": "0",
            "draws": "1",
            "eliminations": "0",
            "games": "2",
            "dropped": "no",
            "combat_damage": "0",
            "commander_kills": "0",
            "commander_mana": "0",
            "mana_pool": "0",
        },
        {
            "rank": "3",
            "player": "CAT",
            "points": "0",
            "opponents_average": "11.00",
            "votes": "0",
            "survivals": "0",
            "wins": "0",
            "draws": "0",
            "eliminations": "0",
            "games": "1",
            "dropped": "yes",
            "combat_damage": "0",
            "commander_kills": "0",
            "commander_mana": "0",
            "mana_pool": "0",
        },
    ]


def test_csv_has_header_every_player_and_is_formula_safe():
    games = [checked_game(1, ["=cmd()", "ben"], {"ben"}, {"=cmd()": "ben"})]
    standings = compute_standings(games, DEMOCRATIC, seed=1, prizes={"ben": PrizeStats(combat_damage=12)})
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings))))
    assert rows[0]["player"] == "ben" and rows[0]["points"] == "3" and rows[0]["combat_damage"] == "12"
    assert rows[1]["player"] == "'=cmd()"
    assert set(PRIZE_GOALS) <= set(rows[0])


def test_t2_combat_damage_counts_the_best_single_turn():
    damage = [
        CombatDamage(3, "ann", 5),
        CombatDamage(3, "ann", 7),
        CombatDamage(4, "ann", 10),
        CombatDamage(4, "ben", 11),
    ]
    stats = game_prize_stats(["ann", "ben", "cat"], damage=damage)
    assert stats["ann"].combat_damage == 12 and stats["ben"].combat_damage == 11
    assert stats["cat"] == PrizeStats()


def test_t2_commander_mana_is_mana_value_plus_tax_summed_over_casts():
    casts = [CommanderCast("ann", 4, 0), CommanderCast("ann", 4, 2), CommanderCast("ann", 4, 4)]
    assert game_prize_stats(["ann"], casts=casts)["ann"].commander_mana == 18


def test_t2_wins_by_commander_damage():
    eliminations = [
        Elimination("ben", "commander_damage", "ann"),
        Elimination("cat", "life", "ann"),
        Elimination("dan", "commander_damage", "ann"),
    ]
    stats = game_prize_stats(["ann", "ben", "cat", "dan"], eliminations=eliminations)
    assert stats["ann"].commander_kills == 2


def test_t2_mana_pool_needs_confirmation_by_another_player_at_the_table():
    reports = [
        ManaPoolReport("ann", 30, None),
        ManaPoolReport("ann", 25, "ann"),
        ManaPoolReport("ann", 20, "eve"),
        ManaPoolReport("ann", 14, "ben"),
    ]
    assert game_prize_stats(["ann", "ben"], mana_reports=reports)["ann"].mana_pool == 14


def test_t2_scopes_take_maxima_and_sums_and_leaders_share_ties():
    round_one = {"ann": PrizeStats(10, 1, 8, 5), "ben": PrizeStats(12, 0, 4, 0)}
    round_two = {"ann": PrizeStats(6, 1, 6, 9), "ben": PrizeStats(3, 2, 10, 0)}
    overall = combine_stats([round_one, round_two])
    assert overall["ann"] == PrizeStats(10, 2, 14, 9) and overall["ben"] == PrizeStats(12, 2, 14, 0)
    leaders = prize_leaders(overall)
    assert leaders["combat_damage"] == (12, ["ben"])
    assert leaders["commander_kills"] == (2, ["ann", "ben"])
    assert leaders["mana_pool"] == (9, ["ann"])
    assert "mana_pool" not in prize_leaders({"ann": PrizeStats(1, 0, 0, 0)})
