"""Fixtures for the card database tests: the committed subset of real card data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.cards.model import Card

SUBSET = Path(__file__).parent.parent / "data" / "cards_subset.jsonl"


def subset_cards() -> list[Card]:
    with SUBSET.open(encoding="utf-8") as handle:
        return [Card.from_scryfall(json.loads(line)) for line in handle if line.strip()]


@pytest.fixture(scope="session")
def subset_index() -> CardIndex:
    return CardIndex.from_cards(subset_cards())
