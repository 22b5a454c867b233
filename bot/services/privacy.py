"""Members' data rights (Discord's Developer Policy): a member's export, and a server's data deleted
after the bot leaves it (``[privacy] retention_days``, default 30) or at once with
``podkeeper db purge-guild ID``. Plain Python; the cog and the CLI call this."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.storage.db import Database
from bot.storage.privacy import PrivacyRepository


def _now() -> datetime:
    return datetime.now(UTC)


class PrivacyService:
    def __init__(self, db: Database, *, clock: Callable[[], datetime] = _now) -> None:
        self.repo = PrivacyRepository(db)
        self.clock = clock

    async def export(self, user_id: int) -> bytes:
        """A JSON file of everything stored about ``user_id`` (for ``/privacy export``)."""
        data = {
            "user_id": user_id,
            "exported_at": self.clock().isoformat(timespec="seconds"),
            **await self.repo.export_user(user_id),
        }
        return json.dumps(data, ensure_ascii=False, indent=2, default=str).encode("utf-8")

    async def delete_member(self, user_id: int) -> int:
        """``/privacy delete``: the member's decks, settings and profile go; their id in games, votes
        and results becomes one random negative number (never a Discord id), the same everywhere, so
        other players' games still replay and their standings stay correct. Returns the pseudonym."""
        pseudonym = -secrets.randbelow(2**62) - 1
        await self.repo.delete_user(user_id, pseudonym)
        return pseudonym

    async def purge_guild(self, guild_id: int) -> dict[str, int]:
        return await self.repo.purge_guild(guild_id)

    async def left(self, guild_id: int) -> None:
        await self.repo.mark_left(guild_id, self.clock().isoformat(timespec="seconds"))

    async def returned(self, guild_id: int) -> None:
        await self.repo.mark_returned(guild_id)

    async def purge_due(self, retention_days: int) -> list[int]:
        """Delete the data of every server the bot left more than ``retention_days`` ago."""
        cutoff = (self.clock() - timedelta(days=retention_days)).isoformat(timespec="seconds")
        due = await self.repo.departed_before(cutoff)
        for guild_id in due:
            await self.repo.purge_guild(guild_id)
        return due
