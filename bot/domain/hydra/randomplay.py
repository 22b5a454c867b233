"""Random legal play for the Hydra engine: the fuzz test and the benchmark share it.

The random players are deliberately clumsy (they attack random heads with random power, sometimes
tap or destroy a head, sometimes lose or gain a little life, answer choices at random), so that
every rule path gets exercised. ``random.Random(seed)`` makes each game reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.domain.challenge.hydra import PREVENT, HydraGame, PlayerSetup
from bot.domain.challenge.randomloop import play_random, random_option, some_numbers

MAX_TURNS = 1_000  # a random game that runs this long is a bug (the fuzz test asserts it never does)


def random_answer(game: HydraGame, rng: random.Random) -> str:
    """A random legal answer to the pending decision."""
    decision = game.pending
    assert decision is not None
    if decision.kind == "text":
        return rng.choice(("none", "Grizzly Bears", "a creature"))
    return random_option(decision, rng, game.battlefield_numbers())


def random_player_action(game: HydraGame, rng: random.Random, instant: bool) -> str:
    """A random legal players' action (instant-speed ones only while a window is open)."""
    heads = game.battlefield_numbers()
    roll = rng.random()
    if heads and roll < 0.45 and not instant:
        pairs = []
        for _ in range(rng.randint(1, 3)):
            pairs += [rng.choice(heads), rng.randint(0, 6)]
        return "attack " + " ".join(map(str, pairs))
    if heads and roll < 0.6:
        return f"damage {rng.choice(heads)} {rng.randint(1, 4)}"
    if heads and roll < 0.62:
        verb = rng.choice(("destroy", "exile", "bounce", "tap", "sacrifice", "freeze"))
        return f"{verb} {some_numbers(heads, rng)}"
    if heads and roll < 0.64:
        return f"loselife {rng.choice(heads)} {rng.randint(1, 3)}"
    if heads and roll < 0.66:
        verb = rng.choice(("sweep", "weaken", "counters"))
        amount = rng.randint(-2, 2) if verb == "counters" else rng.randint(0, 3)
        return f"{verb} {amount} {some_numbers(heads, rng)}"
    if heads and roll < 0.665:
        return f"copy {rng.choice(heads)}"
    if roll < 0.675:
        seat = rng.choice(["all", *(str(i + 1) for i in game.alive())])
        source = rng.choice(("", " from heads", " from Unified Lunge", " from Snapping Fang Head"))
        return f"prevent {rng.randint(1, 4)} {seat}{source}"
    if roll < 0.68:
        return rng.choice(("exilecards library 1", "exilecards graveyard all", "extraturn"))
    if roll < 0.7:
        player_seat = rng.choice(game.alive()) + 1
        return f"life {player_seat} {rng.choice((-3, -1, 1, 2))}"
    if roll < 0.71:
        return f"mill {rng.randint(1, 3)}"
    return "end"


def play_random_game(
    seed: int,
    *,
    heads: int | None = None,
    players: int | None = None,
    after_step: Callable[[HydraGame], None] | None = None,
) -> HydraGame:
    """Play one game to its end with random legal actions; ``after_step`` sees every state. Each time
    the damage step's window closes, the damage must come from the heads untapped at that moment."""
    rng = random.Random(seed)
    setup_players = [
        PlayerSetup(
            f"P{i + 1}", tuple(rng.sample(("The Slayer", "The Protector", "The Warrior"), rng.randint(0, 2)))
        )
        for i in range(players or rng.randint(1, 4))
    ]
    game = HydraGame.new(heads or rng.randint(1, 6), setup_players, seed=seed, all_windows=rng.random() < 0.5)
    return play_random(
        game,
        rng,
        label=f"random game {seed}",
        action=random_player_action,
        answer=random_answer,
        window_chance=0.15,
        max_turns=MAX_TURNS,
        on_too_long=_too_long,
        before_apply=lambda g, line: _damage_check(g, line, seed),
        after_step=after_step,
    )


def _too_long(game: HydraGame) -> None:
    raise AssertionError(f"random game did not end within {MAX_TURNS} turns (seed {game.setup.seed})")


def _damage_check(game: HydraGame, line: str, seed: int) -> Callable[[], None] | None:
    """When ``line`` closes the damage-step window: a check that the damage came from the heads
    untapped right then (the stale-damage invariant)."""
    if game.pending is None or game.pending.topic != PREVENT or not line.startswith("choose"):
        return None
    untapped = sorted(h.name for h in game.battlefield if not h.tapped)

    def check() -> None:
        step = game.damage_steps[-1]
        assert sorted(step.untapped) == untapped, f"game {seed}: stale damage {step} vs {untapped}"

    return check
