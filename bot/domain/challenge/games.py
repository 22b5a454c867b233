"""One way to set up a game of any challenge deck: the deck's name and the same set-up for all three
(seats with their Hero cards, seed, difficulty, windows, numbering, rules version, the God's house
rule). The CLI, the random games and the benchmark build every deck's game through :func:`new_game`,
so none of them branches on which deck it is; each game object answers the same surface
(:class:`ChallengeGame`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.domain.challenge.core import ChallengeError, Decision, Event
from bot.domain.challenge.decks import CURRENT_RULES, RULES, DeckRules
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.hydra import HydraGame
from bot.domain.challenge.players import Seat

DECK_NAMES = tuple(RULES)  # hydra, horde, god


class ChallengeGame(Protocol):
    """What every deck's game offers its callers (the engines share it; the Hydra's set-up differs)."""

    @property
    def deck_rules(self) -> DeckRules: ...

    @property
    def verbs(self) -> tuple[str, ...]: ...

    @property
    def window_topics(self) -> tuple[str, ...]: ...

    @property
    def events(self) -> list[Event]: ...

    @property
    def actions(self) -> list[str]: ...

    @property
    def outcome(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def over(self) -> bool: ...

    @property
    def pending(self) -> Decision | None: ...

    @property
    def seed(self) -> int: ...

    @property
    def in_players_first_turn(self) -> bool: ...

    @property
    def defeated(self) -> int: ...

    def apply(self, action: str) -> list[Event]: ...

    def choose_default(self) -> list[Event]: ...

    def play_until_players(self) -> None: ...

    def undo_refusal(self) -> str | None: ...

    def rebuild(self, actions: Sequence[str]) -> ChallengeGame: ...

    def battlefield_numbers(self) -> list[int]: ...

    def snapshot(self) -> dict[str, object]: ...


class GameType(Protocol):
    """How a deck's rules module builds its game from the one set-up (a class or a function)."""

    def __call__(
        self,
        seats: Sequence[Seat],
        seed: int,
        difficulty: int,
        *,
        all_windows: bool,
        stable_ids: bool,
        rules: int,
        life_per_player: bool,
    ) -> ChallengeGame: ...


# Each deck's rules module: a fourth deck is its DeckRules entry and one line here (the Hydra's game is
# set up from its own GameSetup, so its module builds it from the one set-up).
GAME_TYPES: dict[str, GameType] = {"hydra": HydraGame.from_seats, "horde": HordeGame, "god": GodGame}


def new_game(
    deck: str,
    seats: Sequence[Seat],
    seed: int,
    difficulty: int | None = None,
    *,
    all_windows: bool = False,
    stable_ids: bool = True,
    rules: int = CURRENT_RULES,
    life_per_player: bool = False,
) -> ChallengeGame:
    """A new game of ``deck`` (its printed default difficulty when None): the Hydra's difficulty is its
    starting heads, the Horde's the player's turns before its first, the God's his starting Throngs.
    Refuses an unknown deck, and the life house rule where the players share no life (the Hydra)."""
    if deck not in RULES:
        raise ChallengeError("hydra.error.bad_option", option=deck, options=list(DECK_NAMES))
    level = RULES[deck].default_difficulty if difficulty is None else difficulty
    return GAME_TYPES[deck](
        seats,
        seed,
        level,
        all_windows=all_windows,
        stable_ids=stable_ids,
        rules=rules,
        life_per_player=life_per_player,
    )
