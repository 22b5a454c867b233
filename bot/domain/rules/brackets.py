"""Commander Brackets: the lowest bracket a deck's contents allow (docs/rules/BRACKETS.md, BR1–BR7).

Wizards' brackets (1 Exhibition, 2 Core, 3 Upgraded, 4 Optimized, 5 cEDH) are about intent, which no
program can read from a list; what a list does show is what the brackets *limit*: Game Changers, mass
land denial, extra turns and two-card combos. So the check says "at least N", with the reason for
each finding, and never more (bracket 5 differs from 4 by the metagame, not by the cards).

What counts is data, not code: the dated files in ``assets/brackets`` (a Game Changers list for card
data without Scryfall's ``game_changer`` flag; the mass land denial, extra-turn and combo cards). The
newest file of each kind is used, and the report says which Game Changers list it went by.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.cards.model import Card
from bot.domain.decklist import Section
from bot.domain.rules.deck import ResolvedDeck
from bot.paths import ASSETS_DIR

BRACKETS = (1, 2, 3, 4, 5)
EXHIBITION, CORE, UPGRADED, OPTIMIZED, CEDH = BRACKETS
UPGRADED_GAME_CHANGERS = 3  # BR2: bracket 3 allows up to three Game Changers
BRACKETS_DIR = ASSETS_DIR / "brackets"


@dataclass(frozen=True)
class Combo:
    """Two cards that together win or loop without end (BR5); ``result`` names what the loop makes."""

    cards: tuple[str, str]
    result: str


@dataclass(frozen=True)
class BracketData:
    """The dated lists the check goes by (names casefolded for matching, as written for showing)."""

    game_changers: frozenset[str]
    game_changers_date: str
    mass_land_denial: frozenset[str]
    extra_turns: frozenset[str]
    chaining_turns: frozenset[str]
    chain_count: int
    combos: tuple[Combo, ...]
    early_combo_mana: int
    signals_date: str


@dataclass(frozen=True)
class Finding:
    """One reason a deck sits in bracket ``minimum`` or above: which rule, which cards."""

    rule: str
    minimum: int
    key: str  # brackets.finding.<key>
    cards: tuple[str, ...]
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameChangerSource:
    """Which Game Changers list a report used: the card data's own flags (Scryfall's, after a sync) or
    the bundled dated list; ``date`` is the card data's date or the list's."""

    scryfall: bool
    date: str | None


@dataclass(frozen=True)
class BracketReport:
    minimum: int
    findings: tuple[Finding, ...]
    game_changers_from: GameChangerSource

    def above(self, declared: int) -> bool:
        """The deck checks above what its player declared (the pod board warns, BR7)."""
        return self.minimum > declared


def newest(folder: Path, prefix: str) -> Path:
    """The newest ``<prefix>-YYYY-MM-DD.toml`` of ``folder`` (ISO dates sort as text)."""
    found = sorted(folder.glob(f"{prefix}-????-??-??.toml"))
    if not found:
        raise FileNotFoundError(f"{folder}: no {prefix}-YYYY-MM-DD.toml")
    return found[-1]


def _names(values: Iterable[str]) -> frozenset[str]:
    return frozenset(str(name).casefold() for name in values)


def read_bracket_data(folder: Path) -> BracketData:
    """The lists of ``folder``: its newest Game Changers list and its newest signals file."""
    with newest(folder, "game_changers").open("rb") as handle:
        changers = tomllib.load(handle)
    with newest(folder, "signals").open("rb") as handle:
        signals = tomllib.load(handle)
    turns, combos = signals["extra_turns"], signals["combos"]
    pairs = tuple(
        Combo((str(pair["cards"][0]), str(pair["cards"][1])), str(pair["result"])) for pair in combos["pairs"]
    )
    return BracketData(
        game_changers=_names(changers["cards"]),
        game_changers_date=str(changers["date"]),
        mass_land_denial=_names(signals["mass_land_denial"]["cards"]),
        extra_turns=_names(turns["cards"]),
        chaining_turns=_names(turns["chaining"]),
        chain_count=int(turns["chain_count"]),
        combos=pairs,
        early_combo_mana=int(combos["early_mana"]),
        signals_date=str(signals["date"]),
    )


@lru_cache(maxsize=1)
def bundled_bracket_data() -> BracketData:
    """The lists shipped in ``assets/brackets`` (read once per process)."""
    return read_bracket_data(BRACKETS_DIR)


def _keys(card: Card) -> set[str]:
    """The names a list may know a card by: its whole name and each face's."""
    return {card.name.casefold(), *(name.casefold() for name in card.face_names)}


def _listed(card: Card, names: frozenset[str]) -> bool:
    return not _keys(card).isdisjoint(names)


def _deck_cards(deck: ResolvedDeck) -> list[Card]:
    """The known cards of the 100 (commanders and main deck), each once."""
    seen: dict[str, Card] = {}
    for entry in deck.in_section(Section.COMMANDER, Section.MAIN):
        if entry.card is not None:
            seen.setdefault(entry.card.name, entry.card)
    return list(seen.values())


def is_game_changer(card: Card, data: BracketData) -> bool:
    """The card data's own flag when it has one (Scryfall), else the bundled list (BR6)."""
    if card.game_changer is not None:
        return card.game_changer
    return _listed(card, data.game_changers)


def assess_bracket(
    deck: ResolvedDeck, card_data_date: str | None = None, data: BracketData | None = None
) -> BracketReport:
    """The lowest bracket ``deck``'s contents allow and why (BR1–BR6)."""
    data = data or bundled_bracket_data()
    cards = _deck_cards(deck)
    findings = [
        finding
        for finding in (
            _game_changers(cards, data),
            _mass_land_denial(cards, data),
            _extra_turns(cards, data),
        )
        if finding is not None
    ]
    findings += _combos(cards, data)
    flagged = bool(cards) and all(card.game_changer is not None for card in cards)
    source = (
        GameChangerSource(True, card_data_date)
        if flagged
        else GameChangerSource(False, data.game_changers_date)
    )
    minimum = max((finding.minimum for finding in findings), default=EXHIBITION)
    return BracketReport(minimum, tuple(findings), source)


def _game_changers(cards: list[Card], data: BracketData) -> Finding | None:
    found = tuple(card.name for card in cards if is_game_changer(card, data))
    if not found:
        return None
    minimum = UPGRADED if len(found) <= UPGRADED_GAME_CHANGERS else OPTIMIZED
    return Finding("BR2", minimum, "game_changers", found, {"count": len(found)})


def _mass_land_denial(cards: list[Card], data: BracketData) -> Finding | None:
    found = tuple(card.name for card in cards if _listed(card, data.mass_land_denial))
    return Finding("BR3", OPTIMIZED, "mass_land_denial", found) if found else None


def _extra_turns(cards: list[Card], data: BracketData) -> Finding | None:
    found = tuple(card.name for card in cards if _listed(card, data.extra_turns))
    if not found:
        return None
    chained = any(_listed(card, data.chaining_turns) for card in cards) or len(found) >= data.chain_count
    if chained:
        return Finding("BR4", OPTIMIZED, "extra_turns_chained", found, {"count": len(found)})
    return Finding("BR4", CORE, "extra_turns", found, {"count": len(found)})


def _combos(cards: list[Card], data: BracketData) -> list[Finding]:
    by_name = {key: card for card in cards for key in _keys(card)}
    findings = []
    for combo in data.combos:
        pieces = [by_name.get(name.casefold()) for name in combo.cards]
        if any(piece is None for piece in pieces):
            continue
        mana = sum(int(piece.mana_value) for piece in pieces if piece is not None)
        early = mana <= data.early_combo_mana
        names = tuple(piece.name for piece in pieces if piece is not None)
        findings.append(
            Finding(
                "BR5",
                OPTIMIZED if early else UPGRADED,
                "combo_early" if early else "combo_late",
                names,
                {"result": combo.result, "mana": mana},
            )
        )
    return findings
