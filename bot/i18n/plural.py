"""Plural forms in catalogue messages, chosen by CLDR plural rules (via Babel).

A message may contain ICU-style plural blocks; everything else is a plain ``str.format`` template,
so entries without a block behave exactly as before::

    en = "The deck has {count, plural, one {# card} other {# cards}}; it needs {needed}."
    ja = "デッキは{count}枚です。{needed}枚必要です。"

Inside a block, ``#`` is the number and ``=N {...}`` matches an exact value before the categories.
English has ``one``/``other``; Japanese and Chinese have only ``other``, so their translations need no
block. The category comes from CLDR (``babel.core.Locale.plural_form``), not from ``n == 1``, so a
language added later gets its own rules for free.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel.core import Locale, UnknownLocaleError

_HEAD = re.compile(r"\{\s*(\w+)\s*,\s*plural\s*,")
_SELECTOR = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


class PluralSyntaxError(ValueError):
    """A malformed ``{n, plural, ...}`` block: a catalogue defect, caught by the catalogue tests."""


@dataclass(frozen=True)
class PluralBlock:
    """One ``{name, plural, ...}`` block: where it sits in the message and its variants."""

    start: int
    end: int
    name: str
    variants: dict[str, str]


@lru_cache(maxsize=16)
def _locale(language: str) -> Locale:
    """The language's CLDR data; a language CLDR does not know gets English's rules. Babel says "unknown"
    with its own exception, which is neither a ValueError nor a LookupError."""
    try:
        return Locale.parse(language, sep="-")
    except (ValueError, LookupError, UnknownLocaleError):
        return Locale.parse("en")


def category(language: str, number: Any) -> str:
    """The CLDR plural category (``one``, ``other``, ...) of ``number`` in ``language``."""
    if isinstance(number, int | str):
        return _cached_category(language, number)
    return _category(language, number)


@lru_cache(maxsize=4096)
def _cached_category(language: str, number: int | str) -> str:
    """Counts repeat (0–100 covers nearly every message), and Babel evaluates its rule on each call."""
    return _category(language, number)


def _category(language: str, number: Any) -> str:
    if isinstance(number, str):  # a count already formatted by the caller ("1", "1,024")
        try:
            number = float(number.replace(",", ""))
        except ValueError:
            return "other"
    try:
        return _locale(language).plural_form(abs(number))
    except TypeError:
        return "other"


def _closing_brace(text: str, opening: int) -> int:
    """Index of the ``}`` matching the ``{`` at ``opening``."""
    depth = 0
    for index in range(opening, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    raise PluralSyntaxError(f"unbalanced braces in {text!r}")


def _variants(text: str, position: int, end: int) -> dict[str, str]:
    variants: dict[str, str] = {}
    while position < end:
        if not text[position:end].strip():
            break
        match = _SELECTOR.match(text, position, end)
        if match is None:
            raise PluralSyntaxError(f"bad plural selector at {text[position:end]!r}")
        opening = match.end() - 1
        closing = _closing_brace(text, opening)
        variants[match.group(1)] = text[opening + 1 : closing]
        position = closing + 1
    if "other" not in variants:
        raise PluralSyntaxError(f"plural block without 'other' in {text!r}")
    return variants


def blocks(text: str) -> tuple[PluralBlock, ...]:
    """The top-level plural blocks of a message, in order (parsed once per message text)."""
    return _parse(text) if "plural" in text else ()


@lru_cache(maxsize=2048)
def _parse(text: str) -> tuple[PluralBlock, ...]:
    return tuple(_scan(text))


def _scan(text: str) -> Iterator[PluralBlock]:
    position = 0
    while (match := _HEAD.search(text, position)) is not None:
        end = _closing_brace(text, match.start())
        yield PluralBlock(match.start(), end + 1, match.group(1), _variants(text, match.end(), end))
        position = end + 1


def choose(block: PluralBlock, language: str, number: Any) -> str:
    """The variant for ``number``, with ``#`` replaced by the ``{name}`` placeholder."""
    variant = block.variants.get(f"={number}")
    if variant is None:
        variant = block.variants.get(category(language, number), block.variants["other"])
    return variant.replace("#", "{" + block.name + "}")


def resolve(text: str, language: str, values: Mapping[str, Any]) -> str:
    """``text`` with each plural block replaced by the variant its number selects (still a template)."""
    if "plural" not in text:
        return text
    parts: list[str] = []
    position = 0
    for block in blocks(text):
        parts.append(text[position : block.start])
        parts.append(choose(block, language, values.get(block.name, 0)))
        position = block.end
    parts.append(text[position:])
    return "".join(parts)


def all_variants(text: str) -> list[str]:
    """Every template a message can turn into (one per variant of each block), for checking placeholders."""
    found = blocks(text)
    if not found:
        return [text]
    first = found[0]
    templates = [
        text[: first.start] + variant.replace("#", "{" + first.name + "}") + text[first.end :]
        for variant in first.variants.values()
    ]
    return [template for each in templates for template in all_variants(each)]
