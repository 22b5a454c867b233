"""Pairing: pod sizes, seeded seats, by standings from round 2, few repeat opponents."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.domain.tournament import TournamentError
from bot.domain.tournament.pairing import pair_round, pod_sizes, repeat_pairings


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (4, [4]),
        (8, [4, 4]),
        (7, [4, 3]),
        (6, [3, 3]),
        (9, [3, 3, 3]),
        (13, [4, 3, 3, 3]),
        (3, [3]),
        (5, [5]),
        (2, [2]),
    ],
)
def test_pods_of_four_with_pods_of_three_for_the_remainder(count, sizes):
    assert pod_sizes(count) == sizes


@pytest.mark.parametrize(
    ("count", "sizes"), [(9, [4, 5]), (10, [5, 5]), (13, [4, 4, 5]), (7, [4, 3]), (6, [3, 3])]
)
def test_pods_of_five_by_setting(count, sizes):
    assert pod_sizes(count, remainder_size=5) == sizes


def test_too_few_players_and_bad_remainder_are_refused():
    with pytest.raises(TournamentError, match="at least 2"):
        pod_sizes(1)
    with pytest.raises(TournamentError, match="3 or 5"):
        pod_sizes(8, remainder_size=2)


def test_every_player_seated_exactly_once():
    players = [f"p{i}" for i in range(23)]
    pods = pair_round(players, 1, seed=42)
    assert sorted(p for pod in pods for p in pod) == sorted(players)
    assert sorted(len(pod) for pod in pods) == [3, 4, 4, 4, 4, 4]


def test_same_seed_same_pods_and_seats_other_seed_differs():
    players = [f"p{i}" for i in range(16)]
    assert pair_round(players, 1, seed=7) == pair_round(players, 1, seed=7)
    assert pair_round(players, 1, seed=7) != pair_round(players, 1, seed=8)


def test_round_two_groups_players_with_similar_points():
    players = [f"p{i}" for i in range(16)]
    points = {p: (10 if i < 4 else 0) for i, p in enumerate(players)}
    pods = pair_round(players, 2, seed=3, points=points)
    top = {p for p in players if points[p] == 10}
    assert any(set(pod) == top for pod in pods)


def test_repeat_opponents_avoided_when_possible():
    players = [f"p{i}" for i in range(16)]
    round_one = pair_round(players, 1, seed=1)
    # Everyone on equal points: the naive chunking would often re-seat round-1 pods together.
    round_two = pair_round(players, 2, seed=1, points={}, past_pods=round_one)
    assert repeat_pairings(round_two, round_one) == 0
    round_three = pair_round(players, 3, seed=1, past_pods=round_one + round_two)
    assert repeat_pairings(round_three, round_one + round_two) == 0


def test_repeats_minimised_even_with_points_pulling_players_together():
    players = [f"p{i}" for i in range(8)]
    round_one = [players[:4], players[4:]]
    points = {p: 5 for p in players[:4]}  # the naive order re-creates round 1 exactly
    assert repeat_pairings([players[:4], players[4:]], round_one) == 12
    pods = pair_round(players, 2, seed=9, points=points, past_pods=round_one)
    assert repeat_pairings(pods, round_one) == 4  # two from each old pod per new pod: the minimum


def test_small_field_repeats_when_unavoidable():
    players = ["a", "b", "c"]
    pods = pair_round(players, 2, seed=1, past_pods=[players])
    assert sorted(pods[0]) == players


def test_random_fields_every_round_seats_everyone_once(full_run):
    """Randomised: any field size and history, both remainder settings; sizes only 3–5 from 6 players."""
    rng = random.Random(8)
    for _ in range(400 if full_run else 40):
        count = rng.randint(2, 70)
        remainder = rng.choice((3, 5))
        players = list(range(count))
        past: list[list[int]] = []
        for round_number in range(1, 4):
            points = {p: rng.randint(0, 9) for p in players}
            pods = pair_round(
                players,
                round_number,
                seed=rng.randint(0, 99),
                points=points,
                past_pods=past,
                remainder_size=remainder,
            )
            assert sorted(p for pod in pods for p in pod) == players
            assert sorted(map(len, pods)) == sorted(pod_sizes(count, remainder_size=remainder))
            if count >= 6:
                assert all(3 <= len(pod) <= 5 for pod in pods)
            past += pods


def _partitions_into_two_pods(players):
    for first in itertools.combinations(players, 4):
        yield [list(first), [p for p in players if p not in first]]


def test_when_repeats_tie_the_pods_keep_points_closest():
    """Every split of these 8 repeats 4 pairs of round 1, so the points decide: brute force over all 35
    splits says which is best, and pairing must find one as good."""
    players = [f"a{i}" for i in range(4)] + [f"b{i}" for i in range(4)]
    points = {p: 10 if p[0] == "a" else 0 for p in players} | {"a3": 6, "b0": 3}
    past = [["a0", "a1", "b0", "b1"], ["a2", "a3", "b2", "b3"]]

    def cost(pods):
        spread = sum(max(points[p] for p in pod) - min(points[p] for p in pod) for pod in pods)
        return repeat_pairings(pods, past), spread

    best = min(cost(split) for split in _partitions_into_two_pods(players))
    for seed in range(5):
        assert cost(pair_round(players, 2, seed, points=points, past_pods=past)) == best


def test_refusals_carry_their_numbers():
    with pytest.raises(TournamentError) as few:
        pod_sizes(1)
    assert few.value.values == {"count": 1, "minimum": 2}
    with pytest.raises(TournamentError) as odd:
        pod_sizes(8, remainder_size=2)
    assert odd.value.values == {"size": 2}
