"""The ready-built card index, stored in the database beside the cards (migration 0008).

Building the index at every start meant decoding ~24,000 JSON records into ``Card`` objects and then
normalising ~100,000 names: seconds of CPU for every process, and a peak of short-lived objects that
stayed in the process's RSS. An import now also stores the finished index as one ``marshal`` blob
(the cards as columns of plain values, the index's dicts and ordered lists): a start reads one row and rebuilds the
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

LAYOUT = 7  # bump when the stored columns or the index's state() change
FORMAT = f"index-{LAYOUT}/py{sys.version_info[0]}.{sys.version_info[1]}/marshal-{marshal.version}"


def _face_tuple(face: Face) -> tuple:
    return (
        face.name,
        face.mana_cost,
        face.type_line,
        face.oracle_text,
        face.power,
        face.toughness,
        face.loyalty,
        face.colors,
        face.color_indicator,
    )


def _columns(cards: list[Card]) -> tuple[list, ...]:
    """The cards as columns (one list per field) rather than one tuple per card: reading columns back
    leaves no short-lived per-card tuples scattered between the long-lived strings (memory the
    process would keep as RSS after the start)."""
    return (
        [c.name for c in cards],
        [c.layout for c in cards],
        [c.mana_cost for c in cards],
        [c.type_line for c in cards],
        [c.oracle_text for c in cards],
        [c.power for c in cards],
        [c.toughness for c in cards],
        [c.loyalty for c in cards],
        [c.colors for c in cards],
        [c.color_indicator for c in cards],
        [c.color_identity for c in cards],
        [c.commander_legality for c in cards],
        [tuple(_face_tuple(face) for face in c.faces) or None for c in cards],
        [tuple(c.printed_names.items()) or None for c in cards],
        [c.printings for c in cards],
        [c.meld_parts for c in cards],
        [shared(tuple(c.legalities.items())) for c in cards],
        [c.game_changer for c in cards],
    )


def dump(index: CardIndex) -> bytes:
    """The index and its cards as one blob."""
    return marshal.dumps((LAYOUT, _columns(list(index.cards())), index.state()))


def load(blob: bytes) -> CardIndex:
    """The index ``dump`` stored. Raises ``ValueError`` for a blob of another layout."""
    layout, columns, state = marshal.loads(blob)
    if layout != LAYOUT:
        raise ValueError(f"card index snapshot layout {layout}, expected {LAYOUT}")
    return CardIndex.from_state(_cards(columns), state)


def _cards(columns: tuple[list, ...]) -> list[Card]:
    (
        names,
        layouts,
        costs,
        type_lines,
        texts,
        powers,
        toughnesses,
        loyalties,
        colours,
        indicators,
        identities,
        commander,
        faces,
        printed_items,
        printings,
        melds,
        legalities,
        game_changers,
    ) = columns
    _intern_all(layouts, costs, type_lines, commander)
    _share_all(printings, lambda sets: shared(tuple(intern(code) for code in sets)))
    _share_all(legalities, lambda pairs: shared_dict({intern(k): intern(v) for k, v in pairs}))
    no_names = shared_dict({})
    printed = [
        {intern(language): name for language, name in items} if items else no_names for items in printed_items
    ]
    card_faces = [tuple(_face(face) for face in row) if row else () for row in faces]
    return [
        Card(*fields)
        for fields in zip(
            names,
            layouts,
            costs,
            type_lines,
            texts,
            powers,
            toughnesses,
            loyalties,
            colours,
            indicators,
            identities,
            commander,
            card_faces,
            printed,
            printings,
            melds,
            legalities,
            game_changers,
            strict=True,
        )
    ]


def _intern_all(*columns: list) -> None:
    for column in columns:
        column[:] = [intern(value) for value in column]


def _share_all(column: list, make: Any) -> None:
    """Replace each value with one shared object per distinct value (``marshal`` returns each
    stored-once value once, so ``id`` finds the repeats)."""
    made: dict[int, tuple[Any, Any]] = {}  # id -> (the stored value, kept alive so ids stay unique; made)
    for position, value in enumerate(column):
        found = made.get(id(value))
        if found is None:
            found = made[id(value)] = (value, make(value))
        column[position] = found[1]


def _face(row: Any) -> Face:
    name, mana_cost, type_line, *rest = row
    return Face(name, intern(mana_cost), intern(type_line), *rest)
