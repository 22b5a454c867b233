"""Challenge decks benchmark (issue #14): N random games per deck (Hydra, Horde, God) played to the
end on one core, with every invariant checked after every step; prints the time per game.
Goal: the three decks together under 60 s for 10,000 games each.

    python benchmarks/bench_challenge.py [--games 10000] [--deck hydra --deck horde --deck god]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable

from bot.domain.challenge import randomplay as creature_play
from bot.domain.challenge.invariants import check_invariants as check_creature_deck
from bot.domain.hydra import randomplay as hydra_play
from bot.domain.hydra.invariants import check_invariants as check_hydra

GOAL_SECONDS = 60.0


def _hydra(seed: int) -> tuple[str, int]:
    game = hydra_play.play_random_game(seed, after_step=check_hydra)
    return game.outcome, len(game.actions)


def _creature_deck(deck: str) -> Callable[[int], tuple[str, int]]:
    def play(seed: int) -> tuple[str, int]:
        game = creature_play.play_random_game(deck, seed, after_step=check_creature_deck)
        return game.outcome, len(game.actions)
    return play


DECKS: dict[str, Callable[[int], tuple[str, int]]] = {
    "hydra": _hydra, "horde": _creature_deck("horde"), "god": _creature_deck("god")}


def bench(deck: str, games: int) -> float:
    """Play ``games`` seeded games; print outcomes, steps and time per game; return CPU seconds."""
    outcomes: Counter[str] = Counter()
    steps = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        outcome, actions = DECKS[deck](seed)
        outcomes[outcome] += 1
        steps += actions
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(f"{deck:5s}: {games} games, {steps} steps checked, {dict(outcomes)}; "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU, {cpu / games * 1000:.2f} ms CPU per game")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--deck", action="append", choices=tuple(DECKS), default=None)
    args = parser.parse_args()
    total = sum(bench(deck, args.games) for deck in args.deck or DECKS)
    verdict = "OK" if total < GOAL_SECONDS else "MISSED"
    print(f"all decks: {total:.1f} s CPU (goal < {GOAL_SECONDS:.0f} s for 10,000 games each: {verdict})")


if __name__ == "__main__":
    main()
