"""The Hydra deck (H1) and the Hero cards: our copy of the card data against the research data."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.domain.hydra import cards as C

DATA = Path(__file__).parents[1] / "data" / "hydra_cards.json"


def test_the_15_oracle_texts_are_verbatim() -> None:
    rows = json.loads(DATA.read_text(encoding="utf-8"))
    assert len(rows) == 15
    for row in rows:
        card = C.CARDS[row["name"]]
        assert card.oracle_text == row["oracle_text"]
        assert card.count == row["count_in_deck"]
        assert card.type_line == row["type_line_scryfall"]
        assert card.elite == row["is_elite"]


def test_the_deck_is_60_cards_18_heads_and_42_sorceries_h1() -> None:
    deck = C.deck_list()
    assert len(deck) == C.DECK_SIZE == 60
    assert sum(C.CARDS[name].is_head for name in deck) == 18
    assert deck.count(C.HYDRA_HEAD) == 11
    assert sum(C.CARDS[name].elite for name in deck) == 7


def test_heros_reward_numbers_are_read_from_the_card_texts() -> None:
    for card in C.CARDS.values():
        match = re.search(
            r"Hero's Reward — .* each player gains (\d+) life( and draws a card)?", card.oracle_text
        )
        if card.is_head:
            assert match is not None
            assert card.reward_life == int(match.group(1))
            assert card.reward_draw == bool(match.group(2))
        else:
            assert match is None and card.reward_life == 0


def test_hero_cards_have_their_real_texts_not_invented_ones() -> None:
    """CHALLENGE_DECKS §6: the web app's heroes.ts invents texts (e.g. The Warrior "+1/+1")."""
    assert C.HEROES["The Warrior"].text == "{T}: Target creature you control gains haste until end of turn."
    assert C.HEROES["The Slayer"].text == "You start the game with an additional 7 life."
    assert C.HEROES["The Slayer"].starting_life_bonus == 7
    assert all(h.starting_life_bonus == 0 for h in C.HEROES.values() if h.name != "The Slayer")
    assert len(C.HEROES) == 21
    assert C.find_hero(" the slayer ") is C.HEROES["The Slayer"]
