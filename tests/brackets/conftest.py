"""Bracket tests run on real card data: the deck tests' subset (the two real decklists) and
tests/data/bracket_cards.jsonl (every card of the bundled bracket lists, copied from the bundled data set),
through the real ``CardIndex`` and parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.cards.model import Card
from bot.domain.decklist import parse_decklist
from bot.domain.rules import ResolvedDeck, resolve_decklist

DATA = Path(__file__).parent.parent / "data"
DECKS = DATA / "decks"
CARD_FILES = (DATA / "deck_cards.jsonl", DATA / "bracket_cards.jsonl")


def load_cards() -> list[Card]:
    cards = []
    for path in CARD_FILES:
        with path.open(encoding="utf-8") as handle:
            cards += [Card.from_scryfall(json.loads(line)) for line in handle if line.strip()]
    return cards


@pytest.fixture(scope="session")
def index() -> CardIndex:
    return CardIndex.from_cards(load_cards())


@pytest.fixture(scope="session")
def resolve(index: CardIndex):
    """resolve(text) -> ResolvedDeck, through the parser and the real index."""

    def run(text: str) -> ResolvedDeck:
        return resolve_decklist(parse_decklist(text), index)

    return run
