"""Hydra benchmarks: one Hydra turn p50/p99 (target p99 < 1 ms) and 10,000 random games
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


def hydra_turn_times(turns: int) -> tuple[list[float], list[float]]:
    """Time from the players' ``end`` to their next turn, answering every question by default —
    the engine work of one whole Hydra turn (extra turns included). Returns (wall, CPU) seconds:
    on a shared machine the wall-clock tail mostly measures waiting for a core, the CPU time what
    the engine itself costs."""
    rng = random.Random(1)
    times: list[float] = []
    cpu: list[float] = []
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
        start, start_cpu = time.perf_counter(), time.thread_time()
        game.apply("end")
        game.play_until_players()
        times.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return times, cpu


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000
    verdict = "OK" if p99 < 1 else "MISSED"
    return (
        f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {ordered[-1] * 1000:.3f} ms (target p99 < 1 ms: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=20_000)
    args = parser.parse_args()
    wall, cpu = hydra_turn_times(args.turns)
    print(f"one Hydra turn ({len(wall)} turns), wall: {percentiles(wall)}")
    print(f"one Hydra turn ({len(cpu)} turns), CPU:  {percentiles(cpu)}")
    start, start_cpu = time.perf_counter(), time.process_time()
    outcomes = {"won": 0, "lost": 0}
    for seed in range(args.games):
        outcomes[play_random_game(seed).outcome] += 1
    elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(
        f"{args.games} random games to the end: {elapsed:.1f} s wall, {elapsed_cpu:.1f} s CPU on one core "
        f"({outcomes['won']} won, {outcomes['lost']} lost)  (target < 60 s: {'OK' if elapsed < 60 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
