"""The random-play loop every challenge deck's fuzz tests and benchmark share (Hydra, Horde, God).

A deck supplies how its clumsy random players act (``action``: a legal line, instant-speed only
while a window is open) and answer (``answer``); the loop itself — answer questions, sometimes act
in a response window, end the turn after a few actions, stop runaway games — is the same for all.
Numbers are always drawn from :meth:`battlefield_numbers`, so they name permanents that are there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from bot.domain.challenge.core import ChallengeError, Decision

G = TypeVar("G", bound="RandomPlayable")
ACTIONS_PER_TURN = 4  # the random players end their turn after this many actions


class RandomPlayable(Protocol):
    @property
    def over(self) -> bool: ...

    @property
    def pending(self) -> Decision | None: ...

    @property
    def window_topics(self) -> tuple[str, ...]: ...

    @property
    def turn(self) -> int: ...

    def apply(self, action: str) -> Any: ...

    def battlefield_numbers(self) -> list[int]: ...


def some_numbers(
    numbers: Sequence[int], rng: random.Random, *, most: int = 3, all_chance: float = 0.1
) -> str:
    """One permanent, several at once, or ``all`` (a sweeper)."""
    if rng.random() < all_chance:
        return "all"
    return " ".join(map(str, rng.sample(list(numbers), rng.randint(1, min(most, len(numbers))))))


def random_option(decision: Decision, rng: random.Random, allowed: Sequence[int]) -> str:
    """A random legal answer: an option, or ``min_heads``..``max_heads`` of the ``allowed`` numbers."""
    if decision.kind == "option":
        return rng.choice(decision.options)
    count = rng.randint(decision.min_heads, min(decision.max_heads, len(allowed)))
    return " ".join(map(str, rng.sample(list(allowed), count))) or "none"


def play_random(
    game: G,
    rng: random.Random,
    *,
    label: str,
    action: Callable[[G, random.Random, bool], str],
    answer: Callable[[G, random.Random], str],
    window_chance: float,
    max_turns: int,
    on_too_long: Callable[[G], object],
    before_apply: Callable[[G, str], Callable[[], None] | None] | None = None,
    after_step: Callable[[G], None] | None = None,
) -> G:
    """Play ``game`` to its end. ``on_too_long`` runs once the game passes ``max_turns`` (concede, or
    fail a test); ``before_apply`` may return a check to run right after the line is applied."""
    actions = 0
    while not game.over:
        if game.turn > max_turns:
            on_too_long(game)
            break
        line = _next_line(game, rng, actions, action, answer, window_chance)
        check = before_apply(game, line) if before_apply is not None else None
        try:
            game.apply(line)
        except ChallengeError as error:
            raise AssertionError(f"{label}: legal action {line!r} refused: {error}") from error
        if check is not None:
            check()
        actions = 0 if line == "end" else actions + 1
        if after_step is not None:
            after_step(game)
    return game


def _next_line(
    game: G,
    rng: random.Random,
    actions: int,
    action: Callable[[G, random.Random, bool], str],
    answer: Callable[[G, random.Random], str],
    window_chance: float,
) -> str:
    if game.pending is not None:
        if game.pending.topic in game.window_topics and rng.random() < window_chance:
            line = action(game, rng, True)
            if line.split()[0] not in ("choose", "end"):
                return line
        return "choose " + answer(game, rng)
    if actions >= ACTIONS_PER_TURN:
        return "end"
    return action(game, rng, False)
