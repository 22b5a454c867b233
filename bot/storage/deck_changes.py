"""Verdict changes after new card data, users' languages for later notices, and the card-sync schedule:
SQL only (migration 0010)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database


@dataclass(frozen=True)
class DeckChange:
    """A registered deck whose verdict new card data changed."""

    deck_id: int
    guild_id: int
    user_id: int
    name: str
    old_status: str
    new_status: str
    problems: tuple[tuple[str, str | None], ...]  # (message key, card) new in the verdict
    changed_at: str
    notified_at: str | None


@dataclass(frozen=True)
class SyncState:
    last_attempt: str | None = None
    last_success: str | None = None
    last_error: str | None = None
    failures: int = 0


_CHANGE_COLUMNS = (
    "c.deck_id, d.guild_id, d.user_id, d.name, c.old_status, c.new_status, c.problems, "
    "c.changed_at, c.notified_at"
)


def _change(row: Sequence[Any]) -> DeckChange:
    values = list(row)
    values[6] = tuple((key, card) for key, card in json.loads(values[6]))
    return DeckChange(*values)


class DeckChangeRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(
        self, deck_id: int, old_status: str, new_status: str, problems: list[tuple[str, str | None]]
    ) -> None:
        """Remember a change; a newer one replaces an older (even a notified one: it is news again)."""
        await self.db.execute(
            "INSERT INTO deck_verdict_changes (deck_id, old_status, new_status, problems, changed_at, notified_at) "
            "VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (deck_id) DO UPDATE SET old_status = excluded.old_status, "
            "new_status = excluded.new_status, problems = excluded.problems, changed_at = excluded.changed_at, "
            "notified_at = NULL",
            (deck_id, old_status, new_status, json.dumps(problems, ensure_ascii=False), self.db.now_iso()),
        )

    async def pending(self) -> list[DeckChange]:
        """Changes whose owner has not been told yet, of decks that still exist."""
        rows = await self.db.fetchall(
            f"SELECT {_CHANGE_COLUMNS} FROM deck_verdict_changes c JOIN decks d ON d.deck_id = c.deck_id "
            "WHERE c.notified_at IS NULL ORDER BY d.user_id, c.deck_id"
        )
        return [_change(row) for row in rows]

    async def for_user(self, guild_id: int, user_id: int) -> dict[int, DeckChange]:
        rows = await self.db.fetchall(
            f"SELECT {_CHANGE_COLUMNS} FROM deck_verdict_changes c JOIN decks d ON d.deck_id = c.deck_id "
            "WHERE d.guild_id = ? AND d.user_id = ?",
            (guild_id, user_id),
        )
        return {change.deck_id: change for change in map(_change, rows)}

    async def mark_notified(self, deck_ids: list[int]) -> None:
        now = self.db.now_iso()
        for deck_id in deck_ids:
            await self.db.execute(
                "UPDATE deck_verdict_changes SET notified_at = ? WHERE deck_id = ?", (now, deck_id)
            )

    async def clear(self, deck_id: int) -> None:
        """The owner registered the deck again (or deleted it): the old change is no news any more."""
        await self.db.execute("DELETE FROM deck_verdict_changes WHERE deck_id = ?", (deck_id,))

    async def remember_language(self, user_id: int, language: str) -> None:
        await self.db.execute(
            "INSERT INTO user_languages (user_id, language, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at",
            (user_id, language, self.db.now_iso()),
        )

    async def language_of(self, user_id: int) -> str | None:
        language = await self.db.scalar("SELECT language FROM user_languages WHERE user_id = ?", (user_id,))
        return None if language is None else str(language)


class SyncStateRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self) -> SyncState:
        row = await self.db.fetchone(
            "SELECT last_attempt, last_success, last_error, failures FROM card_sync_state WHERE id = 1"
        )
        return SyncState() if row is None else SyncState(*row)

    async def save(self, state: SyncState) -> None:
        await self.db.execute(
            "INSERT INTO card_sync_state (id, last_attempt, last_success, last_error, failures) VALUES (1, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET last_attempt = excluded.last_attempt, last_success = "
            "excluded.last_success, last_error = excluded.last_error, failures = excluded.failures",
            (state.last_attempt, state.last_success, state.last_error, state.failures),
        )
