"""Helpers for Hydra tests: arrange the Hydra's zones by card name (keeping all 60 cards)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.hydra import HydraGame, PlayerSetup
from bot.domain.hydra import cards as C
from bot.domain.hydra.invariants import check_invariants


def rig(game: HydraGame, *, top: Sequence[str] = (), battlefield: Sequence[str] | None = None,
        graveyard: Sequence[str] = ()) -> HydraGame:
    """Put ``top`` on top of the library (first = top card), optionally replace the heads on the
    battlefield and fill the graveyard; every other card stays in the library. The 60 real cards
    are reused, so the card-accounting invariant still holds."""
    pool = list(reversed(game.library)) + [h.card_id for h in game.battlefield] + game.graveyard
    if battlefield is None:
        battlefield = [h.name for h in game.battlefield]

    def take(name: str) -> int:
        card_id = next(i for i in pool if game.name_of(i) == name)
        pool.remove(card_id)
        return card_id

    heads = [game._new_head(take(name)) for name in battlefield]
    grave = [take(name) for name in graveyard]
    top_ids = [take(name) for name in top]
    game.battlefield = heads
    game.graveyard = grave
    game.library = list(reversed(top_ids + pool))  # top card is the last element
    check_invariants(game)
    return game


def new_game(heads: int = 2, players: int = 1, *, top: Sequence[str] = (),
             battlefield: Sequence[str] | None = None, graveyard: Sequence[str] = (),
             heroes: Sequence[Sequence[str]] = ()) -> HydraGame:
    setups = [PlayerSetup(f"P{i + 1}", tuple(heroes[i]) if i < len(heroes) else ()) for i in range(players)]
    game = HydraGame.new(heads, setups, seed=1)
    return rig(game, top=top, battlefield=battlefield, graveyard=graveyard)


def names(game: HydraGame) -> list[str]:
    return [h.name for h in game.battlefield]


def keys(game: HydraGame, since: int = 0) -> list[str]:
    return [e.key for e in game.events[since:]]


def lives(game: HydraGame) -> list[int]:
    return [p.life for p in game.players]


HH, BRUTE, VIGOR, TITAN, FANG = (C.HYDRA_HEAD, C.RAVENOUS_BRUTE_HEAD, C.SAVAGE_VIGOR_HEAD,
                                 C.SHRIEKING_TITAN_HEAD, C.SNAPPING_FANG_HEAD)
LUNGE = C.UNIFIED_LUNGE

def hydra_turn(game: HydraGame, *answers: str) -> None:
    """End the players' turn, answer the listed questions in order, default the rest."""
    game.apply("end")
    for answer in answers:
        assert game.pending is not None, f"no question left for {answer!r}"
        game.apply(f"choose {answer}")
        check_invariants(game)
    game.play_until_players()
    check_invariants(game)
