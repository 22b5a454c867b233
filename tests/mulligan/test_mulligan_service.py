"""The mulligan service's deck side on real card data: a pasted list becomes the library the hand is drawn
from (commanders out, unknown cards kept as non-lands so the size stays right), the odds take the asked keep
range and table size, and the texts fall back to a player's id and join several instructions."""

from __future__ import annotations

import pytest

from bot.cards.index import CardIndex
from bot.domain.mulligan import Choice, MulliganError, TableMulligan
from bot.domain.mulligan.odds import DEFAULT_KEEP, DEFAULT_PLAYERS
from bot.services.mulligan import (
    error_text,
    instruction_text,
    library_from_list,
    odds_for,
    status_line,
    style_name,
)
from tests.decks.conftest import load_cards
from tests.decks.test_service import KAALIA


@pytest.fixture(scope="module")
def index() -> CardIndex:
    return CardIndex.from_cards(load_cards())


def test_a_pasted_list_is_its_main_deck_with_unknown_cards_as_non_lands(index) -> None:
    deck = library_from_list(KAALIA.replace("1 Sol Ring", "1 Sol Rign"), index)
    assert len(deck.library) == 99 and [c.name for c in deck.commanders] == ["Kaalia of the Vast"]
    assert deck.unknown == ("Sol Rign",)
    unknown = [card for card in deck.library if card.name == "Sol Rign"]
    assert len(unknown) == 1 and not unknown[0].is_land
    assert deck.counts.deck_size == 99 and deck.counts.lands == sum(card.is_land for card in deck.library)
    mountains = [card for card in deck.library if card.name == "Mountain"]
    assert len(mountains) == 8  # "8 Mountain": one library card per copy


def test_the_odds_take_the_asked_keep_range_and_table(index) -> None:
    deck = library_from_list(KAALIA, index)
    default = odds_for(deck)
    assert (default.keep, default.player_count) == (DEFAULT_KEEP, DEFAULT_PLAYERS)
    asked = odds_for(deck, (3, 4), player_count=2)
    assert (asked.keep, asked.player_count) == ((3, 4), 2)
    assert asked.p_keepable_opening < default.p_keepable_opening
    with pytest.raises(MulliganError):
        odds_for(library_from_list("1 Sol Ring", index))


def test_texts_fall_back_to_the_id_and_join_instructions() -> None:
    table = TableMulligan.start("london", [1, 2])
    assert status_line(table, {}, "en") == "1 deciding (7 in hand) · 2 waiting (7 in hand)"
    table, (new_hand,) = table.decide(1, Choice.MULLIGAN)
    table, _ = table.decide(2, Choice.KEEP)
    table, (bottom,) = table.decide(1, Choice.KEEP)
    assert instruction_text([new_hand, bottom], "en") == (
        "Shuffle your hand into your library and draw 7. "
        "Keep, and put 1 card from your hand on the bottom of your library."
    )
    assert instruction_text(bottom, "en") == instruction_text((bottom,), "en")
    with pytest.raises(MulliganError) as caught:
        TableMulligan.start("london", [1, 2, 3]).decide(3, Choice.KEEP)
    assert error_text(caught.value, "en") == "Mulligans go in turn order: it is 1's turn to answer."
    assert [style_name(style, "en") for style in ("london", "vancouver")] == [
        "London mulligan",
        "Vancouver mulligan",
    ]


def test_a_kept_hand_after_a_mulligan_shows_what_was_kept_and_errors_speak_the_readers_language() -> None:
    table = TableMulligan.start("london", [1, 2])
    table, _ = table.decide(1, Choice.MULLIGAN)
    table, _ = table.decide(2, Choice.KEEP)
    table, _ = table.decide(1, Choice.KEEP)
    assert status_line(table, {1: "Alice", 2: "Bob"}, "en") == "Alice kept 6 · Bob kept 7"
    with pytest.raises(MulliganError) as caught:
        TableMulligan.start("london", [1, 2, 3]).decide(3, Choice.KEEP)
    assert error_text(caught.value, "ja", {1: "Alice"}) != error_text(caught.value, "en", {1: "Alice"})
    assert "Alice" in error_text(caught.value, "ja", {1: "Alice"})


def test_a_list_without_a_commander_section_takes_the_commander_named_beside_it(index) -> None:
    body = "\n".join(line for line in KAALIA.splitlines() if "Kaalia of the Vast" not in line)
    deck = library_from_list(body, index, commander_names=["Kaalia of the Vast"])
    assert [c.name for c in deck.commanders] == ["Kaalia of the Vast"]
    assert "Kaalia of the Vast" not in {c.name for c in deck.library}
