"""Deck tests run on real card data: a committed subset of the bundled data set (tests/data/deck_cards.jsonl,
every card of the seeds' worked examples and of the two real decklists) and the real ``CardIndex``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.cards.model import Card
from bot.domain.decklist import parse_decklist
from bot.domain.rules import Verdict, check_deck, get_ruleset, resolve_decklist

DATA = Path(__file__).parent.parent / "data"
DECKS = DATA / "decks"


def load_cards() -> list[Card]:
    with (DATA / "deck_cards.jsonl").open(encoding="utf-8") as handle:
        return [Card.from_scryfall(json.loads(line)) for line in handle if line.strip()]


@pytest.fixture(scope="session")
def cards() -> dict[str, Card]:
    return {card.name: card for card in load_cards()}


@pytest.fixture(scope="session")
def index() -> CardIndex:
    return CardIndex.from_cards(load_cards())


@pytest.fixture(scope="session")
def check(index: CardIndex):
    """check(text, ruleset="commander", commanders=()) -> Verdict, through parser, index and rules."""

    def run(text: str, ruleset: str = "commander", commanders: tuple[str, ...] = ()) -> Verdict:
        deck = resolve_decklist(parse_decklist(text), index, commanders)
        return check_deck(deck, get_ruleset(ruleset))

    return run
