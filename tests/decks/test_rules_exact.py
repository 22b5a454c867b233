"""Exact values of the deck rules' smaller parts, written from mutation testing: the log
record of an identity disagreement, the resolver's lookup paths, and the fast legality screen against
the per-card checks. Each assertion pins a value a planted bug changes."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from bot.domain.rules import facts
from bot.domain.rules.facts import facts_for, report_disagreement

LOGGER = "bot.domain.rules.facts"


def _records(caplog) -> list[tuple[str, int, str]]:
    return [(r.name, r.levelno, r.getMessage()) for r in caplog.records if r.name == LOGGER]


def test_a_disagreement_is_logged_once_with_both_identities(cards, caplog, monkeypatch) -> None:
    """CR 903.4: Sphinx of the Guildpact ("is all colors") is five-colour; the card data says colourless."""
    monkeypatch.setattr(facts, "_reported_disagreements", set())
    sphinx = cards["Sphinx of the Guildpact"]
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert report_disagreement(sphinx, "WUBRG") is True
        assert report_disagreement(sphinx, "WUBRG") is True  # still a disagreement, not logged again
        assert report_disagreement(sphinx, "") is False  # the data's own answer
    assert _records(caplog) == [
        (
            LOGGER,
            logging.WARNING,
            "colour identity of Sphinx of the Guildpact: "
            "computed 'WUBRG' from its text, card data says 'colourless'",
        )
    ]
    assert facts._reported_disagreements == {"Sphinx of the Guildpact"}


def test_a_colourless_computation_against_coloured_data_names_both(cards, caplog, monkeypatch) -> None:
    monkeypatch.setattr(facts, "_reported_disagreements", set())
    ring = replace(cards["Sol Ring"], color_identity="G")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert report_disagreement(ring, "") is True
        assert report_disagreement(cards["Sol Ring"], "") is False
    assert _records(caplog) == [
        (
            LOGGER,
            logging.WARNING,
            "colour identity of Sol Ring: computed 'colourless' from its text, card data says 'G'",
        )
    ]


def test_working_out_the_facts_reports_a_disagreement(cards, caplog, monkeypatch) -> None:
    monkeypatch.setattr(facts, "_reported_disagreements", set())
    monkeypatch.setattr(facts, "_cache", {})
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert facts_for(cards["Sphinx of the Guildpact"]).colours[facts.CR_903_4] == "WUBRG"
        facts_for(cards["Sol Ring"])
    assert [message for _, _, message in _records(caplog)] == [
        "colour identity of Sphinx of the Guildpact: computed 'WUBRG' from its text, card data says 'colourless'"
    ]


# -- CR 702.124: Doctor's companion ---------------------------------------------------------------


def test_a_doctors_companion_beside_a_card_without_subtypes(cards) -> None:
    """CR 702.124: the other must be a legendary Time Lord Doctor creature; a type line without a dash has
    no subtypes at all (Sol Ring), which is simply no Doctor."""
    from bot.domain.rules.commanders import valid_pair
    from tests.decks.test_legality import DOCTOR, YASMIN

    assert valid_pair(YASMIN, cards["Sol Ring"]) is False and valid_pair(cards["Sol Ring"], YASMIN) is False
    assert valid_pair(YASMIN, DOCTOR) is True and valid_pair(DOCTOR, YASMIN) is True
    assert valid_pair(YASMIN, replace(DOCTOR, type_line="Legendary Creature")) is False


# -- the commander option (README: /deck check ... commander:<name>) -----------------------------


def _entries(index, text: str, option: list[str]):
    from bot.domain.decklist import parse_decklist
    from bot.domain.rules import resolve_decklist

    deck = resolve_decklist(parse_decklist(text), index, option)
    return [
        (c.entry.count, c.entry.name, c.entry.section.value, c.entry.line) for c in deck.cards
    ], deck.notes


def test_the_option_names_a_commander_in_another_language(index) -> None:
    """The card decides, not the spelling: 巨大なるカーリア is Kaalia of the Vast, so the list's own
    commander stays where it is (nothing moved, nothing added); and the other way round."""
    text = "Commander\n1 Kaalia of the Vast\nDeck\n1 Sol Ring\n"
    assert _entries(index, text, ["巨大なるカーリア"]) == (
        [(1, "Kaalia of the Vast", "commander", 2), (1, "Sol Ring", "main", 4)],
        (),
    )
    written = "Commander\n1 巨大なるカーリア\nDeck\n1 Sol Ring\n"
    assert _entries(index, written, ["Kaalia of the Vast"]) == (
        [(1, "巨大なるカーリア", "commander", 2), (1, "Sol Ring", "main", 4)],
        (),
    )
    assert _entries(index, "1 Sol Ring\n1 太陽の指輪\n", ["sol ring"]) == (
        [(1, "Sol Ring", "commander", 1), (1, "太陽の指輪", "main", 2)],
        (),
    )


def test_two_copies_of_the_named_commander_leave_one_in_the_main_deck(index) -> None:
    assert _entries(index, "2 Command Tower\n1 Sol Ring", ["Command Tower"])[0] == [
        (1, "Command Tower", "commander", 1),
        (1, "Command Tower", "main", 1),
        (1, "Sol Ring", "main", 2),
    ]


# -- the legality screens against the per-card checks (legality._SCREENS, Ruleset.may_object) --------


def test_may_object_agrees_with_the_per_card_rules_for_each_test_card(cards) -> None:
    """D5/D6 and today's banned list: the screen answers "may object" for a one-card list exactly when
    ``is_banned`` or ``legality_problem`` finds something, under every ruleset; and for a list of clean
    cards plus one objectionable card it still objects (whichever kind that card is)."""
    from bot.domain.rules import RULESETS

    clean = [cards[name] for name in ("Sol Ring", "Kaalia of the Vast", "Mountain")]
    for ruleset in RULESETS.values():
        objected = []
        for card in cards.values():
            vintage = facts_for(card).vintage_problem
            per_card = ruleset.is_banned(card) or ruleset.legality_problem(card, vintage) is not None
            assert ruleset.may_object([card], [vintage]) is per_card, (ruleset.name, card.name)
            assert ruleset.may_object([*clean, card], [None, None, None, vintage]) is per_card
            if per_card:
                objected.append(card.name)
        assert ruleset.may_object(clean, [None] * 3) is False
        assert len(objected) == {"commander": 16, "edh-2010": 13, "duel-zh": 13}[ruleset.name]


def _verdicts(lines: list[tuple[int, str, str]], cards, ruleset: str, monkeypatch) -> tuple[object, object]:
    """The verdict of a deck with the screens and without them (the per-card code alone)."""
    from bot.domain.decklist import DeckLine, Section
    from bot.domain.rules import DeckCard, ResolvedDeck, check_deck, get_ruleset, legality

    def deck() -> ResolvedDeck:
        return ResolvedDeck(
            tuple(
                DeckCard(DeckLine(count, name, Section(section), number), cards.get(name))
                for number, (count, name, section) in enumerate(lines, 1)
            )
        )

    screened = check_deck(deck(), get_ruleset(ruleset))
    with monkeypatch.context() as patched:
        patched.setattr(legality, "_SCREENS", False)
        unscreened = check_deck(deck(), get_ruleset(ruleset))
    assert screened == unscreened
    return screened, unscreened


def _problems(verdict) -> list[tuple[str, str, str | None, str, dict]]:
    return [
        (p.check.value, p.rule, p.card, p.key, p.values) for p in verdict.problems if p.check.value != "size"
    ]


@pytest.mark.parametrize("ruleset", ["commander", "edh-2010"])
def test_one_name_on_two_lines_is_two_copies(cards, ruleset, monkeypatch) -> None:
    """D2 / CR 903.5b: copies of one English name add up across lines (the screen only counts a line
    alone when every name has one line); two basic lands are fine, two Sol Rings are not."""
    lines = [
        (1, "Kaalia of the Vast", "commander"),
        (1, "Sol Ring", "main"),
        (1, "Sol Ring", "main"),
        (2, "Mountain", "main"),
        (1, "Mountain", "main"),
        (2, "Arcane Signet", "main"),
    ]
    verdict, _ = _verdicts(lines, cards, ruleset, monkeypatch)
    rule = "CR 903.5b" if ruleset == "commander" else "D2"
    assert _problems(verdict) == [
        ("singleton", rule, "Sol Ring", "deck.problem.duplicate", {"copies": 2, "limit": 1}),
        ("singleton", rule, "Arcane Signet", "deck.problem.duplicate", {"copies": 2, "limit": 1}),
    ]


def test_a_single_line_of_two_copies_is_caught_by_the_screen(cards, monkeypatch) -> None:
    lines = [(1, "Kaalia of the Vast", "commander"), (2, "Sol Ring", "main"), (7, "Mountain", "main")]
    verdict, _ = _verdicts(lines, cards, "commander", monkeypatch)
    assert _problems(verdict) == [
        ("singleton", "CR 903.5b", "Sol Ring", "deck.problem.duplicate", {"copies": 2, "limit": 1})
    ]


@pytest.mark.parametrize(
    ("ruleset", "card", "want"),
    [
        ("commander", "Black Lotus", ("banned", "BANNED", "Black Lotus", "deck.problem.banned", {})),
        (
            "commander",
            '"Ach! Hans, Run!"',
            (
                "legality",
                "LEGALITY",
                '"Ach! Hans, Run!"',
                "deck.problem.not_legal",
                {"reason": "not_legal_commander"},
            ),
        ),
        ("edh-2010", "Protean Hulk", ("banned", "D5", "Protean Hulk", "deck.problem.banned", {})),
        (
            "edh-2010",
            "Contract from Below",
            ("legality", "D6", "Contract from Below", "deck.problem.not_legal", {"reason": "ante"}),
        ),
        (
            "duel-zh",
            "Chaos Orb",
            ("legality", "D6", "Chaos Orb", "deck.problem.not_legal", {"reason": "vintage_banned"}),
        ),
    ],
)
def test_one_objectionable_card_among_clean_ones(cards, ruleset, card, want, monkeypatch) -> None:
    """D5 / D6 / the banned list: one card among legal ones is found by the screen and by the per-card
    code alike (only that card)."""
    lines = [
        (1, "Kaalia of the Vast", "commander"),
        (1, "Sol Ring", "main"),
        (1, card, "main"),
        (1, "Mountain", "main"),
    ]
    verdict, _ = _verdicts(lines, cards, ruleset, monkeypatch)
    assert [p for p in _problems(verdict) if p[0] not in ("identity", "land_type")] == [want]


def test_identity_equal_to_the_commanders_is_fine_and_one_colour_more_is_not(cards, monkeypatch) -> None:
    """CR 903.5c: a card of exactly the commander's colours (Kaalia: RWB) passes the screen; a blue card
    does not."""
    lines = [(1, "Kaalia of the Vast", "commander"), (1, "Kaalia of the Vast", "main")]
    verdict, _ = _verdicts(lines, cards, "commander", monkeypatch)
    assert verdict.colour_identity == "WBR" and _problems(verdict) == [
        ("singleton", "CR 903.5b", "Kaalia of the Vast", "deck.problem.duplicate", {"copies": 2, "limit": 1})
    ]
    lines = [(1, "Kaalia of the Vast", "commander"), (1, "Counterspell", "main"), (1, "Sol Ring", "main")]
    verdict, _ = _verdicts(lines, cards, "commander", monkeypatch)
    assert _problems(verdict) == [
        (
            "identity",
            "CR 903.5c",
            "Counterspell",
            "deck.problem.colour_identity",
            {"colours": "U", "identity": "WBR"},
        )
    ]


# -- the resolver after the suggestion budget is spent ----------------------------------------------


def test_after_the_budget_only_unknown_names_count_as_unsuggested(index) -> None:
    """With "did you mean" spent (SuggestionBudget), a printed name (太陽の指輪), a name in another case
        (sol ring) and an ambiguous name (狂热裂片妖, two cards) still resolve as before and are not counted
        as unknown names left without suggestions, nor do they spend the budget before it runs out (the first
    typo still gets its "did you mean"); only the real unknown ones count."""
    from bot.domain.decklist import parse_decklist
    from bot.domain.rules import resolve_decklist
    from bot.domain.rules.deck import SuggestionBudget

    text = (
        "1 太陽の指輪\n1 lightning bolt\n1 狂热裂片妖\n1 Sol Rign 1\n1 Sol Rign 2\n1 Sol Rign 3\n1 太陽の指輪\n"
        "1 lightning bolt\n1 狂热裂片妖\n1 Sol Rign 4\n1 SOL RING"
    )
    deck = resolve_decklist(parse_decklist(text), index, budget=SuggestionBudget(names=1))
    known = [
        ("太陽の指輪", "Sol Ring", (), ()),
        ("lightning bolt", "Lightning Bolt", (), ()),
        ("狂热裂片妖", None, ("Frenetic Sliver",), ("Frenetic Sliver", "Frenzy Sliver")),
    ]
    assert deck.unsuggested == 3
    assert [
        (c.entry.name, c.card.name if c.card else None, c.suggestions[:1], c.ambiguous) for c in deck.cards
    ] == [
        *known,
        ("Sol Rign 1", None, ("Sol Ring",), ()),
        ("Sol Rign 2", None, (), ()),
        ("Sol Rign 3", None, (), ()),
        *known,
        ("Sol Rign 4", None, (), ()),
        ("SOL RING", "Sol Ring", (), ()),
    ]


# -- CR 903.3 as ruled for Grist: a creature off the battlefield ---------------------------------------


@pytest.mark.parametrize(
    ("subject", "creature"),
    [
        ("Grist, the Hunger Tide", True),
        ("this card", True),
        ("This card", True),
        ("this Grist", False),
        ("Grist", False),
    ],
)
def test_the_subject_of_a_creature_off_the_battlefield_is_the_card_itself(subject, creature) -> None:
    """Only the card's full name or "this card" (in either case) name the card itself."""
    from bot.domain.rules.commanders import creature_off_battlefield
    from tests.decks.test_rules_corners import CARDS

    grist = CARDS["Grist, the Hunger Tide"]
    text = grist.oracle_text.replace("As long as Grist, the Hunger Tide isn't", f"As long as {subject} isn't")
    assert creature_off_battlefield(replace(grist, oracle_text=text)) is creature
    assert (
        creature_off_battlefield(replace(grist, oracle_text=text, type_line="Planeswalker — Grist")) is False
    )


# -- a resolver with ``resolve`` only (deck.CardResolver: no exact lookup, no ``get``) --------------------


class _ResolveOnly:
    """The smallest resolver the deck code accepts (the ``CardResolver`` protocol): the real card index
    behind its one required method, so the exact-name fast path and ``get`` are not there to use."""

    def __init__(self, cards) -> None:
        self.cards = cards

    def resolve(self, name: str):
        return self.cards.resolve(name)


def test_a_resolver_with_resolve_only_gives_the_same_deck() -> None:
    """Exact English names, a merged "Partner with" record, a meld back face (its fronts looked up through
    ``resolve``), a printed name and a typo: the same resolved deck as through the card index itself."""
    from bot.domain.decklist import parse_decklist
    from bot.domain.rules import resolve_decklist
    from tests.decks.test_rules_corners import INDEX

    text = (
        "Commander\n1 Rowan Kenrith // Will Kenrith\nDeck\n1 Brisela, Voice of Nightmares\n1 Counterspell\n"
        "1 ローアン・ケンリス\n1 Counterspel\n95 Island"
    )
    via_resolve = resolve_decklist(parse_decklist(text), _ResolveOnly(INDEX))  # first: records are cached
    via_index = resolve_decklist(parse_decklist(text), INDEX)
    assert via_resolve == via_index
    assert [c.card.name if c.card else None for c in via_resolve.cards] == [
        "Rowan Kenrith",
        "Will Kenrith",
        "Brisela, Voice of Nightmares",
        "Counterspell",
        "Rowan Kenrith",
        None,
        "Island",
    ]
    brisela = via_resolve.cards[2].card
    assert [face.name for face in brisela.faces][1:] == [
        "Gisela, the Broken Blade",
        "Bruna, the Fading Light",
    ]
    assert via_resolve.cards[5].suggestions[0] == "Counterspell"


# -- merged "Partner with" records and CR 702.124j pairs ------------------------------------------------


def _merged_creatures():
    """Pir and Toothy (Battlebond "Partner with" creatures) stored as one two-faced record, the way the
    bundled data stores Rowan and Will; Toothy's face has the blue colour indicator of its record."""
    from bot.cards.model import Card

    def face(name: str, cost: str, partner: str, power: str, toughness: str, indicator: list[str]) -> dict:
        return {
            "name": name,
            "mana_cost": cost,
            "type_line": "Legendary Creature — Human",
            "oracle_text": f"Partner with {partner} (When this creature enters, target player may put "
            f"{partner} into their hand from their library, then shuffle.)",
            "power": power,
            "toughness": toughness,
            "colors": [],
            "color_indicator": indicator,
        }

    return Card.from_scryfall(
        {
            "name": "Pir, Imaginative Rascal // Toothy, Imaginary Friend",
            "layout": "normal",
            "color_identity": ["G"],
            "legalities": {"commander": "legal"},
            "card_faces": [
                face("Pir, Imaginative Rascal", "{2}{G}", "Toothy, Imaginary Friend", "1", "1", []),
                face("Toothy, Imaginary Friend", "{3}{U}", "Pir, Imaginative Rascal", "1", "2", ["U"]),
            ],
        }
    )


def test_each_face_of_a_merged_record_keeps_its_own_characteristics() -> None:
    from bot.domain.rules.records import face_card, is_merged_partners, partner_with, rules_records

    merged = _merged_creatures()
    assert is_merged_partners(merged)
    pir, toothy = face_card(merged, 0), face_card(merged, 1)
    assert [
        (c.name, c.layout, c.power, c.toughness, c.color_indicator, c.color_identity) for c in (pir, toothy)
    ] == [
        ("Pir, Imaginative Rascal", "normal", "1", "1", "", "G"),
        ("Toothy, Imaginary Friend", "normal", "1", "2", "U", ""),
    ]
    assert rules_records(merged, "Toothy, Imaginary Friend", lambda name: None) == (toothy,)
    assert rules_records(merged, "pir, imaginative rascal", lambda name: None) == (pir,)
    assert rules_records(merged, merged.name, lambda name: None) == (pir, toothy)
    assert partner_with(merged.faces[1]) == "Pir, Imaginative Rascal"
    assert partner_with(toothy.front) == "Pir, Imaginative Rascal"


def test_a_face_without_partner_with_names_nobody(cards) -> None:
    from bot.domain.rules.records import partner_with

    assert partner_with(cards["Sol Ring"].front) is None
    assert partner_with(cards["Thrasios, Triton Hero"].front) is None  # plain Partner names no one


def test_partner_with_needs_each_other_both_ways(cards) -> None:
    """CR 702.124j: two "Partner with" cards lead together only when each names the other; one that names
    the other beside a card that names nobody (or only has plain Partner) is no pair."""
    from bot.domain.rules.commanders import valid_pair
    from bot.domain.rules.records import face_card

    merged = _merged_creatures()
    pir, toothy = face_card(merged, 0), face_card(merged, 1)
    assert valid_pair(pir, toothy) is True
    plain = replace(toothy, oracle_text="Flying")
    assert valid_pair(pir, plain) is False and valid_pair(plain, pir) is False
    thrasios = cards["Thrasios, Triton Hero"]
    assert valid_pair(pir, thrasios) is False and valid_pair(thrasios, pir) is False
    assert valid_pair(thrasios, cards["Tymna the Weaver"]) is True


def test_a_meld_record_that_has_faces_is_read_as_it_is() -> None:
    """Meld back faces are widened with their fronts only when the record has no faces of its own."""
    from bot.domain.rules.records import meld_fronts
    from tests.decks.test_rules_corners import CARDS, INDEX

    brisela = CARDS["Brisela, Voice of Nightmares"]
    assert [c.name for c in meld_fronts(brisela, INDEX.get)] == [
        "Gisela, the Broken Blade",
        "Bruna, the Fading Light",
    ]
    with_faces = replace(brisela, faces=(CARDS["Sol Ring"].front,))
    assert meld_fronts(with_faces, INDEX.get) == ()
    assert meld_fronts(replace(brisela, meld_parts=()), INDEX.get) == ()
    assert meld_fronts(CARDS["Gisela, the Broken Blade"], INDEX.get) == ()


# -- problem values (a verdict's problems are what the front ends word) --------------------------------


def test_unreadable_lines_unknown_and_ambiguous_names_each_with_their_values(check) -> None:
    """Two unreadable lines are two problems; an unknown name on two lines is one problem (the first
    line); an ambiguous name names its line and its candidates."""
    verdict = check(
        "Commander\n1 Kaalia of the Vast\nDeck\n0 Island\n0 Mountain\n1 Sol Rign\n1 Sol Rign\n"
        "1 狂热裂片妖\n95 Mountain"
    )
    assert verdict.status == "unverifiable"
    assert [
        (p.check.value, p.rule, p.card, p.key, {k: v for k, v in p.values.items() if k != "suggestions"})
        for p in verdict.problems
        if p.check.value in ("parse", "unknown")
    ] == [
        (
            "parse",
            "PARSE",
            None,
            "deck.problem.parse",
            {"line": 4, "text": "0 Island", "reason": "zero_count"},
        ),
        (
            "parse",
            "PARSE",
            None,
            "deck.problem.parse",
            {"line": 5, "text": "0 Mountain", "reason": "zero_count"},
        ),
        ("unknown", "UNKNOWN", "Sol Rign", "deck.problem.unknown", {"line": 6}),
        (
            "unknown",
            "UNKNOWN",
            "狂热裂片妖",
            "deck.problem.ambiguous",
            {"line": 8, "candidates": ("Frenetic Sliver", "Frenzy Sliver")},
        ),
    ]


def test_colours_outside_the_identity_are_listed_together(check) -> None:
    """CR 903.5c: Thrasios (green and blue) under Kaalia (white, black, red): both colours, in WUBRG order."""
    verdict = check("Commander\n1 Kaalia of the Vast\nDeck\n1 Thrasios, Triton Hero\n98 Mountain")
    assert [(p.card, p.values) for p in verdict.problems] == [
        ("Thrasios, Triton Hero", {"colours": "UG", "identity": "WBR"})
    ]


def test_a_background_beside_its_commander_leads_only_where_two_may_lead() -> None:
    """CR 903.3 / 702.124: a Background is a commander beside a "Choose a Background" creature today; under
    D3 (edh-2010, one commander) it is not a legendary creature and may not lead."""
    from tests.decks.test_legality import SAGE, WILSON, _pair_verdict

    today = [(p.check.value, p.card) for p in _pair_verdict(WILSON, SAGE).problems]
    assert today == [("size", None)]
    old = [
        (p.check.value, p.card, p.values)
        for p in _pair_verdict(WILSON, SAGE, "edh-2010").problems
        if p.check.value == "commander"
    ]
    assert old == [
        ("commander", None, {"count": 2, "limit": 1}),
        ("commander", "Candlekeep Sage", {"reason": "not_creature"}),
    ]


def test_a_card_of_the_same_name_but_other_text_gets_its_own_facts(cards) -> None:
    """Facts are kept per card object: a different record of the same name is worked out again."""
    from bot.domain.rules.facts import CR_903_4, facts_of

    ring = cards["Sol Ring"]
    blue = replace(ring, mana_cost="{U}", oracle_text="{T}: Add {U}{U}.")
    assert [f.colours[CR_903_4] for f in facts_of([ring])] == [""]
    assert [f.colours[CR_903_4] for f in facts_of([blue, ring])] == ["U", ""]
    assert facts_of([blue])[0].card is blue


def test_an_unknown_ruleset_names_itself() -> None:
    from bot.domain.rules.rulesets import UnknownRuleset, get_ruleset

    with pytest.raises(UnknownRuleset) as caught:
        get_ruleset("edh-2099")
    assert caught.value.name == "edh-2099" and caught.value.args == ("edh-2099",)


def test_an_unresolved_entry_is_never_checked_as_a_card() -> None:
    from bot.domain.decklist import DeckLine, Section
    from bot.domain.rules import DeckCard, legality

    with pytest.raises(ValueError, match=r"^'Sol Rign' has no card: only resolved entries are checked$"):
        legality._card(DeckCard(DeckLine(1, "Sol Rign", Section.MAIN, 1), None))


def test_seven_dwarves_on_two_lines_are_fine_and_eight_are_not(check) -> None:
    """D2 / CR 903.5b and the card's own text (CR 101.1): up to seven Seven Dwarves, counted across lines."""
    seven = check("Commander\n1 Kaalia of the Vast\nDeck\n4 Seven Dwarves\n3 Seven Dwarves\n92 Mountain")
    assert [p.key for p in seven.problems] == []
    eight = check("Commander\n1 Kaalia of the Vast\nDeck\n4 Seven Dwarves\n4 Seven Dwarves\n91 Mountain")
    assert [(p.card, p.values) for p in eight.problems] == [("Seven Dwarves", {"copies": 8, "limit": 7})]
