"""A parsed deck list with each name resolved to a card (or to "did you mean" suggestions).

Resolution goes through anything with ``resolve(name)`` returning an object with ``card``,
``suggestions`` and ``ambiguous`` — in practice ``bot.cards.index.CardIndex``, the one name
resolution every command shares. Japanese and Chinese names resolve there too.

"Did you mean" is the one costly step (a fuzzy scan of ~24k names, a few ms per unknown name), so a
check spends it on a bounded number of names: ``SuggestionBudget`` (the first ``SUGGESTED_NAMES``
unknown names, within ``SUGGESTION_SECONDS``). Later unknown names are still listed as unknown, without
suggestions, and ``ResolvedDeck.unsuggested`` counts them so the verdict can say so. A list of 1,000
unknown names then costs about what a normal deck costs instead of many seconds.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import compress
from operator import attrgetter
from typing import NamedTuple, Protocol, cast

from bot.cards.index import NewerThanData
from bot.cards.model import Card
from bot.domain.decklist import DeckLine, Decklist, LineIssue, Section
from bot.domain.rules.records import rules_records

SUGGESTED_NAMES = 20  # "did you mean" for the first 20 unknown names of a list
SUGGESTION_SECONDS = 2.0  # ... and only while the check's suggestions have taken less than this


class _Resolution(Protocol):  # read-only members: a frozen dataclass (CardIndex's Resolution) fits
    @property
    def card(self) -> Card | None: ...
    @property
    def suggestions(self) -> tuple[str, ...]: ...
    @property
    def ambiguous(self) -> tuple[str, ...]: ...


class CardResolver(Protocol):
    def resolve(self, name: str) -> _Resolution: ...


class DeckCard(NamedTuple):
    """One entry of the list with its card; ``card`` is None for an unknown or ambiguous name.

    A NamedTuple: every check builds ~100 of them, and a frozen dataclass costs several times more."""

    entry: DeckLine
    card: Card | None
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()
    newer: NewerThanData | None = None  # unknown, and close to no card: it may be newer than the data

    @property
    def count(self) -> int:  # type: ignore[override]  # the entry's copies; tuple.count() is never used
        return self.entry.count

    @property
    def section(self) -> Section:
        return self.entry.section

    @property
    def name(self) -> str:
        """The English name when known, else the name as written."""
        return self.card.name if self.card is not None else self.entry.name


@dataclass(frozen=True)
class ResolvedDeck:
    """Everything a legality check needs, with nothing looked up any more."""

    cards: tuple[DeckCard, ...]
    issues: tuple[LineIssue, ...] = ()
    ignored: tuple[DeckLine, ...] = ()
    notes: tuple[str, ...] = ()
    unsuggested: int = 0  # unknown names left without "did you mean" (the suggestion budget ran out)

    @cached_property
    def _by_section(self) -> dict[Section, list[DeckCard]]:
        grouped: dict[Section, list[DeckCard]] = dict.fromkeys(Section, _NONE)
        sections = list(map(_SECTION_OF, self.cards))
        for section in dict.fromkeys(sections):  # the few sections present, each gathered in one pass
            grouped[section] = list(compress(self.cards, map(section.__eq__, sections)))
        return grouped

    def in_section(self, *sections: Section) -> list[DeckCard]:
        """The cards of ``sections``, in list order within each section."""
        if len(sections) == 1:
            return self._by_section[sections[0]].copy()
        return [card for section in sections for card in self._by_section[section]]

    @property
    def commanders(self) -> list[DeckCard]:
        return self.in_section(Section.COMMANDER)

    @property
    def unresolved(self) -> list[DeckCard]:
        return [card for card in self.cards if card.card is None]

    @cached_property
    def main_count(self) -> int:
        """The 100 of D1 / CR 903.5a: commander(s) and main deck."""
        return sum(map(_COUNT_OF, self.in_section(Section.COMMANDER, Section.MAIN)))


_SECTION_OF = attrgetter("entry.section")
_COUNT_OF = attrgetter("entry.count")
# The same two properties read by C getters instead (no Python frame: a check reads them for every card).
setattr(DeckCard, "count", property(_COUNT_OF, doc="The entry's copies; tuple.count() is never used."))  # noqa: B010
setattr(DeckCard, "section", property(_SECTION_OF, doc="The entry's section."))  # noqa: B010
_NONE: list[DeckCard] = []  # the list of an absent section: only ever copied or read
# ``DeckCard(entry, card)`` without the Python frame of a NamedTuple's ``__new__`` (see decklist._deck_line).
_deck_card: Callable[[tuple[DeckLine, Card, tuple[str, ...], tuple[str, ...], None]], DeckCard] = partial(
    tuple.__new__, DeckCard
)
_Known = tuple[Card | None, tuple[str, ...], tuple[str, ...], NewerThanData | None]  # what a name resolved to


class SuggestionBudget:
    """How much "did you mean" work one check may do: ``names`` unknown names, ``seconds`` in all.

    Counted per check (a fresh budget each time), so one huge list can't hold a worker for long and a
    normal deck with a few typos gets every suggestion."""

    def __init__(
        self,
        names: int = SUGGESTED_NAMES,
        seconds: float = SUGGESTION_SECONDS,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.names, self.seconds, self.clock = names, seconds, clock
        self.suggested = 0
        self.spent = 0.0

    def allows(self) -> bool:
        return self.suggested < self.names and self.spent < self.seconds


def without_suggestions(resolver: CardResolver) -> CardResolver:
    """The same resolver with "did you mean" switched off (same tiers, same cards, no fuzzy scan).

    The card index computes suggestions in its ``suggest`` method; a shallow copy whose ``suggest``
    answers nothing resolves exactly like the original for every name it knows. A resolver without
    such a method is returned as it is (it has no costly step to skip)."""
    target = getattr(resolver, "index", resolver)  # CardDatabase wraps the CardIndex
    own_switch = getattr(target, "without_suggestions", None)  # the card index has its own
    if callable(own_switch):
        return cast(CardResolver, own_switch())
    if not callable(getattr(target, "suggest", None)):
        return resolver
    quiet = copy.copy(target)
    try:
        quiet.suggest = _no_suggestions  # type: ignore[union-attr]  # has ``suggest``: checked just above
    except AttributeError:  # a class with __slots__: no way to switch it off from here
        return resolver
    return quiet


def _no_suggestions(name: str, limit: int = 0) -> tuple[str, ...]:
    return ()


def resolve_decklist(
    decklist: Decklist,
    resolver: CardResolver,
    commander_names: Iterable[str] = (),
    budget: SuggestionBudget | None = None,
) -> ResolvedDeck:
    """Look every name up; ``commander_names`` (a command option) overrides the list's commanders.

    With the option, a named commander that the list has in its main deck is moved out of it (the
    list was pasted as 100 cards), and list commanders not named by the option become main-deck cards.
    ``budget`` bounds the "did you mean" work (default: a fresh ``SuggestionBudget``).
    """
    budget = budget if budget is not None else SuggestionBudget()
    quiet = without_suggestions(resolver)
    entries = list(decklist.entries)
    notes = list(decklist.notes)
    chosen = [name.strip() for name in commander_names if name and name.strip()]
    if chosen:
        entries, moved = _apply_commander_option(entries, chosen, quiet)
        if moved:
            notes.append("commander_moved_to_main")
    cache: dict[str, _Known] = {}
    exact = _exact(
        resolver
    )  # pragma: no mutate (a fast path: resolve() answers an exact English name with the same card)
    cards: list[DeckCard] = []
    lookup = _lookup(resolver)
    unsuggested = 0
    found = list(map(exact, map(_NAME_OF, entries))) if exact is not None else [None] * len(entries)
    for entry, card in zip(entries, found, strict=True):
        if card is not None and not card.faces and card.layout != "meld":
            cards.append(_deck_card((entry, card, (), (), None)))  # the common case
            continue
        suggestions: tuple[str, ...] = ()
        ambiguous: tuple[str, ...] = ()
        if card is None:
            known = cache.get(entry.name)
            if known is None:
                known, skipped = _resolve(resolver, quiet, budget, entry.name)
                cache[entry.name] = known
                unsuggested += skipped
            card, suggestions, ambiguous, newer = known
            if card is None:
                cards.append(DeckCard(entry, None, suggestions, ambiguous, newer))
                continue
        # Merged "Partner with" records and meld back faces are read as the cards they are (rules.records).
        cards.extend(
            DeckCard(entry, record, suggestions, ambiguous)
            for record in rules_records(card, entry.name, lookup)
        )
    return ResolvedDeck(tuple(cards), decklist.issues, decklist.ignored, tuple(notes), unsuggested)


_NAME_OF = attrgetter("name")


def _exact(resolver: CardResolver) -> Callable[[str], Card | None] | None:
    """The exact English name lookup, no Resolution built: ``exact_lookup()`` (the card index's own mapping
    method) or ``get``; None for a resolver with neither."""
    exact_lookup = getattr(resolver, "exact_lookup", None)
    if exact_lookup is not None:
        return cast(Callable[[str], Card | None], exact_lookup())
    return cast(Callable[[str], Card | None] | None, getattr(resolver, "get", None))


def _lookup(resolver: CardResolver) -> Callable[[str], Card | None]:
    """Exact English name -> card, for the front faces of a meld back face."""
    exact = getattr(resolver, "get", None)
    if exact is not None:
        return cast(Callable[[str], Card | None], exact)
    return lambda name: resolver.resolve(name).card


def _resolve(
    resolver: CardResolver, quiet: CardResolver, budget: SuggestionBudget, name: str
) -> tuple[_Known, bool]:
    """The full resolution (printed names, faces, suggestions) for a name that is not exact English,
    and whether it is an unknown name left without suggestions because the budget was spent."""
    if not budget.allows():
        resolution = quiet.resolve(name)
        unknown = resolution.card is None and not resolution.ambiguous
        return _known(resolution), unknown
    started = budget.clock()
    resolution = resolver.resolve(name)
    if resolution.card is None and not resolution.ambiguous:
        budget.suggested += 1
        budget.spent += budget.clock() - started
    return _known(resolution), False


def _known(resolution: _Resolution) -> _Known:
    """What a resolution says about a name; ``newer`` only from resolvers that judge it (the card index)."""
    return (
        resolution.card,
        tuple(resolution.suggestions),
        tuple(resolution.ambiguous),
        getattr(resolution, "newer", None),
    )


def _apply_commander_option(
    entries: list[DeckLine], chosen: list[str], resolver: CardResolver
) -> tuple[list[DeckLine], bool]:
    def key(name: str) -> str:
        card = resolver.resolve(name).card
        return card.name if card is not None else name.casefold()

    wanted = {key(name): name for name in chosen}
    out: list[DeckLine] = []
    moved = False
    for entry in entries:
        entry_key = key(entry.name)
        if entry.section is Section.COMMANDER and entry_key not in wanted:
            out.append(DeckLine(entry.count, entry.name, Section.MAIN, entry.line))
            moved = True
            continue
        if entry.section is Section.COMMANDER:
            wanted.pop(entry_key)
            out.append(entry)
            continue
        if entry.section is Section.MAIN and entry_key in wanted:
            out.append(DeckLine(1, entry.name, Section.COMMANDER, entry.line))
            wanted.pop(entry_key)
            if entry.count > 1:
                out.append(DeckLine(entry.count - 1, entry.name, Section.MAIN, entry.line))
            continue
        out.append(entry)
    out[:0] = [DeckLine(1, name, Section.COMMANDER, 0) for name in wanted.values()]
    return out, moved
