"""Fixtures for the card database tests: the committed subset of real card data."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cards.importers import read_cards
from bot.cards.index import CardIndex
from bot.cards.model import Card

TESTS_DIR = Path(__file__).parent.parent
SUBSET = TESTS_DIR / "data" / "cards_subset.jsonl"
FIXTURES = Path(__file__).parent / "data"
SCRYFALL_FILE = FIXTURES / "scryfall_cards.json"
MTGJSON_FILE = FIXTURES / "mtgjson_atomic.json"


def subset_cards() -> list[Card]:
    return read_cards(SUBSET).cards


@pytest.fixture(scope="session")
def subset_index() -> CardIndex:
    return CardIndex.from_cards(subset_cards())
