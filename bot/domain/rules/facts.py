"""Everything the deck rules ask about one card, worked out once per card and then reused.

A deck check asks the same questions of the same cards again and again (every check of every deck
under every ruleset); answering them from text each time cost ~5 ms per deck. ``facts_for`` caches
the answers per card object: the cached entry keeps a reference to its card, so a card database
reload (new objects) is never answered from stale facts.

The facts of every card are also worked out once per card data version and stored with the cards
(``pack_facts``, kept by ``bot.cards.database`` in ``card_snapshots``): a process that has never seen a
card reads its facts instead of working them out from its text (the first check of a new deck). The
stored facts are tagged with a ``fingerprint`` of the code that computes them, so changing the rules
code (identity, copy limits, D6) makes every process work them out again instead of trusting old ones.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cards import mana as mana_module
from bot.cards.model import Card
from bot.domain.rules import identity as identity_module
from bot.domain.rules import rulesets as rulesets_module
from bot.domain.rules.identity import (
    CR_903_4,
    D4_MANA_SYMBOLS,
    ColourOrigin,
    Identity,
    IdentityPolicy,
    Source,
    card_identity,
)
from bot.domain.rules.rulesets import vintage_problem

UNLIMITED = 10**6
_ANY_NUMBER = re.compile(r"A deck can have any number of cards named", re.IGNORECASE)
_UP_TO = re.compile(r"A deck can have up to (\w+) cards named", re.IGNORECASE)
_NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_CACHE_LIMIT = 100_000
log = logging.getLogger(__name__)
_reported_disagreements: set[str] = set()


def copy_limit(card: Card) -> int:
    """How many copies D2 / CR 903.5b allow: basic lands (snow-covered, Wastes) and "A deck can have any
    number of cards named ..." unlimited; "up to seven cards named Seven Dwarves" 7; otherwise 1.

    The card's own text takes precedence over the rules (CR 101.1) in every ruleset, 2010 included.
    """
    if "Basic" in card.front.type_line.split("—", 1)[0]:
        return UNLIMITED
    text = card.oracle_text or card.front.oracle_text
    if _ANY_NUMBER.search(text):
        return UNLIMITED
    match = _UP_TO.search(text)
    if match:
        word = match.group(1).lower()
        return int(word) if word.isdigit() else _NUMBER_WORDS.get(word, 1)
    return 1


@dataclass(frozen=True, slots=True)
class CardFacts:
    card: Card
    identities: dict[IdentityPolicy, Identity]
    colours: dict[IdentityPolicy, str]  # every colour, land types included (what 903.5c+d / D4 check)
    copy_limit: int
    vintage_problem: str | None  # D6, see rulesets.vintage_problem

    def identity(self, policy: IdentityPolicy) -> Identity:
        return self.identities[policy]


_cache: dict[str, CardFacts] = {}


def facts_for(card: Card) -> CardFacts:
    cached = _cache.get(card.name)  # pragma: no mutate (a cache: a mutant only redoes work)
    if cached is not None and cached.card is card:
        return cached
    facts = _stored.facts(card) if _stored is not None else None
    if facts is None:
        facts = _work_out(card)
    report_disagreement(card, facts.colours[CR_903_4])
    if len(_cache) >= _CACHE_LIMIT:  # pragma: no mutate (a cache: a mutant only redoes work)
        _cache.clear()  # pragma: no mutate (a cache: a mutant only redoes work)
    _cache[card.name] = facts  # pragma: no mutate (a cache: a mutant only redoes work)
    return facts


def facts_of(cards: Iterable[Card]) -> list[CardFacts]:
    """``facts_for`` of each card, the cached ones read without a call per card (a check asks for ~100)."""
    cached = _cache.get
    return [
        facts if (facts := cached(card.name)) is not None and facts.card is card else facts_for(card)
        for card in cards
    ]


def _work_out(card: Card) -> CardFacts:
    identities = {policy: card_identity(card, policy) for policy in _POLICIES}
    return CardFacts(
        card,
        identities,
        {p: i.colours() for p, i in identities.items()},
        copy_limit(card),
        vintage_problem(card),
    )


_POLICIES = (CR_903_4, D4_MANA_SYMBOLS)


# -- facts stored with the card data ------------------------------------------------------------------

_fingerprint: str | None = None
_RULES_CODE = (identity_module, rulesets_module, mana_module, sys.modules[__name__])


def fingerprint() -> str | None:
    """``facts-<hash of the source of the code that computes the facts>``; None when the source is not
    readable (then nothing is stored or read: facts are always worked out)."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        try:
            for module in _RULES_CODE:
                digest.update(Path(str(module.__file__)).read_bytes())
        except OSError:
            _fingerprint = ""
        else:
            _fingerprint = f"facts-{digest.hexdigest()[:16]}"
    return _fingerprint or None


def _pack_identity(identity: Identity) -> tuple[tuple[str, str, str | None], ...]:
    return tuple((o.colour, o.source.value, o.face) for o in identity.origins)


def pack_facts(cards: Iterable[Card]) -> bytes:
    """The facts of ``cards`` as one blob for ``use_stored_facts``: each distinct set of facts once,
    and per card the number of its set."""
    table: dict[tuple[Any, ...], int] = {}
    names: list[str] = []
    numbers: list[int] = []
    for card in cards:
        facts = _work_out(card)
        packed = (
            *(_pack_identity(facts.identities[p]) for p in _POLICIES),
            facts.copy_limit,
            facts.vintage_problem,
        )
        names.append(card.name)
        numbers.append(table.setdefault(packed, len(table)))
    identity_module._cache.clear()  # filled with every card just now; a cache, so emptying it is safe
    return marshal.dumps((tuple(table), names, numbers))


class _StoredFacts:
    """Stored facts for the cards ``lookup`` returns; read from the blob on first use (a process that
    checks no deck never pays for them)."""

    def __init__(self, blob: bytes, lookup: Callable[[str], Card | None]) -> None:
        self._blob = blob
        self._lookup = lookup
        self._table: tuple[Any, ...] = ()
        self._numbers: dict[str, int] | None = None

    def facts(self, card: Card) -> CardFacts | None:
        if self._lookup(card.name) is not card:  # a card of other data (an older import, a test's own card)
            return None
        if self._numbers is None:
            self._table, names, numbers = marshal.loads(self._blob)
            self._numbers = dict(zip(names, numbers, strict=True))
            self._blob = b""
        number = self._numbers.get(card.name)
        if number is None:
            return None
        *identities, limit, vintage = self._table[number]
        unpacked = {
            policy: Identity(
                tuple(ColourOrigin(colour, Source(source), face) for colour, source, face in origins)
            )
            for policy, origins in zip(_POLICIES, identities, strict=True)
        }
        return CardFacts(card, unpacked, {p: i.colours() for p, i in unpacked.items()}, limit, vintage)


_stored: _StoredFacts | None = None


def use_stored_facts(blob: bytes, lookup: Callable[[str], Card | None]) -> None:
    """Answer ``facts_for`` from ``blob`` (``pack_facts``) for the cards ``lookup`` returns (the card
    database's current cards: facts of any other card object are worked out as before)."""
    global _stored
    _stored = _StoredFacts(blob, lookup)


def report_disagreement(card: Card, ours: str) -> bool:
    """Log (once per card) when our CR 903.4 identity differs from the card data's ``color_identity``.

    ``ours`` counts land types, as Scryfall and MTGJSON fold 903.5d into ``color_identity``.
    """
    if ours == card.color_identity:
        return False
    if card.name not in _reported_disagreements:
        _reported_disagreements.add(card.name)
        log.warning(
            "colour identity of %s: computed %r from its text, card data says %r",
            card.name,
            ours or "colourless",
            card.color_identity or "colourless",
        )
    return True
