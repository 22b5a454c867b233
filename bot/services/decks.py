"""Deck checks and registered decks: the one path the CLI, the cog and other features share.

``check_deck_text`` is parse → resolve → check (no storage). ``DeckService`` adds the registered
decks of each (server, user): register (asking before overwriting), list, show, delete, export,
recheck when the server's ruleset or the card data changes, and a small API other features use::

    service = DeckService(db, cards)              # cards: anything with resolve(name) and get(name)
    await service.list_decks(guild_id, user_id)    # -> [DeckRecord], name order
    deck = await service.deck_cards(guild_id, user_id, "Kaalia")  # -> DeckCards | None
    deck.commanders                                # (Card, ...)
    deck.cards                                     # ((count, Card), ...) main deck, commanders excluded
    deck.library()                                 # [Card, ...] one per copy: the 99 (for mulligans)
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.cards.model import Card
from bot.domain.decklist import Decklist, DecklistRefused, Section, decode, parse_decklist
from bot.domain.errors import DomainError
from bot.domain.rules import (
    CardResolver,
    DeckSummary,
    ResolvedDeck,
    Verdict,
    check_deck,
    get_ruleset,
    resolve_decklist,
    summarise,
)
from bot.domain.rules.brackets import BracketReport, assess_bracket
from bot.storage.db import Database
from bot.storage.deck_changes import DeckChangeRepository
from bot.storage.decks import DeckRecord, DeckRepository
from bot.text import shown_name
from bot.workers import run_inline

log = logging.getLogger(__name__)

MAX_DECK_NAME = 64
MAX_DECKS_PER_MEMBER = 100  # registered decks one member may keep in a server (one registered 300)

# How a check is run: ``await offload(fn, *args)``. The bot passes its work pool (``WorkPool.run``) so
# checks never run on the event loop; the CLI runs them inline.
Offload = Callable[..., Awaitable[Any]]


class CardSource(CardResolver, Protocol):
    def get(self, english_name: str) -> Card | None: ...


class DeckNameError(DomainError, ValueError):
    """A deck name that can't be used (``deck.error.<reason>``): a domain refusal, told by the cogs'
    one error path (``cogs._errors``). Still a ``ValueError`` for callers that catch bad input so."""

    prefix = "deck.error."

    def __init__(self, reason: str, **values: Any) -> None:
        super().__init__(reason, **values)
        self.reason = reason


@dataclass(frozen=True)
class DeckCheck:
    """Everything one check produced: the parsed list, the resolved deck, the verdict, the summary and
    the lowest Commander bracket the contents allow."""

    decklist: Decklist
    deck: ResolvedDeck
    verdict: Verdict
    summary: DeckSummary
    bracket: BracketReport


def check_deck_text(
    data: bytes | str,
    resolver: CardResolver,
    ruleset: str,
    filename: str | None = None,
    commander_names: Iterable[str] = (),
) -> DeckCheck:
    """Parse, resolve and check a deck list. Raises ``DecklistRefused`` or ``UnknownRuleset``."""
    rules = get_ruleset(ruleset)
    decklist = parse_decklist(data, filename)
    deck = resolve_decklist(decklist, resolver, commander_names)
    bracket = assess_bracket(deck, getattr(resolver, "data_date", None))
    return DeckCheck(decklist, deck, check_deck(deck, rules), summarise(deck), bracket)


def clean_deck_name(name: str) -> str:
    """A deck name as stored: trimmed, single-spaced, 1–64 characters (shown escaped, never trusted),
    without invisible or direction-changing characters (``bot.text.shown_name``): a name of zero-width
    characters only is no name."""
    cleaned = shown_name(name)
    if not cleaned:
        raise DeckNameError("name_empty")
    if len(cleaned) > MAX_DECK_NAME:
        raise DeckNameError("name_too_long", length=len(cleaned), limit=MAX_DECK_NAME)
    return cleaned


@dataclass(frozen=True)
class DeckCards:
    """A registered deck's cards, for other features (pods, mulligans)."""

    record: DeckRecord
    commanders: tuple[Card, ...]
    cards: tuple[tuple[int, Card], ...]
    unresolved: tuple[str, ...]
    unresolved_main: tuple[tuple[int, str], ...] = ()

    def library(self) -> list[Card]:
        """One entry per copy of each main-deck card the card data knows (the library the game starts
        with, less ``unresolved_main``: callers that count cards must add those, see mulligan odds)."""
        return [card for count, card in self.cards for _ in range(count)]


@dataclass(frozen=True)
class RegisterResult:
    record: DeckRecord | None
    check: DeckCheck
    needs_confirmation: bool  # a deck of that name exists and overwrite was not confirmed


def _resolved_json(deck: ResolvedDeck) -> str:
    """The resolved cards as stored: [section, count, written name, English name or null]."""
    rows = [[c.section.value, c.count, c.entry.name, c.card.name if c.card else None] for c in deck.cards]
    return json.dumps(rows, ensure_ascii=False)


def _verdict_json(check: DeckCheck) -> str:
    verdict = check.verdict
    return json.dumps(
        {
            "status": verdict.status,
            "legal": verdict.legal,
            "ruleset": verdict.ruleset,
            "color_identity": verdict.colour_identity,
            "card_count": verdict.card_count,
            "problems": [{"rule": p.rule, "card": p.card, "key": p.key} for p in verdict.problems],
            "bracket": check.bracket.minimum,
        },
        ensure_ascii=False,
    )


def deck_bracket(record: DeckRecord) -> int | None:
    """The lowest Commander bracket the deck's last check allowed; None for a deck last checked before
    checks reported brackets (its next re-check stores it)."""
    level = json.loads(record.verdict or "{}").get("bracket")
    return level if isinstance(level, int) and not isinstance(level, bool) else None


class DeckService:
    """Registered decks of each (server, user) over the deck repository and the card database."""

    def __init__(
        self, db: Database, cards: CardSource, cards_version: str = "", *, offload: Offload = run_inline
    ) -> None:
        self.repository = DeckRepository(db)
        self.changes = DeckChangeRepository(db)
        self.cards = cards
        self.cards_version = cards_version
        self.offload = offload

    async def check(
        self,
        data: bytes | str,
        ruleset: str,
        filename: str | None = None,
        commander_names: Iterable[str] = (),
    ) -> DeckCheck:
        """Parse, resolve and check through ``offload`` (the bot's work pool). Raises what the check
        raises (``DecklistRefused``) and what the pool raises (``JobTimeout``): nothing is stored then."""
        return await self.offload(
            check_deck_text, data, self.cards, ruleset, filename, tuple(commander_names)
        )

    async def register(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        data: bytes | str,
        ruleset: str,
        *,
        filename: str | None = None,
        commander_names: Iterable[str] = (),
        overwrite: bool = False,
    ) -> RegisterResult:
        """Check and save a deck. An existing name is replaced only with ``overwrite=True``."""
        name = clean_deck_name(name)
        result = await self.check(data, ruleset, filename, commander_names)
        existing = await self.repository.get(guild_id, user_id, name)
        if existing is not None and not overwrite:
            return RegisterResult(None, result, needs_confirmation=True)
        if (
            existing is None
            and len(await self.repository.list_for_user(guild_id, user_id)) >= MAX_DECKS_PER_MEMBER
        ):
            raise DeckNameError("too_many_decks", limit=MAX_DECKS_PER_MEMBER)
        raw = decode(data)  # already read once by the check: UTF-16, BOM and CRLF normalised
        if filename and filename.lower().endswith((".dek", ".csv")):
            raw = export_text(result.deck)  # stored in the plain format /deck export writes
        record = await self.repository.save(
            guild_id,
            user_id,
            name,
            raw_list=raw,
            commanders=list(result.verdict.commanders),
            resolved=_resolved_json(result.deck),
            ruleset=ruleset,
            status=result.verdict.status,
            verdict=_verdict_json(result),
            cards_version=self.cards_version,
        )
        await self.changes.clear(record.id)  # a verdict change by new card data is no news after this
        return RegisterResult(record, result, needs_confirmation=False)

    async def list_decks(self, guild_id: int, user_id: int) -> list[DeckRecord]:
        return await self.repository.list_for_user(guild_id, user_id)

    async def get(self, guild_id: int, user_id: int, name: str) -> DeckRecord | None:
        return await self.repository.get(guild_id, user_id, name)

    async def show(self, record: DeckRecord, ruleset: str) -> DeckCheck:
        """Re-check a stored list (cheap: ~1 ms) so the shown verdict is current; store it if it changed."""
        result = await self.check(record.raw_list, ruleset, commander_names=record.commanders)
        await self._store_verdict(record, result, ruleset)
        return result

    async def delete(self, guild_id: int, user_id: int, name: str) -> bool:
        return await self.repository.delete(guild_id, user_id, name)

    async def deck_cards(self, guild_id: int, user_id: int, name: str) -> DeckCards | None:
        """A registered deck's resolved commanders and cards (for pods and mulligans)."""
        record = await self.repository.get(guild_id, user_id, name)
        if record is None:
            return None
        commanders: list[Card] = []
        cards: list[tuple[int, Card]] = []
        unresolved: list[str] = []
        unresolved_main: list[tuple[int, str]] = []
        for section, count, written, english in json.loads(record.resolved):
            card = self.cards.get(english) if english else None
            if card is None:
                unresolved.append(written)
                if section == Section.MAIN.value:
                    unresolved_main.append((count, written))
            elif section == Section.COMMANDER.value:
                commanders.append(card)
            elif section == Section.MAIN.value:
                cards.append((count, card))
        return DeckCards(record, tuple(commanders), tuple(cards), tuple(unresolved), tuple(unresolved_main))

    async def recheck_guild(self, guild_id: int, ruleset: str) -> int:
        """Re-check every deck of a server under its new ruleset; returns how many verdicts changed."""
        changed = 0
        for record in await self.repository.list_for_guild(guild_id):
            changed += await self._recheck(record, ruleset)
        return changed

    async def recheck_stale(self, ruleset_for: Any) -> int:
        """Re-check decks checked against older card data (``cards_version`` differs), each check through
        the work pool so the event loop keeps answering. A deck whose status changed is recorded in
        ``changes`` for its owner's notice and ``/deck list``."""
        changed = 0
        for record in await self.repository.list_stale(self.cards_version):
            changed += await self._recheck(record, await ruleset_for(record.guild_id), note_change=True)
        return changed

    async def _recheck(self, record: DeckRecord, ruleset: str, *, note_change: bool = False) -> int:
        """One deck re-checked and its verdict stored. A check that fails or times out stores nothing:
        the deck keeps its old verdict, ruleset and card data version (so it still reads as checked
        under the old ones, and the next re-check or ``/deck show`` tries again). With ``note_change``
        (new card data), a changed status is recorded for the owner's notice."""
        try:
            result = await self.check(record.raw_list, ruleset, commander_names=record.commanders)
        except Exception:
            log.warning(
                "re-check of deck %s (%s) failed: verdict left as it was",
                record.id,
                record.name,
                exc_info=True,
            )
            return 0
        stored = await self._store_verdict(record, result, ruleset)
        if stored and note_change:
            await self._record_change(record, result)
        return stored

    async def _record_change(self, record: DeckRecord, result: DeckCheck) -> None:
        """Remember a status change with the problems that are new in the verdict (the reason to tell)."""
        if record.status == result.verdict.status:
            return
        before = {
            (p.get("key"), p.get("card")) for p in json.loads(record.verdict or "{}").get("problems", [])
        }
        new = [(p.key, p.card) for p in result.verdict.problems if (p.key, p.card) not in before]
        await self.changes.record(
            record.id, record.status, result.verdict.status, list(dict.fromkeys(new))[:5]
        )

    async def _store_verdict(self, record: DeckRecord, result: DeckCheck, ruleset: str) -> int:
        resolved, verdict = _resolved_json(result.deck), _verdict_json(result)
        if (record.ruleset, record.verdict, record.resolved, record.cards_version) == (
            ruleset,
            verdict,
            resolved,
            self.cards_version,
        ):
            return 0
        await self.repository.update_verdict(
            record.id,
            ruleset=ruleset,
            status=result.verdict.status,
            verdict=verdict,
            resolved=resolved,
            cards_version=self.cards_version,
        )
        return 1


def export_text(deck: ResolvedDeck) -> str:
    """Plain text with Commander / Companion / Deck / Sideboard sections, English names where known."""
    out: list[str] = []
    titles = (
        (Section.COMMANDER, "Commander"),
        (Section.COMPANION, "Companion"),
        (Section.MAIN, "Deck"),
        (Section.SIDEBOARD, "Sideboard"),
    )
    for section, title in titles:
        entries = deck.in_section(section)
        if not entries:
            continue
        if out:
            out.append("")
        out.append(title)
        out.extend(f"{entry.count} {entry.name}" for entry in entries)
    return "\n".join(out) + "\n"


__all__ = [
    "DeckCards",
    "DeckCheck",
    "DeckNameError",
    "DeckService",
    "DecklistRefused",
    "Offload",
    "RegisterResult",
    "check_deck_text",
    "clean_deck_name",
    "export_text",
]
