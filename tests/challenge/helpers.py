"""Helpers for Horde/God tests: arrange the deck's zones by card name, keeping all 60 cards."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.challenge.creatures import CreatureDeckGame, Permanent
from bot.domain.challenge.invariants import check_invariants


def rig(game: CreatureDeckGame, *, top: Sequence[str] = (), battlefield: Sequence[str] | None = None,
        graveyard: Sequence[str] = (), library_size: int | None = None) -> CreatureDeckGame:
    """``top`` on top of the library (first = top card); optionally replace the battlefield (entered
    before this turn) and fill the graveyard; ``library_size`` moves the rest into the graveyard."""
    pool = list(reversed(game.library)) + [p.card_id for p in game.battlefield] + game.graveyard
    if battlefield is None:
        battlefield = [p.name for p in game.battlefield]

    def take(name: str) -> int:
        card_id = next(i for i in pool if game.name_of(i) == name)
        pool.remove(card_id)
        return card_id

    game.battlefield = [Permanent(take(name), game.cards[name], entered_turn=0) for name in battlefield]
    grave = [take(name) for name in graveyard]
    top_ids = [take(name) for name in top]
    library = top_ids + pool
    if library_size is not None:
        grave += library[library_size:]
        library = library[:library_size]
    game.graveyard = grave
    game.library = list(reversed(library))
    check_invariants(game)
    return game


def names(game: CreatureDeckGame) -> list[str]:
    return [p.name for p in game.battlefield]


def keys(game: CreatureDeckGame, since: int = 0) -> list[str]:
    return [e.key for e in game.events[since:]]


def deck_turn(game: CreatureDeckGame, *answers: str) -> None:
    """End the players' turn, answer the listed questions in order, default the rest."""
    game.apply("end")
    for answer in answers:
        assert game.pending is not None, f"no question left for {answer!r}"
        game.apply(f"choose {answer}")
        check_invariants(game)
    game.play_until_players()
    check_invariants(game)
