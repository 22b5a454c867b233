"""Random legal play for the Hydra engine: the fuzz test and the benchmark share it.

The random players are deliberately clumsy (they attack random heads with random power, sometimes
tap or destroy a head, sometimes lose or gain a little life, answer choices at random), so that
every rule path gets exercised. ``random.Random(seed)`` makes each game reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.domain.hydra.engine import PREVENT, WINDOW_TOPICS, HydraGame, PlayerSetup
from bot.domain.hydra.errors import HydraError

MAX_TURNS = 1_000  # a random game that runs this long is a bug (the fuzz test asserts it never does)


def random_answer(game: HydraGame, rng: random.Random) -> str:
    """A random legal answer to the pending decision."""
    decision = game.pending
    assert decision is not None
    if decision.kind == "option":
        return rng.choice(decision.options)
    if decision.kind == "text":
        return rng.choice(("none", "Grizzly Bears", "a creature"))
    count = rng.randint(decision.min_heads, decision.max_heads)
    positions = rng.sample(range(1, len(game.battlefield) + 1), count)
    return " ".join(map(str, positions)) or "none"


def random_player_action(game: HydraGame, rng: random.Random, *, instant: bool) -> str:
    """A random legal players' action (instant-speed ones only while a window is open)."""
    heads = len(game.battlefield)
    roll = rng.random()
    if heads and roll < 0.45 and not instant:
        pairs = []
        for _ in range(rng.randint(1, 3)):
            pairs += [rng.randint(1, heads), rng.randint(0, 6)]
        return "attack " + " ".join(map(str, pairs))
    if heads and roll < 0.6:
        return f"damage {rng.randint(1, heads)} {rng.randint(1, 4)}"
    if heads and roll < 0.62:
        verb = rng.choice(('destroy', 'exile', 'bounce', 'tap', 'sacrifice', 'freeze'))
        return f"{verb} {_some_heads(heads, rng)}"
    if heads and roll < 0.64:
        return f"loselife {rng.randint(1, heads)} {rng.randint(1, 3)}"
    if heads and roll < 0.66:
        verb = rng.choice(("sweep", "weaken", "counters"))
        amount = rng.randint(-2, 2) if verb == "counters" else rng.randint(0, 3)
        return f"{verb} {amount} {_some_heads(heads, rng)}"
    if heads and roll < 0.665:
        return f"copy {rng.randint(1, heads)}"
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


def _some_heads(heads: int, rng: random.Random) -> str:
    """One head, several at once, or ``all``."""
    if rng.random() < 0.1:
        return "all"
    return " ".join(map(str, rng.sample(range(1, heads + 1), rng.randint(1, min(3, heads)))))


def play_random_game(seed: int, *, heads: int | None = None, players: int | None = None,
                     after_step: Callable[[HydraGame], None] | None = None) -> HydraGame:
    """Play one game to its end with random legal actions; ``after_step`` sees every state."""
    rng = random.Random(seed)
    setup_players = [PlayerSetup(f"P{i + 1}", tuple(rng.sample(("The Slayer", "The Protector", "The Warrior"),
                                                                rng.randint(0, 2))))
                     for i in range(players or rng.randint(1, 4))]
    game = HydraGame.new(heads or rng.randint(1, 6), setup_players, seed=seed, all_windows=rng.random() < 0.5)
    actions_this_turn = 0
    while not game.over:
        if game.turn > MAX_TURNS:
            raise AssertionError(f"random game {seed} did not end within {MAX_TURNS} turns")
        line = _next_line(game, rng, actions_this_turn)
        untapped_now = _untapped_if_damage_is_next(game, line)
        try:
            game.apply(line)
        except HydraError as error:
            raise AssertionError(f"random legal action {line!r} rejected in game {seed}: {error}") from error
        if untapped_now is not None:
            step = game.damage_steps[-1]
            assert sorted(step.untapped) == untapped_now, f"game {seed}: stale damage {step} vs {untapped_now}"
        actions_this_turn = 0 if line == "end" else actions_this_turn + 1
        if after_step is not None:
            after_step(game)
    return game


def _untapped_if_damage_is_next(game: HydraGame, line: str) -> list[str] | None:
    """When ``line`` closes the damage-step window, the untapped heads the damage must come from."""
    if game.pending is None or game.pending.topic != PREVENT or not line.startswith("choose"):
        return None
    return sorted(h.name for h in game.battlefield if not h.tapped)


def _next_line(game: HydraGame, rng: random.Random, actions_this_turn: int) -> str:
    decision = game.pending
    if decision is not None:
        if decision.topic in WINDOW_TOPICS and rng.random() < 0.15:
            line = random_player_action(game, rng, instant=True)
            if line != "end":
                return line
        return "choose " + random_answer(game, rng)
    if actions_this_turn >= 4:
        return "end"
    return random_player_action(game, rng, instant=False)
