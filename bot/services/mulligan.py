"""Mulligan texts for the pod board and the practice/odds commands, in the reader's language.

The pod board integrates the table step with ``bot.domain.mulligan.TableMulligan`` and turns
its states into words here::

    from bot.services.mulligan import status_line, instruction_text, error_text
    status_line(table, names={alice_id: "Alice", bob_id: "Bob"}, language="en")
    # "Alice kept 6 · Bob deciding (7 in hand)"
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.cards.model import Card
from bot.domain.decklist import Section, parse_decklist
from bot.domain.mulligan import Instruction, MulliganError, MulliganStyle, SeatState, TableMulligan
from bot.domain.mulligan.odds import DEFAULT_KEEP, DEFAULT_PLAYERS, DeckCounts, DeckOdds, deck_odds
from bot.domain.rules import CardResolver, resolve_decklist
from bot.i18n import t
from bot.services.decks import DeckCards


def style_name(style: MulliganStyle | str, language: str) -> str:
    return t(f"mulligan.style.{MulliganStyle(style).value}", language)


def status_line(table: TableMulligan, names: Mapping[Any, str], language: str) -> str:
    """ "Alice kept 6 · Bob deciding (7 in hand) · Carol waiting (6 in hand)", in seat order. ``names`` is keyed
    by whatever identifies the table's players (user ids at a pod, seat names in practice)."""
    parts = []
    for seat in table.status():
        name = names.get(seat.player, str(seat.player))
        count = seat.keeps if seat.state is SeatState.KEPT else seat.hand_size
        parts.append(t(f"mulligan.seat.{seat.state.value}", language, name=name, count=count))
    return t("mulligan.seat.separator", language).join(parts)


def instruction_text(instructions: Instruction | Iterable[Instruction], language: str) -> str:
    """What to do with the cards, e.g. "Draw 2." (several instructions joined by a space)."""
    if isinstance(instructions, Instruction):
        instructions = (instructions,)
    return " ".join(t(i.message_key, language, count=i.count) for i in instructions)


def error_text(error: MulliganError, language: str, names: Mapping[Hashable, str] | None = None) -> str:
    """The localized message of a refused decision; player ids in it are replaced by ``names``."""
    values = {
        key: (names or {}).get(value, value) if isinstance(value, Hashable) else value
        for key, value in error.values.items()
    }
    return t(error.key, language, **values)


# -- decks for practice and odds -------------------------------------------------------------------


@dataclass(frozen=True)
class DeckLibrary:
    """The library a hand is drawn from: the deck without its commanders (``deck_size`` of the odds).

    Cards the card data does not know stay in the library as unknown non-lands (so the deck size is
    right) and are listed in ``unknown`` so front ends can say so.
    """

    library: tuple[Card, ...]
    commanders: tuple[Card, ...] = ()
    unknown: tuple[str, ...] = ()

    @property
    def counts(self) -> DeckCounts:
        return DeckCounts.of(self.library)


def _unknown_card(name: str) -> Card:
    return Card(name=name, type_line="")


def library_from_list(
    data: bytes | str,
    resolver: CardResolver,
    filename: str | None = None,
    commander_names: Iterable[str] = (),
) -> DeckLibrary:
    """Parse and resolve a deck list the way ``/deck check`` does; keep the main deck as the library.

    Raises ``DecklistRefused`` for input that is not a deck list.
    """
    deck = resolve_decklist(parse_decklist(data, filename), resolver, commander_names)
    library: list[Card] = []
    unknown: list[str] = []
    for entry in deck.in_section(Section.MAIN):
        if entry.card is None:
            unknown.append(entry.entry.name)
        library += [entry.card or _unknown_card(entry.entry.name)] * entry.count
    commanders = tuple(entry.card for entry in deck.commanders if entry.card is not None)
    return DeckLibrary(tuple(library), commanders, tuple(unknown))


def library_from_registered(deck: DeckCards) -> DeckLibrary:
    """A registered deck (``DeckService.deck_cards``) as a library; cards the card data doesn't know
    count as non-lands (as in ``library_from_list``), so the deck size stays right."""
    unknown = [_unknown_card(name) for count, name in deck.unresolved_main for _ in range(count)]
    return DeckLibrary(tuple(deck.library()) + tuple(unknown), tuple(deck.commanders), tuple(deck.unresolved))


def odds_for(
    deck: DeckLibrary, keep: tuple[int, int] = DEFAULT_KEEP, *, player_count: int = DEFAULT_PLAYERS
) -> DeckOdds:
    """Exact odds of a deck. Raises ``MulliganError`` (no lands, under 7 cards, bad range)."""
    return deck_odds(deck.counts, keep, player_count=player_count)
