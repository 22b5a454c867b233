"""Real card data for the mulligan tests: a subset of the bundled set copied to tests/data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.cards.model import Card

DATA = Path(__file__).parent.parent / "data"
CARDS_FILE = DATA / "mulligan_cards.jsonl"
INFERNO_FILE = DATA / "mulligan_heavenly_inferno.txt"  # Commander 2011 "Heavenly Inferno", 1 + 99 cards


@pytest.fixture(scope="session")
def cards() -> dict[str, Card]:
    """Cards by English name (also by front-face name for multi-face cards)."""
    out: dict[str, Card] = {}
    for line in CARDS_FILE.read_text(encoding="utf-8").splitlines():
        card = Card.from_scryfall(json.loads(line))
        out[card.name] = card
        out.setdefault(card.front.name, card)
    return out


@pytest.fixture(scope="session")
def inferno_library(cards: dict[str, Card]) -> list[Card]:
    """The 99 cards of the library (the commander, Kaalia of the Vast, left out)."""
    library = []
    for line in INFERNO_FILE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"(\d+)\s+(.+)", line.strip())
        if match:
            library += [cards[match.group(2)]] * int(match.group(1))
    return library


@pytest.fixture(scope="session")
def make_library(cards: dict[str, Card]):
    """A factory of small libraries: ``make_library(lands, spells)`` Mountains and Sol Rings."""

    def build(lands: int, spells: int) -> list[Card]:
        return [cards["Mountain"]] * lands + [cards["Sol Ring"]] * spells

    return build
