"""The check's ``commander`` option (README: `/deck check ... commander:<name>`): the named commanders lead
the deck whatever the list's own Commander section says. A list pasted as 100 cards has its commander in the
main deck: that copy moves to the command zone (CR 903.5a counts it in the 100); a commander the list names
but the option does not becomes a main-deck card, and the check notes it."""

from __future__ import annotations

from bot.cards.index import CardIndex
from bot.domain.decklist import DeckLine, Section, parse_decklist
from bot.domain.rules import resolve_decklist

LIST = "Commander\n1 Kaalia of the Vast\n\nDeck\n2 Sol Ring\n1 Phelddagrif\n3 Command Tower\n"


def entries(index: CardIndex, text: str, option: list[str]) -> tuple[list[DeckLine], tuple[str, ...]]:
    deck = resolve_decklist(parse_decklist(text), index, option)
    return [card.entry for card in deck.cards], deck.notes


def test_no_option_keeps_the_list_as_written(index: CardIndex) -> None:
    assert entries(index, LIST, []) == (
        [
            DeckLine(1, "Kaalia of the Vast", Section.COMMANDER, 2),
            DeckLine(2, "Sol Ring", Section.MAIN, 5),
            DeckLine(1, "Phelddagrif", Section.MAIN, 6),
            DeckLine(3, "Command Tower", Section.MAIN, 7),
        ],
        (),
    )


def test_blank_names_are_no_option(index: CardIndex) -> None:
    assert entries(index, LIST, ["", "  "]) == entries(index, LIST, [])


def test_the_named_commander_leaves_the_main_deck_and_the_other_joins_it(index: CardIndex) -> None:
    """Named in any case ("phelddagrif"): the card's English name decides. Kaalia, no longer named, is a
    main-deck card at its own line; the note says so."""
    assert entries(index, LIST, ["phelddagrif"]) == (
        [
            DeckLine(1, "Kaalia of the Vast", Section.MAIN, 2),
            DeckLine(2, "Sol Ring", Section.MAIN, 5),
            DeckLine(1, "Phelddagrif", Section.COMMANDER, 6),
            DeckLine(3, "Command Tower", Section.MAIN, 7),
        ],
        ("commander_moved_to_main",),
    )


def test_a_commander_named_by_both_stays_once(index: CardIndex) -> None:
    assert entries(index, LIST, ["Kaalia of the Vast", " Phelddagrif "]) == (
        [
            DeckLine(1, "Kaalia of the Vast", Section.COMMANDER, 2),
            DeckLine(2, "Sol Ring", Section.MAIN, 5),
            DeckLine(1, "Phelddagrif", Section.COMMANDER, 6),
            DeckLine(3, "Command Tower", Section.MAIN, 7),
        ],
        (),
    )


def test_one_copy_of_several_moves_and_the_rest_stay(index: CardIndex) -> None:
    """One copy is the commander; the other copies stay in the main deck, at the same line."""
    assert entries(index, "3 Command Tower\n1 Sol Ring", ["Command Tower"])[0] == [
        DeckLine(1, "Command Tower", Section.COMMANDER, 1),
        DeckLine(2, "Command Tower", Section.MAIN, 1),
        DeckLine(1, "Sol Ring", Section.MAIN, 2),
    ]


def test_a_commander_missing_from_the_list_is_added_first(index: CardIndex) -> None:
    """Named but not in the list (Atraxa in README's example): added in front, at line 0, in the order
    given; an unknown name is kept as written so the check can say it is unknown."""
    assert entries(index, "1 Sol Ring", ["Phelddagrif", "Nobody Atall"]) == (
        [
            DeckLine(1, "Phelddagrif", Section.COMMANDER, 0),
            DeckLine(1, "Nobody Atall", Section.COMMANDER, 0),
            DeckLine(1, "Sol Ring", Section.MAIN, 1),
        ],
        (),
    )
