"""Card rows (SQLite or PostgreSQL): load them all, or replace them all atomically.

The database is the card data's durable home; lookups go to the in-memory ``CardIndex`` built from
``load_all()``, or read back ready-built from ``card_snapshots`` (``bot.cards.snapshot``). ``replace_all`` writes the new set into ``cards_new`` and renames it over ``cards``
in ONE transaction: if anything fails (a bad record, a full disk, a crash), the transaction rolls
back and the old cards are untouched; readers never see a half-imported set. Both engines' DDL is
transactional, so on PostgreSQL the drop and rename commit together too and every process's readers
(which wait on the table's lock meanwhile) see the old set or the new one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.cards.model import Card
from bot.storage.db import Database, DatabaseError

# The same columns as migration 0002_cards.sql; tests/cards/test_card_storage.py checks they agree.
CARD_COLUMNS_DDL = """(
    name               TEXT PRIMARY KEY,
    layout             TEXT NOT NULL,
    type_line          TEXT NOT NULL,
    color_identity     TEXT NOT NULL,
    commander_legality TEXT NOT NULL,
    name_ja            TEXT,
    name_zh_hans       TEXT,
    name_zh_hant       TEXT,
    data               TEXT NOT NULL
)"""
_INSERT = (
    "INSERT INTO cards_new (name, layout, type_line, color_identity, commander_legality, "
    "name_ja, name_zh_hans, name_zh_hant, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_BATCH = 2000


@dataclass(frozen=True)
class CardImportRecord:
    """One successful import: where the cards came from and when."""

    source: str
    format: str
    card_count: int
    imported_at: str
    data_date: str | None = None  # the newest release date in the data (migration 0023), None if unknown


def card_row(card: Card) -> tuple[str | None, ...]:
    data = json.dumps(card.to_scryfall(), ensure_ascii=False, separators=(",", ":"))
    names = card.printed_names
    return (
        card.name,
        card.layout,
        card.type_line,
        card.color_identity,
        card.commander_legality,
        names.get("ja"),
        names.get("zh-Hans"),
        names.get("zh-Hant"),
        data,
    )


def _stored_card(name: str, data: str) -> Card:
    """One stored card row; a corrupt one (a disk error, a hand edit) stops the start with a line that
    names it and says how to repair, instead of a raw JSON traceback."""
    try:
        return Card.from_scryfall(json.loads(data))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise DatabaseError(
            f"the stored card {name!r} is corrupt ({type(exc).__name__}: {exc}), so the card data "
            f"cannot be read. Replace the card data: `podkeeper cards import <file>` (e.g. the "
            f"bundled assets/cards/cards.jsonl.gz) or `podkeeper cards sync`."
        ) from None


class CardRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def count(self) -> int:
        return int(await self.db.scalar("SELECT COUNT(*) FROM cards") or 0)

    async def load_all(self) -> list[Card]:
        rows = await self.db.fetchall("SELECT name, data FROM cards")
        return [_stored_card(row[0], row[1]) for row in rows]

    async def printed_names(self) -> dict[str, dict[str, str]]:
        """English name -> printed names, for the cards that have any."""
        rows = await self.db.fetchall(
            "SELECT name, name_ja, name_zh_hans, name_zh_hant FROM cards "
            "WHERE name_ja IS NOT NULL OR name_zh_hans IS NOT NULL OR name_zh_hant IS NOT NULL"
        )
        out: dict[str, dict[str, str]] = {}
        for name, ja, hans, hant in rows:
            out[name] = {
                lang: value for lang, value in (("ja", ja), ("zh-Hans", hans), ("zh-Hant", hant)) if value
            }
        return out

    async def replace_all(
        self, cards: Sequence[Card], *, source: str, fmt: str, data_date: str | None = None
    ) -> int:
        """Make ``cards`` the whole card set, atomically. Returns how many were stored."""
        if not cards:
            raise ValueError("refusing to replace the card data with no cards")
        rows = [card_row(card) for card in cards]
        async with self.db.transaction() as conn:
            await conn.execute("DROP TABLE IF EXISTS cards_new")
            await conn.execute(f"CREATE TABLE cards_new {CARD_COLUMNS_DDL}")
            for start in range(0, len(rows), _BATCH):
                await conn.executemany(_INSERT, rows[start : start + _BATCH])
            await conn.execute("DELETE FROM card_snapshots")  # derived from the old cards
            await conn.execute("DROP TABLE cards")
            await conn.execute("ALTER TABLE cards_new RENAME TO cards")
            sequence = int(await conn.scalar("SELECT COALESCE(MAX(sequence), 0) + 1 FROM card_imports") or 1)
            await conn.execute(
                "INSERT INTO card_imports (sequence, source, format, card_count, imported_at, data_date) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (sequence, source, fmt, len(rows), self.db.now_iso(), data_date),
            )
        return len(rows)

    async def load_snapshot(self, fmt: str) -> tuple[int, bytes] | None:
        """The newest import's derived data of format ``fmt`` and that import's sequence, if stored."""
        row = await self.db.fetchone(
            "SELECT sequence, data FROM card_snapshots WHERE format = ? AND sequence = "
            "(SELECT COALESCE(MAX(sequence), 0) FROM card_imports)",
            (fmt,),
        )
        return None if row is None else (int(row[0]), bytes(row[1]))

    async def save_snapshot(self, sequence: int, fmt: str, data: bytes) -> bool:
        """Store derived data of import ``sequence``, replacing other formats' rows of the same kind
        (``fmt`` up to its first "-"); False when the cards changed meanwhile (nothing stored)."""
        kind = fmt.split("-", 1)[0] + "-%"
        async with self.db.transaction() as conn:
            if await conn.scalar("SELECT COALESCE(MAX(sequence), 0) FROM card_imports") != sequence:
                return False
            await conn.execute("DELETE FROM card_snapshots WHERE format LIKE ?", (kind,))
            await conn.execute(
                "INSERT INTO card_snapshots (sequence, format, data) VALUES (?, ?, ?)", (sequence, fmt, data)
            )
        return True

    async def version(self) -> int:
        """The sequence number of the newest import (0 before any): changes whenever the cards do."""
        return int(await self.db.scalar("SELECT COALESCE(MAX(sequence), 0) FROM card_imports") or 0)

    async def last_import(self) -> CardImportRecord | None:
        row = await self.db.fetchone(
            "SELECT source, format, card_count, imported_at, data_date FROM card_imports "
            "ORDER BY sequence DESC LIMIT 1"
        )
        return None if row is None else CardImportRecord(*row)
