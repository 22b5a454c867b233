"""Everything the deck rules ask about one card, worked out once per card and then reused.

A deck check asks the same questions of the same cards again and again (every check of every deck
under every ruleset); answering them from text each time cost ~5 ms per deck. ``facts_for`` caches
the answers per card object: the cached entry keeps a reference to its card, so a card database
reload (new objects) is never answered from stale facts.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from bot.cards.model import Card
from bot.domain.rules.identity import CR_903_4, D4_MANA_SYMBOLS, Identity, IdentityPolicy, card_identity
from bot.domain.rules.rulesets import vintage_problem

UNLIMITED = 10**6
_ANY_NUMBER = re.compile(r"A deck can have any number of cards named", re.IGNORECASE)
_UP_TO = re.compile(r"A deck can have up to (\w+) cards named", re.IGNORECASE)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10}
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
    colours: dict[IdentityPolicy, str]          # every colour, land types included (what 903.5c+d / D4 check)
    copy_limit: int
    vintage_problem: str | None                 # D6, see rulesets.vintage_problem

    def identity(self, policy: IdentityPolicy) -> Identity:
        return self.identities[policy]


_cache: dict[str, CardFacts] = {}


def facts_for(card: Card) -> CardFacts:
    cached = _cache.get(card.name)
    if cached is not None and cached.card is card:
        return cached
    identities = {policy: card_identity(card, policy) for policy in (CR_903_4, D4_MANA_SYMBOLS)}
    facts = CardFacts(card, identities, {p: i.colours() for p, i in identities.items()},
                      copy_limit(card), vintage_problem(card))
    report_disagreement(card, facts.colours[CR_903_4])
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[card.name] = facts
    return facts


def report_disagreement(card: Card, ours: str) -> bool:
    """Log (once per card) when our CR 903.4 identity differs from the card data's ``color_identity``.

    ``ours`` counts land types, as Scryfall and MTGJSON fold 903.5d into ``color_identity``.
    """
    if ours == card.color_identity:
        return False
    if card.name not in _reported_disagreements:
        _reported_disagreements.add(card.name)
        log.warning("colour identity of %s: computed %r from its text, card data says %r",
                    card.name, ours or "colourless", card.color_identity or "colourless")
    return True
