"""Bounded "did you mean" (bot.domain.rules.deck.SuggestionBudget): a list of many unknown names gets
suggestions for the first 20 only, the rest are still listed as unknown, and the verdict says so."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards.index import CardIndex
from bot.domain.decklist import parse_decklist
from bot.domain.rules import check_deck, get_ruleset, resolve_decklist
from bot.domain.rules.deck import SUGGESTED_NAMES, SuggestionBudget, without_suggestions
from bot.render.deck import note_message

TYPOS = ("Sol Rign", "Lightnig Bolt", "Kalia of the Vast")


def typo_list(count: int) -> str:
    """``count`` distinct unknown names, each one a typo the full resolver has a suggestion for."""
    return "\n".join(f"1 {TYPOS[i % len(TYPOS)]} {i}" for i in range(count))


def test_typos_would_all_get_suggestions_without_a_budget(index: CardIndex) -> None:
    deck = resolve_decklist(parse_decklist(typo_list(30)), index, budget=SuggestionBudget(names=10_000))
    assert deck.unsuggested == 0
    assert all(card.suggestions for card in deck.unresolved)


def test_only_the_first_20_unknown_names_get_suggestions_and_the_verdict_says_so(index: CardIndex) -> None:
    deck = resolve_decklist(parse_decklist(typo_list(1_000)), index)
    unknown = deck.unresolved
    assert len(unknown) == 1_000
    assert all(card.suggestions for card in unknown[:SUGGESTED_NAMES])
    assert not any(card.suggestions for card in unknown[SUGGESTED_NAMES:])
    assert deck.unsuggested == 1_000 - SUGGESTED_NAMES
    verdict = check_deck(deck, get_ruleset("commander"))
    assert verdict.status == "unverifiable"
    assert sum(p.key == "deck.problem.unknown" for p in verdict.problems) == 1_000  # every name still listed
    note = next(n for n in verdict.notes if n.key == "suggestions_limited")
    assert note.values == {"suggested": 20, "count": 980}
    for language, words in (
        ("en", "first 20 unknown names"),
        ("ja", "最初の20件"),
        ("zh-Hans", "前20个"),
        ("zh-Hant", "前20個"),
    ):
        assert words in note_message(note, language) and "980" in note_message(note, language)


def test_a_spent_time_budget_stops_suggestions(index: CardIndex) -> None:
    ticks = itertools.count()
    budget = SuggestionBudget(names=100, seconds=3, clock=lambda: float(next(ticks)))  # each scan "takes" 1 s
    deck = resolve_decklist(parse_decklist(typo_list(10)), index, budget=budget)
    assert [bool(card.suggestions) for card in deck.unresolved] == [True] * 3 + [False] * 7
    assert deck.unsuggested == 7


def test_a_deck_with_a_few_typos_gets_every_suggestion_and_no_note(index: CardIndex) -> None:
    deck = resolve_decklist(parse_decklist("1 Sol Ring\n1 Lightnig Bolt\n1 Kalia of the Vast"), index)
    assert [c.suggestions[0] for c in deck.unresolved] == ["Lightning Bolt", "Kaalia of the Vast"]
    assert not any(n.key == "suggestions_limited" for n in check_deck(deck, get_ruleset("commander")).notes)


def test_repeated_unknown_names_cost_one_suggestion_each(index: CardIndex) -> None:
    text = "\n".join(f"1 {TYPOS[0]}" for _ in range(50)) + "\n1 Lightnig Bolt"
    deck = resolve_decklist(parse_decklist(text), index, budget=SuggestionBudget(names=2))
    assert all(card.suggestions for card in deck.unresolved) and deck.unsuggested == 0


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_switching_suggestions_off_changes_no_resolution(index: CardIndex, data: st.DataObject) -> None:
    """The quiet resolver finds exactly the same card (or ambiguity) for any name, known or not."""
    names = sorted({card.name for card in index.cards()})
    name = data.draw(
        st.one_of(
            st.sampled_from(names), st.sampled_from(names).map(str.lower), st.text(min_size=1, max_size=30)
        )
    )
    quiet = without_suggestions(index)
    full, bare = index.resolve(name), quiet.resolve(name)
    assert (bare.card, bare.ambiguous) == (full.card, full.ambiguous)
    if full.card is None and not full.ambiguous:
        assert bare.suggestions == ()
