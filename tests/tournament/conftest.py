"""Tournament fixtures: the real card index over a small real subset, a controllable clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.cards.model import Card

CARDS = Path(__file__).parent.parent / "data" / "tournament_cards.jsonl"


@pytest.fixture(scope="session")
def card_index() -> CardIndex:
    with CARDS.open(encoding="utf-8") as handle:
        return CardIndex.from_cards(Card.from_scryfall(json.loads(line)) for line in handle)


class Clock:
    """A clock the test moves by hand, so deadlines are exact."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()
