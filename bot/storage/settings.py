"""Per-server settings (ruleset, locale, thread preference, organiser and winner roles).

Read for almost every interaction (the reply language, the ruleset), so answers are cached in memory:
a press or a ``/ping`` then needs no database round trip before it is answered. The repository is the
only writer.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bot.storage.db import Database


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    ruleset: str | None = None
    locale: str | None = None
    pod_threads: bool = False
    organiser_role_id: int | None = None
    winner_role_id: int | None = None


_COLUMNS = [f.name for f in fields(GuildSettings)]


class GuildSettingsRepository:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[int, GuildSettings] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = self._cache[guild_id] = await self._read(guild_id)
        return cached

    async def _read(self, guild_id: int) -> GuildSettings:
        row = await self.db.fetchone(
            f"SELECT {', '.join(_COLUMNS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings(guild_id)
        values = dict(zip(_COLUMNS, row, strict=True))
        values["pod_threads"] = bool(values["pod_threads"])
        return GuildSettings(**values)

    async def update(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings of a server, keeping the others."""
        settings = replace(await self.get(guild_id), **changes)
        values = [getattr(settings, name) for name in _COLUMNS]
        placeholders = ", ".join("?" for _ in _COLUMNS)
        updates = ", ".join(f"{name} = excluded.{name}" for name in _COLUMNS[1:])
        await self.db.execute(
            f"INSERT INTO guild_settings ({', '.join(_COLUMNS)}, updated_at) VALUES ({placeholders}, ?) "
            f"ON CONFLICT (guild_id) DO UPDATE SET {updates}, updated_at = excluded.updated_at",
            (*values, self.db.now_iso()),
        )
        self._cache[guild_id] = settings
        return settings
