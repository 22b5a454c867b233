"""Deck links: which site a URL names, and a site's public JSON turned into a deck list text.

Pure (no I/O): ``bot.services.deck_urls`` fetches, this reads. The result is plain deck-list text with
``Commander`` / ``Companion`` / ``Deck`` / ``Sideboard`` / ``Maybeboard`` / ``Tokens`` sections, so a
deck registered from a link is stored, re-checked and exported exactly like a pasted one.

Response shapes (the sites' public endpoints, as their own web pages use them):

* Archidekt ``GET /api/decks/<id>/``: ``{"name", "categories": [{"name", "includedInDeck", "isPremier"}],
  "cards": [{"quantity", "categories": ["Commander"], "card": {"oracleCard": {"name"}}}]}``. A card's first
  category decides: a section word (Commander, Sideboard, Maybeboard...) names the section; a category with
  ``includedInDeck: false`` is not part of the deck (kept aside, like ``{noDeck}`` in a text export).
* Moxfield ``GET https://api2.moxfield.com/v3/decks/all/<publicId>``: ``{"name", "boards": {"commanders":
  {"cards": {"<id>": {"quantity", "card": {"name"}}}}, "mainboard": ..., "sideboard": ..., ...}}``; the older
  v2 shape has the boards at the top level, keyed by card name. Both are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.domain.decklist import DecklistRefused, Section, section_for

SITES = ("archidekt", "moxfield")

_ARCHIDEKT = re.compile(
    r"^(?:https?://)?(?:www\.)?archidekt\.com/(?:api/)?decks/(?:view/)?(?P<id>\d{1,12})(?:[/?#].*)?$",
    re.IGNORECASE,
)
_MOXFIELD = re.compile(
    r"^(?:https?://)?(?:www\.)?moxfield\.com/decks/(?P<id>[A-Za-z0-9_-]{4,40})(?:[/?#].*)?$", re.IGNORECASE
)

# The sections a fetched list is written in, in this order, with the header the text parser reads back.
_HEADERS = {
    Section.COMMANDER: "Commander",
    Section.COMPANION: "Companion",
    Section.MAIN: "Deck",
    Section.SIDEBOARD: "Sideboard",
    Section.MAYBEBOARD: "Maybeboard",
    Section.EXTRA: "Tokens",
    Section.DISPLAY: "Display Commander",
    Section.PLANAR: "Planar Deck",
    Section.SCHEME: "Scheme Deck",
}
_MOXFIELD_BOARDS = {
    "commanders": Section.COMMANDER,
    "companions": Section.COMPANION,
    "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "tokens": Section.EXTRA,
    "attractions": Section.EXTRA,
    "stickers": Section.EXTRA,
    "contraptions": Section.EXTRA,
    "planes": Section.PLANAR,
    "schemes": Section.SCHEME,
    "signatureSpells": Section.EXTRA,
}
MAX_NAME = 200


@dataclass(frozen=True)
class DeckLink:
    """A deck on a site: ``site`` is one of ``SITES``; ``deck_id`` as the site's API wants it."""

    site: str
    deck_id: str


@dataclass(frozen=True)
class FetchedDeck:
    site: str
    name: str
    text: str  # the deck list, in the text format parse_decklist reads


def looks_like_url(text: str) -> bool:
    """A one-line option that is a web address rather than a list (the CLI's FILE argument, too)."""
    return bool(re.match(r"^(?:https?://|www\.)\S+$", text.strip(), re.IGNORECASE))  # \S+$: one line


def parse_deck_url(url: str) -> DeckLink:
    """The site and deck id of an Archidekt or Moxfield deck link, else ``DecklistRefused("url_unsupported")``."""
    url = url.strip()
    for site, pattern in (("archidekt", _ARCHIDEKT), ("moxfield", _MOXFIELD)):
        match = pattern.match(url)
        if match:
            return DeckLink(site, match.group("id"))
    raise DecklistRefused("url_unsupported", url=url[:100])


def deck_from_json(site: str, data: Any) -> FetchedDeck:
    """A site's deck JSON as a deck list; ``DecklistRefused("url_bad_response")`` when it is not one."""
    reader = _archidekt_entries if site == "archidekt" else _moxfield_entries
    if not isinstance(data, dict):
        raise DecklistRefused("url_bad_response", site=site.capitalize())
    entries = reader(data)
    if not any(section is not Section.MAYBEBOARD for section, _, _ in entries):
        raise DecklistRefused("url_empty", site=site.capitalize())
    name = str(data.get("name") or "").strip()[:MAX_NAME]
    return FetchedDeck(site, name, _as_text(entries))


def _as_text(entries: list[tuple[Section, int, str]]) -> str:
    """``[(section, count, name)]`` as section blocks of ``count name`` lines."""
    blocks: list[str] = []
    for section, header in _HEADERS.items():
        lines = [f"{count} {name}" for where, count, name in entries if where is section]
        if lines:
            blocks.append("\n".join([header, *lines]))
    return "\n\n".join(blocks) + "\n"


def _card_name(value: Any) -> str | None:
    """A card name from the JSON: text, one line, no longer than any real name."""
    if not isinstance(value, str):
        return None
    name = " ".join(value.split())
    return name if 0 < len(name) <= MAX_NAME else None


def _quantity(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 1000 else None


def _archidekt_entries(data: dict[str, Any]) -> list[tuple[Section, int, str]]:
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise DecklistRefused("url_bad_response", site="Archidekt")
    excluded = {
        str(c.get("name"))
        for c in data.get("categories") or []
        if isinstance(c, dict) and c.get("includedInDeck") is False
    }
    entries = []
    for item in cards:
        if not isinstance(item, dict):
            continue
        card = _dict(item.get("card"))
        oracle = _dict(card.get("oracleCard"))
        name, count = _card_name(oracle.get("name") or card.get("name")), _quantity(item.get("quantity"))
        if name is None or count is None:
            continue
        entries.append((_archidekt_section(item.get("categories"), excluded), count, name))
    return entries


def _dict(value: Any) -> dict[str, Any]:
    """``value`` when the site sent an object there, else an empty one."""
    return _dict_or(value, {})


def _dict_or(value: Any, otherwise: dict[str, Any]) -> dict[str, Any]:
    return value if isinstance(value, dict) else otherwise


def _archidekt_section(categories: Any, excluded: set[str]) -> Section:
    first = str(categories[0]) if isinstance(categories, list) and categories else ""
    section = section_for(first)
    if section is not None and section is not Section.ABOUT:
        return section
    if first in excluded:
        return Section.MAYBEBOARD  # a custom category outside the deck ("Considering")
    return Section.MAIN


def _moxfield_entries(data: dict[str, Any]) -> list[tuple[Section, int, str]]:
    boards = _dict_or(data.get("boards"), data)  # v3, else v2
    entries = []
    found_board = False
    for board_name, section in _MOXFIELD_BOARDS.items():
        board = boards.get(board_name)
        if not isinstance(board, dict):
            continue
        found_board = True
        cards = _dict_or(board.get("cards"), board)  # v3 "cards", v2 by name
        for item in cards.values():
            if not isinstance(item, dict):
                continue
            card = _dict(item.get("card"))
            name, count = _card_name(card.get("name")), _quantity(item.get("quantity"))
            if name is not None and count is not None:
                entries.append((section, count, name))
    if not found_board:
        raise DecklistRefused("url_bad_response", site="Moxfield")
    return entries
