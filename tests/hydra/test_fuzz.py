"""Random legal play: every game ends and every invariant holds after every step.

300 games in the normal run; ``pytest --full`` plays the issue's 10,000 seeded games.
"""

from __future__ import annotations

from collections import Counter

from bot.domain.hydra import replay
from bot.domain.hydra.invariants import check_invariants
from bot.domain.hydra.randomplay import play_random_game


def test_random_games_end_and_keep_the_invariants(full_run: bool) -> None:
    games = 10_000 if full_run else 300
    outcomes: Counter[str] = Counter()
    for seed in range(games):
        game = play_random_game(seed, after_step=check_invariants)
        outcomes[game.outcome] += 1
    assert outcomes["won"] > 0 and outcomes["lost"] > 0  # both endings are reached
    assert sum(outcomes.values()) == games


def test_random_games_replay_to_the_same_state() -> None:
    for seed in range(20):
        game = play_random_game(seed)
        copy = replay(game.setup, game.actions)
        assert copy.snapshot() == game.snapshot()
        assert copy.events == game.events
