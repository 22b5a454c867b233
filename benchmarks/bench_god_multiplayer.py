"""How fast a table that does nothing dies against Xenagos, printed shared life (20) against the house
rule (20 per player): the share of seeds lost on his first turn and within his first two, per table
size. Run by hand: ``python benchmarks/bench_god_multiplayer.py [--seeds 1000]``."""

from __future__ import annotations

import argparse

from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import GodGame


def deck_turns_survived(players: int, seed: int, *, house_rule: bool, most: int = 2) -> int:
    """Xenagos's turns the idle table lives through (every question at its default), at most ``most``."""
    game = GodGame([Seat(f"P{i + 1}") for i in range(players)], seed, life_per_player=house_rule)
    while not game.over and game.deck_turns < most:
        game.apply("end")
        game.play_until_players()
    return game.deck_turns - (1 if game.over else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=1000)
    args = parser.parse_args()
    print(f"{'players':>7}  {'rule':<12}  {'dead on turn 1':>14}  {'dead within 2':>13}")
    for players in (2, 3, 4):
        for house_rule in (False, True):
            survived = [
                deck_turns_survived(players, seed, house_rule=house_rule) for seed in range(args.seeds)
            ]
            first = sum(s == 0 for s in survived) / args.seeds
            two = sum(s < 2 for s in survived) / args.seeds
            rule = "house 20/pl." if house_rule else "printed 20"
            print(f"{players:>7}  {rule:<12}  {first:>13.0%}  {two:>12.0%}")


if __name__ == "__main__":
    main()
