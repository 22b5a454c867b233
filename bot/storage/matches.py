"""Matches in SQLite: an append-only event log per match (games are pod games), and the per-server
switch of the optional sideboard rule (T1). Seqs are assigned under the match's lock; the primary key
(match_id, seq) rejects a second writer that raced it."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.domain.match import MatchEvent
from bot.storage.db import Connection, Database


@dataclass(frozen=True)
class MatchRow:
    match_id: int
    guild_id: int | None
    created_at: str
    ruleset: str
    tournament_id: int | None
    round_number: int | None


_COLUMNS = "match_id, guild_id, created_at, ruleset, tournament_id, round_number"


def match_scope(match_id: int) -> str:
    """The write scope of one best-of-three match's log (see ``Database.transaction``)."""
    return f"match:{match_id}"


class MatchRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self,
        *,
        guild_id: int | None,
        ruleset: str,
        first_event: MatchEvent,
        tournament_id: int | None = None,
        round_number: int | None = None,
    ) -> int:
        async with self.db.transaction() as conn:
            match_id = await conn.insert(
                "INSERT INTO pod_matches (guild_id, created_at, ruleset, tournament_id, round_number) "
                "VALUES (?, ?, ?, ?, ?)",
                (guild_id, self.db.now_iso(), ruleset, tournament_id, round_number),
                returning="match_id",
            )
            await self._insert(conn, match_id, first_event)
        return match_id

    async def append(self, match_id: int, event: MatchEvent) -> None:
        async with self.db.transaction(match_scope(match_id)) as conn:
            await self._insert(conn, match_id, event)

    @staticmethod
    async def _insert(conn: Connection, match_id: int, event: MatchEvent) -> None:
        await conn.execute(
            "INSERT INTO pod_match_events (match_id, seq, kind, actor_id, at, data) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, event.seq, event.kind, event.actor, event.at, json.dumps(event.data, sort_keys=True)),
        )

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM pod_matches WHERE match_id = ?", (match_id,))
        return None if row is None else MatchRow(*row)

    async def events(self, match_id: int) -> list[MatchEvent]:
        rows = await self.db.fetchall(
            "SELECT seq, kind, actor_id, at, data FROM pod_match_events WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [MatchEvent(seq=r[0], kind=r[1], actor=r[2], at=r[3], data=json.loads(r[4])) for r in rows]

    async def for_tournament(self, tournament_id: int) -> list[MatchRow]:
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM pod_matches WHERE tournament_id = ? ORDER BY match_id", (tournament_id,)
        )
        return [MatchRow(*r) for r in rows]

    async def abandon_game(self, game_id: int) -> None:
        """A game whose start was undone: it leaves the open games of its channel (its log stays)."""
        await self.db.execute(
            "UPDATE pod_games SET status = 'abandoned' WHERE game_id = ? AND status = 'open'", (game_id,)
        )

    async def set_matches_format(self, tournament_id: int) -> None:
        await self.db.execute(
            "INSERT INTO tournament_match_format (tournament_id, created_at) VALUES (?, ?) "
            "ON CONFLICT (tournament_id) DO NOTHING",
            (tournament_id, self.db.now_iso()),
        )

    async def is_matches_format(self, tournament_id: int) -> bool:
        return bool(
            await self.db.scalar(
                "SELECT 1 FROM tournament_match_format WHERE tournament_id = ?", (tournament_id,)
            )
        )

    async def add_bye(self, tournament_id: int, round_number: int, user_id: int) -> None:
        await self.db.execute(
            "INSERT INTO tournament_match_byes (tournament_id, round_number, user_id) VALUES (?, ?, ?)",
            (tournament_id, round_number, user_id),
        )

    async def byes(self, tournament_id: int) -> list[tuple[int, int]]:
        """(round, user id) of each bye of a tournament."""
        rows = await self.db.fetchall(
            "SELECT round_number, user_id FROM tournament_match_byes WHERE tournament_id = ? "
            "ORDER BY round_number",
            (tournament_id,),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def sideboard_rule(self, guild_id: int) -> bool:
        value = await self.db.scalar(
            "SELECT enabled FROM guild_sideboard_rule WHERE guild_id = ?", (guild_id,)
        )
        return bool(value)

    async def set_sideboard_rule(self, guild_id: int, enabled: bool) -> None:
        await self.db.execute(
            "INSERT INTO guild_sideboard_rule (guild_id, enabled, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at",
            (guild_id, int(enabled), self.db.now_iso()),
        )
