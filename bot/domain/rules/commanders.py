"""Who may be a commander, and which two commanders may lead a deck together.

* ``D3`` (edh-2010, duel-zh): exactly one commander, a legendary creature card. Not a planeswalker
  (Jace, the Mind Sculptor), not a land that makes a legendary creature (Dark Depths), not a flip card
  whose legendary side is the flipped one (Bushi Tenderfoot: outside the battlefield a flip card has
  its unflipped characteristics).
* ``CR 903.3`` / ``903.3a`` (commander): a legendary creature, or a card whose text says it "can be your
  commander" (Daretti, Scrap Savant), or a legendary card that is a creature while not on the battlefield
  (Grist, the Hunger Tide, as ruled). A Background can lead only beside a "Choose a Background" creature.
* ``CR 702.124`` pairs (commander): both Partner; each other's "Partner with"; both Friends forever;
  Choose a Background + a Background; Doctor's companion + a Doctor.
"""

from __future__ import annotations

import re

from bot.cards.model import Card, Face
from bot.domain.rules.identity import strip_reminder_text

_PARTNER_WITH = re.compile(r"^Partner with (?P<name>[^(\n]+?)\s*(?:\(|$)", re.MULTILINE)
_PARTNER = re.compile(r"^Partner\s*(?:\(|$)", re.MULTILINE)
_FRIENDS_FOREVER = re.compile(r"^Friends forever\s*(?:\(|$)", re.MULTILINE | re.IGNORECASE)
_CHOOSE_BACKGROUND = re.compile(r"^Choose a Background\s*(?:\(|$)", re.MULTILINE | re.IGNORECASE)
_DOCTORS_COMPANION = re.compile(r"^Doctor's companion\s*(?:\(|$)", re.MULTILINE | re.IGNORECASE)
CAN_BE_COMMANDER = "can be your commander"


def _is_legendary_creature(face: Face) -> bool:
    supertypes = face.type_line.split("—", 1)[0]
    return "Legendary" in supertypes and "Creature" in supertypes


def _text(card: Card) -> str:
    return card.front.oracle_text


def can_be_your_commander(card: Card) -> bool:
    """CR 903.3a: the card's own text allows it (outside reminder text)."""
    return CAN_BE_COMMANDER in strip_reminder_text(_text(card))


def is_background(card: Card) -> bool:
    return (
        "Background" in card.front.type_line.split("—", 1)[-1].split()
        and "Enchantment" in card.front.type_line
    )


_CREATURE_OFF_BATTLEFIELD = re.compile(
    r"^As long as (?P<subject>[^\n]+?) isn't on the battlefield, it's an? [^.\n]*\bcreature\b[^.\n]*"
    r"in addition to its other types",
    re.MULTILINE | re.IGNORECASE,
)


def creature_off_battlefield(card: Card) -> bool:
    """A legendary card that is a creature wherever it is but the battlefield (Grist, the Hunger Tide).

    In the command zone it is a legendary creature card, so it may be a commander (CR 903.3, as ruled
    for Grist); the 2010 rules (D3) name planeswalkers as never allowed and keep it out."""
    front = card.front
    if (
        "Legendary" not in front.type_line.split("—", 1)[0]
        or " isn't on the battlefield" not in front.oracle_text
    ):
        return False
    match = _CREATURE_OFF_BATTLEFIELD.search(strip_reminder_text(front.oracle_text))
    return match is not None and match.group("subject") in (front.name, "this card", "This card")


def ineligibility(card: Card, *, allow_text: bool) -> str | None:
    """Why ``card`` can't be a commander (a reason key ``deck.commander.<reason>``), or None.

    ``allow_text`` is the present rules' CR 903.3 reading: "can be your commander" (903.3a) and cards
    that are creatures off the battlefield (``creature_off_battlefield``), which the 2010 rules (D3) don't know.
    """
    front = card.front
    if _is_legendary_creature(front):
        return None
    if allow_text and (can_be_your_commander(card) or creature_off_battlefield(card)):
        return None
    back = card.faces[1] if len(card.faces) > 1 else None
    if card.layout == "flip" and back is not None and _is_legendary_creature(back):
        return "flip_card"
    if (
        back is not None
        and card.layout in ("transform", "modal_dfc", "meld")
        and _is_legendary_creature(back)
    ):
        return "back_face"
    supertypes = front.type_line.split("—", 1)[0]
    if "Planeswalker" in supertypes:
        return "planeswalker_text" if allow_text else "planeswalker"
    if allow_text and is_background(card):
        return "background_alone"
    if "Legendary" in supertypes:
        return "not_creature"
    if "Creature" in supertypes:
        return "not_legendary"
    return "not_legendary_creature"


def _partner_with(card: Card) -> str | None:
    match = _PARTNER_WITH.search(_text(card))
    return match.group("name").strip() if match else None


def _has(pattern: re.Pattern[str], card: Card) -> bool:
    return bool(pattern.search(_text(card)))


def _is_doctor(card: Card) -> bool:
    subtypes = card.front.type_line.split("—", 1)[-1].split()
    return _is_legendary_creature(card.front) and "Doctor" in subtypes and "Time" in subtypes


def valid_pair(first: Card, second: Card) -> bool:
    """CR 702.124 and friends: may these two lead one deck together?"""
    first_with, second_with = _partner_with(first), _partner_with(second)
    if first_with or second_with:
        return first_with == second.name and second_with == first.name
    if _has(_PARTNER, first) and _has(_PARTNER, second):
        return True
    if _has(_FRIENDS_FOREVER, first) and _has(_FRIENDS_FOREVER, second):
        return True
    for one, other in ((first, second), (second, first)):
        if _has(_CHOOSE_BACKGROUND, one) and is_background(other):
            return True
        if _has(_DOCTORS_COMPANION, one) and _is_doctor(other):
            return True
    return False


def pair_eligible(card: Card, other: Card) -> bool:
    """A Background is eligible only beside a "Choose a Background" commander (CR 903.3)."""
    return is_background(card) and _has(_CHOOSE_BACKGROUND, other)
