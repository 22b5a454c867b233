"""The three rulesets a server can pick (docs/rules/RULES.md, "Rulesets"), as data the deck check reads.

``commander``  today's Commander: CR 903 (docs/rules/RULES.md, today's rules) and the banned list of the card data's
               ``legalities.commander``.
``edh-2010``   the Japanese 2010 document (seed 001): D1–D7, its own banned list (D5) and commander-only
               bans, Vintage legality with Shahrazad allowed (D6), an optional sideboard of 10 (D7).
``duel-zh``    the Chinese 1-vs-1 document (seed 000): D1–D4, D6, D7. It gives no banned list of its
               own, so edh-2010's (D5) applies, as the issue asks.

Vintage legality (D6) is approximated, because the card data has no Vintage field (only
``legalities.commander``):

1. ``not_legal`` in Commander means the data set's non-tournament cards: Un-sets, holiday cards,
   tokens, Vanguard, Planes, Schemes. D6 calls these "not real cards" — illegal.
2. Today's Vintage banned list is applied by its own categories: cards that refer to ante, Conspiracy
   cards, Chaos Orb, Falling Star, and the seven cards Wizards removed from all formats in 2020.
   Shahrazad, the only other Vintage-banned card, is allowed by D6.
3. Vintage's restricted list limits a card to one copy; singleton (D2) is stricter, so it never matters.
New sets are legal from their prerelease (D6): every card the data has is treated as released.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from operator import attrgetter

from bot.cards.model import Card
from bot.domain.rules.identity import CR_903_4, D4_MANA_SYMBOLS, IdentityPolicy


class Check(StrEnum):
    """Every kind of problem a verdict can report; each ruleset cites its own rule ID for it."""

    PARSE = "parse"
    UNKNOWN = "unknown"
    COMMANDER = "commander"
    PARTNER = "partner"
    SIZE = "size"
    SINGLETON = "singleton"
    IDENTITY = "identity"
    LAND_TYPE = "land_type"
    BANNED = "banned"
    BANNED_COMMANDER = "banned_commander"
    LEGALITY = "legality"
    SIDEBOARD = "sideboard"


# D5: "cards to avoid" of the 2010 document (Riftsweeper and Grindstone already removed from it).
EDH_2010_BANNED = frozenset(
    {
        "Ancestral Recall",
        "Balance",
        "Biorhythm",
        "Black Lotus",
        "Channel",
        "Coalition Victory",
        "Fastbond",
        "Gifts Ungiven",
        "Karakas",
        "Kokusho, the Evening Star",
        "Library of Alexandria",
        "Limited Resources",
        "Lion's Eye Diamond",
        "Metalworker",
        "Mox Emerald",
        "Mox Jet",
        "Mox Pearl",
        "Mox Ruby",
        "Mox Sapphire",
        "Painter's Servant",
        "Panoptic Mirror",
        "Protean Hulk",
        "Recurring Nightmare",
        "Staff of Domination",
        "Sway of the Stars",
        "Time Vault",
        "Time Walk",
        "Tinker",
        "Tolarian Academy",
        "Upheaval",
        "Worldgorger Dragon",
        "Yawgmoth's Bargain",
    }
)
# D5: "should not be used as the general".
EDH_2010_BANNED_AS_COMMANDER = frozenset({"Braids, Cabal Minion", "Rofellos, Llanowar Emissary"})

# Today's Vintage banned list, by name (ante and Conspiracy cards are found by their text and type).
VINTAGE_BANNED = frozenset(
    {
        "Chaos Orb",
        "Falling Star",
        "Shahrazad",
        "Cleanse",
        "Crusade",
        "Imprison",
        "Invoke Prejudice",
        "Jihad",
        "Pradesh Gypsies",
        "Stone-Throwing Devils",
    }
)
D6_ALLOWED = frozenset({"Shahrazad"})
_ANTE = re.compile(r"\bante\b", re.IGNORECASE)


def vintage_problem(card: Card) -> str | None:
    """Why ``card`` is not legal in Vintage as D6 reads it (a reason key), or None. See module docstring."""
    if card.name in D6_ALLOWED:
        return None
    if card.commander_legality == "not_legal":
        return "not_real_card"
    if "Conspiracy" in card.type_line:
        return "conspiracy"
    if any(_ANTE.search(face.oracle_text) for face in card.all_faces):
        return "ante"
    if card.name in VINTAGE_BANNED:
        return "vintage_banned"
    return None


def commander_format_problem(card: Card) -> str | None:
    """Today's Commander: the data's legality (banned cards are reported as banned, not here)."""
    return "not_legal_commander" if card.commander_legality == "not_legal" else None


@dataclass(frozen=True)
class Ruleset:
    """What a ruleset checks and which rule ID it cites for each check."""

    name: str
    rule_ids: dict[Check, str]
    identity: IdentityPolicy
    banned_from_data: bool  # legalities.commander == "banned"
    banned_names: frozenset[str]
    banned_as_commander: frozenset[str]
    max_commanders: int  # 2 with a valid pair (702.124), 1 under D3
    commander_text_allowed: bool  # CR 903.3a "can be your commander"
    sideboard_sizes: tuple[int, ...] | None  # None: a sideboard is no part of the deck (ignored)
    deck_size: int = 100

    def rule(self, check: Check) -> str:
        return self.rule_ids[check]

    def is_banned(self, card: Card) -> bool:
        return card.name in self.banned_names or (
            self.banned_from_data and card.commander_legality == "banned"
        )

    def legality_problem(self, card: Card, vintage: str | None) -> str | None:
        """Commander legality from the data (commander), or ``vintage``, the card's D6 problem."""
        if self.banned_from_data:
            return commander_format_problem(card)
        return vintage

    def may_object(self, cards: list[Card], vintage: list[str | None]) -> bool:
        """False when neither ``is_banned`` nor ``legality_problem`` finds anything among ``cards`` (with
        ``vintage``, their D6 problems): the answer for a legal deck in a few passes in C instead of two
        calls per card. True when one of them may (then each card is asked). Must agree with both."""
        if not self.banned_names.isdisjoint(map(_NAME, cards)):
            return True
        if self.banned_from_data:
            return not _OBJECTIONABLE.isdisjoint(map(_LEGALITY, cards))
        return any(vintage)


_NAME = attrgetter("name")
_LEGALITY = attrgetter("commander_legality")
_OBJECTIONABLE = frozenset(("banned", "not_legal"))  # what is_banned / commander_format_problem look for

_COMMON = {Check.PARSE: "PARSE", Check.UNKNOWN: "UNKNOWN"}

COMMANDER = Ruleset(
    name="commander",
    rule_ids={
        **_COMMON,
        Check.COMMANDER: "CR 903.3",
        Check.PARTNER: "CR 702.124",
        Check.SIZE: "CR 903.5a",
        Check.SINGLETON: "CR 903.5b",
        Check.IDENTITY: "CR 903.5c",
        Check.LAND_TYPE: "CR 903.5d",
        Check.BANNED: "BANNED",
        Check.BANNED_COMMANDER: "BANNED",
        Check.LEGALITY: "LEGALITY",
        Check.SIDEBOARD: "CR 903.5a",
    },
    identity=CR_903_4,
    banned_from_data=True,
    banned_names=frozenset(),
    banned_as_commander=frozenset(),
    max_commanders=2,
    commander_text_allowed=True,
    sideboard_sizes=None,
)

_D_RULES = {
    **_COMMON,
    Check.COMMANDER: "D3",
    Check.PARTNER: "D3",
    Check.SIZE: "D1",
    Check.SINGLETON: "D2",
    Check.IDENTITY: "D4",
    Check.LAND_TYPE: "D4d",
    Check.BANNED: "D5",
    Check.BANNED_COMMANDER: "D5",
    Check.LEGALITY: "D6",
    Check.SIDEBOARD: "D7",
}

EDH_2010 = Ruleset(
    name="edh-2010",
    rule_ids=_D_RULES,
    identity=D4_MANA_SYMBOLS,
    banned_from_data=False,
    banned_names=EDH_2010_BANNED,
    banned_as_commander=EDH_2010_BANNED_AS_COMMANDER,
    max_commanders=1,
    commander_text_allowed=False,
    sideboard_sizes=(0, 10),
)

# 000 differs from 001 in nothing the deck check sees (D5's list applies for want of its own, D7 is the
# same 0-or-10), so duel-zh is edh-2010 under another name.
DUEL_ZH = replace(EDH_2010, name="duel-zh")

RULESETS: dict[str, Ruleset] = {r.name: r for r in (COMMANDER, EDH_2010, DUEL_ZH)}


class UnknownRuleset(KeyError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise UnknownRuleset(name) from None
