"""A deck at a glance: card types and mana curve (the verdict's summary)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.cards.model import Card
from bot.domain.decklist import Section
from bot.domain.rules.deck import ResolvedDeck

# The order a deck list tool shows types in; a card counts once, under the first type it has.
TYPE_ORDER = ("Creature", "Planeswalker", "Battle", "Instant", "Sorcery", "Artifact", "Enchantment", "Land")
CURVE_TOP = 7  # the last bar is "7+"


@dataclass(frozen=True)
class DeckSummary:
    types: dict[str, int]  # type -> copies, in TYPE_ORDER, only types present ("Other" last)
    curve: tuple[int, ...]  # copies of non-land cards by mana value 0..6, then 7+
    lands: int
    unknown: int  # copies whose card is unknown (not in types or curve)

    @property
    def spells(self) -> int:
        return sum(self.curve)


def primary_type(card: Card) -> str:
    """Land first (a Dryad Arbor is played as a land), then the first of TYPE_ORDER in the front face."""
    if card.is_land:
        return "Land"
    type_line = card.front.type_line.split("—", 1)[0]
    for name in TYPE_ORDER:
        if name in type_line:
            return name
    return "Other"


def summarise(deck: ResolvedDeck) -> DeckSummary:
    """Types and curve of the 100 (commanders and main deck)."""
    types: Counter[str] = Counter()
    curve = [0] * (CURVE_TOP + 1)
    unknown = 0
    for entry in deck.in_section(Section.COMMANDER, Section.MAIN):
        if entry.card is None:
            unknown += entry.count
            continue
        kind = primary_type(entry.card)
        types[kind] += entry.count
        if kind != "Land":
            curve[min(int(entry.card.mana_value), CURVE_TOP)] += entry.count
    ordered = {name: types[name] for name in (*TYPE_ORDER, "Other") if types[name]}
    return DeckSummary(ordered, tuple(curve), types["Land"], unknown)
