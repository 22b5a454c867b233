"""Deck rules: rulesets (commander, edh-2010, duel-zh), colour identity, legality, deck summary.

Plain Python: no Discord, no SQL, no I/O. ``check_deck(resolve_decklist(parse_decklist(text), index),
get_ruleset(name))`` is the whole deck check.
"""

from bot.domain.rules.deck import CardResolver, DeckCard, ResolvedDeck, resolve_decklist
from bot.domain.rules.legality import Note, Problem, Verdict, check_deck
from bot.domain.rules.rulesets import RULESETS, Check, Ruleset, UnknownRuleset, get_ruleset
from bot.domain.rules.summary import DeckSummary, summarise

__all__ = [
    "RULESETS",
    "CardResolver",
    "Check",
    "DeckCard",
    "DeckSummary",
    "Note",
    "Problem",
    "ResolvedDeck",
    "Ruleset",
    "UnknownRuleset",
    "Verdict",
    "check_deck",
    "get_ruleset",
    "resolve_decklist",
    "summarise",
]
