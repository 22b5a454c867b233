"""The Hydra's 15 cards and the Hero cards, field by field: the exact values the card table is read into.

The table is read once when the module is imported; ``_build`` is called again here so a change to how a row
is read shows (the values below are those of the Scryfall / MTGJSON card data, TFTH)."""

from __future__ import annotations

import pytest

from bot.domain.challenge import hydra_cards as C
from bot.domain.challenge.hydra_card_data import CARD_ROWS

# name: (count, type line, toughness, elite, collector number, Scryfall id, reward life, reward draw)
EXPECTED: dict[str, tuple[int, str, int | None, bool, int, str, int, bool]] = {
    "Hydra Head": (11, "Creature — Head", 3, False, 1, "27d772a9-7542-4ffe-9cd4-e144d129f342", 2, False),
    "Ravenous Brute Head": (
        4,
        "Elite Creature — Head",
        6,
        True,
        2,
        "a76d49f7-2860-4972-ab97-1e798ea017d1",
        2,
        True,
    ),
    "Savage Vigor Head": (
        1,
        "Elite Creature — Head",
        8,
        True,
        3,
        "4b90bd09-d6aa-4201-a7fe-78accbcfc4e8",
        4,
        True,
    ),
    "Shrieking Titan Head": (
        1,
        "Elite Creature — Head",
        8,
        True,
        4,
        "44ef6754-b611-4e52-a04b-dc2c794d2cb8",
        4,
        True,
    ),
    "Snapping Fang Head": (
        1,
        "Elite Creature — Head",
        8,
        True,
        5,
        "11decc7a-58e7-43f3-acc5-9ec94cce858d",
        4,
        True,
    ),
    "Disorienting Glower": (5, "Sorcery", None, False, 6, "7b0f9139-6366-4334-b532-1385336f5a04", 0, False),
    "Distract the Hydra": (5, "Sorcery", None, False, 7, "263da86e-6e10-40fb-bbf0-5a577c63fc0a", 0, False),
    "Grown from the Stump": (4, "Sorcery", None, False, 8, "e24e319f-494e-4ea8-8435-1207d18cc86b", 0, False),
    "Hydra's Impenetrable Hide": (
        4,
        "Sorcery",
        None,
        False,
        9,
        "6f85efed-56e7-488f-ac82-8829ad8b64ad",
        0,
        False,
    ),
    "Neck Tangle": (3, "Sorcery", None, False, 10, "b1f3cf6e-e681-461f-8754-b3e464b150d9", 0, False),
    "Noxious Hydra Breath": (4, "Sorcery", None, False, 11, "21533aec-7c28-4d20-9cc8-96b962d445bf", 0, False),
    "Strike the Weak Spot": (2, "Sorcery", None, False, 12, "40ffc5ec-67da-4af7-ae3a-e33fea136eac", 0, False),
    "Swallow the Hero Whole": (
        5,
        "Sorcery",
        None,
        False,
        13,
        "9b1871c1-59e5-4c2f-8e05-944d6cbabf99",
        0,
        False,
    ),
    "Torn Between Heads": (4, "Sorcery", None, False, 14, "0fe46ef0-86f6-42f7-b78e-a148d7f00456", 0, False),
    "Unified Lunge": (6, "Sorcery", None, False, 15, "bbb3bcaf-73f4-4f41-a0dc-0a3d710ad507", 0, False),
}


def test_each_card_read_from_the_table() -> None:
    built = C._build()
    assert list(built) == list(EXPECTED)
    for name, card in built.items():
        fields = (
            card.count,
            card.type_line,
            card.toughness,
            card.elite,
            card.collector_number,
            card.scryfall_id,
            card.reward_life,
            card.reward_draw,
        )
        assert (card.name, fields) == (name, EXPECTED[name])
        assert card.is_head is (EXPECTED[name][2] is not None)
    # the oracle texts are the table's, verbatim (test_cards.py checks them against the card data)
    assert [card.oracle_text for card in built.values()] == [row["oracle_text"] for row in CARD_ROWS]
    assert built == C.CARDS


def test_toughness_is_read_as_a_number_and_types_as_strings() -> None:
    built = C._build()
    assert type(built[C.HYDRA_HEAD].toughness) is int and type(built[C.HYDRA_HEAD].collector_number) is int
    assert type(built[C.HYDRA_HEAD].count) is int


def test_a_table_number_is_an_int_or_digits() -> None:
    assert C._int("15") == 15
    assert C._int(7) == 7
    for value in (None, 3.0, b"3"):
        with pytest.raises(TypeError) as caught:
            C._int(value)
        assert str(caught.value) == f"not a number: {value!r}"


def test_is_head_reads_the_type_line() -> None:
    def card(type_line: str) -> C.HydraCard:
        return C.HydraCard("x", 1, type_line, None, False, "", 1, "")

    assert card("Creature — Head").is_head is True
    assert card("Head — Creature").is_head is False
    assert card("Creature — Heads").is_head is False


def test_the_deck_in_collector_number_order() -> None:
    deck = C.deck_list()
    expected: list[str] = []
    for name, (count, *_rest) in sorted(EXPECTED.items(), key=lambda item: item[1][4]):
        expected += [name] * count
    assert deck == expected
    assert deck[:12] == [C.HYDRA_HEAD] * 11 + [C.RAVENOUS_BRUTE_HEAD]
    assert deck[-1] == C.UNIFIED_LUNGE and len(deck) == 60


def test_find_hero_is_an_exact_case_insensitive_lookup() -> None:
    assert C.find_hero("The Slayer") is C.HEROES["The Slayer"]
    assert C.find_hero("  THE PROTECTOR\t") is C.HEROES["The Protector"]
    assert C.find_hero("spear of the general") is C.HEROES["Spear of the General"]
    assert C.find_hero("Slayer") is None
    assert C.find_hero("") is None
    assert C.find_hero("The Slayers") is None
