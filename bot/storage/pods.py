"""Pod games (SQLite or PostgreSQL): an append-only event log per game plus a row saying where its board lives.

Appending an event and (when it ends the game) marking the game finished happen in one transaction,
so the log and the summary never disagree. Seqs are assigned by the caller under the game's lock; the
primary key (game_id, seq) rejects a second writer that raced it from another process on a shared
PostgreSQL database (IntegrityError), and the service judges the change again on the fresh log.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain.pod import Event, PodGameRecord
from bot.storage.db import Connection, Database
from bot.storage.stats import write_summary


@dataclass(frozen=True)
class PodGameRow:
    game_id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    created_by: int | None
    created_at: str
    ruleset: str
    status: str  # open | finished | abandoned (a match game whose start was undone)
    ended: str | None
    ended_at: str | None
    survivors: list[int]
    tournament_id: int | None
    round_number: int | None


@dataclass(frozen=True)
class GameFinish:
    """What to write on the game row when an event ends the game."""

    ended: str
    ended_at: str | None
    survivors: list[int]
    # The finished game's record and when it was opened: its statistics are written with the finish.
    record: PodGameRecord | None = None
    started_at: str | None = None


_GAME_COLUMNS = (
    "game_id, guild_id, channel_id, message_id, created_by, created_at, ruleset, status, ended, "
    "ended_at, survivors, tournament_id, round_number"
)
_GAME_FIELDS = _GAME_COLUMNS.split(", ")


def _game(row: Sequence[Any]) -> PodGameRow:
    values = dict(zip(_GAME_FIELDS, row, strict=True))  # pragma: no mutate (strict: a row of these columns)
    values["survivors"] = json.loads(values["survivors"]) if values["survivors"] else []
    return PodGameRow(**values)


def _event(row: Sequence[Any]) -> Event:
    return Event(seq=row[0], kind=row[1], actor=row[2], at=row[3], data=json.loads(row[4]))


def game_scope(game_id: int) -> str:
    """The write scope of one pod game (see ``Database.transaction``): its log and its row."""
    return f"pod:{game_id}"


class PodRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        ruleset: str,
        first_event: Event,
        tournament_id: int | None = None,
        round_number: int | None = None,
    ) -> int:
        """A new game with its creation event, in one transaction; returns the game id."""
        async with self.db.transaction() as conn:
            game_id = await conn.insert(
                "INSERT INTO pod_games (guild_id, channel_id, created_by, created_at, ruleset, status, "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                "tournament_id, round_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (
                    guild_id,
                    channel_id,
                    first_event.actor,
                    first_event.at,
                    ruleset,
                    "open",
                    tournament_id,
                    round_number,
                ),
                returning="game_id",  # pragma: no mutate (an unquoted name: PostgreSQL folds it, SQLite reads the rowid)
            )
            await self._insert_event(conn, game_id, first_event)
        return game_id

    async def append(
        self, game_id: int, event: Event, finish: GameFinish | None = None, *, press_id: int | None = None
    ) -> None:
        """Store one event (and the end of the game, and the board press it came from) together."""
        async with self.db.transaction(game_scope(game_id)) as conn:
            await self._insert_event(conn, game_id, event)
            if press_id is not None:
                await conn.execute(
                    "INSERT INTO pod_presses (press_id, game_id, seq, at) VALUES (?, ?, ?, ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    (press_id, game_id, event.seq, event.at),
                )
            if finish is not None:
                await conn.execute(
                    "UPDATE pod_games SET status = ?, ended = ?, ended_at = ?, survivors = ? "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    "WHERE game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    ("finished", finish.ended, finish.ended_at, json.dumps(finish.survivors), game_id),
                )
                if finish.record is not None:
                    await write_summary(conn, finish.record, finish.started_at)

    @staticmethod
    async def _insert_event(conn: Connection, game_id: int, event: Event) -> None:
        await conn.execute(
            "INSERT INTO pod_events (game_id, seq, kind, actor_id, at, data) VALUES (?, ?, ?, ?, ?, ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (game_id, event.seq, event.kind, event.actor, event.at, json.dumps(event.data, sort_keys=True)),
        )

    async def stored_presses(self, press_ids: Sequence[int]) -> set[int]:
        """Which of these board presses already have their change stored."""
        if not press_ids:
            return set()
        marks = ", ".join("?" * len(press_ids))
        rows = await self.db.fetchall(
            f"SELECT press_id FROM pod_presses WHERE press_id IN ({marks})", tuple(press_ids)
        )
        return {int(r[0]) for r in rows}

    async def forget_presses_before(self, before: str) -> None:
        """Drop the press marks older than ``before`` (ISO time): no journal still needs them."""
        await self.db.execute(
            "DELETE FROM pod_presses WHERE at < ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (before,),
        )

    async def open_games_started_by(self, guild_id: int | None, user_id: int) -> int:
        """Open games outside tournaments that ``user_id`` started in the server (the per-member cap)."""
        return int(
            await self.db.scalar(
                "SELECT COUNT(*) FROM pod_games WHERE guild_id = ? AND created_by = ? AND status = ? "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                "AND tournament_id IS NULL",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (guild_id, user_id, "open"),
            )
            or 0
        )

    async def game(self, game_id: int) -> PodGameRow | None:
        row = await self.db.fetchone(f"SELECT {_GAME_COLUMNS} FROM pod_games WHERE game_id = ?", (game_id,))
        return None if row is None else _game(row)

    async def events(self, game_id: int) -> list[Event]:
        rows = await self.db.fetchall(
            "SELECT seq, kind, actor_id, at, data FROM pod_events WHERE game_id = ? ORDER BY seq",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (game_id,),
        )
        return [_event(r) for r in rows]

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self.db.execute(
            "UPDATE pod_games SET channel_id = ?, message_id = ? WHERE game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (channel_id, message_id, game_id),
            scope=game_scope(game_id),
        )

    async def set_shown(self, game_id: int, seq: int) -> None:
        """The board now shows the log up to ``seq`` (never lowered by a slower, older edit)."""
        await self.db.execute(
            "UPDATE pod_games SET shown_seq = ? WHERE game_id = ? AND (shown_seq IS NULL OR shown_seq < ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (seq, game_id, seq),
            scope=game_scope(game_id),
        )

    async def lagging_boards(self) -> list[int]:
        """Games whose board is behind their log, or that were never posted (a crash came between
        storing and editing Discord): the reconcile pass after a start brings them up to date."""
        rows = await self.db.fetchall(
            "SELECT g.game_id FROM pod_games g JOIN (SELECT game_id, MAX(seq) AS last FROM pod_events "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "GROUP BY game_id) e ON e.game_id = g.game_id "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "WHERE g.channel_id IS NOT NULL AND g.status != ? "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "AND (g.shown_seq IS NULL OR g.shown_seq < e.last) ORDER BY g.game_id",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            ("abandoned",),
        )
        return [int(r[0]) for r in rows]

    async def recent(self, guild_id: int, limit: int = 10) -> list[PodGameRow]:
        rows = await self.db.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM pod_games WHERE guild_id = ? ORDER BY game_id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [_game(r) for r in rows]

    async def open_in_channel(self, channel_id: int) -> list[PodGameRow]:
        rows = await self.db.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM pod_games WHERE channel_id = ? AND status = ? ORDER BY game_id DESC",
            (channel_id, "open"),
        )
        return [_game(r) for r in rows]
