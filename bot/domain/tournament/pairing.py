"""Pairing players into pods for a round.

* Pod sizes: as many pods of ``pod_size`` (4) as possible, the remainder in pods of ``remainder_size``
  (3 by default, or 5 by setting); sizes that cannot be made that way fall back to the other size and
  finally to one pod for everybody (5 players with pods of 3: one pod of 5).
* Round 1: a seeded random draw. From round 2: by standings, so players with similar points meet.
* Repeat opponents are avoided where possible by swapping players between nearby pods (a swap is kept
  only when it lowers the number of repeated pairings, and never spreads points much further).
* Seats inside each pod are shuffled with the same seeded generator: the same seed, round and
  players always give the same pods, so a re-run or a restart reproduces them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.scoring import Player

POD_SIZE = 4
REMAINDER_SIZES = (3, 5)
MIN_PLAYERS = 2
REPEAT_WEIGHT = 1000  # one repeated pairing costs more than any spread of points within a pod
SWAP_PASSES = 4
SMALL_FIELD = 64  # up to this many players, try more random restarts when repeats remain
RESTARTS_SMALL_FIELD = 40
RESTARTS = 4


def pod_sizes(player_count: int, pod_size: int = POD_SIZE, remainder_size: int = 3) -> list[int]:
    """Pod sizes for ``player_count`` players: mostly ``pod_size``, as few remainder pods as possible."""
    if remainder_size not in REMAINDER_SIZES:
        raise TournamentError("bad_remainder_size", size=remainder_size)
    if player_count < MIN_PLAYERS:
        raise TournamentError("too_few_players", count=player_count, minimum=MIN_PLAYERS)
    other = 5 if remainder_size == 3 else 3
    for extra_size in (remainder_size, other):
        for extra_pods in range(player_count // extra_size + 1):
            rest = player_count - extra_pods * extra_size
            if rest % pod_size == 0:
                return [pod_size] * (rest // pod_size) + [extra_size] * extra_pods
    return [player_count]


def round_rng(seed: int, round_number: int) -> random.Random:
    """The generator of one round: independent of other rounds, reproducible from the seed."""
    return random.Random(f"tournament:{seed}:round:{round_number}")


def opponent_counts(past_pods: Sequence[Sequence[Player]]) -> Counter[frozenset[Player]]:
    """How often each unordered pair of players has already shared a pod."""
    counts: Counter[frozenset[Player]] = Counter()
    for pod in past_pods:
        for a, b in combinations(pod, 2):
            counts[_pair(a, b)] += 1
    return counts


def pair_round(
    players: Sequence[Player],
    round_number: int,
    seed: int,
    *,
    points: Mapping[Player, float] | None = None,
    past_pods: Sequence[Sequence[Player]] = (),
    pod_size: int = POD_SIZE,
    remainder_size: int = 3,
) -> list[list[Player]]:
    """The pods of a round, each a list of players in seat order."""
    rng = round_rng(seed, round_number)
    points = points or {}
    order = list(players)
    rng.shuffle(order)  # random draw in round 1; random order among equal points later
    if round_number > 1:
        order.sort(key=lambda player: -points.get(player, 0))
    sizes = pod_sizes(len(order), pod_size, remainder_size)
    pods = _chunk(order, sizes)
    seen = opponent_counts(past_pods)
    if seen:
        pods = _least_repeats(pods, sizes, seen, points, rng)
    for pod in pods:
        rng.shuffle(pod)
    return pods


def repeat_pairings(pods: Sequence[Sequence[Player]], past_pods: Sequence[Sequence[Player]]) -> int:
    """How many pairs in ``pods`` already met in ``past_pods`` (the figure pairing minimises)."""
    seen = opponent_counts(past_pods)
    return sum(_pod_repeats(pod, seen) for pod in pods)


def _pair(a: Player, b: Player) -> frozenset[Player]:
    return frozenset((a, b))


def _chunk(order: list[Player], sizes: list[int]) -> list[list[Player]]:
    pods, start = [], 0
    for size in sizes:
        pods.append(order[start : start + size])
        start += size
    return pods


def _pod_repeats(pod: Sequence[Player], seen: Counter[frozenset[Player]]) -> int:
    return sum(seen[_pair(a, b)] for a, b in combinations(pod, 2))


def _pod_cost(
    pod: Sequence[Player], seen: Counter[frozenset[Player]], points: Mapping[Player, float]
) -> float:
    values = [points.get(player, 0) for player in pod]
    spread = max(values) - min(values) if values else 0
    return REPEAT_WEIGHT * _pod_repeats(pod, seen) + spread


def _least_repeats(
    pods: list[list[Player]],
    sizes: list[int],
    seen: Counter[frozenset[Player]],
    points: Mapping[Player, float],
    rng: random.Random,
) -> list[list[Player]]:
    """Improve the standings-ordered pods; if repeats remain, also try a few random starting orders
    (the hill-climb can stop in a local optimum) and keep the cheapest arrangement."""
    _reduce_repeats(pods, seen, points)
    best, best_cost = pods, _total_cost(pods, seen, points)
    restarts = RESTARTS_SMALL_FIELD if sum(sizes) <= SMALL_FIELD else RESTARTS
    for _ in range(restarts):
        if best_cost < REPEAT_WEIGHT:
            break
        order = [player for pod in best for player in pod]
        rng.shuffle(order)
        candidate = _greedy_pods(order, sizes, seen)
        _reduce_repeats(candidate, seen, points)
        cost = _total_cost(candidate, seen, points)
        if cost < best_cost:
            best, best_cost = candidate, cost
    return best


def _greedy_pods(
    order: list[Player], sizes: list[int], seen: Counter[frozenset[Player]]
) -> list[list[Player]]:
    """Fill pods one by one, each time adding the waiting player who has met the pod least."""
    waiting = list(order)
    pods = []
    for size in sizes:
        pod = [waiting.pop(0)]
        while len(pod) < size:
            index = min(
                range(len(waiting)), key=lambda i: sum(seen[_pair(waiting[i], member)] for member in pod)
            )
            pod.append(waiting.pop(index))
        pods.append(pod)
    return pods


def _total_cost(
    pods: Sequence[Sequence[Player]], seen: Counter[frozenset[Player]], points: Mapping[Player, float]
) -> float:
    return sum(_pod_cost(pod, seen, points) for pod in pods)


def _reduce_repeats(
    pods: list[list[Player]], seen: Counter[frozenset[Player]], points: Mapping[Player, float]
) -> None:
    """Hill-climb: swap two players of two pods when that lowers the pods' combined cost.

    Pods are compared with every other pod (not only neighbours) so that a small field where
    everyone met already still finds the least repeated arrangement; the cost keeps swaps between
    far-apart point groups unattractive unless they remove a repeat.
    """
    costs = [_pod_cost(pod, seen, points) for pod in pods]
    for _ in range(SWAP_PASSES):
        improved = False
        for i, j in combinations(range(len(pods)), 2):
            if costs[i] < REPEAT_WEIGHT and costs[j] < REPEAT_WEIGHT:
                continue  # neither pod has a repeat: nothing to gain
            improved |= _best_swap(pods, costs, i, j, seen, points)
        if not improved:
            return


def _best_swap(
    pods: list[list[Player]],
    costs: list[float],
    i: int,
    j: int,
    seen: Counter[frozenset[Player]],
    points: Mapping[Player, float],
) -> bool:
    best: tuple[float, tuple[list[Player], list[Player]] | None] = (costs[i] + costs[j], None)
    for a_index, a in enumerate(pods[i]):
        for b_index, b in enumerate(pods[j]):
            pod_i = pods[i][:a_index] + [b] + pods[i][a_index + 1 :]
            pod_j = pods[j][:b_index] + [a] + pods[j][b_index + 1 :]
            cost = _pod_cost(pod_i, seen, points) + _pod_cost(pod_j, seen, points)
            if cost < best[0]:
                best = (cost, (pod_i, pod_j))
    if best[1] is None:
        return False
    pods[i], pods[j] = best[1]
    costs[i], costs[j] = _pod_cost(pods[i], seen, points), _pod_cost(pods[j], seen, points)
    return True
