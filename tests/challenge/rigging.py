"""Arranging a challenge deck's zones by card name, for the tests of every deck (Hydra, Horde, God).

The deck's real 60 cards are reused (the card-accounting invariants still hold); the permanents
put on the battlefield are numbered afresh from 1, as at the start of a game, so a test's numbers
are the ones a player would read on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def rig_zones(
    game: Any,
    make: Callable[[int, str], Any],
    *,
    top: Sequence[str],
    battlefield: Sequence[str] | None,
    graveyard: Sequence[str],
    library_size: int | None = None,
) -> None:
    """``top`` on top of the library (first = top card); optionally replace the battlefield (``make``
    builds a permanent from a card id and name; they are numbered 1, 2, ...) and fill the graveyard; ``library_size`` moves the
    rest of the library into the graveyard."""
    pool = list(reversed(game.library)) + [p.card_id for p in game.battlefield] + game.graveyard
    if battlefield is None:
        battlefield = [p.name for p in game.battlefield]

    def take(name: str) -> int:
        card_id = next(i for i in pool if game.name_of(i) == name)
        pool.remove(card_id)
        return card_id

    game.battlefield = [make(take(name), name) for name in battlefield]
    for serial, permanent in enumerate(game.battlefield, start=1):
        permanent.serial = serial
    game._serials = len(game.battlefield)
    grave = [take(name) for name in graveyard]
    library = [take(name) for name in top] + pool
    if library_size is not None:
        grave += library[library_size:]
        library = library[:library_size]
    game.graveyard = grave
    game.library = list(reversed(library))  # the top card is the last element


def names(game: Any) -> list[str]:
    return [p.name for p in game.battlefield]


def keys(game: Any, since: int = 0) -> list[str]:
    return [e.key for e in game.events[since:]]


def deck_turn(game: Any, check: Callable[[Any], None], *answers: str) -> None:
    """End the players' turn, answer the listed questions in order, default the rest; ``check`` (the
    deck's invariants) after every step."""
    game.apply("end")
    for answer in answers:
        assert game.pending is not None, f"no question left for {answer!r}"
        game.apply(f"choose {answer}")
        check(game)
    game.play_until_players()
    check(game)
