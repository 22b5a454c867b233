"""Hydra events in SQLite: the event, its entrants (groups, seats, wait list), its tables (one Hydra
game each) and its awards.

Every state change that must not be seen half-done is one transaction: a group joins whole or not
at all; a seating plan is written for everyone at once; finishing writes the awards and the event's
new status together, and only if the event was still running (so nothing is awarded twice, and a
cancelled event awards nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.clock import SYSTEM_CLOCK, Clock
from bot.storage.db import Database

# event status
OPEN, SEATING, RUNNING, FINISHED, CANCELLED = "open", "seating", "running", "finished", "cancelled"
ACTIVE = (OPEN, SEATING, RUNNING)
ALL_STATUSES = (*ACTIVE, FINISHED, CANCELLED)
# entrant state
JOINED, SEATED, WAITING, DROPPED = "joined", "seated", "waiting", "dropped"


@dataclass(frozen=True)
class EventRow:
    event_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    leaderboard_message_id: int | None
    results_message_id: int | None
    scheduled_event_id: int | None
    name: str
    starts_at: str
    heads: int
    table_size: int
    grace_minutes: int
    language: str
    status: str
    created_by: int
    created_at: str
    began_at: str | None
    ended_at: str | None
    updated_at: str
    deck: str = "hydra"  # hydra | horde | god (migration 0016); ``heads`` is that deck's difficulty


@dataclass(frozen=True)
class Entrant:
    user_id: int
    name: str
    group_id: int
    joined_seq: int
    state: str
    table_no: int | None
    checked_in: bool
    seated_at: str | None = None  # set when seated at a table already playing (its grace runs from here)


@dataclass(frozen=True)
class EventTable:
    table_no: int
    game_id: int
    thread_id: int | None
    started_at: str
    grace_checked: bool


@dataclass(frozen=True)
class Award:
    user_id: int
    table_no: int
    role_id: int | None
    role_granted: bool


_EVENT_COLUMNS = tuple(EventRow.__dataclass_fields__)
_ENTRANT_COLUMNS = tuple(Entrant.__dataclass_fields__)
_TABLE_COLUMNS = tuple(EventTable.__dataclass_fields__)
_MUTABLE = {
    "message_id",
    "leaderboard_message_id",
    "results_message_id",
    "scheduled_event_id",
    "status",
    "began_at",
}


class AlreadyEntered(Exception):
    """Some of the users are already entered in this event (their ids in ``args[0]``)."""


def _entrant(row: Sequence[object]) -> Entrant:
    values = dict(zip(_ENTRANT_COLUMNS, row, strict=True))
    values["checked_in"] = bool(values["checked_in"])
    return Entrant(**values)  # type: ignore[arg-type]


def event_scope(event_id: int) -> str:
    """The write scope of one Hydra event (see ``Database.transaction``): its row, entrants, tables and
    awards, so joins, seating and the awards at its end are decided on what the event is now."""
    return f"event:{event_id}"


class HydraEventRepository:
    def __init__(self, db: Database, clock: Clock = SYSTEM_CLOCK) -> None:
        self.db = db
        self.clock = clock  # stamps (a table's start decides its grace period) follow the bot's clock

    def _now(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")

    # -- events -------------------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        starts_at: str,
        heads: int,
        table_size: int,
        grace_minutes: int,
        language: str,
        created_by: int,
        deck: str = "hydra",
    ) -> int:
        now = self._now()
        return await self.db.insert(
            "INSERT INTO hydra_events (guild_id, channel_id, name, starts_at, heads, table_size, grace_minutes, "
            "language, status, created_by, created_at, updated_at, deck) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                name,
                starts_at,
                heads,
                table_size,
                grace_minutes,
                language,
                OPEN,
                created_by,
                now,
                now,
                deck,
            ),
            returning="event_id",
        )

    async def event(self, event_id: int) -> EventRow | None:
        row = await self.db.fetchone(
            f"SELECT {', '.join(_EVENT_COLUMNS)} FROM hydra_events WHERE event_id = ?", (event_id,)
        )
        return None if row is None else EventRow(*row)

    async def events_with_status(self, statuses: Sequence[str]) -> list[EventRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(
            f"SELECT {', '.join(_EVENT_COLUMNS)} FROM hydra_events WHERE status IN ({marks}) ORDER BY event_id",
            tuple(statuses),
        )
        return [EventRow(*row) for row in rows]

    async def finished_without_results(self) -> list[EventRow]:
        """Finished events whose results message was never posted (the bot stopped in between)."""
        rows = await self.db.fetchall(
            f"SELECT {', '.join(_EVENT_COLUMNS)} FROM hydra_events WHERE status = ? AND results_message_id IS NULL "
            "ORDER BY event_id",
            (FINISHED,),
        )
        return [EventRow(*row) for row in rows]

    async def latest(
        self, guild_id: int, statuses: Sequence[str], *, channel_id: int | None = None
    ) -> EventRow | None:
        """The newest event of the server in one of ``statuses`` (announced in ``channel_id`` if given)."""
        marks = ", ".join("?" for _ in statuses)
        in_channel = " AND channel_id = ?" if channel_id is not None else ""
        row = await self.db.fetchone(
            f"SELECT {', '.join(_EVENT_COLUMNS)} FROM hydra_events WHERE guild_id = ? AND status IN ({marks})"
            f"{in_channel} ORDER BY event_id DESC LIMIT 1",
            (guild_id, *statuses, *([channel_id] if channel_id is not None else [])),
        )
        return None if row is None else EventRow(*row)

    async def update(self, event_id: int, **changes: object) -> None:
        unknown = set(changes) - _MUTABLE
        if unknown or not changes:
            raise ValueError(f"cannot change {sorted(unknown) or 'nothing'}")
        sets = ", ".join(f"{name} = ?" for name in changes)
        await self.db.execute(
            f"UPDATE hydra_events SET {sets}, updated_at = ? WHERE event_id = ?",
            (*changes.values(), self._now(), event_id),
            scope=event_scope(event_id),
        )

    # -- entrants -----------------------------------------------------------------------------------
    async def entrants(self, event_id: int) -> list[Entrant]:
        rows = await self.db.fetchall(
            f"SELECT {', '.join(_ENTRANT_COLUMNS)} FROM hydra_event_entrants WHERE event_id = ? "
            "ORDER BY joined_seq",
            (event_id,),
        )
        return [_entrant(row) for row in rows]

    async def add_group(
        self, event_id: int, members: Sequence[tuple[int, str]], *, state: str, table_no: int | None = None
    ) -> int:
        """Enter a group (one or more users) whole, or nobody; returns its group id."""
        async with self.db.transaction(event_scope(event_id)) as conn:
            marks = ", ".join("?" for _ in members)
            present = [
                row[0]
                for row in await conn.fetchall(
                    f"SELECT user_id FROM hydra_event_entrants WHERE event_id = ? AND user_id IN ({marks})",
                    (event_id, *(user for user, _ in members)),
                )
            ]
            if present:
                raise AlreadyEntered(present)
            row = await conn.fetchone(
                "SELECT COALESCE(MAX(joined_seq), 0) FROM hydra_event_entrants WHERE event_id = ?",
                (event_id,),
            )
            seq = int(row[0]) if row else 0
            group_id = seq + 1
            seated_at = self._now() if state == SEATED else None  # seated at a table already playing
            for offset, (user_id, name) in enumerate(members):
                await conn.execute(
                    "INSERT INTO hydra_event_entrants (event_id, user_id, name, group_id, joined_seq, state, "
                    "table_no, seated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (event_id, user_id, name, group_id, seq + 1 + offset, state, table_no, seated_at),
                )
        return group_id

    async def remove_entrant(self, event_id: int, user_id: int) -> None:
        await self.db.execute(
            "DELETE FROM hydra_event_entrants WHERE event_id = ? AND user_id = ?",
            (event_id, user_id),
            scope=event_scope(event_id),
        )

    async def set_state(
        self, event_id: int, user_ids: Iterable[int], state: str, table_no: int | None = None
    ) -> None:
        async with self.db.transaction(event_scope(event_id)) as conn:
            for user_id in user_ids:
                await conn.execute(
                    "UPDATE hydra_event_entrants SET state = ?, table_no = ? WHERE event_id = ? AND user_id = ?",
                    (state, table_no, event_id, user_id),
                )

    async def check_in(self, event_id: int, user_id: int) -> None:
        await self.db.execute(
            "UPDATE hydra_event_entrants SET checked_in = 1 WHERE event_id = ? AND user_id = ?",
            (event_id, user_id),
            scope=event_scope(event_id),
        )

    async def save_seating(
        self, event_id: int, tables: Sequence[Sequence[int]], waiting: Sequence[int]
    ) -> None:
        """The seating plan, for everyone at once, and the event moves to ``seating``."""
        async with self.db.transaction(event_scope(event_id)) as conn:
            for table_no, users in enumerate(tables, start=1):
                for user_id in users:
                    await conn.execute(
                        "UPDATE hydra_event_entrants SET state = ?, table_no = ? "
                        "WHERE event_id = ? AND user_id = ?",
                        (SEATED, table_no, event_id, user_id),
                    )
            for user_id in waiting:
                await conn.execute(
                    "UPDATE hydra_event_entrants SET state = ?, table_no = NULL "
                    "WHERE event_id = ? AND user_id = ?",
                    (WAITING, event_id, user_id),
                )
            now = self._now()
            await conn.execute(
                "UPDATE hydra_events SET status = ?, began_at = ?, updated_at = ? WHERE event_id = ?",
                (SEATING, now, now, event_id),
            )

    async def seat_at_new_tables(self, event_id: int, tables: dict[int, Sequence[int]]) -> None:
        """Seat wait-listed players at new tables (table number -> users), all at once."""
        async with self.db.transaction(event_scope(event_id)) as conn:
            for table_no, users in tables.items():
                for user_id in users:
                    await conn.execute(
                        "UPDATE hydra_event_entrants SET state = ?, table_no = ? "
                        "WHERE event_id = ? AND user_id = ?",
                        (SEATED, table_no, event_id, user_id),
                    )

    # -- tables -------------------------------------------------------------------------------------
    async def tables(self, event_id: int) -> list[EventTable]:
        rows = await self.db.fetchall(
            f"SELECT {', '.join(_TABLE_COLUMNS)} FROM hydra_event_tables WHERE event_id = ? ORDER BY table_no",
            (event_id,),
        )
        return [EventTable(row[0], row[1], row[2], row[3], bool(row[4])) for row in rows]

    async def add_table(self, event_id: int, table_no: int, game_id: int) -> None:
        await self.db.execute(
            "INSERT INTO hydra_event_tables (event_id, table_no, game_id, started_at) VALUES (?, ?, ?, ?)",
            (event_id, table_no, game_id, self._now()),
            scope=event_scope(event_id),
        )

    async def set_table(
        self, event_id: int, table_no: int, *, thread_id: int | None = None, grace_checked: bool | None = None
    ) -> None:
        if thread_id is not None:
            await self.db.execute(
                "UPDATE hydra_event_tables SET thread_id = ? WHERE event_id = ? AND table_no = ?",
                (thread_id, event_id, table_no),
                scope=event_scope(event_id),
            )
        if grace_checked is not None:
            await self.db.execute(
                "UPDATE hydra_event_tables SET grace_checked = ? WHERE event_id = ? AND table_no = ?",
                (int(grace_checked), event_id, table_no),
                scope=event_scope(event_id),
            )

    async def table_of_game(self, game_id: int, decks: Sequence[str] = ("hydra",)) -> tuple[int, int] | None:
        """(event id, table number) of a game of one of ``decks`` played at an event, else None. The Hydra's
        games and the other decks' are numbered apart, so the same number may be one of each."""
        marks = ", ".join("?" for _ in decks)
        row = await self.db.fetchone(
            "SELECT t.event_id, t.table_no FROM hydra_event_tables t JOIN hydra_events e ON e.event_id = t.event_id "
            f"WHERE t.game_id = ? AND e.deck IN ({marks})",
            (game_id, *decks),
        )
        return None if row is None else (row[0], row[1])

    async def event_of_thread(self, thread_id: int) -> int | None:
        """The event whose table plays in thread ``thread_id``, else None."""
        event_id = await self.db.scalar(
            "SELECT event_id FROM hydra_event_tables WHERE thread_id = ?", (thread_id,)
        )
        return None if event_id is None else int(event_id)

    # -- the end ------------------------------------------------------------------------------------
    async def finish(self, event_id: int, winners: Sequence[tuple[int, int]], role_id: int | None) -> bool:
        """Award every winner (user id, table number) and finish the event, in one transaction.
        Returns False, writing nothing, when the event is no longer running (already finished or
        cancelled): nothing is ever awarded twice or half."""
        now = self._now()
        async with self.db.transaction(event_scope(event_id)) as conn:
            changed = await conn.execute(
                "UPDATE hydra_events SET status = ?, ended_at = ?, updated_at = ? WHERE event_id = ? "
                "AND status = ?",
                (FINISHED, now, now, event_id, RUNNING),
            )
            if changed != 1:
                return False
            for user_id, table_no in winners:
                await conn.execute(
                    "INSERT INTO hydra_event_awards (event_id, user_id, table_no, role_id, awarded_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id, user_id) DO NOTHING",
                    (event_id, user_id, table_no, role_id, now),
                )
        return True

    async def cancel(self, event_id: int) -> bool:
        """Cancel an event that has not finished; False when it already ended (nothing changes)."""
        now = self._now()
        async with self.db.transaction(event_scope(event_id)) as conn:
            changed = await conn.execute(
                f"UPDATE hydra_events SET status = ?, ended_at = ?, updated_at = ? WHERE event_id = ? "
                f"AND status IN ({', '.join('?' for _ in ACTIVE)})",
                (CANCELLED, now, now, event_id, *ACTIVE),
            )
            return changed == 1

    async def awards(self, event_id: int) -> list[Award]:
        rows = await self.db.fetchall(
            "SELECT user_id, table_no, role_id, role_granted FROM hydra_event_awards "
            "WHERE event_id = ? ORDER BY table_no, user_id",
            (event_id,),
        )
        return [Award(row[0], row[1], row[2], bool(row[3])) for row in rows]

    async def roles_to_grant(self) -> list[tuple[int, int, Award]]:
        """(event id, guild id, award) whose role is not yet given (retried after a restart)."""
        rows = await self.db.fetchall(
            "SELECT a.event_id, e.guild_id, a.user_id, a.table_no, a.role_id, a.role_granted "
            "FROM hydra_event_awards a JOIN hydra_events e ON e.event_id = a.event_id "
            "WHERE a.role_id IS NOT NULL AND a.role_granted = 0 ORDER BY a.event_id, a.user_id"
        )
        return [(row[0], row[1], Award(row[2], row[3], row[4], bool(row[5]))) for row in rows]

    async def role_granted(self, event_id: int, user_id: int) -> None:
        await self.db.execute(
            "UPDATE hydra_event_awards SET role_granted = 1 WHERE event_id = ? AND user_id = ?",
            (event_id, user_id),
            scope=event_scope(event_id),
        )
