"""The ready-built card index, stored in the database beside the cards (migration 0008).

Building the index at every start meant decoding ~24,000 JSON records into ``Card`` objects and then
normalising ~100,000 names: seconds of CPU for every process, and a peak of short-lived objects that
stayed in the process's RSS. An import now also stores the finished index as one ``marshal`` blob
(cards as plain tuples, the index's dicts and ordered lists): a start reads one row and rebuilds the
objects directly.

``marshal`` (not ``pickle``) because it can only hold plain data (no code runs while reading), and it
keeps shared strings shared. Its format belongs to the Python version, which is part of ``FORMAT``:
a snapshot written by another Python (or an older layout) is ignored and rebuilt from the cards' JSON.
"""

from __future__ import annotations

import marshal
import sys
from sys import intern
from typing import Any

from bot.cards.index import CardIndex
from bot.cards.model import Card, Face, shared, shared_dict

LAYOUT = 1  # bump when the tuples below change
FORMAT = f"index-{LAYOUT}/py{sys.version_info[0]}.{sys.version_info[1]}/marshal-{marshal.version}"


def _face_tuple(face: Face) -> tuple:
    return (face.name, face.mana_cost, face.type_line, face.oracle_text, face.power, face.toughness,
            face.loyalty, face.colors, face.color_indicator)


def _card_tuple(card: Card) -> tuple:
    return (card.name, card.layout, card.mana_cost, card.type_line, card.oracle_text, card.power,
            card.toughness, card.loyalty, card.colors, card.color_indicator, card.color_identity,
            card.commander_legality, tuple(_face_tuple(face) for face in card.faces),
            tuple(card.printed_names.items()), card.printings, card.meld_parts,
            shared(tuple(card.legalities.items())))


def dump(index: CardIndex) -> bytes:
    """The index and its cards as one blob."""
    cards = tuple(_card_tuple(card) for card in index.cards())
    return marshal.dumps((LAYOUT, cards, index.state()))


def load(blob: bytes) -> CardIndex:
    """The index ``dump`` stored. Raises ``ValueError`` for a blob of another layout."""
    layout, rows, state = marshal.loads(blob)
    if layout != LAYOUT:
        raise ValueError(f"card index snapshot layout {layout}, expected {LAYOUT}")
    return CardIndex.from_state(_cards(rows), state)


def _cards(rows: tuple) -> list[Card]:
    legalities: dict[int, dict[str, str]] = {}  # marshal hands back each shared tuple once
    printings: dict[int, tuple[str, ...]] = {}
    out = []
    for (name, layout, mana_cost, type_line, oracle_text, power, toughness, loyalty, colors, indicator,
         identity, commander, faces, printed, sets, meld, legal) in rows:
        found = legalities.get(id(legal))
        if found is None:
            found = legalities[id(legal)] = shared_dict({intern(k): intern(v) for k, v in legal})
        kept_sets = printings.get(id(sets))
        if kept_sets is None:
            kept_sets = printings[id(sets)] = shared(tuple(intern(code) for code in sets))
        out.append(Card(name, intern(layout), intern(mana_cost), intern(type_line), oracle_text, power,
                        toughness, loyalty, colors, indicator, identity, intern(commander),
                        tuple(_face(face) for face in faces) if faces else (),
                        dict(printed) if printed else shared_dict({}), kept_sets, meld, found))
    return out


def _face(row: Any) -> Face:
    name, mana_cost, type_line, *rest = row
    return Face(name, intern(mana_cost), intern(type_line), *rest)
