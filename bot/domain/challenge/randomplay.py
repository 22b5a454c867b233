"""Random legal play for the Horde and the God (the fuzz tests and the benchmark share it).

Clumsy on purpose: the players hit the deck, hurt or remove random permanents, block at random and
answer every question at random, so every rule path runs. ``random.Random(seed)`` makes each game
reproducible. Games that drag on are conceded after ``MAX_TURNS`` (a random player may never win).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.domain.challenge.actions import TUCK_PLACES
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import CreatureDeckGame, Permanent, Seat
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.randomloop import play_random, random_option, some_numbers

MAX_TURNS = 200

DECKS: dict[str, type[CreatureDeckGame]] = {"horde": HordeGame, "god": GodGame}


def new_random_game(deck: str, seed: int, rng: random.Random) -> CreatureDeckGame:
    game_type = DECKS[deck]
    windows = rng.random() < 0.5
    if game_type is HordeGame:
        return HordeGame([Seat("P1")], seed, rng.randint(2, 4), all_windows=windows)
    seats = [Seat(f"P{i + 1}") for i in range(rng.randint(1, 4))]
    return GodGame(seats, seed, rng.randint(1, 3), all_windows=windows)


def random_answer(game: CreatureDeckGame, rng: random.Random) -> str:
    decision = game.pending
    assert decision is not None
    return random_option(decision, rng, game.allowed_numbers(decision))


def random_action(game: CreatureDeckGame, rng: random.Random, instant: bool) -> str:
    numbers = game.battlefield_numbers()
    creatures = [game.number_of(p) for p in game.creatures()]  # damage is for creatures only
    roll = rng.random()
    if isinstance(game, HordeGame) and roll < 0.35:
        return f"hit {rng.randint(1, 6)}"
    if creatures and roll < 0.6:
        return f"damage {rng.choice(creatures)} {rng.randint(1, 5)}"
    if numbers and roll < 0.7:
        verb = rng.choice(("destroy", "exile", "bounce", "tap", "sacrifice", "freeze"))
        return f"{verb} {some_numbers(numbers, rng, most=1, all_chance=0)}"
    if numbers and roll < 0.73:
        verb = rng.choice(("sweep", "weaken", "counters"))
        return f"{verb} {rng.randint(-1, 3) if verb == 'counters' else rng.randint(0, 3)} all"
    if roll < 0.78:
        return f"life 1 {rng.choice((-2, 1, 3))}"
    if roll < 0.8:
        return f"prevent {rng.randint(1, 4)}" + rng.choice(("", " from combat"))
    if roll < 0.81:
        return "mill 1"
    if roll < 0.84:
        return _rarer_action(game, rng, numbers, instant)
    return "choose" if instant else "end"


def _rarer_action(game: CreatureDeckGame, rng: random.Random, numbers: list[int], instant: bool) -> str:
    """What the players' decks do less often: one attack damaging several creatures, control changes,
    putting a permanent into the library, "can't attack" and "can't block", an extra turn, exiling the
    deck's cards from its library or graveyard."""
    choices = ["extraturn", "exilecards library 1", "exilecards graveyard all"]
    if numbers:
        number = rng.choice(numbers)
        choices += [f"steal {number}", f"cantattack {number}", f"tuck {rng.choice(TUCK_PLACES)} {number}"]
        if isinstance(game, HordeGame):
            choices.append(f"cantblock {number}")
    stolen = [game.number_of(p) for p in game.battlefield if p.stolen]
    if stolen:
        choices.append(f"giveback {rng.choice(stolen)}")
    attackable = [game.number_of(p) for p in game.creatures() if _may_be_attacked(game, p)]
    if attackable and not instant:
        pairs = [
            f"{number} {rng.randint(0, 4)}" for number in rng.sample(attackable, min(2, len(attackable)))
        ]
        choices.append("attack " + " ".join(pairs))
    return rng.choice(choices)


def _may_be_attacked(game: CreatureDeckGame, permanent: Permanent) -> bool:
    try:
        game.check_attacked(permanent)
    except ChallengeError:
        return False
    return True


def play_random_game(
    deck: str, seed: int, *, after_step: Callable[[CreatureDeckGame], None] | None = None
) -> CreatureDeckGame:
    rng = random.Random(seed)
    return play_random(
        new_random_game(deck, seed, rng),
        rng,
        label=f"{deck} game {seed}",
        action=random_action,
        answer=random_answer,
        window_chance=0.1,
        max_turns=MAX_TURNS,
        on_too_long=lambda game: game.apply("concede"),
        after_step=after_step,
    )
