"""The one permanent type of every challenge deck: a Hydra's head and a Horde's or the God's creature.

A permanent is a new object each time a card enters the battlefield (no memory of earlier visits) and
is named by its serial, fixed while it stays there. What only the Hydra uses is data on the same type,
not a type of its own: an elite head is one whose card says so (``card.elite``), "indestructible
through the Hydra's turn N" is a number (Hydra's Impenetrable Hide), and a token copy is a permanent
of no card of the deck (``card_id`` :data:`TOKEN_ID`), which ceases to exist when it leaves. What only
the creature decks use (entering turn, attacking, control, "can't attack") rests at its default on
the Hydra's heads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

TOKEN_ID = -1  # card_id of a token copy (it is no card of the deck's 60)


class PermanentCard(Protocol):
    """What a permanent reads from its card: the deck's own card types (Hydra cards, creature decks'
    cards) both offer it."""

    @property
    def name(self) -> str: ...

    @property
    def power(self) -> int | None: ...

    @property
    def toughness(self) -> int | None: ...

    @property
    def elite(self) -> bool: ...


CardT = TypeVar("CardT", bound=PermanentCard)


@dataclass(slots=True, eq=False)
class Permanent(Generic[CardT]):
    """A permanent of the deck on the battlefield (compared by identity: two copies of one card differ)."""

    card_id: int  # TOKEN_ID for a token copy
    card: CardT
    entered_turn: int = 0  # the turn it entered (summoning sickness of the creature decks)
    tapped: bool = False
    damage: int = 0
    counters: int = 0  # +1/+1 (negative: -1/-1 counters; the two kinds annihilate)
    shrunk: int = 0  # -X/-X until end of turn
    pumped: int = 0  # +X/+0 until end of turn
    frozen_for: int = 0  # the deck turn whose untap step it skips
    serial: int = 0  # which permanent this is, for good: numbered as permanents enter (positions shift)
    indestructible_through: int = 0  # the deck turn through whose end it is indestructible (0: not)
    attacking: bool = False
    doomed: bool = False  # destroyed at end of combat (Consuming Rage)
    stolen: bool = False  # the players control it (a control-changing effect of their cards)
    no_attack_for: int = 0  # the deck turn in which it can't attack ("can't attack" effects)
    no_block_turn: int = 0  # the turn in which it can't block (the Horde's blockers)

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def token(self) -> bool:
        """A token copy: it is no card of the deck, so it goes to no zone when it leaves."""
        return self.card_id == TOKEN_ID

    @property
    def elite(self) -> bool:
        return self.card.elite

    @property
    def power(self) -> int:
        return (self.card.power or 0) + self.counters - self.shrunk + self.pumped

    @property
    def toughness(self) -> int:
        return (self.card.toughness or 0) + self.counters - self.shrunk
