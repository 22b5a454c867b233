"""Match and sideboard tests: real card data (tests/data/deck_cards.jsonl), a real SQLite file, a clock
the test moves forward (time advanced, never slept)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.domain.decklist import parse_decklist
from bot.domain.rules import ResolvedDeck, resolve_decklist
from tests.decks.conftest import load_cards

DECKS = Path(__file__).parent.parent / "data" / "decks"
SIDEBOARD_DECK = DECKS / "kaalia_sideboard.txt"  # legal under every ruleset, 10-card sideboard
BLUE_SIDEBOARD_DECK = DECKS / "kaalia_sideboard_blue.txt"  # Counterspell in the sideboard
WISH_DECK = DECKS / "kaalia_sideboard_wish.txt"  # Burning Wish in the main deck (for Wrecking Ball)


class Clock:
    """An injected clock: ``clock()`` gives ISO time like ``now_iso``; ``advance`` moves it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="seconds")

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="session")
def index() -> CardIndex:
    return CardIndex.from_cards(load_cards())


@pytest.fixture(scope="session")
def deck(index: CardIndex) -> ResolvedDeck:
    return resolve_decklist(parse_decklist(SIDEBOARD_DECK.read_text(encoding="utf-8")), index)
