"""Helpers for Hydra tests: arrange the Hydra's zones by card name (keeping all 60 cards)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.challenge.decks import CURRENT_RULES
from bot.domain.hydra import GameSetup, HydraGame, PlayerSetup
from bot.domain.hydra import cards as C
from bot.domain.hydra.engine import Head
from bot.domain.hydra.invariants import check_invariants
from tests.challenge.rigging import deck_turn, keys, names, rig_zones

__all__ = [
    "BRUTE",
    "FANG",
    "HH",
    "LUNGE",
    "TITAN",
    "VIGOR",
    "hydra_turn",
    "keys",
    "lives",
    "names",
    "new_game",
    "rig",
]


def rig(
    game: HydraGame,
    *,
    top: Sequence[str] = (),
    battlefield: Sequence[str] | None = None,
    graveyard: Sequence[str] = (),
) -> HydraGame:
    """Put ``top`` on top of the library (first = top card), optionally replace the heads on the
    battlefield (numbered 1, 2, ... as at the start) and fill the graveyard; every other card stays
    in the library. The 60 real cards are reused, so the card-accounting invariant still holds."""
    rig_zones(
        game,
        lambda card_id, name: Head(card_id, C.CARDS[name]),
        top=top,
        battlefield=battlefield,
        graveyard=graveyard,
    )
    check_invariants(game)
    return game


def new_game(
    heads: int = 2,
    players: int = 1,
    *,
    top: Sequence[str] = (),
    battlefield: Sequence[str] | None = None,
    graveyard: Sequence[str] = (),
    heroes: Sequence[Sequence[str]] = (),
    rules: int = CURRENT_RULES,
) -> HydraGame:
    setups = [PlayerSetup(f"P{i + 1}", tuple(heroes[i]) if i < len(heroes) else ()) for i in range(players)]
    game = HydraGame(GameSetup(heads=heads, players=tuple(setups), seed=1, rules=rules))
    return rig(game, top=top, battlefield=battlefield, graveyard=graveyard)


def lives(game: HydraGame) -> list[int]:
    return [p.life for p in game.players]


HH, BRUTE, VIGOR, TITAN, FANG = (
    C.HYDRA_HEAD,
    C.RAVENOUS_BRUTE_HEAD,
    C.SAVAGE_VIGOR_HEAD,
    C.SHRIEKING_TITAN_HEAD,
    C.SNAPPING_FANG_HEAD,
)
LUNGE = C.UNIFIED_LUNGE


def hydra_turn(game: HydraGame, *answers: str) -> None:
    """End the players' turn, answer the listed questions in order, default the rest."""
    deck_turn(game, check_invariants, *answers)
