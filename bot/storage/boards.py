"""When live board messages were posted (migration 0020), so their age survives a restart.

Discord caps edits to messages older than one hour; ``cogs._boards`` posts a board afresh before that,
and needs each board's age on the bot's clock (the message id's own timestamp follows Discord's clock,
which a test's fake clock does not move).
"""

from __future__ import annotations

from datetime import datetime

from bot.storage.db import Database


class BoardPostRepository:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[int, datetime] = {}

    async def record(self, message_id: int, channel_id: int, posted_at: datetime) -> None:
        await self.db.execute(
            "INSERT INTO board_posts (message_id, channel_id, posted_at) VALUES (?, ?, ?) "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "ON CONFLICT (message_id) DO UPDATE SET posted_at = excluded.posted_at",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (message_id, channel_id, posted_at.isoformat()),
        )
        self._cache[message_id] = posted_at

    async def posted_at(self, message_id: int) -> datetime | None:
        """When the board message was posted, or None for one posted before this was recorded."""
        cached = self._cache.get(message_id)
        if cached is not None:
            return cached
        row = await self.db.fetchone(
            "SELECT posted_at FROM board_posts WHERE message_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (message_id,),
        )
        if row is None:
            return None
        self._cache[message_id] = when = datetime.fromisoformat(row[0])
        return when

    async def forget(self, message_id: int) -> None:
        """The message is no longer a board (it was replaced and pointed to the new one, or deleted)."""
        self._cache.pop(message_id, None)
        await self.db.execute(
            "DELETE FROM board_posts WHERE message_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (message_id,),
        )
