"""The fast paths of the deck check (issue #19) read every input exactly as the general paths do.

* ``parse_text`` reads "1 Name" and "1 Name (SET) 123" lines from one ``findall`` over the whole text
  (``decklist._LINES``); with that regex made to match no entry, every line takes the general path (strip,
  ``_PLAIN_ENTRY`` / ``_FAST_ENTRY``, ``_read_entry``). Both must give the same ``Decklist``.
* ``check_deck`` decides a legal deck with screens (``Ruleset.may_object``, colour sets, one line per name):
  with them and without them (``legality._SCREENS``) every ruleset gives the same verdict of random decks of
  real cards, and ``Ruleset.may_object`` agrees with ``is_banned`` / ``legality_problem`` for every card.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cards.importers import read_cards
from bot.cards.model import Card
from bot.domain import decklist
from bot.domain.decklist import DeckLine, DecklistRefused, Section, parse_decklist
from bot.domain.rules import RULESETS, DeckCard, ResolvedDeck, Ruleset, check_deck, legality
from bot.domain.rules.facts import facts_for
from bot.paths import BUNDLED_CARDS

# Every line to the general path: no count or name group ever matches.
_GENERAL_ONLY = re.compile(r"^(?:(\d\b\B)(\d\b\B)(\d\b\B)|([^\n]*))$", re.MULTILINE)

# Line pieces near the edges of the fast path: spaces and tabs around, "x" counts, long names, printings,
# marks and categories the fast path leaves to the general one, headers, blank lines, Unicode whitespace.
_NAMES = st.sampled_from(["Sol Ring", "Kaalia of the Vast", "Lim-Dûl's Vault", "x Island", "X", "Fire // Ice",
                          "祖神兽", "Erase (Not the Urza's Legacy One)", "A" * 150, "B" * 151, "Name\u00a0",
                          "Na\tme", "Ash Barrens", "Æther Vial", "Island  "])
_COUNTS = st.sampled_from(["1", "1x", "1X", "2 x", "10", "999", "1000", "0", "01", "²", "", "3×"])
# Tails without "|" or "<" (a text with one of those takes the general path alone), then all of them.
_SIMPLE_TAILS = ["", " (CMD) 197", " *F*", " *CMDR*", " (C21)", " (SLD) 12a *E*", " #tag", "\t(M21) 1",
                 " (A) 1", "  (CMD)  12", " (CMD) 12 ", " (TOOLONGSET) 1", " (CMD) 1 (C21) 2", " (C★1) 1-a",
                 " (cmd) 1 [Commander{top}]", " [Ramp]", " []", " [Maybeboard{noDeck}]", " (CMD) 1 [Ramp] ",
                 " [Tokens & Extras{noDeck}]", " [Sideboard]", " [Land] [Ramp]", " (CMD) 1 *F* [Ramp]"]
_ALL_TAILS = [*_SIMPLE_TAILS, " <borderless>", " |CMD|1", " <251> [SLD]"]
_SPACE = st.sampled_from(["", " ", "\t", "\u00a0", "\u3000", "  "])
_OTHER_LINES = st.sampled_from(["", "Commander", "Sideboard", "// Commander", "Creatures (30)", "Deck",
                                "Maybeboard", "[Main]", "About", "Name Heavenly Inferno", "SB: 1 Island",
                                "Commander: Kaalia of the Vast", "# comment", "Tokens", "   ", "1"])


@st.composite
def _lines(draw: st.DrawFn, tails: list[str]) -> str:
    if draw(st.booleans()):
        return draw(_OTHER_LINES)
    count = draw(_COUNTS)
    return f"{draw(_SPACE)}{count}{' ' if count else ''}{draw(_NAMES)}{draw(st.sampled_from(tails))}{draw(_SPACE)}"


def _general(text: str, monkeypatch: pytest.MonkeyPatch) -> decklist.Decklist:
    with monkeypatch.context() as patched:
        patched.setattr(decklist, "_LINES", _GENERAL_ONLY)
        patched.setattr(decklist, "_GUARDED_LINES", _GENERAL_ONLY)
        return decklist.parse_text(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.one_of(st.lists(_lines(_SIMPLE_TAILS), max_size=30), st.lists(_lines(_ALL_TAILS), max_size=30)))
@example(lines=["1 Sol Ring", "1 Kaalia of the Vast (CMD) 197"])
@example(lines=["Commander", "1 Kaalia of the Vast", "", "Sideboard", "1 Angel Token", "1 Island (C21) 1 "])
@example(lines=["1 " + "A" * 150, "1 " + "B" * 151, "1 " + "C" * 150 + " (CMD) 1"])
def test_the_whole_text_regex_reads_every_line_as_the_general_path(lines: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    text = "\n".join(lines)
    assert decklist.parse_text(text) == _general(text, monkeypatch)


def test_the_general_path_is_really_taken_when_the_regex_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something only if the replaced regex sends every line the long way."""
    assert all(not count and not name for count, name, *_ in _GENERAL_ONLY.findall("1 Sol Ring\n2x Island"))
    assert decklist._GUARDED_LINES.findall("1 Sol Ring\n1 Kaalia of the Vast (CMD) 197 [Commander]\n1 A *F*") == [
        ("1", "Sol Ring", "", ""), ("1", "Kaalia of the Vast", "Commander", ""), ("", "", "", "1 A *F*")]
    assert decklist._LINES.findall("1 Sol Ring\nCommander") == [("1", "Sol Ring", "", ""), ("", "", "", "Commander")]
    assert _general("1 Sol Ring", monkeypatch).entries == decklist.parse_text("1 Sol Ring").entries


def test_real_deck_files_read_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "data" / "decks"
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        text = decklist.decode(path.read_bytes())
        assert decklist.parse_text(text) == _general(text, monkeypatch), path.name
    with pytest.raises(DecklistRefused):
        parse_decklist("\n\n")


def test_may_object_agrees_with_the_per_card_rules_for_every_card() -> None:
    """The screen of a legal deck says "nothing to object" exactly when no card is banned or not legal: for
    every card of the bundled data, under every ruleset."""
    cards = read_cards(BUNDLED_CARDS).cards
    for ruleset in RULESETS.values():
        objected = 0
        for card in cards:
            vintage = facts_for(card).vintage_problem
            per_card = ruleset.is_banned(card) or ruleset.legality_problem(card, vintage) is not None
            assert ruleset.may_object([card], [vintage]) is per_card, (ruleset.name, card.name)
            objected += per_card
        assert 0 < objected < len(cards), ruleset.name  # both answers occur


@st.composite
def _decks(draw: st.DrawFn, cards: list[Card]) -> ResolvedDeck:
    """Random decks of real cards: one or two commanders (eligible or not), main-deck lines with names on
    one or several lines and counts above one, a sideboard, unknown names."""
    picked = st.sampled_from(cards)
    lines: list[DeckCard] = []
    for card in draw(st.lists(picked, min_size=0, max_size=2)):
        lines.append(DeckCard(DeckLine(1, card.name, Section.COMMANDER, len(lines) + 1), card))
    for section, size in ((Section.MAIN, 40), (Section.SIDEBOARD, 6), (Section.COMPANION, 1)):
        for card in draw(st.lists(picked, max_size=size)):
            count = draw(st.sampled_from([1, 1, 1, 2, 7]))
            lines.append(DeckCard(DeckLine(count, card.name, section, len(lines) + 1), card))
    if draw(st.booleans()):
        lines.append(DeckCard(DeckLine(1, "Not A Card", Section.MAIN, len(lines) + 1), None))
    return ResolvedDeck(tuple(draw(st.permutations(lines))))


def test_check_screens_give_the_verdicts_of_the_per_card_code(cards: dict[str, Card],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With the screens (singleton, identity, bans) and without them, every ruleset says the same of every deck."""
    pool = sorted(cards.values(), key=lambda card: card.name)

    @settings(max_examples=300, deadline=None)
    @given(_decks(pool))
    def compare(deck: ResolvedDeck) -> None:
        for ruleset in RULESETS.values():
            screened = check_deck(deck, ruleset)
            with monkeypatch.context() as patched:
                patched.setattr(legality, "_SCREENS", False)
                assert check_deck(ResolvedDeck(deck.cards), ruleset) == screened, ruleset.name

    compare()
    with monkeypatch.context() as patched:  # the switch reaches the code it claims to switch off
        patched.setattr(legality, "_SCREENS", False)
        patched.setattr(Ruleset, "may_object", None)  # not called without the screens
        check_deck(ResolvedDeck((DeckCard(DeckLine(1, pool[0].name, Section.MAIN, 1), pool[0]),)), RULESETS["commander"])
