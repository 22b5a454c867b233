"""Mana cost strings: ``{2}{W/U}{B}`` -> symbols, mana value, colours."""

from __future__ import annotations

import re

SYMBOL = re.compile(r"\{([^}]+)\}")
COLOUR_LETTERS = frozenset("WUBRG")


def symbols(cost: str) -> list[str]:
    """The symbols of a mana cost or a rules text, upper-cased: '{2}{w/u}' -> ['2', 'W/U']."""
    return [s.upper() for s in SYMBOL.findall(cost or "")]


def symbol_colours(symbol: str) -> set[str]:
    """The colours a single symbol shows: 'W/U' -> {W, U}; '2/B' -> {B}; 'W/P' -> {W}; 'S', 'C', 'X' -> {}."""
    return {part for part in symbol.upper().split("/") if part in COLOUR_LETTERS}


def mana_value(cost: str) -> float:
    """The mana value of a cost (CR 202.3): numbers count, X counts 0, hybrid counts its largest part."""
    total = 0.0
    for symbol in symbols(cost):
        parts = symbol.split("/")
        values = []
        for part in parts:
            if part.replace(".", "", 1).isdigit():
                values.append(float(part))
            elif part in ("X", "Y", "Z"):
                values.append(0.0)
            elif part == "½" or part == "HALF":
                values.append(0.5)
            elif part in COLOUR_LETTERS or part in ("C", "S", "P") or part.startswith("H"):
                values.append(1.0 if part != "P" else 0.0)
        if values:
            total += max(values)
    return int(total) if total == int(total) else total
