"""Colour identity computed from card text: CR 903.4 (commander) and D4 (edh-2010, duel-zh), with the
seeds' worked examples (D4a–e) and CR 903.4's own examples."""

from __future__ import annotations

import logging

import pytest

from bot.domain.rules import facts
from bot.domain.rules.facts import report_disagreement
from bot.domain.rules.identity import (
    CR_903_4,
    D4_MANA_SYMBOLS,
    Source,
    card_identity,
    strip_reminder_text,
    symbol_colours,
    text_colours,
)


def colours(cards, name: str, policy=CR_903_4) -> str:
    return card_identity(cards[name], policy).colours()


@pytest.mark.parametrize("policy", [CR_903_4, D4_MANA_SYMBOLS])
def test_d4_commander_rules_text_counts_thelon(cards, policy) -> None:
    """D4: Thelon of Havenwood costs {G}{G} but has {B} in an ability: black and green."""
    assert colours(cards, "Thelon of Havenwood", policy) == "BG"
    origins = card_identity(cards["Thelon of Havenwood"], policy).origins_of("B")
    assert [o.source for o in origins] == [Source.RULES_TEXT]


@pytest.mark.parametrize("policy", [CR_903_4, D4_MANA_SYMBOLS])
def test_d4a_hybrid_counts_every_colour(cards, policy) -> None:
    assert colours(cards, "Oona, Queen of the Fae", policy) == "UB"
    assert colours(cards, "Figure of Destiny", policy) == "WR"  # 天任斯人: {R/W}
    assert colours(cards, "Boros Guildmage", policy) == "WR"


@pytest.mark.parametrize("policy", [CR_903_4, D4_MANA_SYMBOLS])
def test_d4b_reminder_text_does_not_count_trinisphere(cards, policy) -> None:
    assert "{B}" in cards["Trinisphere"].oracle_text
    assert colours(cards, "Trinisphere", policy) == ""
    assert colours(cards, "Syndic of Tithes", policy) == "W"  # extort's reminder {W/B}


def test_d4c_snow_is_colourless(cards) -> None:
    assert "{S}" in cards["Icehide Golem"].mana_cost
    assert colours(cards, "Icehide Golem", D4_MANA_SYMBOLS) == ""
    assert colours(cards, "Icehide Golem", CR_903_4) == ""


def test_d4d_basic_land_types_are_mana_symbols(cards) -> None:
    identity = card_identity(cards["Godless Shrine"], D4_MANA_SYMBOLS)
    assert identity.colours() == "WB"
    assert {o.source for o in identity.origins} == {Source.LAND_TYPE}
    assert colours(cards, "Bayou", D4_MANA_SYMBOLS) == "BG"  # its text is only reminder text
    assert colours(cards, "Krosan Verge", D4_MANA_SYMBOLS) == ""  # "search for a Forest card": a word
    assert colours(cards, "Plains", D4_MANA_SYMBOLS) == "W"


def test_d4_phyrexian_and_split_cards(cards) -> None:
    assert colours(cards, "Birthing Pod") == "G"
    assert colours(cards, "Life // Death") == "BG"


def test_child_of_alara_and_progenitus_have_all_colours(cards) -> None:
    assert colours(cards, "Child of Alara") == "WUBRG"
    assert colours(cards, "Progenitus", D4_MANA_SYMBOLS) == "WUBRG"


def test_903_4d_back_face_colour_indicator_civilized_scholar(cards) -> None:
    """CR 903.4d's own example: Civilized Scholar is blue and red (Homicidal Brute's indicator)."""
    identity = card_identity(cards["Civilized Scholar // Homicidal Brute"], CR_903_4)
    assert identity.colours() == "UR"
    red = identity.origins_of("R")
    assert [(o.source, o.face) for o in red] == [(Source.COLOUR_INDICATOR, "Homicidal Brute")]


def test_colour_indicators_are_not_mana_symbols_under_d4(cards) -> None:
    """D4 counts mana symbols only: the indicator of Homicidal Brute gives no colour in 2010 rules."""
    assert colours(cards, "Civilized Scholar // Homicidal Brute", D4_MANA_SYMBOLS) == "U"
    assert colours(cards, "Ancestral Vision", D4_MANA_SYMBOLS) == "U"  # Suspend 4—{U} is rules text
    assert colours(cards, "Transguild Courier", D4_MANA_SYMBOLS) == ""
    assert colours(cards, "Transguild Courier", CR_903_4) == "WUBRG"


def test_characteristic_defining_ability_sets_colours(cards) -> None:
    identity = card_identity(cards["Sphinx of the Guildpact"], CR_903_4)
    assert identity.colours() == "WUBRG"
    assert {o.source for o in identity.origins_of("R")} == {Source.CDA}
    assert card_identity(cards["Sphinx of the Guildpact"], D4_MANA_SYMBOLS).colours() == ""  # cost {7}


def test_903_4e_adventure_counts(cards) -> None:
    identity = card_identity(cards["Bonecrusher Giant // Stomp"], CR_903_4)
    assert ("R", Source.COST, "Stomp") in [(o.colour, o.source, o.face) for o in identity.origins]


def test_nested_reminder_text_is_removed() -> None:
    assert strip_reminder_text("Hi (a (b {B}) c {R}) {G}") == "Hi  {G}"


def test_agreement_with_card_data_on_every_test_card(cards) -> None:
    """Under CR 903.4 (+903.5d land types) our identity matches the data's color_identity, except the
    one card the data gets wrong by omitting a characteristic-defining ability."""
    disagreeing = {
        name for name, card in cards.items() if card_identity(card, CR_903_4).colours() != card.color_identity
    }
    assert disagreeing == {"Sphinx of the Guildpact"}


def test_disagreements_are_logged_once(cards, caplog, monkeypatch) -> None:
    monkeypatch.setattr(facts, "_reported_disagreements", set())  # whatever other tests logged before
    sphinx = cards["Sphinx of the Guildpact"]
    with caplog.at_level(logging.WARNING, logger="bot.domain.rules.facts"):
        ours = card_identity(sphinx, CR_903_4).colours()
        assert report_disagreement(sphinx, ours)
        assert report_disagreement(sphinx, ours)
        assert not report_disagreement(cards["Sol Ring"], "")
    messages = [r.getMessage() for r in caplog.records if "Sphinx of the Guildpact" in r.getMessage()]
    assert len(messages) == 1


def test_half_mana_symbols_count_their_colour() -> None:
    """Unhinged's half-mana symbols ({HW}, e.g. Little Girl's cost) show their colour like {W} does."""
    assert symbol_colours("HW") == {"W"} and symbol_colours("HR") == {"R"}
    assert text_colours("{HW}{HB}: Target creature gets +1/+1 until end of turn.") == {"W", "B"}
    assert symbol_colours("HX") == set() and symbol_colours("H") == set() and symbol_colours("C") == set()


@pytest.mark.parametrize(
    ("text", "colours"),
    [
        ("Evermind is blue.", {"U"}),  # the card's own name
        ("This spell is black and red.", {"B", "R"}),
        ("This card is white, blue, and green.", {"W", "U", "G"}),
        ("Target creature is red.\nEvermind is green.", {"G"}),  # another subject, then its own
        ("Evermind is blue.\nEvermind is red.", {"U", "R"}),
        ("Evermind is blue (this is white.)", set()),  # no full sentence of its own
    ],
)
def test_a_colour_setting_ability_names_this_card(text: str, colours: set[str]) -> None:
    """CR 604.3 / 903.4: "<this card> is <colours>." sets colours; any other subject does not."""
    from bot.cards.model import Card
    from bot.domain.rules.identity import defined_colours

    card = Card.from_scryfall(
        {
            "name": "Evermind",
            "type_line": "Instant — Arcane",
            "mana_cost": "",
            "oracle_text": text,
            "legalities": {"commander": "legal"},
        }
    )
    assert defined_colours(card.front) == colours
