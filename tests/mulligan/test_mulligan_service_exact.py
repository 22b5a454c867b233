"""The mulligan service's exact words and libraries, where an earlier test let a wrong one pass: a seat
still deciding after a mulligan shows the hand it holds (not what it would keep), a header-less CSV file
is read as CSV because of its name, and a registered deck's library keeps its unknown cards' names and
its commanders."""

from __future__ import annotations

import re

import pytest

from bot.cards.index import CardIndex
from bot.domain.mulligan import Choice, TableMulligan
from bot.services.decks import DeckService
from bot.services.mulligan import library_from_list, library_from_registered, status_line
from tests.decks.conftest import load_cards
from tests.decks.test_service import KAALIA

GUILD, ALICE = 5, 11


@pytest.fixture(scope="module")
def index() -> CardIndex:
    return CardIndex.from_cards(load_cards())


def test_a_seat_deciding_after_a_mulligan_shows_its_hand_not_its_keep() -> None:
    """After one London mulligan Alice holds 7 cards and would keep 6: while she decides, the board says 7
    (what she has in hand); once she keeps, it says 6."""
    table = TableMulligan.start("london", [1, 2])
    table, _ = table.decide(1, Choice.MULLIGAN)
    table, _ = table.decide(2, Choice.KEEP)
    assert status_line(table, {1: "Alice", 2: "Bob"}, "en") == "Alice deciding (7 in hand) · Bob kept 7"
    table, _ = table.decide(1, Choice.KEEP)
    assert status_line(table, {1: "Alice", 2: "Bob"}, "en") == "Alice kept 6 · Bob kept 7"


def test_a_headerless_csv_file_is_read_as_csv_because_of_its_name(index) -> None:
    """``count,"name"`` rows without a header only look like CSV by their file name: read as text they
    would be 99 unknown names and a library of unknown cards."""
    rows = [f'{m[1]},"{m[2]}"' for m in re.finditer(r"^(\d+) (.+)$", KAALIA, re.MULTILINE)]
    deck = library_from_list("\n".join(rows), index, filename="kaalia.csv")
    assert deck.unknown == ()
    assert len(deck.library) == 99 and deck.counts.lands == 38
    assert sorted({card.name for card in deck.library})[:2] == ["Akoum Refuge", "Akroma's Vengeance"]


async def test_a_registered_decks_library_names_its_unknown_cards_and_keeps_its_commanders(db, index) -> None:
    """The practice and odds commands show the library's cards and the commanders beside it: an unknown
    card keeps the name it was written with, and the commanders are the registered deck's."""
    service = DeckService(db, index, "v1")
    await service.register(GUILD, ALICE, "Typo", KAALIA.replace("Sol Ring", "Sol Rign"), "commander")
    deck = await service.deck_cards(GUILD, ALICE, "Typo")
    assert deck is not None
    library = library_from_registered(deck)
    assert [card.name for card in library.commanders] == ["Kaalia of the Vast"]
    unknown = [card for card in library.library if not card.type_line]
    assert [(card.name, card.is_land) for card in unknown] == [("Sol Rign", False)]
    assert library.unknown == ("Sol Rign",)
