"""Registered decks: SQL only. Names are unique per (server, user) regardless of case and spacing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database

_COLUMNS = (
    "deck_id, guild_id, user_id, name, raw_list, commanders, resolved, ruleset, status, verdict, "
    "cards_version, created_at, updated_at"
)


@dataclass(frozen=True)
class DeckRecord:
    id: int
    guild_id: int
    user_id: int
    name: str
    raw_list: str
    commanders: tuple[str, ...]
    resolved: str  # JSON rows [section, count, written name, English name | null]
    ruleset: str
    status: str  # legal | illegal | unverifiable
    verdict: str  # JSON summary of the last verdict
    cards_version: str
    created_at: str
    updated_at: str


def name_key(name: str) -> str:
    """What makes two deck names the same one: case and spacing don't count."""
    return " ".join(name.split()).casefold()


def _record(row: Sequence[Any]) -> DeckRecord:
    values = list(row)
    values[5] = tuple(json.loads(values[5]))
    return DeckRecord(*values)


class DeckRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: int, user_id: int, name: str) -> DeckRecord | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM decks WHERE guild_id = ? AND user_id = ? AND name_key = ?",
            (guild_id, user_id, name_key(name)),
        )
        return None if row is None else _record(row)

    async def get_by_id(self, deck_id: int) -> DeckRecord | None:
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM decks WHERE deck_id = ?", (deck_id,))
        return None if row is None else _record(row)

    async def list_for_user(self, guild_id: int, user_id: int) -> list[DeckRecord]:
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM decks WHERE guild_id = ? AND user_id = ? ORDER BY name_key",
            (guild_id, user_id),
        )
        return [_record(row) for row in rows]

    async def list_for_guild(self, guild_id: int) -> list[DeckRecord]:
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM decks WHERE guild_id = ? ORDER BY user_id, name_key", (guild_id,)
        )
        return [_record(row) for row in rows]

    async def list_stale(self, cards_version: str) -> list[DeckRecord]:
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM decks WHERE cards_version <> ? ORDER BY deck_id", (cards_version,)
        )
        return [_record(row) for row in rows]

    async def search_names(self, guild_id: int, user_id: int, text: str, limit: int = 25) -> list[str]:
        """Deck names of a user containing ``text`` (autocomplete); filtered here, not in SQL LIKE,
        so case folding of non-ASCII names works the same on every database."""
        key = name_key(text)
        return [r.name for r in await self.list_for_user(guild_id, user_id) if key in name_key(r.name)][
            :limit
        ]

    async def save(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        *,
        raw_list: str,
        commanders: list[str],
        resolved: str,
        ruleset: str,
        status: str,
        verdict: str,
        cards_version: str,
    ) -> DeckRecord:
        """Insert the deck, or replace the one of the same name (the caller asked the user first)."""
        now = self.db.now_iso()
        await self.db.execute(
            "INSERT INTO decks (guild_id, user_id, name, name_key, raw_list, commanders, resolved, ruleset, "
            "status, verdict, cards_version, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, name_key) DO UPDATE SET name = excluded.name, "
            "raw_list = excluded.raw_list, commanders = excluded.commanders, resolved = excluded.resolved, "
            "ruleset = excluded.ruleset, status = excluded.status, verdict = excluded.verdict, "
            "cards_version = excluded.cards_version, updated_at = excluded.updated_at",
            (
                guild_id,
                user_id,
                name,
                name_key(name),
                raw_list,
                json.dumps(commanders, ensure_ascii=False),
                resolved,
                ruleset,
                status,
                verdict,
                cards_version,
                now,
                now,
            ),
        )
        record = await self.get(guild_id, user_id, name)
        assert record is not None
        return record

    async def update_verdict(
        self, deck_id: int, *, ruleset: str, status: str, verdict: str, resolved: str, cards_version: str
    ) -> None:
        await self.db.execute(
            "UPDATE decks SET ruleset = ?, status = ?, verdict = ?, resolved = ?, cards_version = ?, "
            "updated_at = ? WHERE deck_id = ?",
            (ruleset, status, verdict, resolved, cards_version, self.db.now_iso(), deck_id),
        )

    async def delete(self, guild_id: int, user_id: int, name: str) -> bool:
        async with self.db.transaction() as conn:
            return (
                await conn.execute(
                    "DELETE FROM decks WHERE guild_id = ? AND user_id = ? AND name_key = ?",
                    (guild_id, user_id, name_key(name)),
                )
                > 0
            )
