"""Per-member settings (the language a member chose with ``/config my-language``).

Looked up for every interaction, so answers are cached in memory; the repository is the only writer.
"""

from __future__ import annotations

from bot.storage.db import Database


class UserSettingsRepository:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._languages: dict[int, str | None] = {}

    async def language(self, user_id: int) -> str | None:
        """The member's chosen language, or ``None`` when they left it to Discord and the server."""
        if user_id not in self._languages:
            row = await self.db.fetchone("SELECT language FROM user_settings WHERE user_id = ?", (user_id,))
            self._languages[user_id] = row[0] if row else None
        return self._languages[user_id]

    async def set_language(self, user_id: int, language: str | None) -> None:
        """Store a choice; ``None`` clears it (back to the Discord language)."""
        await self.db.execute(
            "INSERT INTO user_settings (user_id, language, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at",
            (user_id, language, self.db.now_iso()),
        )
        self._languages[user_id] = language
