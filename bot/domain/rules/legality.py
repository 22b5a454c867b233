"""The deck check: a resolved deck and a ruleset in, a verdict with every problem out.

A problem carries the rule ID its ruleset cites (``D4``, ``CR 903.5c``...), the card, a message key
and its values; front ends word it in the user's language. An unknown or ambiguous name, or an
unreadable line, makes the deck *unverifiable*: never legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, itemgetter
from typing import Any

from bot.cards.model import Card
from bot.domain.decklist import NOTE_SECTIONS, Section
from bot.domain.rules.commanders import ineligibility, pair_eligible, valid_pair
from bot.domain.rules.deck import DeckCard, ResolvedDeck
from bot.domain.rules.facts import CardFacts, facts_for, facts_of
from bot.domain.rules.identity import ColourOrigin, Source, combined_colours
from bot.domain.rules.rulesets import Check, Ruleset


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason the deck is not legal. ``key`` is ``deck.problem.<...>``; ``values`` fill it."""

    check: Check
    rule: str
    card: str | None
    key: str
    values: dict[str, Any] = field(default_factory=dict)
    origins: tuple[ColourOrigin, ...] = ()


@dataclass(frozen=True, slots=True)
class Note:
    """Something the user should know that is not a problem (``deck.note.<key>``)."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    ruleset: str
    commanders: tuple[str, ...]
    colour_identity: str
    card_count: int
    problems: tuple[Problem, ...]
    notes: tuple[Note, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def unverifiable(self) -> bool:
        return any(p.check in (Check.PARSE, Check.UNKNOWN) for p in self.problems)

    @property
    def status(self) -> str:
        """``legal``, ``illegal`` or ``unverifiable`` (an unknown card outranks any other problem)."""
        if self.unverifiable:
            return "unverifiable"
        return "illegal" if self.problems else "legal"


class _Collector:
    """Problems in the order they are found, at most one per (check, card)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.problems: list[Problem] = []
        self._seen: set[tuple[Check, str | None, str]] = set()

    def add(
        self,
        check: Check,
        card: str | None,
        key: str,
        *,
        origins: tuple[ColourOrigin, ...] = (),
        **values: Any,
    ) -> None:
        marker = (check, card, key)
        if card is not None and marker in self._seen:
            return
        self._seen.add(marker)
        self.problems.append(Problem(check, self.ruleset.rule(check), card, key, values, origins))


def check_deck(deck: ResolvedDeck, ruleset: Ruleset) -> Verdict:
    """Every rule of ``ruleset`` applied to ``deck`` (see ``rulesets`` for which rule is which)."""
    found = _Collector(ruleset)
    _check_lines(deck, found)
    commanders = [c for c in deck.commanders if c.card is not None]
    _check_commanders(deck, ruleset, found)
    identities = [facts_for(_card(c)).identity(ruleset.identity) for c in commanders]
    colours = combined_colours(identities, land_types=ruleset.identity.land_types_are_symbols)
    _check_size(deck, ruleset, found)
    _check_singleton(deck, ruleset, found)
    entries = _checked_cards(deck, ruleset)
    checked = list(zip(entries, facts_of(map(_CARD, entries)), strict=True))
    if commanders and len(commanders) == len(deck.commanders):
        _check_identity(checked, ruleset, colours, found)
    _check_bans_and_legality([(c, facts_for(_card(c))) for c in commanders] + checked, ruleset, found)
    _check_sideboard(deck, ruleset, found)
    return Verdict(
        ruleset.name,
        tuple(c.name for c in deck.commanders),
        colours,
        deck.main_count,
        tuple(found.problems),
        _notes(deck, ruleset),
    )


def _notes(deck: ResolvedDeck, ruleset: Ruleset) -> tuple[Note, ...]:
    notes: list[Note] = []
    for key in dict.fromkeys(deck.notes):
        if key in NOTE_SECTIONS:  # maybeboard, display cards, planes, schemes, tokens: left out, with a count
            section = NOTE_SECTIONS[key]
            notes.append(
                Note(key, {"count": sum(line.count for line in deck.ignored if line.section is section)})
            )
        else:
            notes.append(Note(key))
    if deck.unsuggested:
        unknown = len({card.entry.name for card in deck.unresolved if not card.ambiguous})
        notes.append(
            Note("suggestions_limited", {"suggested": unknown - deck.unsuggested, "count": deck.unsuggested})
        )
    sideboard = sum(c.count for c in deck.in_section(Section.SIDEBOARD))
    if ruleset.sideboard_sizes is None and sideboard:
        notes.append(Note("sideboard_ignored", {"count": sideboard}))
    return tuple(notes)


def _check_lines(deck: ResolvedDeck, found: _Collector) -> None:
    """Unreadable lines and unknown names: the deck can't be verified."""
    for issue in deck.issues:
        found.add(
            Check.PARSE, None, "deck.problem.parse", line=issue.line, text=issue.text, reason=issue.reason
        )
    for card in deck.unresolved:
        if card.ambiguous:
            found.add(
                Check.UNKNOWN,
                card.entry.name,
                "deck.problem.ambiguous",
                line=card.entry.line,
                candidates=card.ambiguous,
            )
        else:
            extra: dict[str, Any] = {"newer": card.newer} if card.newer is not None else {}
            found.add(
                Check.UNKNOWN,
                card.entry.name,
                "deck.problem.unknown",
                line=card.entry.line,
                suggestions=card.suggestions,
                **extra,
            )


def _check_commanders(deck: ResolvedDeck, ruleset: Ruleset, found: _Collector) -> None:
    """D3 / CR 903.3: who leads; CR 702.124: which two may lead together."""
    entries = deck.commanders
    if not entries:
        found.add(Check.COMMANDER, None, "deck.problem.commander_missing")
        return
    total = sum(entry.count for entry in entries)
    if total > ruleset.max_commanders:
        found.add(
            Check.COMMANDER,
            None,
            "deck.problem.too_many_commanders",
            count=total,
            limit=ruleset.max_commanders,
        )
    known = [entry.card for entry in entries if entry.card is not None]
    for card in known:
        others = [other for other in known if other is not card]
        reason = ineligibility(card, allow_text=ruleset.commander_text_allowed)
        if reason and not (ruleset.max_commanders > 1 and any(pair_eligible(card, o) for o in others)):
            found.add(Check.COMMANDER, card.name, "deck.problem.commander_ineligible", reason=reason)
        if card.name in ruleset.banned_as_commander:
            found.add(Check.BANNED_COMMANDER, card.name, "deck.problem.banned_as_commander")
    if ruleset.max_commanders > 1 and len(known) == 2 and total == 2 and not valid_pair(*known):
        found.add(Check.PARTNER, known[0].name, "deck.problem.invalid_pair", other=known[1].name)


def _check_size(deck: ResolvedDeck, ruleset: Ruleset, found: _Collector) -> None:
    """D1 / CR 903.5a: exactly 100 cards with the commander(s)."""
    commanders = sum(c.count for c in deck.commanders)
    total = deck.main_count
    if total != ruleset.deck_size:
        found.add(
            Check.SIZE,
            None,
            "deck.problem.size",
            count=total,
            needed=ruleset.deck_size,
            commanders=commanders,
            main=total - commanders,
        )


def _singleton_sections(ruleset: Ruleset) -> tuple[Section, ...]:
    """D7: singleton covers main deck and sideboard together (110 cards) where a sideboard exists."""
    if ruleset.sideboard_sizes is None:
        return (Section.COMMANDER, Section.MAIN)
    return (Section.COMMANDER, Section.MAIN, Section.SIDEBOARD)


def _check_singleton(deck: ResolvedDeck, ruleset: Ruleset, found: _Collector) -> None:
    """D2 / CR 903.5b: one copy per English name, except what ``facts.copy_limit`` allows."""
    entries = [entry for entry in deck.in_section(*_singleton_sections(ruleset)) if entry.card is not None]
    names = list(map(_CARD_NAME, entries))
    if _SCREENS and len(set(names)) == len(names):  # each name on one line (most decks): copies = its count
        for entry in compress(entries, map(_MORE_THAN_ONE, map(_COUNT, entries))):  # basic lands, mostly
            limit = facts_for(_card(entry)).copy_limit
            if entry.count > limit:
                found.add(
                    Check.SINGLETON,
                    _card(entry).name,
                    "deck.problem.duplicate",
                    copies=entry.count,
                    limit=limit,
                )
        return
    copies: dict[str, int] = {}
    cards: dict[str, Card] = {}
    for entry in entries:
        card = _card(entry)
        copies[card.name] = copies.get(card.name, 0) + entry.count
        cards[card.name] = card
    for name, count in copies.items():
        if count == 1:
            continue
        limit = facts_for(cards[name]).copy_limit
        if count > limit:
            found.add(Check.SINGLETON, name, "deck.problem.duplicate", copies=count, limit=limit)


# The quick answers for a legal deck (singleton, identity, bans and legality) before the per-card code; a test
# switches them off to hold the verdicts with them to the verdicts without (tests/decks/test_fast_paths.py).
_SCREENS = True
_CARD = itemgetter(1)  # DeckCard.card
_CARD_NAME = attrgetter("card.name")
_COUNT = attrgetter("entry.count")
_MORE_THAN_ONE = (1).__lt__
_FACTS = itemgetter(1)  # of an (entry, facts) pair
_FACTS_CARD = attrgetter("card")
_COLOURS = attrgetter("colours")
_VINTAGE = attrgetter("vintage_problem")


def _card(entry: DeckCard) -> Card:
    """The card of an entry from a list that keeps only resolved entries (commanders, checked cards)."""
    if entry.card is None:
        raise ValueError(f"{entry.name!r} has no card: only resolved entries are checked")
    return entry.card


def _checked_cards(deck: ResolvedDeck, ruleset: Ruleset) -> list[DeckCard]:
    sections = [Section.MAIN, Section.COMPANION]
    if ruleset.sideboard_sizes is not None:
        sections.append(Section.SIDEBOARD)
    return [c for c in deck.in_section(*sections) if c.card is not None]


def _check_identity(
    checked: list[tuple[DeckCard, CardFacts]], ruleset: Ruleset, colours: str, found: _Collector
) -> None:
    """D4 / CR 903.5c: every colour of a card within the commander's; D4d / 903.5d for land types."""
    policy = ruleset.identity
    if _SCREENS and set("".join(set(map(itemgetter(policy), map(_COLOURS, map(_FACTS, checked)))))) <= set(
        colours
    ):
        return  # every card's colours within the deck's: decided on the few distinct colour sets
    outside_of: dict[str, str] = {}  # a card's colours -> those outside the deck's (few distinct values)
    for entry, facts in checked:
        card_colours = facts.colours[policy]
        outside = outside_of.get(card_colours)
        if outside is None:
            outside = outside_of[card_colours] = "".join(c for c in card_colours if c not in colours)
        if not outside:
            continue
        origins = facts.identity(policy).origins_of(outside)
        only_land_types = all(o.source is Source.LAND_TYPE for o in origins)
        check = Check.LAND_TYPE if only_land_types else Check.IDENTITY
        found.add(
            check,
            _card(entry).name,
            "deck.problem.colour_identity",
            origins=origins,
            colours=outside,
            identity=colours,
        )


def _check_bans_and_legality(
    checked: list[tuple[DeckCard, CardFacts]], ruleset: Ruleset, found: _Collector
) -> None:
    """D5 / banned list; D6 Vintage legality (edh-2010, duel-zh) or Commander legality (commander)."""
    facts_list = list(map(_FACTS, checked))
    if _SCREENS and not ruleset.may_object(
        list(map(_FACTS_CARD, facts_list)), list(map(_VINTAGE, facts_list))
    ):
        return
    for entry, facts in checked:
        card = _card(entry)
        if ruleset.is_banned(card):
            found.add(Check.BANNED, card.name, "deck.problem.banned")
            continue
        reason = ruleset.legality_problem(card, facts.vintage_problem)
        if reason:
            found.add(Check.LEGALITY, card.name, "deck.problem.not_legal", reason=reason)


def _check_sideboard(deck: ResolvedDeck, ruleset: Ruleset, found: _Collector) -> None:
    """D7: no sideboard, or exactly 10 cards."""
    if ruleset.sideboard_sizes is None:
        return
    count = sum(c.count for c in deck.in_section(Section.SIDEBOARD))
    if count not in ruleset.sideboard_sizes:
        found.add(Check.SIDEBOARD, None, "deck.problem.sideboard_size", count=count)
