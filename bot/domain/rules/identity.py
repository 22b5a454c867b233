"""Colour identity, computed by Podkeeper itself from each card's text (never copied from the data).

Two readings, one algorithm (an ``IdentityPolicy`` says which parts of a card count):

* ``CR 903.4`` (ruleset ``commander``): the colours of mana symbols in the mana cost and rules text of
  every face (back faces 903.4d, adventures and other alternative characteristics 903.4e), reminder
  text ignored (903.4c), plus colour indicators (204) and characteristic-defining abilities that set a
  colour ("Transguild Courier is all colors", 604.3). Basic land types are not part of 903.4 but
  903.5d forbids a land type whose mana is outside the identity; we record them as a separate source.
* ``D4`` (rulesets ``edh-2010`` and ``duel-zh``): "every mana symbol anywhere on a card" — cost and rules
  text of every face, reminder text ignored (D4b), hybrid counts as all its colours (D4a), snow
  symbols colourless (D4c), and a basic land type *is* a mana symbol (D4d). Colour indicators and
  colour-setting abilities are not mana symbols, so they do not count.

Records the data stores differently from the cards (merged "Partner with" pairs, meld back faces) are
read as the cards they are: see ``bot.domain.rules.records``.

The result keeps *where* each colour came from so a verdict can say "red, from the colour indicator
of Homicidal Brute" instead of just "red".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.cards.mana import symbols
from bot.cards.model import WUBRG, Card, Face, wubrg
from bot.domain.rules.records import is_merged_partners

_REMINDER = re.compile(r"\([^()]*\)")
_COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_IDENTITY_CACHE_LIMIT = 100_000


class Source(StrEnum):
    """Where on a card a colour comes from (message keys ``deck.source.<value>``)."""

    COST = "cost"
    RULES_TEXT = "rules_text"
    COLOUR_INDICATOR = "colour_indicator"
    CDA = "cda"
    LAND_TYPE = "land_type"


@dataclass(frozen=True, slots=True, eq=False)
class IdentityPolicy:
    """Which parts of a card give colour identity under a ruleset.

    Compared by identity (``eq=False``): there are two module constants, and a policy is a dict key in
    every per-card lookup, where a field-by-field hash was a measurable cost."""

    name: str
    colour_indicator: bool
    characteristic_defining: bool
    land_types_are_symbols: bool  # D4d: a commander's land type is part of its colours too


CR_903_4 = IdentityPolicy(
    "CR 903.4", colour_indicator=True, characteristic_defining=True, land_types_are_symbols=False
)
D4_MANA_SYMBOLS = IdentityPolicy(
    "D4", colour_indicator=False, characteristic_defining=False, land_types_are_symbols=True
)


@dataclass(frozen=True, slots=True)
class ColourOrigin:
    """One colour and one place it comes from; ``face`` is set when it is not the front face."""

    colour: str
    source: Source
    face: str | None = None


@dataclass(frozen=True, slots=True)
class Identity:
    """A card's colour identity with the origin of every colour."""

    origins: tuple[ColourOrigin, ...]

    def colours(self, *, land_types: bool = True) -> str:
        """The colours in WUBRG order; ``land_types=False`` leaves out colours only a land type gives."""
        return wubrg(o.colour for o in self.origins if land_types or o.source is not Source.LAND_TYPE)

    def origins_of(self, colours: str) -> tuple[ColourOrigin, ...]:
        return tuple(o for o in self.origins if o.colour in colours)


def strip_reminder_text(text: str) -> str:
    """Rules text without reminder text (CR 903.4c, D4b: Trinisphere's example {B} is not a symbol)."""
    previous = None
    while previous != text:  # nested parentheses, innermost first
        previous, text = text, _REMINDER.sub("", text)
    return text


def symbol_colours(symbol: str) -> set[str]:
    """Colours a mana symbol shows: hybrid all of them (D4a), Phyrexian its colour, snow none (D4c).

    Also reads Unhinged half-mana symbols ("HW")."""
    colours = {part for part in symbol.split("/") if part in WUBRG}
    if not colours and len(symbol) == 2 and symbol[0] == "H" and symbol[1] in WUBRG:
        colours.add(symbol[1])
    return colours


def text_colours(text: str) -> set[str]:
    colours: set[str] = set()
    for symbol in symbols(text):
        colours |= symbol_colours(symbol)
    return colours


_DEFINES_COLOUR = re.compile(
    r"^(?P<subject>[^.\n]+?) is (?P<words>all colors|(?:(?:white|blue|black|red|green)(?:, | and |, and )?)+)\.$",
    re.MULTILINE,
)


def defined_colours(face: Face) -> set[str]:
    """Colours set by a characteristic-defining ability: "<name> is all colors." / "... is blue and red." """
    if " is " not in face.oracle_text:
        return set()
    colours: set[str] = set()
    for match in _DEFINES_COLOUR.finditer(strip_reminder_text(face.oracle_text)):
        if match.group("subject") not in (face.name, "This card", "This spell"):
            continue
        words = match.group("words")
        if words == "all colors":
            return set(WUBRG)
        colours |= {letter for word, letter in _COLOUR_WORDS.items() if word in words}
    return colours


def land_type_colours(type_line: str) -> set[str]:
    """Colours of the basic land types in a type line (D4d, CR 903.5d); words in rules text don't count."""
    if "—" not in type_line:
        return set()
    subtypes = type_line.split("—", 1)[1].split()
    return {colour for land, colour in _LAND_TYPES.items() if land in subtypes}


def _face_origins(face: Face, front: bool, policy: IdentityPolicy) -> list[ColourOrigin]:
    where = None if front else face.name
    found: list[ColourOrigin] = []
    for colour in text_colours(face.mana_cost):
        found.append(ColourOrigin(colour, Source.COST, where))
    for colour in text_colours(strip_reminder_text(face.oracle_text)):
        found.append(ColourOrigin(colour, Source.RULES_TEXT, where))
    if policy.colour_indicator:
        # A face without a mana cost that still has colours shows a colour indicator; some records
        # (meld back faces) keep only its colours.
        indicator = face.color_indicator or ("" if face.mana_cost else face.colors)
        for colour in indicator:
            found.append(ColourOrigin(colour, Source.COLOUR_INDICATOR, where))
    if policy.characteristic_defining:
        for colour in defined_colours(face):
            found.append(ColourOrigin(colour, Source.CDA, where))
    for colour in land_type_colours(face.type_line):
        found.append(ColourOrigin(colour, Source.LAND_TYPE, where))
    return found


_cache: dict[tuple[object, ...], Identity] = {}


def card_identity(card: Card, policy: IdentityPolicy) -> Identity:
    """The colour identity of ``card`` under ``policy`` (all faces: 903.4d/e; D4 "anywhere on a card").

    Cached per card text: a deck check looks at the same cards over and over.
    """
    key = (
        policy,
        card.name,
        card.mana_cost,
        card.oracle_text,
        card.type_line,
        card.color_indicator,
        tuple((f.mana_cost, f.oracle_text, f.type_line, f.color_indicator) for f in card.faces),
    )
    cached = _cache.get(key)  # pragma: no mutate (a cache: a mutant only redoes work)
    if cached is not None:
        return cached
    origins: list[ColourOrigin] = []
    # Two "Partner with" cards merged into one record are two cards: the record speaks for its front.
    faces = (card.front,) if is_merged_partners(card) else card.all_faces
    for position, face in enumerate(faces):
        origins.extend(_face_origins(face, position == 0, policy))
    if card.faces and policy.colour_indicator:
        # Some records carry the indicator only on the card (Dryad Arbor-like data).
        origins.extend(ColourOrigin(c, Source.COLOUR_INDICATOR) for c in card.color_indicator)
    ordered = tuple(sorted(dict.fromkeys(origins), key=lambda o: (WUBRG.index(o.colour), o.face or "")))
    identity = Identity(ordered)
    if len(_cache) >= _IDENTITY_CACHE_LIMIT:  # pragma: no mutate (a cache: a mutant only redoes work)
        _cache.clear()  # pragma: no mutate (a cache: a mutant only redoes work)
    _cache[key] = identity  # pragma: no mutate (a cache: a mutant only redoes work)
    return identity


def combined_colours(identities: list[Identity], *, land_types: bool = True) -> str:
    """The colours of several cards together (two partner commanders)."""
    return wubrg(c for identity in identities for c in identity.colours(land_types=land_types))
