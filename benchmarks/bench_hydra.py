"""Hydra benchmarks (issue #6): one Hydra turn p50/p99 (target p99 < 1 ms) and 10,000 random games
to the end on one core (target < 60 s).

    /work/venv/bin/python benchmarks/bench_hydra.py [--games 10000] [--turns 20000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.domain.hydra import HydraGame
from bot.domain.hydra.randomplay import play_random_game, random_player_action


def hydra_turn_times(turns: int) -> list[float]:
    """Time from the players' ``end`` to their next turn, answering every question by default —
    the engine work of one whole Hydra turn (extra turns included)."""
    rng = random.Random(1)
    times: list[float] = []
    game = HydraGame.new(3, 4, seed=0)
    while len(times) < turns:
        if game.over:
            game = HydraGame.new(rng.randint(2, 4), rng.randint(1, 4), seed=rng.randrange(2**31))
        for _ in range(rng.randint(0, 3)):  # a little player action so boards vary
            line = random_player_action(game, rng, instant=False)
            if line != "end" and not game.over:
                game.apply(line)  # random_player_action only builds legal actions
        if game.over:
            continue
        start = time.perf_counter()
        game.apply("end")
        game.play_until_players()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=20_000)
    args = parser.parse_args()
    times = sorted(hydra_turn_times(args.turns))
    p50 = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99) - 1] * 1000
    print(f"one Hydra turn ({len(times)} turns): p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {times[-1] * 1000:.3f} ms"
          f"  (target p99 < 1 ms: {'OK' if p99 < 1 else 'MISSED'})")
    start = time.perf_counter()
    outcomes = {"won": 0, "lost": 0}
    for seed in range(args.games):
        outcomes[play_random_game(seed).outcome] += 1
    elapsed = time.perf_counter() - start
    print(f"{args.games} random games to the end: {elapsed:.1f} s on one core "
          f"({outcomes['won']} won, {outcomes['lost']} lost)  (target < 60 s: {'OK' if elapsed < 60 else 'MISSED'})")


if __name__ == "__main__":
    main()
