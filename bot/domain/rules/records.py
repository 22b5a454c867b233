"""Card records the rules must read differently from how some card data stores them.

* **Merged "Partner with" pairs.** Some data (MTGJSON 3, in the bundled set) stores Battlebond's Rowan
  Kenrith and Will Kenrith as one record with two faces, "Rowan Kenrith // Will Kenrith". They are two
  cards: a deck line naming one face is that card alone (its own identity, its own "Partner with"); a
  line naming the whole record is both cards.
* **Meld back faces.** Brisela, Voice of Nightmares is no card of its own: it is the back of Gisela and
  Bruna. Its record has no mana cost and, in some data, no colours; its colour identity is that of its
  front faces (every mana symbol on the physical cards), so the rules read it with those faces added.

Everything else passes through unchanged. Derived records are kept per source record, so the per-card
caches of the rules (keyed by the card object) keep working.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from bot.cards.model import Card, Face

_PARTNER_WITH = re.compile(r"^Partner with (?P<name>[^(\n]+?)\s*(?:\(|$)", re.MULTILINE)
_MULTI_FACE_LAYOUTS = frozenset(("split", "flip", "transform", "modal_dfc", "adventure", "meld"))
_derived: dict[tuple[int, str], tuple[Card, tuple[Card, ...]]] = {}
_DERIVED_LIMIT = 10_000

Lookup = Callable[[str], Card | None]


def partner_with(face: Face) -> str | None:
    """The name after "Partner with" on a face (CR 702.124j), if any."""
    match = _PARTNER_WITH.search(face.oracle_text)
    return match.group("name").strip() if match else None


def is_merged_partners(card: Card) -> bool:
    """Two cards that "Partner with" each other stored as one two-faced record."""
    if len(card.faces) != 2 or card.layout in _MULTI_FACE_LAYOUTS:
        return False
    first, second = card.faces
    return partner_with(first) == second.name and partner_with(second) == first.name


def meld_fronts(card: Card, lookup: Lookup) -> tuple[Card, ...]:
    """The front-face cards of a meld back face (each says "meld them into <card>"); () for any other card."""
    if card.layout != "meld" or card.faces or not card.meld_parts:
        return ()
    marker = f"into {card.name}"
    fronts = tuple(
        part for name in card.meld_parts if name != card.name for part in (lookup(name),) if part is not None
    )
    return fronts if any(marker in front.oracle_text for front in fronts) else ()


def face_card(card: Card, index: int) -> Card:
    """One face of a merged record as a card of its own (names in other languages split the same way)."""
    face = card.faces[index]
    printed = {
        language: parts[index].strip()
        for language, name in card.printed_names.items()
        for parts in (name.split(" // "),)
        if len(parts) == len(card.faces)
    }
    return Card(
        name=face.name,
        layout="normal",
        mana_cost=face.mana_cost,
        type_line=face.type_line,
        oracle_text=face.oracle_text,
        power=face.power,
        toughness=face.toughness,
        loyalty=face.loyalty,
        colors=face.colors,
        color_indicator=face.color_indicator,
        color_identity=card.color_identity if index == 0 else "",
        commander_legality=card.commander_legality,
        printed_names=printed,
        printings=card.printings,
        legalities=card.legalities,
    )


def rules_records(card: Card, written: str, lookup: Lookup) -> tuple[Card, ...]:
    """The card(s) the rules check for a list line ``written`` that resolved to ``card``."""
    if not card.faces and card.layout != "meld":
        return (card,)  # the common case, decided without building anything
    key = (id(card), written.casefold())
    kept = _derived.get(key)  # pragma: no mutate (a cache: a mutant only redoes work)
    if kept is not None and kept[0] is card:
        return kept[1]
    records = _derive(card, written, lookup)
    if len(_derived) >= _DERIVED_LIMIT:  # pragma: no mutate (a cache: a mutant only redoes work)
        _derived.clear()  # pragma: no mutate (a cache: a mutant only redoes work)
    _derived[key] = (card, records)  # pragma: no mutate (a cache: a mutant only redoes work)
    return records


def _derive(card: Card, written: str, lookup: Lookup) -> tuple[Card, ...]:
    if is_merged_partners(card):
        wanted = written.strip().casefold()
        if wanted in {card.name.casefold(), *(name.casefold() for name in card.printed_names.values())}:
            return (face_card(card, 0), face_card(card, 1))  # the record's own name: both partners
        named = [i for i, face in enumerate(card.faces) if face.name.casefold() == wanted]
        return (face_card(card, named[0] if named else 0),)  # a face's name (the resolver puts it in front)
    fronts = meld_fronts(card, lookup)
    if fronts:
        return (replace(card, faces=(card.front, *(front.front for front in fronts))),)
    return (card,)
