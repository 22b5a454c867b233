"""Rules corners of the ``commander`` ruleset, on real records of the bundled card data
(tests/data/rules_corner_cards.jsonl, copied from assets/cards/cards.jsonl.gz) and the real CardIndex:
merged "Partner with" records, a card that is a creature only off the battlefield, meld back faces, a
colour indicator only on the back face, and each class of disagreement with the data's colour identity."""

from __future__ import annotations

import json

import pytest

from bot.cards.index import CardIndex
from bot.cards.model import Card
from bot.domain.decklist import parse_decklist
from bot.domain.rules import check_deck, get_ruleset, resolve_decklist
from bot.domain.rules.commanders import creature_off_battlefield
from bot.domain.rules.identity import CR_903_4, D4_MANA_SYMBOLS, Source, card_identity
from bot.domain.rules.records import is_merged_partners

from .conftest import DATA


def load() -> list[Card]:
    with (DATA / "rules_corner_cards.jsonl").open(encoding="utf-8") as handle:
        return [Card.from_scryfall(json.loads(line)) for line in handle if line.strip()]


CARDS = {card.name: card for card in load()}
INDEX = CardIndex.from_cards(load())


def check(text: str, ruleset: str = "commander"):
    deck = resolve_decklist(parse_decklist(text), INDEX)
    return deck, check_deck(deck, get_ruleset(ruleset))


def deck(commanders: list[str], cards: list[str], basics: str) -> str:
    lines = [f"Commander: {name}" for name in commanders] + [f"1 {name}" for name in cards]
    return "\n".join(lines + [f"{100 - len(commanders) - len(cards)} {basics}"])


def problems(verdict) -> list[tuple[str, str | None]]:
    return [(p.key, p.card) for p in verdict.problems]


# -- "Partner with" pairs stored as one record ---------------------------------------------------------


def test_the_data_merges_rowan_and_will_into_one_record() -> None:
    merged = CARDS["Rowan Kenrith // Will Kenrith"]
    assert merged.layout == "normal" and [f.name for f in merged.faces] == ["Rowan Kenrith", "Will Kenrith"]
    assert is_merged_partners(merged)
    assert not is_merged_partners(CARDS["Archangel Avacyn // Avacyn, the Purifier"])
    # The record speaks for its front face: red, as the data says (not blue and red).
    assert card_identity(merged, CR_903_4).colours() == "R" == merged.color_identity


def test_rowan_and_will_lead_together_with_both_colours() -> None:
    resolved, verdict = check(
        deck(["Rowan Kenrith", "Will Kenrith"], ["Counterspell", "Lightning Bolt"], "Island")
    )
    assert [c.card.name for c in resolved.commanders] == ["Rowan Kenrith", "Will Kenrith"]
    assert verdict.status == "legal", problems(verdict)
    assert verdict.colour_identity == "UR"


def test_rowan_alone_is_red_only() -> None:
    _, verdict = check(deck(["Rowan Kenrith"], ["Counterspell"], "Mountain"))
    assert problems(verdict) == [("deck.problem.colour_identity", "Counterspell")]
    assert verdict.colour_identity == "R"


def test_a_line_naming_the_whole_record_is_both_partners() -> None:
    text = "Commander\n1 Rowan Kenrith // Will Kenrith\nDeck\n1 Counterspell\n97 Island"
    resolved, verdict = check(text)
    assert [c.card.name for c in resolved.commanders] == ["Rowan Kenrith", "Will Kenrith"]
    assert verdict.status == "legal", problems(verdict)
    assert verdict.card_count == 100


def test_rowan_named_in_japanese_is_rowan() -> None:
    resolved, _ = check("Commander\n1 ローアン・ケンリス\nDeck\n99 Mountain")
    assert [c.card.name for c in resolved.commanders] == ["Rowan Kenrith"]


# -- creature only while not on the battlefield (CR 903.3 as ruled for Grist) ---------------------------


def test_grist_can_be_the_commander_today_but_not_in_2010_rules() -> None:
    grist = CARDS["Grist, the Hunger Tide"]
    assert "Planeswalker" in grist.type_line and creature_off_battlefield(grist)
    assert not creature_off_battlefield(
        CARDS["Gideon, Ally of Zendikar"]
    )  # a creature only on the battlefield
    text = deck(["Grist, the Hunger Tide"], ["Llanowar Elves", "Duress"], "Forest")
    _, today = check(text)
    assert today.status == "legal", problems(today)
    _, old = check(text, "edh-2010")
    assert ("deck.problem.commander_ineligible", "Grist, the Hunger Tide") in problems(old)


def test_a_planeswalker_that_only_becomes_a_creature_on_the_battlefield_cannot_lead() -> None:
    _, verdict = check(deck(["Gideon, Ally of Zendikar"], [], "Plains"))
    assert ("deck.problem.commander_ineligible", "Gideon, Ally of Zendikar") in problems(verdict)


# -- meld back faces: identity from their front faces -----------------------------------------------------


@pytest.mark.parametrize(
    ("back", "colours", "front"),
    [
        ("Brisela, Voice of Nightmares", "W", "Gisela, the Broken Blade"),
        ("Chittering Host", "B", "Graf Rats"),
        ("Hanweir, the Writhing Township", "R", "Hanweir Battlements"),
    ],
)
def test_meld_back_face_identity_is_its_front_faces(back: str, colours: str, front: str) -> None:
    record = CARDS[back]
    assert record.mana_cost == "" and record.colors == ""  # nothing on the record itself gives a colour
    resolved, _ = check(f"Commander: Talrand, Sky Summoner\n1 {back}\n98 Island")
    card = resolved.cards[1].card
    for policy in (CR_903_4, D4_MANA_SYMBOLS):
        identity = card_identity(card, policy)
        assert identity.colours(land_types=False) == colours
        assert front in {o.face for o in identity.origins}
    assert colours == record.color_identity  # now in agreement with the card data


def test_a_meld_back_face_outside_the_commanders_colours_is_reported() -> None:
    _, verdict = check("Commander: Talrand, Sky Summoner\n1 Brisela, Voice of Nightmares\n98 Island")
    assert problems(verdict) == [("deck.problem.colour_identity", "Brisela, Voice of Nightmares")]
    _, fine = check(
        "Commander: Gisela, the Broken Blade\n1 Brisela, Voice of Nightmares\n1 Bruna, the Fading Light\n"
        "97 Plains"
    )
    assert fine.status == "legal", problems(fine)


def test_meld_front_faces_are_not_changed() -> None:
    resolved, _ = check("Commander: Gisela, the Broken Blade\n1 Bruna, the Fading Light\n98 Plains")
    assert all(c.card is INDEX.get(c.card.name) for c in resolved.cards)


# -- a colour indicator only on the back face --------------------------------------------------------------


def test_back_face_colour_indicator_counts_today_only() -> None:
    avacyn = CARDS["Archangel Avacyn // Avacyn, the Purifier"]
    front, back = avacyn.faces
    assert front.color_indicator == "" and back.color_indicator == "R" and back.mana_cost == ""
    identity = card_identity(avacyn, CR_903_4)
    assert identity.colours() == "WR"
    assert [(o.source, o.face) for o in identity.origins_of("R")] == [
        (Source.COLOUR_INDICATOR, "Avacyn, the Purifier")
    ]
    assert card_identity(avacyn, D4_MANA_SYMBOLS).colours() == "W"  # D4: an indicator is no mana symbol
    _, verdict = check("Commander: Gisela, the Broken Blade\n1 Archangel Avacyn\n98 Plains")
    assert problems(verdict) == [("deck.problem.colour_identity", "Archangel Avacyn // Avacyn, the Purifier")]


def test_a_back_face_indicator_recorded_only_as_the_face_colours() -> None:
    """Some exports keep the back face's colours but not its indicator: a face with no mana cost and a colour
    shows an indicator (transcribed Scryfall shape of Avacyn without ``color_indicator``)."""
    record = json.loads(json.dumps(CARDS["Archangel Avacyn // Avacyn, the Purifier"].to_scryfall()))
    del record["card_faces"][1]["color_indicator"]
    assert card_identity(Card.from_scryfall(record), CR_903_4).colours() == "WR"


def test_a_back_face_indicator_recorded_only_on_the_card_counts_today_only() -> None:
    """Some records carry the indicator on the card, not on the face that shows it (Dryad Arbor-like data):
    it still counts under CR 903.4 (its own origin, no face named) and still not under D4."""
    record = json.loads(json.dumps(CARDS["Archangel Avacyn // Avacyn, the Purifier"].to_scryfall()))
    del record["card_faces"][1]["color_indicator"]
    record["card_faces"][1]["colors"] = []
    record["color_indicator"] = ["R"]
    card = Card.from_scryfall(record)
    identity = card_identity(card, CR_903_4)
    assert identity.colours() == "WR"
    assert [(o.source, o.face) for o in identity.origins_of("R")] == [(Source.COLOUR_INDICATOR, None)]
    assert card_identity(card, D4_MANA_SYMBOLS).colours() == "W"


def test_a_colourless_back_face_adds_nothing() -> None:
    assert card_identity(CARDS["Kessig Prowler // Sinuous Predator"], CR_903_4).colours() == "G"


# -- every class of disagreement between the card data's colour identity and ours --------------------------


def disagreement(name: str) -> tuple[str, str]:
    card = CARDS[name]
    return card_identity(card, CR_903_4).colours(), card.color_identity


def test_class_characteristic_defining_ability_the_data_ignores() -> None:
    """CR 903.4 counts "is all colors"; data derived from mana symbols alone says colourless. Ours holds."""
    assert disagreement("Sphinx of the Guildpact") == ("WUBRG", "")


def test_class_half_mana_symbols_of_un_cards() -> None:
    """Unhinged's {hw} is half a white mana symbol: white to us, colourless to the data. Not legal either way."""
    assert disagreement("Little Girl") == ("W", "")
    _, verdict = check(deck(["Gisela, the Broken Blade"], ["Little Girl"], "Plains"))
    assert ("deck.problem.not_legal", "Little Girl") in problems(verdict)


@pytest.mark.parametrize(("name", "ours"), [("Nekrataal Avatar", "B"), ("Behold My Grandeur", "UBR")])
def test_class_cards_that_are_no_deck_cards(name: str, ours: str) -> None:
    """Vanguard and scheme cards: the data gives them no identity, their text has mana symbols. They are never
    part of a Commander deck, so the difference changes no verdict."""
    assert disagreement(name) == (ours, "")
    assert CARDS[name].commander_legality == "not_legal"


@pytest.mark.parametrize(
    "name",
    [
        "Rowan Kenrith // Will Kenrith",
        "Brisela, Voice of Nightmares",
        "Chittering Host",
        "Hanweir, the Writhing Township",
    ],
)
def test_classes_now_in_agreement_merged_partners_and_meld_back_faces(name: str) -> None:
    """Merged partner records (we read the front) and meld back faces (their fronts) used to disagree."""
    resolved, _ = check(f"Commander: Talrand, Sky Summoner\n1 {name}\n98 Island")
    ours = "".join(
        sorted(
            {c for dc in resolved.cards[1:2] for c in card_identity(dc.card, CR_903_4).colours()},
            key="WUBRG".index,
        )
    )
    assert ours == CARDS[name].color_identity


def test_each_face_of_a_merged_record_is_its_own_card() -> None:
    """Rowan and Will as the printed cards: each face's own cost, types, text, loyalty and colours; the
    record's colour identity (its front's, "R") only for Rowan; names in other languages split at " // "."""
    from dataclasses import replace

    from bot.domain.rules.records import face_card

    merged = CARDS["Rowan Kenrith // Will Kenrith"]
    rowan, will = face_card(merged, 0), face_card(merged, 1)
    assert (rowan.name, rowan.layout, rowan.mana_cost, rowan.type_line, rowan.loyalty, rowan.colors) == (
        "Rowan Kenrith",
        "normal",
        "{4}{R}{R}",
        "Legendary Planeswalker — Rowan",
        "4",
        "R",
    )
    assert (will.name, will.layout, will.mana_cost, will.type_line, will.loyalty, will.colors) == (
        "Will Kenrith",
        "normal",
        "{4}{U}{U}",
        "Legendary Planeswalker — Will",
        "4",
        "U",
    )
    assert (rowan.oracle_text, will.oracle_text) == (merged.faces[0].oracle_text, merged.faces[1].oracle_text)
    assert will.oracle_text.startswith("+2: Until your next turn, up to two target")
    assert (rowan.power, rowan.toughness, rowan.color_indicator) == (None, None, "")
    assert (rowan.color_identity, will.color_identity) == ("R", "")
    assert rowan.printed_names == {"ja": "ローアン・ケンリス", "zh-Hans": "萝婉肯理斯"}
    assert will.printed_names == {"ja": "ウィル・ケンリス", "zh-Hans": "威尔肯理斯"}
    for face in (rowan, will):
        assert (face.commander_legality, face.legalities, face.printings) == (
            "legal",
            {"commander": "legal"},
            merged.printings,
        )
    # A translation that does not name both faces is no name of either face.
    odd = replace(merged, printed_names={"ja": "ローアン・ケンリス", "zh-Hans": "萝婉肯理斯 // 威尔肯理斯"})
    assert face_card(odd, 1).printed_names == {"zh-Hans": "威尔肯理斯"}


def test_only_a_legendary_card_that_names_itself_is_a_creature_off_the_battlefield() -> None:
    """CR 903.3 needs a legendary creature card: Grist's ability makes a *legendary* card a creature in the
    command zone. The same words on a non-legendary card, or about another card, make no commander; the
    words are read in any case ("this card") and with its reminder text left out."""
    from dataclasses import replace

    grist = CARDS["Grist, the Hunger Tide"]
    assert not creature_off_battlefield(replace(grist, type_line="Planeswalker — Grist"))
    other = grist.oracle_text.replace("As long as Grist, the Hunger Tide isn't", "As long as Gideon isn't")
    assert other != grist.oracle_text and not creature_off_battlefield(replace(grist, oracle_text=other))
    lower = grist.oracle_text.replace("As long as Grist, the Hunger Tide isn't", "as long as this card isn't")
    assert lower != grist.oracle_text and creature_off_battlefield(replace(grist, oracle_text=lower))
    first, rest = grist.oracle_text.split("\n", 1)
    reminder = f"({first})\n{rest}"  # the same words as reminder text are no ability
    assert not creature_off_battlefield(replace(grist, oracle_text=reminder))
