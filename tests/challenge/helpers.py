"""Helpers for Horde/God tests: arrange the deck's zones by card name, keeping all 60 cards."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.challenge.creatures import CreatureDeckGame, Permanent
from bot.domain.challenge.invariants import check_invariants
from bot.i18n.phrase import Phrase

from .rigging import deck_turn as _deck_turn
from .rigging import keys, names, rig_zones

__all__ = ["attacker", "deck_turn", "keys", "names", "play", "rig"]


def rig(
    game: CreatureDeckGame,
    *,
    top: Sequence[str] = (),
    battlefield: Sequence[str] | None = None,
    graveyard: Sequence[str] = (),
    library_size: int | None = None,
) -> CreatureDeckGame:
    """``top`` on top of the library (first = top card); optionally replace the battlefield (entered
    before this turn) and fill the graveyard; ``library_size`` moves the rest into the graveyard."""
    rig_zones(
        game,
        lambda card_id, name: Permanent(card_id, game.cards[name], entered_turn=0),
        top=top,
        battlefield=battlefield,
        graveyard=graveyard,
        library_size=library_size,
    )
    check_invariants(game)
    return game


def deck_turn(game: CreatureDeckGame, *answers: str) -> None:
    """End the players' turn, answer the listed questions in order, default the rest."""
    _deck_turn(game, check_invariants, *answers)


def play(game: CreatureDeckGame, *lines: str) -> None:
    """Apply ``lines`` in order (the steps that bring a test's game to the moment it checks)."""
    for line in lines:
        game.apply(line)


def attacker(number: int, card: str, power: int, toughness: int) -> Phrase:
    """An attacker as ``challenge.log.attack`` lists it (a phrase each language words)."""
    return Phrase(
        "challenge.log.attacker", {"number": number, "card": card, "power": power, "toughness": toughness}
    )
