"""The game terms and challenge-deck card names of every language, kept in ``glossary.toml``.

The catalogues use these words (``tests/core/test_glossary.py`` refuses a term's other variants), and the
renderers show the challenge decks' cards by the names players of a language know: the printed Japanese
name where the card was printed in Japanese, else the catalogues' established name, else the English one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from bot.i18n.phrase import Phrase

GLOSSARY_FILE = Path(__file__).with_name("glossary.toml")

# How a list of names reads in a sentence: Japanese and Chinese use the ideographic comma.
LIST_SEPARATORS = {"en": ", ", "ja": "、", "zh-Hans": "、", "zh-Hant": "、"}

# Japanese sentences set a card name in 《》, as printed rules texts and Japanese players do.
_CARD_QUOTES = {"ja": ("《", "》")}


@cache
def glossary() -> dict[str, Any]:
    """The parsed ``glossary.toml``: ``term``, ``deck`` and ``card`` tables."""
    return tomllib.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))


def list_separator(language: str | None) -> str:
    return LIST_SEPARATORS.get(language or "en", ", ")


def join_list(items: Any, language: str | None) -> str:
    """``items`` as one phrase in ``language`` ("A, B" / "A、B"); the one way lists reach user text."""
    return list_separator(language).join(str(item) for item in items)


def card_name(name: str, language: str | None) -> str:
    """A challenge-deck card's name in ``language``; any other name (a player's card) as it is."""
    names = glossary()["card"].get(name)
    return names.get(language, name) if names and language else name


def is_challenge_card(name: object) -> bool:
    return isinstance(name, str) and name in glossary()["card"]


def localized_values(values: Mapping[str, object], language: str | None) -> dict[str, object]:
    """An event's values for a sentence in ``language``: challenge-deck card names (alone, in a list or
    in a ``Phrase``) become the language's names, in 《》 in Japanese. Other values are left to ``t``,
    which joins the lists and words the phrases."""
    return {key: _localized(value, language) for key, value in values.items()}


def _localized(value: object, language: str | None) -> object:
    if isinstance(value, (list, tuple)):
        return [_localized(item, language) for item in value]
    if isinstance(value, Phrase):
        return Phrase(value.key, localized_values(value.values, language))
    if not is_challenge_card(value) or not language:
        return value
    name = card_name(str(value), language)
    if name == value:
        return name
    opening, closing = _CARD_QUOTES.get(language, ("", ""))
    return f"{opening}{name}{closing}"


def ruleset_name(ruleset: str, language: str | None) -> str:
    """A ruleset as players call it ("Commander", 統率者戦); an id the catalogue does not name, as it is."""
    from bot.i18n import has, t  # the catalogue imports this module: looked up when called

    key = f"deck.ruleset_name.{ruleset}"
    return t(key, language) if has(key) else ruleset
