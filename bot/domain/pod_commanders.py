"""Whether the commander(s) a player names at the table may lead a deck under the game's ruleset.

``/pod commander`` used to take any card name; it now applies the same rules as a deck check (D3 /
CR 903.3 who may lead, CR 702.124 which two may lead together, the ruleset's "banned as commander"
list), so the board never shows a game led by a land or by two commanders that can't pair. Plain
Python: the caller resolves names to cards and translates the reason it gets back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.cards.model import Card
from bot.domain.rules.commanders import ineligibility, pair_eligible, valid_pair
from bot.domain.rules.rulesets import get_ruleset


def is_meld_result(card: Card) -> bool:
    """A melded permanent's card (Brisela, Voice of Nightmares): the back halves of two cards, which a
    deck can't hold as one card, so no commander. Its fronts each say "meld them into" it; it says not."""
    return (
        card.layout == "meld"
        and not card.faces
        and card.name in card.meld_parts
        and "meld them into" not in card.oracle_text
    )


def commander_problem(cards: Sequence[Card], ruleset_name: str) -> tuple[str, dict[str, Any]] | None:
    """The first reason (an i18n key of the deck checks and its values) these commanders can't lead
    together under ``ruleset_name``, or None. A ``reason`` value is itself a key to translate."""
    ruleset = get_ruleset(ruleset_name)
    if len(cards) > ruleset.max_commanders:
        return "deck.problem.too_many_commanders", {"count": len(cards), "limit": ruleset.max_commanders}
    for card in cards:
        if is_meld_result(card):
            return "deck.problem.commander_ineligible", {
                "card": card.name,
                "reason": "deck.commander.meld_result",
            }
        others = [other for other in cards if other is not card]
        reason = ineligibility(card, allow_text=ruleset.commander_text_allowed)
        # ``others`` is empty under a one-commander ruleset: more cards were refused above.
        if reason and not any(pair_eligible(card, o) for o in others):
            return "deck.problem.commander_ineligible", {
                "card": card.name,
                "reason": f"deck.commander.{reason}",
            }
        if card.name in ruleset.banned_as_commander:
            return "deck.problem.banned_as_commander", {"card": card.name}
    if len(cards) == 2 and not valid_pair(*cards):
        return "deck.problem.invalid_pair", {"card": cards[0].name, "other": cards[1].name}
    return None
