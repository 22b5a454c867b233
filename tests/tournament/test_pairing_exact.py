"""Pod pairing and prize leaders, value for value: pod sizes with the other remainder size, pair counts,
the exact pods a seed gives, and pods that reach the fewest repeats a brute force finds."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.domain.tournament.pairing import opponent_counts, pair_round, pod_sizes, repeat_pairings
from bot.domain.tournament.prizes import PrizeStats, prize_leaders
from bot.domain.tournament.scoring import STANDARD, GameResult, score_games

EIGHT = list("abcdefgh")
POINTS = {"a": 3, "b": 3, "c": 2, "d": 2, "e": 1, "f": 1, "g": 0.5}  # h has none yet: 0


def test_pod_sizes_fall_back_to_the_other_remainder_size():
    """11 players in pods of 6: no mix of 6s and 3s makes 11, a 6 and a 5 does (whichever size is asked)."""
    assert pod_sizes(11, 6, 3) == [6, 5]
    assert pod_sizes(11, 6, 5) == [6, 5]
    assert pod_sizes(13, 6, 5) == [13]


def test_opponent_counts_add_up_every_shared_pod():
    assert opponent_counts([["a", "b"], ["a", "b", "c"]]) == Counter(
        {frozenset("ab"): 2, frozenset("ac"): 1, frozenset("bc"): 1}
    )


def test_round_one_ignores_points_and_later_rounds_sort_by_them():
    """Round 1 is a seeded draw even when points are known; round 2 groups the points (h, without points,
    counts 0 and sits with the lowest)."""
    assert pair_round(EIGHT, 1, 7) == [["a", "h", "f", "b"], ["d", "c", "g", "e"]]
    assert pair_round(EIGHT, 1, 7, points=POINTS) == [["a", "h", "f", "b"], ["d", "c", "g", "e"]]
    assert pair_round(EIGHT, 2, 7, points=POINTS) == [["c", "b", "d", "a"], ["e", "g", "h", "f"]]
    assert pair_round(EIGHT, 2, 8, points=POINTS) != pair_round(EIGHT, 2, 7, points=POINTS)


def _partitions(players):
    if not players:
        yield []
        return
    first = players[0]
    for others in combinations(players[1:], 3):
        pod = [first, *others]
        for rest in _partitions([p for p in players if p not in pod]):
            yield [pod, *rest]


def _twelve_after_three_rounds():
    players = [f"p{i:02d}" for i in range(12)]
    shuffler = random.Random(3)
    past = []
    for _ in range(3):
        order = list(players)
        shuffler.shuffle(order)
        past += [order[0:4], order[4:8], order[8:12]]
    return players, past


def test_pods_reach_the_fewest_repeats_possible():
    """Twelve players after three random rounds of three pods: the seed fixes the pods, and they repeat
    9 pairings, the fewest of all 5,775 ways to split the players (see the slow test below)."""
    players, past = _twelve_after_three_rounds()
    points = {p: (i * 7) % 5 for i, p in enumerate(players)}
    pods = pair_round(players, 4, 11, points=points, past_pods=past)
    assert pods == [["p01", "p03", "p05", "p06"], ["p02", "p07", "p09", "p04"], ["p00", "p08", "p11", "p10"]]
    assert repeat_pairings(pods, past) == 9


@pytest.mark.slow
def test_nine_repeats_is_the_fewest_for_those_twelve_players():
    players, past = _twelve_after_three_rounds()
    assert min(repeat_pairings(split, past) for split in _partitions(players)) == 9


def test_eight_players_who_met_a_lot():
    past = [["a", "b", "c", "d"], ["e", "f", "g", "h"], ["a", "e", "b", "f"], ["c", "g", "d", "h"]]
    pods = pair_round(EIGHT, 3, 7, points=POINTS, past_pods=past)
    assert pods == [["h", "b", "a", "g"], ["c", "e", "d", "f"]]
    assert (
        repeat_pairings(pods, past)
        == min(
            repeat_pairings([list(c), [p for p in EIGHT if p not in c]], past) for c in combinations(EIGHT, 4)
        )
        == 8
    )


def test_prize_leaders_share_ties_and_leave_out_goals_nobody_scored():
    assert prize_leaders({}) == {}
    stats = {
        "a": PrizeStats(combat_damage=1, mana_pool=4),
        "b": PrizeStats(combat_damage=1),
        "c": PrizeStats(),
    }
    assert prize_leaders(stats) == {"combat_damage": (1, ["a", "b"]), "mana_pool": (4, ["a"])}


def test_totals_add_every_count_over_games():
    games = [
        GameResult(("a", "b"), frozenset({"a", "b"})),
        GameResult(("a", "c"), frozenset({"a", "c"}), draw=True),
    ]
    totals = score_games(games, STANDARD)
    assert vars(totals["a"]) == {
        "points": 2,
        "games": 2,
        "survivals": 2,
        "votes": 0,
        "wins": 0,
        "draws": 2,
        "eliminations": 0,
    }
