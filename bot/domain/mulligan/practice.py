"""Practice hands (goldfishing): a real shuffled library run through a mulligan procedure exactly.

The counting rules come from ``PlayerMulligan`` (the same object the table step uses); this module
moves real cards:

* partial Paris (M1): ``set_aside(positions)`` moves the chosen cards out of the hand, face down, and
  draws one fewer from the library; the set-aside cards stay out until the player keeps
  (``set_aside([])``), then they are shuffled back into the library.
* London (CR 103.5): ``mulligan()`` shuffles the hand back and draws 7; ``keep()`` then asks for the N
  cards to put on the bottom (``bottom(positions)``), N = mulligans minus the free multiplayer one.
* Vancouver: ``mulligan()`` draws one fewer; ``keep()`` with fewer than 7 cards offers scry 1
  (``scry(to_bottom)``) on the top card of the library.

Shuffling uses ``secrets.SystemRandom``; with a ``seed`` it uses ``random.Random(seed)`` so a run can
be reproduced card for card. The object is mutable (it holds a live library); keep one per practice.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.cards.model import Card
from bot.domain.mulligan.procedure import (
    OPENING_HAND,
    Choice,
    Instruction,
    MulliganError,
    MulliganStyle,
    PlayerMulligan,
)

if TYPE_CHECKING:
    from bot.domain.mulligan.odds import ParisChoice

PRACTICE_PLAYERS = 4  # a practice hand models a usual Commander pod (free first London mulligan)


class Phase(StrEnum):
    DECIDING = "deciding"  # keep or mulligan (partial Paris: choose cards to set aside, or keep)
    BOTTOM = "bottom"  # London: choose the cards for the bottom
    SCRY = "scry"  # Vancouver: top card on top or bottom
    DONE = "done"


def make_rng(seed: int | str | None) -> random.Random:
    """``secrets.SystemRandom`` normally; ``random.Random(seed)`` when a run must be reproducible."""
    if seed is None or seed == "":
        return secrets.SystemRandom()
    return random.Random(str(seed))


@dataclass(frozen=True, slots=True)
class PracticeSummary:
    """How a practice run ended, for the closing message."""

    style: MulliganStyle
    hand: tuple[Card, ...]
    mulligans: int
    set_aside: int  # partial Paris: cards set aside in total (now shuffled back)
    bottomed: int  # London: cards put on the bottom
    scried_to_bottom: bool | None  # Vancouver: None when there was no scry
    free_first: bool

    @property
    def lands(self) -> int:
        return sum(card.is_land for card in self.hand)


class PracticeHand:
    """One player's practice opening hand. Build with ``deal``."""

    def __init__(
        self, library: list[Card], style: MulliganStyle, rng: random.Random, player_count: int
    ) -> None:
        self.style = MulliganStyle(style)
        self.procedure = PlayerMulligan.start(self.style, player_count)
        self.library = library
        self.rng = rng
        self.hand: list[Card] = []
        self.set_aside_pile: list[Card] = []
        self.bottomed: list[Card] = []
        self.scried_to_bottom: bool | None = None
        self.phase = Phase.DECIDING
        self.log: list[Instruction] = []

    @classmethod
    def deal(
        cls,
        library: Sequence[Card],
        style: MulliganStyle | str,
        *,
        seed: int | str | None = None,
        player_count: int = PRACTICE_PLAYERS,
        rng: random.Random | None = None,
    ) -> PracticeHand:
        """Shuffle ``library`` (the deck without its commanders) and draw 7.

        ``rng`` (for many runs from one generator) takes precedence over ``seed``.
        Raises ``MulliganError('mulligan.error.too_few_cards')`` for a library under 7 cards.
        """
        if len(library) < OPENING_HAND:
            raise MulliganError("mulligan.error.too_few_cards", count=len(library))
        practice = cls(list(library), MulliganStyle(style), rng or make_rng(seed), player_count)
        practice.rng.shuffle(practice.library)
        practice._draw(OPENING_HAND)
        return practice

    # -- reading ------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def top_card(self) -> Card | None:
        """The card a Vancouver scry looks at."""
        return self.library[0] if self.library else None

    def summary(self) -> PracticeSummary:
        return PracticeSummary(
            style=self.style,
            hand=tuple(self.hand),
            mulligans=self.procedure.mulligans,
            set_aside=self.procedure.set_aside,
            bottomed=len(self.bottomed),
            scried_to_bottom=self.scried_to_bottom,
            free_first=self.procedure.free_first,
        )

    # -- acting -------------------------------------------------------------------------------

    def set_aside(self, positions: Sequence[int]) -> tuple[Instruction, ...]:
        """Partial Paris (M1): set aside the cards at ``positions`` of the hand (none = keep).

        Draws one fewer than set aside. Keeping ends the run and shuffles the set-aside cards back.
        """
        self._expect(Phase.DECIDING, MulliganStyle.PARTIAL_PARIS)
        chosen = self._positions(positions, allowed=range(0, len(self.hand) + 1))
        self.procedure, told = self.procedure.decide(len(chosen))
        self.set_aside_pile += [self.hand[i] for i in chosen]
        self.hand = [card for i, card in enumerate(self.hand) if i not in chosen]
        if chosen:
            self._draw(len(chosen) - 1)
        if self.procedure.kept:
            told += self._finish()
        return self._logged(told)

    def mulligan(self) -> tuple[Instruction, ...]:
        """London/Vancouver: shuffle the hand into the library and draw the new hand."""
        self._expect(Phase.DECIDING, MulliganStyle.LONDON, MulliganStyle.VANCOUVER)
        self.procedure, told = self.procedure.decide(Choice.MULLIGAN)
        self.library += self.hand
        self.hand = []
        self.rng.shuffle(self.library)
        self._draw(self.procedure.hand_size)
        return self._logged(told + self._after_keep() if self.procedure.kept else told)

    def keep(self) -> tuple[Instruction, ...]:
        """Keep the hand: partial Paris sets nothing aside; London asks for the bottom cards next;
        Vancouver offers scry 1 next when the hand is smaller than 7."""
        if self.style is MulliganStyle.PARTIAL_PARIS:
            return self.set_aside([])
        self._expect(Phase.DECIDING, MulliganStyle.LONDON, MulliganStyle.VANCOUVER)
        self.procedure, told = self.procedure.decide(Choice.KEEP)
        return self._logged(told + self._after_keep())

    def bottom(self, positions: Sequence[int]) -> tuple[Instruction, ...]:
        """London: put exactly the required number of hand cards on the bottom, in the order given."""
        self._expect(Phase.BOTTOM, MulliganStyle.LONDON)
        need = self.procedure.to_bottom
        chosen = self._positions(positions, allowed=range(need, need + 1))
        self.bottomed = [self.hand[i] for i in chosen]
        self.library += self.bottomed
        self.hand = [card for i, card in enumerate(self.hand) if i not in chosen]
        return self._logged(self._finish())

    def scry(self, to_bottom: bool) -> tuple[Instruction, ...]:
        """Vancouver: leave the top card on top, or put it on the bottom."""
        self._expect(Phase.SCRY, MulliganStyle.VANCOUVER)
        if to_bottom and self.library:
            self.library.append(self.library.pop(0))
        self.scried_to_bottom = to_bottom
        return self._logged(self._finish())

    # -- internals ----------------------------------------------------------------------------

    def _after_keep(self) -> tuple[Instruction, ...]:
        if self.procedure.to_bottom:  # London, kept with a mulligan charged: choose the bottom cards
            self.phase = Phase.BOTTOM
            return ()
        if self.procedure.closing_instructions():  # Vancouver: scry 1 below 7 cards
            self.phase = Phase.SCRY
            return ()
        return self._finish()

    def _finish(self) -> tuple[Instruction, ...]:
        """End of the procedure: M1's set-aside cards go back into the library, shuffled."""
        told = tuple(i for i in self.procedure.closing_instructions() if i.kind == "shuffle_back")
        if self.set_aside_pile:
            self.library += self.set_aside_pile
            self.set_aside_pile = []
            self.rng.shuffle(self.library)
        self.phase = Phase.DONE
        return told

    def _draw(self, count: int) -> None:
        """Draw from the top; a tiny library may run out (only possible with M1 on a 7-card deck)."""
        count = min(count, len(self.library))
        self.hand += self.library[:count]
        del self.library[:count]

    def _expect(self, phase: Phase, *styles: MulliganStyle) -> None:
        if self.phase is Phase.DONE:
            raise MulliganError("mulligan.error.already_kept")
        if self.phase is not phase or self.style not in styles:
            raise MulliganError("mulligan.error.wrong_step")

    def _positions(self, positions: Sequence[int], allowed: range) -> list[int]:
        chosen = list(dict.fromkeys(int(p) for p in positions))
        if len(chosen) != len(positions) or any(not 0 <= p < len(self.hand) for p in chosen):
            raise MulliganError("mulligan.error.bad_cards")
        if len(chosen) not in allowed:
            raise MulliganError("mulligan.error.choose_count", count=allowed.start)
        return chosen

    def _logged(self, told: tuple[Instruction, ...]) -> tuple[Instruction, ...]:
        self.log += told
        return told


# -- automatic play, for Monte Carlo odds -------------------------------------------------------------

ParisPolicy = Callable[[int, int, int, int], "ParisChoice | None"]


def play_to_keep(
    style: MulliganStyle | str,
    library: Sequence[Card],
    samples: int,
    keep: tuple[int, int],
    *,
    player_count: int = PRACTICE_PLAYERS,
    seed: int | str | None = None,
    paris_policy: ParisPolicy | None = None,
) -> list[int | None]:
    """Play ``samples`` practice hands with the odds' policy ("mulligan until keepable", see
    ``odds``); return the size of each kept keepable hand, or None when none was reached."""
    style = MulliganStyle(style)
    rng = make_rng(seed)
    results: list[int | None] = []
    for _ in range(samples):
        practice = PracticeHand.deal(library, style, rng=rng, player_count=player_count)
        if style is MulliganStyle.PARTIAL_PARIS:
            results.append(_play_partial_paris(practice, keep, paris_policy))
        else:
            results.append(_play_keep_or_mulligan(practice, keep))
    return results


def _lands(cards: Sequence[Card]) -> int:
    return sum(card.is_land for card in cards)


def _positions_of(cards: Sequence[Card], lands: int, others: int) -> list[int]:
    """The first ``lands`` land positions and the first ``others`` non-land positions of ``cards``."""
    land_positions = [i for i, c in enumerate(cards) if c.is_land][:lands]
    other_positions = [i for i, c in enumerate(cards) if not c.is_land][:others]
    return land_positions + other_positions


def _play_partial_paris(
    practice: PracticeHand, keep: tuple[int, int], policy: ParisPolicy | None
) -> int | None:
    if policy is None:
        raise ValueError("partial Paris needs the policy of bot.domain.mulligan.odds.paris_policy")
    while not practice.finished:
        lands = _lands(practice.hand)
        if keep[0] <= lands <= keep[1]:
            practice.keep()
            return len(practice.hand)
        choice = policy(len(practice.hand), lands, len(practice.library), _lands(practice.library))
        if choice is None:
            practice.keep()
            return None
        practice.set_aside(_positions_of(practice.hand, choice.lands, choice.others))
    lands = _lands(practice.hand)
    return len(practice.hand) if keep[0] <= lands <= keep[1] else None


def _play_keep_or_mulligan(practice: PracticeHand, keep: tuple[int, int]) -> int | None:
    from bot.domain.mulligan.odds import london_keepable, london_lands_to_keep

    london = practice.style is MulliganStyle.LONDON
    while True:
        size = practice.procedure.keeps
        if size < keep[0]:
            return None
        lands = _lands(practice.hand)
        keepable = london_keepable(lands, size, keep) if london else keep[0] <= lands <= keep[1]
        if keepable:
            break
        if not practice.procedure.can_mulligan:
            return None
        practice.mulligan()
        if practice.phase is not Phase.DECIDING:  # kept automatically at 0 cards
            break
    if practice.phase is Phase.DECIDING:
        practice.keep()
    if practice.phase is Phase.BOTTOM:
        lands = _lands(practice.hand)  # a mulligan down to nothing kept a new hand: count its lands
        kept_lands = london_lands_to_keep(lands, practice.procedure.keeps, keep)
        practice.bottom(
            _positions_of(
                practice.hand, lands - kept_lands, practice.procedure.to_bottom - (lands - kept_lands)
            )
        )
    if practice.phase is Phase.SCRY:
        practice.scry(to_bottom=False)
    lands = _lands(practice.hand)
    return len(practice.hand) if keep[0] <= lands <= keep[1] else None
