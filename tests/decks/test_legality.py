"""Deck legality under the three rulesets: the seeds' worked examples (D3, D4, D4a–e), commanders and
partners (CR 903.3, 702.124), size (D1), singleton (D2), bans (D5, Commander list), Vintage (D6),
sideboards (D7) and unknown cards."""

from __future__ import annotations

import pytest

from bot.domain.rules import Check
from bot.domain.rules.facts import copy_limit

from .helpers import deck_text

PHELDDAGRIF_ILLEGAL = [
    "Goblin Piker",
    "Elves of Deep Shadow",
    "Talisman of Dominance",
    "Life // Death",
    "Degavolver",
    "Underground River",
    "Godless Shrine",
    "Badlands",
    "Madblind Mountain",
    "Boros Guildmage",
]
PHELDDAGRIF_LEGAL = ["Esper Panorama", "Shard Convergence"]
ALL_RULESETS = ["commander", "edh-2010", "duel-zh"]


def problems(verdict, check: Check | None = None) -> list[tuple[str, str | None]]:
    return [(p.rule, p.card) for p in verdict.problems if check is None or p.check is check]


# -- D4e: the worked examples ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_d4e_phelddagrif_legal_cards(check, ruleset) -> None:
    verdict = check(deck_text("Phelddagrif", PHELDDAGRIF_LEGAL), ruleset)
    assert verdict.legal, problems(verdict)
    assert verdict.colour_identity == "WUG"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
@pytest.mark.parametrize("card", PHELDDAGRIF_ILLEGAL)
def test_d4e_phelddagrif_illegal_cards(check, ruleset, card) -> None:
    verdict = check(deck_text("Phelddagrif", [card]), ruleset)
    assert not verdict.legal
    found = [(p.check, p.card) for p in verdict.problems]
    assert found in ([(Check.IDENTITY, card)], [(Check.LAND_TYPE, card)])


def test_d4d_land_type_cites_its_own_rule(check) -> None:
    """Godless Shrine is outside Phelddagrif only by its Swamp type: D4d / CR 903.5d."""
    for ruleset, rule in (("edh-2010", "D4d"), ("commander", "CR 903.5d"), ("duel-zh", "D4d")):
        verdict = check(deck_text("Phelddagrif", ["Godless Shrine"]), ruleset)
        assert problems(verdict) == [(rule, "Godless Shrine")]
    verdict = check(deck_text("Phelddagrif", ["Goblin Piker"]), "edh-2010")
    assert problems(verdict) == [("D4", "Goblin Piker")]
    assert verdict.problems[0].values["colours"] == "R"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_d4_thelon_allows_black(check, ruleset) -> None:
    verdict = check(deck_text("Thelon of Havenwood", ["Elves of Deep Shadow", "Duress"]), ruleset)
    assert verdict.legal, problems(verdict)
    assert verdict.colour_identity == "BG"


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_d4a_oona_allows_blue_and_black(check, ruleset) -> None:
    verdict = check(
        deck_text(
            "Oona, Queen of the Fae", ["Dimir Guildmage", "Underground River", "Duress"], basics="Island"
        ),
        ruleset,
    )
    assert verdict.legal, problems(verdict)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_child_of_alara_allows_every_colour(check, ruleset) -> None:
    cards = [
        "Goblin Piker",
        "Elves of Deep Shadow",
        "Life // Death",
        "Degavolver",
        "Badlands",
        "Godless Shrine",
    ]
    verdict = check(deck_text("Child of Alara", cards), ruleset)
    assert verdict.legal, problems(verdict)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_d4b_trinisphere_fits_any_commander(check, ruleset) -> None:
    verdict = check(
        deck_text(
            "Crovax, Ascendant Hero", ["Trinisphere", "Wrath of God", "Scepter of Dominance"], basics="Plains"
        ),
        ruleset,
    )
    assert verdict.legal, problems(verdict)


def test_seed_000_crovax_examples(check) -> None:
    """000 §2.2: under Crovax (white) Duress, Figure of Destiny ({R/W}) and Obelisk of Bant are illegal."""
    verdict = check(
        deck_text(
            "Crovax, Ascendant Hero", ["Duress", "Figure of Destiny", "Obelisk of Bant"], basics="Plains"
        ),
        "duel-zh",
    )
    assert problems(verdict) == [("D4", "Duress"), ("D4", "Figure of Destiny"), ("D4", "Obelisk of Bant")]


def test_identity_message_names_colours_and_sources(check) -> None:
    from bot.render.deck import problem_message

    verdict = check(deck_text("Phelddagrif", ["Elves of Deep Shadow"]), "commander")
    assert problem_message(verdict.problems[0], "en") == (
        "Elves of Deep Shadow is outside the colour identity white/blue/green: black in the rules text."
    )
    verdict = check(
        deck_text("Oona, Queen of the Fae", ["Civilized Scholar // Homicidal Brute"]), "commander"
    )
    assert "red colour indicator (on Homicidal Brute)" in problem_message(verdict.problems[0], "en")
    assert "赤の色指標" in problem_message(verdict.problems[0], "ja")


def test_back_face_indicator_only_matters_today(check) -> None:
    text = deck_text("Oona, Queen of the Fae", ["Civilized Scholar // Homicidal Brute"], basics="Island")
    assert problems(check(text, "commander")) == [("CR 903.5c", "Civilized Scholar // Homicidal Brute")]
    assert check(text, "edh-2010").legal


# -- D3 / CR 903.3: commanders -----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
@pytest.mark.parametrize(
    ("commander", "reason"),
    [
        ("Jace, the Mind Sculptor", None),
        ("Dark Depths", "not_creature"),
        ("Bushi Tenderfoot // Kenzo the Hardhearted", "flip_card"),
        ("Serra Angel", "not_legendary"),
        ("Sol Ring", "not_legendary_creature"),
        ("Westvale Abbey // Ormendahl, Profane Prince", "back_face"),
    ],
)
def test_d3_ineligible_commanders(check, ruleset, commander, reason) -> None:
    verdict = check(deck_text(commander, []), ruleset)
    found = [(p.rule, p.values.get("reason")) for p in verdict.problems if p.check is Check.COMMANDER]
    expected_rule = "CR 903.3" if ruleset == "commander" else "D3"
    expected_reason = reason or ("planeswalker_text" if ruleset == "commander" else "planeswalker")
    assert found == [(expected_rule, expected_reason)]


def test_d3_flip_card_named_by_its_chinese_name(check) -> None:
    verdict = check("Commander: 生手武士\n99 Plains", "duel-zh")
    assert [p.values.get("reason") for p in verdict.problems] == ["flip_card"]


def test_can_be_your_commander_only_today(check) -> None:
    text = deck_text("Daretti, Scrap Savant", [], basics="Mountain")
    assert check(text, "commander").legal
    assert [p.values["reason"] for p in check(text, "edh-2010").problems] == ["planeswalker"]


def test_legendary_creature_front_face_is_eligible(check) -> None:
    assert check(deck_text("Kytheon, Hero of Akros // Gideon, Battle-Forged", [], basics="Plains")).legal


def test_missing_commander_is_asked_for(check) -> None:
    verdict = check("99 Forest\n1 Llanowar Elves")
    assert [(p.check, p.key) for p in verdict.problems] == [
        (Check.COMMANDER, "deck.problem.commander_missing")
    ]


def test_commander_option_takes_the_card_out_of_the_main_deck(check) -> None:
    verdict = check("1 Phelddagrif\n99 Forest", commanders=("phelddagrif",))
    assert verdict.legal and verdict.commanders == ("Phelddagrif",) and verdict.card_count == 100


# -- CR 702.124: pairs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "legal"),
    [
        ("Okaun, Eye of Chaos", "Zndrsplt, Eye of Wisdom", True),  # Partner with each other
        ("Thrasios, Triton Hero", "Tymna the Weaver", True),  # Partner
        ("Dustin, Gadget Genius", "Will the Wise", True),  # Friends forever
        ("Okaun, Eye of Chaos", "Thrasios, Triton Hero", False),  # Partner with someone else
        ("Thrasios, Triton Hero", "Dustin, Gadget Genius", False),  # Partner + Friends forever
        ("Phelddagrif", "Thrasios, Triton Hero", False),  # no partner ability
    ],
)
def test_partner_pairs(check, first, second, legal) -> None:
    text = f"Commander: {first}\nCommander: {second}\n98 Wastes"
    pair = [p for p in check(text).problems if p.check is Check.PARTNER]
    assert (not pair) is legal
    if pair:
        assert pair[0].rule == "CR 702.124"


def test_partners_combine_colour_identity(check) -> None:
    verdict = check(
        "Commander: Thrasios, Triton Hero\nCommander: Tymna the Weaver\n1 Goblin Piker\n97 Island"
    )
    assert verdict.colour_identity == "WUBG"
    assert problems(verdict) == [("CR 903.5c", "Goblin Piker")]


def test_one_commander_only_in_2010_rules(check) -> None:
    verdict = check("Commander: Thrasios, Triton Hero\nCommander: Tymna the Weaver\n98 Island", "edh-2010")
    assert [(p.rule, p.key) for p in verdict.problems] == [("D3", "deck.problem.too_many_commanders")]


# -- D1 size, D2 singleton ------------------------------------------------------------------------------


@pytest.mark.parametrize(("basics", "count"), [(98, 99), (100, 101)])
def test_d1_exactly_100_cards(check, basics, count) -> None:
    verdict = check(f"Commander: Progenitus\n{basics} Forest", "edh-2010")
    assert [(p.rule, p.values["count"], p.values["main"]) for p in verdict.problems] == [
        ("D1", count, basics)
    ]
    assert verdict.card_count == count


def test_d2_singleton_except_basics(check) -> None:
    verdict = check("Commander: Progenitus\n2 Sol Ring\n2 Snow-Covered Forest\n95 Wastes", "edh-2010")
    assert [(p.rule, p.card, p.values["copies"]) for p in verdict.problems] == [("D2", "Sol Ring", 2)]


def test_singleton_exceptions_written_on_cards(check, cards) -> None:
    assert copy_limit(cards["Relentless Rats"]) > 99
    assert copy_limit(cards["Shadowborn Apostle"]) > 99
    assert copy_limit(cards["Seven Dwarves"]) == 7
    assert copy_limit(cards["Wastes"]) > 99
    assert copy_limit(cards["Sol Ring"]) == 1
    assert check("Commander: Progenitus\n30 Relentless Rats\n7 Seven Dwarves\n62 Forest").legal
    verdict = check("Commander: Progenitus\n8 Seven Dwarves\n91 Forest")
    assert [(p.rule, p.values["limit"]) for p in verdict.problems] == [("CR 903.5b", 7)]


# -- D5 / banned lists, D6 Vintage ---------------------------------------------------------------------


def test_bans_differ_by_ruleset(check) -> None:
    """Griselbrand is banned today, not in 2010; Metalworker the other way round; Shahrazad: D6 allows it."""
    text = deck_text("Progenitus", ["Griselbrand", "Metalworker", "Shahrazad", "Kokusho, the Evening Star"])
    assert problems(check(text, "commander")) == [("BANNED", "Griselbrand"), ("BANNED", "Shahrazad")]
    assert problems(check(text, "edh-2010")) == [("D5", "Metalworker"), ("D5", "Kokusho, the Evening Star")]
    assert problems(check(text, "duel-zh")) == problems(check(text, "edh-2010"))


@pytest.mark.parametrize("commander", ["Braids, Cabal Minion", "Rofellos, Llanowar Emissary"])
def test_d5_banned_as_commander_only(check, commander) -> None:
    basics = "Swamp" if commander.startswith("Braids") else "Forest"
    as_commander = check(deck_text(commander, [], basics=basics), "edh-2010")
    assert [(p.check, p.card) for p in as_commander.problems] == [(Check.BANNED_COMMANDER, commander)]
    in_deck = check(deck_text("Progenitus", [commander]), "edh-2010")
    assert in_deck.legal


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ('"Ach! Hans, Run!"', "not_real_card"),
        ("Backup Plan", "conspiracy"),
        ("Contract from Below", "ante"),
        ("Chaos Orb", "vintage_banned"),
        ("Invoke Prejudice", "vintage_banned"),
    ],
)
def test_d6_vintage_legality(check, card, reason) -> None:
    verdict = check(deck_text("Progenitus", [card]), "edh-2010")
    assert [(p.rule, p.card, p.values["reason"]) for p in verdict.problems] == [("D6", card, reason)]


def test_un_cards_are_not_legal_today(check) -> None:
    verdict = check(deck_text("Progenitus", ['"Ach! Hans, Run!"']), "commander")
    assert [(p.rule, p.values["reason"]) for p in verdict.problems] == [("LEGALITY", "not_legal_commander")]


def test_banned_commander_today(check) -> None:
    verdict = check(deck_text("Golos, Tireless Pilgrim", [], basics="Wastes"), "commander")
    assert problems(verdict) == [("BANNED", "Golos, Tireless Pilgrim")]


# -- D7 sideboard -------------------------------------------------------------------------------------

SIDEBOARD_CARDS = [
    "Sol Ring",
    "Lightning Bolt",
    "Counterspell",
    "Llanowar Elves",
    "Duress",
    "Wrath of God",
    "Trinisphere",
    "Birthing Pod",
    "Evolving Wilds",
    "Terramorphic Expanse",
    "Dimir Guildmage",
]


@pytest.mark.parametrize("ruleset", ["edh-2010", "duel-zh"])
@pytest.mark.parametrize(("size", "legal"), [(0, True), (10, True), (1, False), (9, False), (11, False)])
def test_d7_sideboard_none_or_ten(check, ruleset, size, legal) -> None:
    verdict = check(deck_text("Child of Alara", [], sideboard=SIDEBOARD_CARDS[:size]), ruleset)
    assert verdict.legal is legal
    if not legal:
        assert [(p.rule, p.values["count"]) for p in verdict.problems] == [("D7", size)]


def test_d7_singleton_covers_the_sideboard(check) -> None:
    text = deck_text("Child of Alara", ["Sol Ring"], sideboard=["Sol Ring", *SIDEBOARD_CARDS[1:10]])
    assert problems(check(text, "edh-2010")) == [("D2", "Sol Ring")]


def test_sideboard_is_noted_not_checked_today(check) -> None:
    verdict = check(deck_text("Child of Alara", [], sideboard=["Black Lotus"]), "commander")
    assert verdict.legal
    assert [(n.key, n.values) for n in verdict.notes] == [("sideboard_ignored", {"count": 1})]


# -- unknown cards -----------------------------------------------------------------------------------


def test_unknown_card_makes_the_deck_unverifiable_with_suggestions(check) -> None:
    verdict = check(deck_text("Phelddagrif", ["Esper Panoramma"]))
    assert not verdict.legal and verdict.status == "unverifiable"
    [problem] = verdict.problems
    assert (problem.rule, problem.card, problem.values["line"]) == ("UNKNOWN", "Esper Panoramma", 2)
    assert problem.values["suggestions"][0] == "Esper Panorama"


def test_unknown_commander_skips_identity_but_stays_unverifiable(check) -> None:
    verdict = check(deck_text("Phelddagriff", ["Goblin Piker"]))
    assert verdict.status == "unverifiable"
    assert [p.check for p in verdict.problems] == [Check.UNKNOWN]


def test_malformed_line_makes_the_deck_unverifiable(check) -> None:
    verdict = check(deck_text("Phelddagrif", ["Esper Panorama"]) + "\n0 Shard Convergence")
    assert verdict.status == "unverifiable"
    assert [(p.rule, p.values["line"], p.values["reason"]) for p in verdict.problems] == [
        ("PARSE", 4, "zero_count")
    ]


def test_cjk_names_resolve(check) -> None:
    text = "Commander: 仙儿女王欧娜\n1 底密尔公会法师\n1 逼从\n97 Island"
    verdict = check(text, "edh-2010")
    assert verdict.legal, problems(verdict)
    assert verdict.commanders == ("Oona, Queen of the Fae",)


def test_ambiguous_printed_name_is_unverifiable_with_candidates(check) -> None:
    """Two cards share the Simplified Chinese name 狂热裂片妖: never guess, ask for the English name."""
    verdict = check(deck_text("Progenitus", ["狂热裂片妖"]))
    assert verdict.status == "unverifiable"
    [problem] = verdict.problems
    assert (problem.rule, problem.key) == ("UNKNOWN", "deck.problem.ambiguous")
    assert problem.values["candidates"] == ("Frenetic Sliver", "Frenzy Sliver")


# Backgrounds (2022-06) and Doctors (2023) are newer than the bundled card data, so these records are
# transcribed from the printed cards (Scryfall field names) to test CR 702.124's other pairings.
def _card(name: str, type_line: str, cost: str, text: str):
    from bot.cards.model import Card

    return Card.from_scryfall(
        {
            "name": name,
            "type_line": type_line,
            "mana_cost": cost,
            "oracle_text": text,
            "color_identity": [c for c in "WUBRG" if "{" + c + "}" in cost],
            "legalities": {"commander": "legal"},
        }
    )


WILSON = _card(
    "Wilson, Refined Grizzly",
    "Legendary Creature — Bear Warrior",
    "{1}{G}",
    "Reach, trample, ward {2}\nChoose a Background (You can have a Background as a second commander.)",
)
SAGE = _card(
    "Candlekeep Sage",
    "Legendary Enchantment — Background",
    "{3}{U}",
    'Commander creatures you own have "Whenever this creature deals combat damage to a player, draw a card."',
)
DOCTOR = _card(
    "The Thirteenth Doctor",
    "Legendary Creature — Time Lord Doctor",
    "{1}{G}{W}{U}",
    "Whenever you cast a spell from anywhere other than your hand, put a +1/+1 counter on target creature.",
)
YASMIN = _card(
    "Yasmin Khan",
    "Legendary Creature — Human",
    "{3}{R}",
    "{T}: Exile the top card of your library. Until your next end step, you may play it.\n"
    "Doctor's companion (You can have two commanders if the other is the Doctor.)",
)


def _pair_verdict(first, second, ruleset: str = "commander"):
    from bot.domain.decklist import DeckLine, Section
    from bot.domain.rules import DeckCard, ResolvedDeck, check_deck, get_ruleset

    cards = (
        DeckCard(DeckLine(1, first.name, Section.COMMANDER, 1), first),
        DeckCard(DeckLine(1, second.name, Section.COMMANDER, 2), second),
    )
    return check_deck(ResolvedDeck(cards), get_ruleset(ruleset))


def test_choose_a_background_with_a_background() -> None:
    verdict = _pair_verdict(WILSON, SAGE)
    assert [p.check for p in verdict.problems] == [Check.SIZE]  # only the 2-card deck size
    assert verdict.colour_identity == "UG"


def test_a_background_cannot_lead_alone_or_beside_a_partner(cards) -> None:
    alone = _pair_verdict(SAGE, cards["Thrasios, Triton Hero"])
    assert [(p.check, p.values.get("reason")) for p in alone.problems if p.check is not Check.SIZE] == [
        (Check.COMMANDER, "background_alone"),
        (Check.PARTNER, None),
    ]


def test_doctors_companion_with_a_doctor(cards) -> None:
    assert [p.check for p in _pair_verdict(YASMIN, DOCTOR).problems] == [Check.SIZE]
    assert Check.PARTNER in [p.check for p in _pair_verdict(YASMIN, cards["Thrasios, Triton Hero"]).problems]


def test_nazgul_limit_of_nine() -> None:
    """Nazgûl (2023, transcribed): "A deck can have up to nine cards named Nazgûl." """
    from bot.domain.rules.facts import copy_limit

    nazgul = _card(
        "Nazgûl",
        "Creature — Wraith Knight",
        "{2}{B}",
        "Deathtouch\nWhen Nazgûl enters the battlefield, the Ring tempts you.\n"
        "Whenever the Ring tempts you, put a +1/+1 counter on each Wraith you control.\n"
        "A deck can have up to nine cards named Nazgûl.",
    )
    assert copy_limit(nazgul) == 9


@pytest.mark.parametrize(
    ("written", "limit"),
    [
        ("two", 2),
        ("three", 3),
        ("four", 4),
        ("five", 5),
        ("six", 6),
        ("seven", 7),
        ("eight", 8),
        ("nine", 9),
        ("ten", 10),
        ("Seven", 7),
        ("12", 12),
        ("twenty", 1),
    ],
)
def test_a_copy_limit_written_on_the_card_in_words_or_digits(written: str, limit: int) -> None:
    """ "A deck can have up to N cards named ...": N in words (any case) or digits; a number the rules code
    cannot read (no printed card has one) falls back to the singleton rule rather than allowing any number."""
    from bot.domain.rules.facts import copy_limit

    card = _card(
        "Test Knight",
        "Creature — Knight",
        "{1}{W}",
        f"A deck can have up to {written} cards named Test Knight.",
    )
    assert copy_limit(card) == limit


def test_a_copy_limit_on_the_front_face_of_a_card_with_faces() -> None:
    """A double-faced card's record keeps its text on the faces only: the front face's text counts."""
    from bot.cards.model import Card
    from bot.domain.rules.facts import copy_limit

    face = {
        "name": "Test Knight",
        "type_line": "Creature — Knight",
        "mana_cost": "{1}{W}",
        "oracle_text": "A deck can have up to four cards named Test Knight.",
    }
    back = {"name": "Test Knight Risen", "type_line": "Creature — Knight", "mana_cost": "", "oracle_text": ""}
    card = Card.from_scryfall(
        {
            "name": "Test Knight // Test Knight Risen",
            "layout": "transform",
            "type_line": "Creature — Knight // Creature — Knight",
            "card_faces": [face, back],
            "color_identity": ["W"],
            "legalities": {"commander": "legal"},
        }
    )
    assert card.oracle_text == "" and copy_limit(card) == 4


def test_only_a_background_joins_choose_a_background() -> None:
    """CR 702.124 ("Choose a Background") allows a Background, not any enchantment (Honden of Seeing Winds is
    a legendary enchantment, a Shrine)."""
    honden = _card(
        "Honden of Seeing Winds",
        "Legendary Enchantment — Shrine",
        "{4}{U}",
        "At the beginning of your upkeep, draw a card for each Shrine you control.",
    )
    problems = [
        (p.check, p.values.get("reason"))
        for p in _pair_verdict(WILSON, honden).problems
        if p.check is not Check.SIZE
    ]
    assert problems == [(Check.COMMANDER, "not_creature"), (Check.PARTNER, None)]


def test_doctors_companion_needs_a_time_lord_doctor() -> None:
    """CR 702.124 ("Doctor's companion"): the other commander must be a Time Lord Doctor; The Master is a Time Lord but a Rogue."""
    master = _card(
        "The Master, Formed Anew",
        "Legendary Creature — Time Lord Rogue",
        "{3}{U}{B}",
        "Whenever The Master, Formed Anew attacks, exile target creature card from your graveyard.",
    )
    assert [p.check for p in _pair_verdict(YASMIN, master).problems] == [Check.PARTNER, Check.SIZE]


def test_left_out_sections_are_noted_with_their_counts(index) -> None:
    """A maybeboard is left out with its card count; a sideboard is not part of a Commander deck and only
    noted (README: "A sideboard is not part of a Commander deck and is only noted"), while duel-zh has one
    (D7) and says nothing; a commander the option moved out is noted without values."""
    from bot.domain.decklist import parse_decklist
    from bot.domain.rules import Note, check_deck, get_ruleset, resolve_decklist

    text = (
        "Commander\n1 Kaalia of the Vast\nDeck\n1 Sol Ring\nSideboard\n2 Duress\n1 Counterspell\n"
        "Maybeboard\n3 Mountain\n1 Island\n"
    )
    deck = resolve_decklist(parse_decklist(text), index)
    assert check_deck(deck, get_ruleset("commander")).notes == (
        Note("maybeboard_ignored", {"count": 4}),
        Note("sideboard_ignored", {"count": 3}),
    )
    assert check_deck(deck, get_ruleset("duel-zh")).notes == (Note("maybeboard_ignored", {"count": 4}),)
    moved = resolve_decklist(parse_decklist(text), index, ["Phelddagrif"])
    assert check_deck(moved, get_ruleset("edh-2010")).notes == (
        Note("maybeboard_ignored", {"count": 4}),
        Note("commander_moved_to_main"),
    )


def test_a_transforming_card_without_a_legendary_back_is_judged_by_its_front(cards) -> None:
    """CR 903.3: Civilized Scholar // Homicidal Brute has no legendary creature face; the reason is its
    front's (not legendary), not "only its back face could lead"."""
    from bot.domain.rules.commanders import ineligibility

    scholar = cards["Civilized Scholar // Homicidal Brute"]
    assert scholar.layout == "transform"
    assert [ineligibility(scholar, allow_text=allow) for allow in (True, False)] == ["not_legendary"] * 2


@pytest.mark.parametrize(
    ("layout", "reason"),
    [
        ("transform", "back_face"),
        ("modal_dfc", "back_face"),
        ("meld", "back_face"),
        ("flip", "flip_card"),
        ("adventure", "not_legendary_creature"),
        ("split", "not_legendary_creature"),
    ],
)
def test_a_legendary_creature_only_on_the_back_face_cannot_lead(layout: str, reason: str) -> None:
    """CR 903.3: a commander is a legendary creature card; a double-faced or meld card whose only legendary
    creature face is its back is named as such, whatever its layout. Faces of one card side by side
    (adventure, split) are judged by the card as printed."""
    from bot.cards.model import Card
    from bot.domain.rules.commanders import ineligibility

    front = {"name": "Test Shrine", "type_line": "Land", "mana_cost": "", "oracle_text": "{T}: Add {C}."}
    back = {
        "name": "Test Warden",
        "type_line": "Legendary Creature — Spirit",
        "mana_cost": "",
        "oracle_text": "Vigilance",
    }
    card = Card.from_scryfall(
        {
            "name": "Test Shrine // Test Warden",
            "layout": layout,
            "type_line": "Land // Legendary Creature — Spirit",
            "card_faces": [front, back],
            "color_identity": [],
            "legalities": {"commander": "legal"},
        }
    )
    assert [ineligibility(card, allow_text=allow) for allow in (True, False)] == [reason] * 2


@pytest.mark.parametrize(
    ("text", "ruleset", "expected"),
    [
        # CR 702.124: two commanders need a pairing ability; the problem names both.
        (
            "Commander\n1 Kaalia of the Vast\n1 Phelddagrif\nDeck\n1 Sol Ring",
            "commander",
            [
                (Check.PARTNER, "Kaalia of the Vast", "deck.problem.invalid_pair", {"other": "Phelddagrif"}),
                (
                    Check.SIZE,
                    None,
                    "deck.problem.size",
                    {"count": 3, "needed": 100, "commanders": 2, "main": 1},
                ),
            ],
        ),
        # D3: one commander under the 2010 rules; no pairing is looked at.
        (
            "Commander\n1 Kaalia of the Vast\n1 Phelddagrif\nDeck\n1 Sol Ring",
            "edh-2010",
            [
                (Check.COMMANDER, None, "deck.problem.too_many_commanders", {"count": 2, "limit": 1}),
                (
                    Check.SIZE,
                    None,
                    "deck.problem.size",
                    {"count": 3, "needed": 100, "commanders": 2, "main": 1},
                ),
            ],
        ),
        (
            "Commander\n1 Kaalia of the Vast\n1 Phelddagrif\n1 Thelon of Havenwood\nDeck\n1 Sol Ring",
            "commander",
            [
                (Check.COMMANDER, None, "deck.problem.too_many_commanders", {"count": 3, "limit": 2}),
                (
                    Check.SIZE,
                    None,
                    "deck.problem.size",
                    {"count": 4, "needed": 100, "commanders": 3, "main": 1},
                ),
            ],
        ),
        # D5: Braids is banned as a commander under the 2010 rules.
        (
            "Commander\n1 Braids, Cabal Minion\nDeck\n1 Sol Ring",
            "edh-2010",
            [
                (Check.BANNED_COMMANDER, "Braids, Cabal Minion", "deck.problem.banned_as_commander", {}),
                (
                    Check.SIZE,
                    None,
                    "deck.problem.size",
                    {"count": 2, "needed": 100, "commanders": 1, "main": 1},
                ),
            ],
        ),
    ],
)
def test_commander_problems_carry_their_values(check, text: str, ruleset: str, expected: list) -> None:
    assert [(p.check, p.card, p.key, p.values) for p in check(text, ruleset).problems] == expected
