"""Secret page links: one unguessable token per (kind, resource), replaced on revocation."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.storage.db import Database

KINDS = ("pod", "tournament", "hydra_event", "stats")  # stats: a server's leaderboard (resource: guild id)
TOKEN_BYTES = 24  # 192 bits from secrets.token_urlsafe: 32 URL-safe characters


@dataclass(frozen=True)
class PageLink:
    kind: str
    resource_id: int
    token: str
    guild_id: int | None


class PageLinkRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def link(
        self,
        kind: str,
        resource_id: int,
        *,
        guild_id: int | None,
        created_by: int | None,
        revoke: bool = False,
    ) -> PageLink:
        """The resource's link, made on first use; ``revoke`` replaces it (the old token stops working)."""
        if kind not in KINDS:
            raise ValueError(f"unknown page kind {kind!r}")
        if not revoke:
            row = await self.db.fetchone(
                "SELECT token, guild_id FROM page_links WHERE kind = ? AND resource_id = ?",
                (kind, resource_id),
            )
            if row is not None:
                return PageLink(kind, resource_id, row[0], row[1])
        token = secrets.token_urlsafe(TOKEN_BYTES)
        await self.db.execute(
            "INSERT INTO page_links (kind, resource_id, token, guild_id, created_by, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (kind, resource_id) DO UPDATE SET token = excluded.token, "
            "created_by = excluded.created_by, created_at = excluded.created_at",
            (kind, resource_id, token, guild_id, created_by, self.db.now_iso()),
        )
        return PageLink(kind, resource_id, token, guild_id)

    async def by_token(self, token: str) -> PageLink | None:
        row = await self.db.fetchone(
            "SELECT kind, resource_id, token, guild_id FROM page_links WHERE token = ?", (token,)
        )
        return None if row is None else PageLink(row[0], int(row[1]), row[2], row[3])
