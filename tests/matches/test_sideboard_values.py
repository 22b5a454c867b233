"""Sideboard swaps with exact values (D7, T1): every parsed field and refusal value, where moved
cards land in the list, the legality re-check against the deck before the swaps, the window's exact
seconds and closing time, and wishes."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from bot.cards.model import Card
from bot.domain.decklist import DeckLine, Section, parse_decklist
from bot.domain.rules import DeckCard, ResolvedDeck, resolve_decklist
from bot.domain.sideboard import (
    MAX_SWAPS,
    Swap,
    SwapError,
    Window,
    apply_swaps,
    check_swaps,
    check_wish,
    is_wish,
    names_in,
    parse_swaps,
    swap_window,
    wish_cards,
    wishable,
)
from tests.matches.conftest import BLUE_SIDEBOARD_DECK, SIDEBOARD_DECK, WISH_DECK

SIDEBOARD = [
    "Lightning Bolt",
    "Wrath of God",
    "Gamble",
    "Blasphemous Act",
    "Duress",
    "Badlands",
    "Godless Shrine",
    "Chaos Warp",
    "Arcane Signet",
    "Embercleave",
]


def _refused(call, *args) -> tuple[str, dict[str, object]]:
    with pytest.raises(SwapError) as error:
        call(*args)
    return error.value.key.removeprefix("sideboard.error."), error.value.values


def _lines(deck: ResolvedDeck, section: Section) -> list[tuple[int, str]]:
    return [(card.count, card.name) for card in deck.in_section(section)]


# -- stored swaps and pasted lines ------------------------------------------------------------------


def test_a_swap_as_stored_data_and_back() -> None:
    assert Swap("Anger", "Duress", 2).as_data() == {"out": "Anger", "in": "Duress", "count": 2}
    assert Swap.from_data({"out": "Anger", "in": "Duress", "count": "3"}) == Swap("Anger", "Duress", 3)
    assert Swap.from_data({"out": 1, "in": 2}) == Swap("1", "2", 1)  # older records have no count: one card


@pytest.mark.parametrize(
    ("text", "swaps"),
    [
        ("Anger -> Duress", [Swap("Anger", "Duress")]),
        ("  Anger   =>   Duress  ", [Swap("Anger", "Duress")]),
        ("Anger→Duress\nAnger＞Duress\nAnger > Duress", [Swap("Anger", "Duress")] * 3),
        ("2x Mountain -> 2X Badlands", [Swap("Mountain", "Badlands", 2)]),
        ("3× Mountain -> 3 ×  Badlands", [Swap("Mountain", "Badlands", 3)]),
        ("100 Mountain -> 100 Badlands", [Swap("Mountain", "Badlands", 100)]),
        ("1000 Mountain -> 1000 Badlands", [Swap("1000 Mountain", "1000 Badlands", 1)]),  # 3 digits at most
        ("Anger -> Duress -> Gamble", [Swap("Anger", "Duress -> Gamble")]),  # the first arrow splits
        ("\n\n Anger -> Duress \n\n\t\n", [Swap("Anger", "Duress")]),
        ("a -> b\n" * MAX_SWAPS, [Swap("a", "b")] * MAX_SWAPS),
        ("x" * 195 + " -> b", [Swap("x" * 195, "b")]),  # a 200-character line
    ],
)
def test_pasted_swaps(text: str, swaps: list[Swap]) -> None:
    assert parse_swaps(text) == swaps


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("Anger Duress", "bad_line", {"line": 1}),
        ("Anger -> Duress\n\nAnger Duress", "bad_line", {"line": 3}),  # blank lines are counted
        ("Anger -> ", "bad_line", {"line": 1}),
        ("\n-> Duress", "bad_line", {"line": 2}),
        ("Anger -> Duress\n" + "x" * 196 + " -> b", "bad_line", {"line": 2}),  # 201 characters
        ("2 Mountain -> 1 Badlands", "size_change", {"out": 2, "into": 1}),
        ("Mountain -> 2 Badlands", "size_change", {"out": 1, "into": 2}),
        ("0 Mountain -> 0 Badlands", "size_change", {"out": 0, "into": 0}),
        ("", "no_swaps", {}),
        (" \n\t\n", "no_swaps", {}),
        ("a -> b\n" * (MAX_SWAPS + 1), "too_many", {"limit": MAX_SWAPS}),
    ],
)
def test_pasted_swaps_refused(text: str, key: str, values: dict[str, object]) -> None:
    assert _refused(parse_swaps, text) == (key, values)


def test_ten_swaps_at_most() -> None:
    assert MAX_SWAPS == 10


# -- applying swaps -----------------------------------------------------------------------------------


def test_a_swapped_card_leaves_its_line_and_joins_the_end_of_the_other_section(deck: ResolvedDeck) -> None:
    swapped = apply_swaps(deck, [Swap("Anger", "Lightning Bolt")])
    assert [name for _, name in _lines(swapped, Section.SIDEBOARD)] == [*SIDEBOARD[1:], "Anger"]
    main = [name for _, name in _lines(swapped, Section.MAIN)]
    assert main == [name for _, name in _lines(deck, Section.MAIN) if name != "Anger"] + ["Lightning Bolt"]
    anger = swapped.in_section(Section.SIDEBOARD)[-1]
    was = next(card for card in deck.cards if card.name == "Anger")
    assert anger.entry == DeckLine(
        1, "Anger", Section.SIDEBOARD, was.entry.line
    )  # its list line travels along
    assert anger.card is was.card
    assert swapped.cards[:1] == deck.cards[:1]  # the commander stays first


def test_a_swapped_deck_keeps_the_lines_notes_and_issues_of_its_list(index) -> None:
    text = SIDEBOARD_DECK.read_text(encoding="utf-8") + "\nMaybeboard\n1 Sol Ring\n\nDeck\n9999 Forest\n"
    deck = resolve_decklist(parse_decklist(text), index)
    swapped = apply_swaps(deck, [Swap("Anger", "Lightning Bolt")])
    assert [issue.reason for issue in swapped.issues] == ["count_too_large"]
    assert [line.name for line in swapped.ignored] == ["Sol Ring"]
    assert swapped.notes == ("maybeboard_ignored",)


def test_a_swapped_deck_keeps_the_count_of_names_left_without_suggestions(deck: ResolvedDeck) -> None:
    """The verdict's "suggestions were limited" note counts them: a swap must not reset it to 0."""
    counted = dataclasses.replace(deck, unsuggested=5)
    assert apply_swaps(counted, [Swap("Anger", "Lightning Bolt")]).unsuggested == 5


def test_copies_split_and_merge(deck: ResolvedDeck) -> None:
    once = apply_swaps(deck, [Swap("Mountain", "Badlands")])
    assert dict((n, c) for c, n in _lines(once, Section.MAIN))["Mountain"] == 7
    assert _lines(once, Section.SIDEBOARD)[-1] == (1, "Mountain")
    main_index = [name for _, name in _lines(deck, Section.MAIN)].index("Mountain")
    assert _lines(once, Section.MAIN)[main_index] == (7, "Mountain")  # the 7 left keep their place
    twice = apply_swaps(once, [Swap("Mountain", "Lightning Bolt")])
    assert _lines(twice, Section.SIDEBOARD).count((2, "Mountain")) == 1  # one line of 2, not two of 1
    assert [name for _, name in _lines(twice, Section.SIDEBOARD)].count("Mountain") == 1
    back = apply_swaps(once, [Swap("Badlands", "Mountain")])
    assert _lines(back, Section.MAIN)[main_index] == (8, "Mountain")
    assert _lines(back, Section.SIDEBOARD)[-1] == (1, "Badlands")
    assert back.main_count == 100 and sum(c for c, _ in _lines(back, Section.SIDEBOARD)) == 10


def test_a_card_is_found_by_its_name_as_written_or_in_english(index) -> None:
    text = SIDEBOARD_DECK.read_text(encoding="utf-8")
    deck = resolve_decklist(
        parse_decklist(text.replace("1 Anger\n", "1 憤怒\n").replace("1 Lightning Bolt\n", "1 稲妻\n")), index
    )
    for out, into in (("憤怒", "稲妻"), ("Anger", "lightning bolt"), ("ANGER", "稲妻")):
        swapped = apply_swaps(deck, [Swap(out, into)])
        assert swapped.in_section(Section.SIDEBOARD)[-1].entry.name == "憤怒"
        assert swapped.in_section(Section.MAIN)[-1].entry == DeckLine(1, "稲妻", Section.MAIN, 88)
        assert _lines(swapped, Section.MAIN)[-1] == (1, "Lightning Bolt")


@pytest.mark.parametrize(
    ("swaps", "key", "values"),
    [
        ([Swap("Anger", "Lightning Bolt", 0)], "size_change", {"out": 0, "into": 0}),
        ([Swap("Anger", "Lightning Bolt", -1)], "size_change", {"out": -1, "into": -1}),
        ([Swap("kaalia of the vast", "Duress")], "commander", {"card": "kaalia of the vast"}),
        ([Swap("Anger", "Kaalia of the Vast")], "commander", {"card": "Kaalia of the Vast"}),
        ([Swap("Anger", "Lightning Bolt", 2)], "not_in_main", {"card": "Anger"}),  # one Anger only
        ([Swap("Mountain", "Badlands", 2)], "not_in_sideboard", {"card": "Badlands"}),
        ([Swap("Duress", "Gamble")], "not_in_main", {"card": "Duress"}),
        ([Swap("Anger", "Anger")], "not_in_sideboard", {"card": "Anger"}),
        (
            [Swap("Anger", "Duress"), Swap("Anger", "Gamble")],
            "not_in_main",
            {"card": "Anger"},
        ),  # left already
        ([Swap("Anger", "Duress"), Swap("Vow of Duty", "Duress")], "not_in_sideboard", {"card": "Duress"}),
    ],
)
def test_refused_swaps_name_the_card(deck: ResolvedDeck, swaps: list[Swap], key: str, values: dict) -> None:
    assert _refused(apply_swaps, deck, swaps) == (key, values)


def test_names_of_a_section(deck: ResolvedDeck) -> None:
    assert names_in(deck, Section.SIDEBOARD) == SIDEBOARD
    assert names_in(deck, Section.COMMANDER) == ["Kaalia of the Vast"]


# -- the re-check -------------------------------------------------------------------------------------


def test_an_illegal_swap_names_the_rule_the_card_and_the_problem(index) -> None:
    blue = resolve_decklist(parse_decklist(BLUE_SIDEBOARD_DECK.read_text(encoding="utf-8")), index)
    key, values = _refused(check_swaps, blue, "commander", [], [Swap("Anger", "Counterspell")])
    assert (key, values) == (
        "illegal",
        {
            "rule": "CR 903.5c",
            "card": "Counterspell",
            "problem": "deck.problem.colour_identity",
            "values": {"colours": "U", "identity": "WBR"},
        },
    )


def test_a_problem_the_deck_already_had_does_not_block_a_swap(index) -> None:
    """Under duel-zh the sideboard is part of the deck (D7): an off-colour sideboard card is a problem
    before any swap, so swapping it in brings nothing new and is allowed; the verdict still says illegal."""
    blue = resolve_decklist(parse_decklist(BLUE_SIDEBOARD_DECK.read_text(encoding="utf-8")), index)
    result = check_swaps(blue, "duel-zh", [], [Swap("Anger", "Counterspell")])
    assert not result.verdict.legal
    assert result.swaps == (Swap("Anger", "Counterspell"),)
    assert _lines(result.deck, Section.MAIN)[-1] == (1, "Counterspell")


def test_earlier_swaps_are_the_starting_point(deck: ResolvedDeck) -> None:
    result = check_swaps(deck, "duel-zh", [Swap("Anger", "Lightning Bolt")], [Swap("Vow of Duty", "Duress")])
    assert result.swaps == (Swap("Vow of Duty", "Duress"),)
    assert [n for _, n in _lines(result.deck, Section.MAIN)][-2:] == ["Lightning Bolt", "Duress"]
    assert result.verdict.legal and result.verdict.problems == ()


# -- the window ---------------------------------------------------------------------------------------

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CLOSES = NOON + timedelta(minutes=3)


@pytest.mark.parametrize(
    ("now", "left"),
    [
        (NOON, 180),
        (CLOSES - timedelta(seconds=1), 1),
        (CLOSES - timedelta(seconds=0.2), 1),
        (CLOSES - timedelta(seconds=1.5), 2),
        (CLOSES - timedelta(seconds=2), 2),
        (CLOSES, 0),
        (CLOSES + timedelta(seconds=30), 0),
    ],
)
def test_seconds_left_round_up(now: datetime, left: int) -> None:
    assert Window(True, closes_at=CLOSES).seconds_left(now) == left


def test_no_closing_time_means_no_countdown() -> None:
    assert Window(True).seconds_left(NOON) is None


@pytest.mark.parametrize(
    ("kwargs", "window"),
    [
        (
            {"started": True, "between_games": False, "rule_on": False, "declared_at": None},
            Window(False, None, "window_closed"),
        ),
        (
            {"started": False, "between_games": True, "rule_on": True, "declared_at": NOON.isoformat()},
            Window(True),
        ),
        (
            {"started": False, "between_games": False, "rule_on": False, "declared_at": NOON.isoformat()},
            Window(False, None, "not_allowed"),
        ),
        (
            {"started": False, "between_games": False, "rule_on": True, "declared_at": None},
            Window(False, None, "not_declared"),
        ),
        (
            {"started": False, "between_games": False, "rule_on": True, "declared_at": NOON.isoformat()},
            Window(True, CLOSES, ""),
        ),
        (
            {
                "started": False,
                "between_games": False,
                "rule_on": True,
                "declared_at": (NOON - timedelta(minutes=3)).isoformat(),
            },
            Window(False, NOON, "window_closed"),
        ),
        (
            {
                "started": False,
                "between_games": False,
                "rule_on": True,
                "declared_at": (NOON - timedelta(seconds=179)).isoformat(),
            },
            Window(True, NOON + timedelta(seconds=1), ""),
        ),
    ],
)
def test_each_window_exactly(kwargs: dict, window: Window) -> None:
    assert swap_window(now=NOON, **kwargs) == window


# -- wishes -------------------------------------------------------------------------------------------

# Karn, the Great Creator (WAR), transcribed: a wish on a planeswalker, to show the command zone counts too.
KARN = Card.from_scryfall(
    {
        "name": "Karn, the Great Creator",
        "type_line": "Legendary Planeswalker — Karn",
        "mana_cost": "{4}",
        "oracle_text": "Activated abilities of artifacts your opponents control can't be activated.\n"
        "+1: Until your next turn, up to one target noncreature artifact becomes an artifact creature "
        "with power and toughness each equal to its mana value.\n"
        "−2: You may reveal an artifact card you own from outside the game or choose a face-up "
        "artifact card you own in exile. Put that card into your hand.",
    }
)


def test_wishes_in_the_command_zone_and_unknown_cards(wish_deck: ResolvedDeck) -> None:
    commander = DeckCard(DeckLine(1, "Karn, the Great Creator", Section.COMMANDER, 1), KARN)
    unknown = DeckCard(DeckLine(1, "No Such Wish", Section.MAIN, 2), None)
    assert is_wish(commander) and not is_wish(unknown)
    deck = ResolvedDeck((commander, *wish_deck.cards[1:], unknown))
    assert wish_cards(deck) == ["Karn, the Great Creator", "Burning Wish"]


def test_wishable_cards_leave_out_the_fetched_in_any_case(wish_deck: ResolvedDeck) -> None:
    assert wishable(wish_deck, []) == SIDEBOARD
    assert wishable(wish_deck, ["gamble", "DURESS"]) == [
        n for n in SIDEBOARD if n not in ("Gamble", "Duress")
    ]


def test_a_wish_names_the_card_as_played_and_refuses_with_it(wish_deck: ResolvedDeck) -> None:
    assert check_wish(wish_deck, ["Duress"], "  lightning bolt  ") == "Lightning Bolt"
    assert _refused(check_wish, wish_deck, ["lightning BOLT"], "Lightning Bolt") == (
        "wish_already",
        {"card": "Lightning Bolt"},
    )
    assert _refused(check_wish, wish_deck, [], " Black Lotus ") == (
        "wish_not_in_sideboard",
        {"card": " Black Lotus "},
    )
    assert _refused(check_wish, wish_deck, [], "Anger") == ("wish_not_in_sideboard", {"card": "Anger"})
    assert _refused(check_wish, wish_deck, ["Gamble"], "  gamble") == ("wish_already", {"card": "Gamble"})


@pytest.fixture(scope="module")
def wish_deck(index) -> ResolvedDeck:
    return resolve_decklist(parse_decklist(WISH_DECK.read_text(encoding="utf-8")), index)
