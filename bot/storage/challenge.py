"""Challenge tables in SQL, for every deck: where a table lives, who sits at it, and its action log.

The game itself is its seed and set-up replayed with the actions. Every deck's tables are one family of
SQL tables — ``challenge_tables``, ``challenge_table_seats`` and ``challenge_table_actions`` (migration
0065) — keyed by the table's kind and its game id. The kind is the family that numbered the table before
0065 ("hydra" for the Hydra's, "challenge" for the Horde's and the God's, each counting from 1), so every
id a posted message (``hydra:<id>``, ``chal:<id>``) or an event already names keeps naming its table.
New tables of every deck take their ids from one counter (``challenge_table_ids``), above every id either
family gave out, so a new id is one table whatever its kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType

from bot.domain.challenge.decks import CURRENT_RULES
from bot.storage.db import Connection, Database

LOBBY, PLAYING, IDLE, FINISHED = "lobby", "playing", "idle", "finished"

HYDRA_KIND, DECK_KIND = "hydra", "challenge"
# The kind of each deck's tables: the family that numbered them before one counter numbered every deck's.
KIND_OF_DECK: Mapping[str, str] = MappingProxyType(
    {"hydra": HYDRA_KIND, "horde": DECK_KIND, "god": DECK_KIND}
)


@dataclass(frozen=True)
class ChallengeRow:
    """One table's row, for every deck: where it lives, its set-up (replayed with its log) and how it
    ended. ``heads`` and ``heads_severed`` are the Hydra's names for the difficulty and what was
    defeated."""

    kind: str
    game_id: int
    deck: str
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    turn_message_id: int | None  # the Hydra's turn message (every other deck shows its turn in one message)
    created_by: int
    created_at: str
    updated_at: str
    difficulty: int
    seed: int
    language: str
    window_seconds: int  # response windows (counter / prevent) time out after this; 0 = wait for the players
    all_windows: int  # every response window, not only counter and prevent
    idle_minutes: int  # a Hydra table with no action for this long is paused (resume with /hydra resume)
    life_per_player: int  # the God's house rule: 20 shared life per player (0 for every other table)
    stable_ids: int  # numbers are serials (migration 0016; 0 for tables saved before it)
    rules: int  # the rules version it is played with (migration 0030; 1 for tables saved before it)
    status: str
    outcome: str | None
    turns: int | None  # once finished (the Horde's and the God's tables finished before 0065: None)
    defeated: int | None  # heads severed / the deck's permanents defeated, once finished

    @property
    def heads(self) -> int:
        """The Hydra's name for its difficulty: the heads it starts with."""
        return self.difficulty

    @property
    def heads_severed(self) -> int | None:
        return self.defeated


COLUMNS = tuple(f.name for f in fields(ChallengeRow))
CHANGEABLE = frozenset({"channel_id", "message_id", "turn_message_id", "status", "outcome"})
CREATE_OPTIONS = frozenset({"idle_minutes", "life_per_player"})  # set-up beyond what every table is given
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM challenge_tables"


@dataclass(frozen=True)
class SeatRow:
    seat: int  # 1-based, in the order they sat down
    user_id: int
    name: str
    heroes: tuple[str, ...]


@dataclass(frozen=True)
class ActionRow:
    seq: int
    line: str
    actor_id: int | None
    at: str


@dataclass(frozen=True)
class Finish:
    """How a game ended, written with the action that ended it."""

    outcome: str  # won | lost
    turns: int
    defeated: int  # heads severed / the deck's permanents defeated
    difficulty: int  # what the table started with (the Hydra's best wins compare it)


def table_scope(game_id: int, kind: str = DECK_KIND) -> str:
    """The write scope of one table (see ``Database.transaction``): its seats, log and row, named by
    its kind and id (ids given out before one counter numbered every deck repeat across kinds)."""
    return f"{kind}:{game_id}"


class SeatError(Exception):
    """The table is full or the user is already seated."""


class ChallengeRepository:
    """The tables of one kind. ``ChallengeRepository(db)`` is the Horde's and the God's;
    :class:`bot.storage.hydra.HydraRepository` is this over the Hydra's, with its players' profiles.
    Both read and write the same SQL tables; the kind says which of two tables an id given out before
    one counter numbered every deck names, and a repository never sees another kind's tables."""

    kind: str = DECK_KIND

    def __init__(self, db: Database) -> None:
        self.db = db

    def scope(self, game_id: int) -> str:
        return table_scope(game_id, self.kind)

    # -- games and seats ----------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        created_by: int,
        creator_name: str,
        deck: str,
        difficulty: int,
        seed: int,
        language: str,
        window_seconds: int = 20,
        all_windows: bool = False,
        **options: object,
    ) -> int:
        """A new table in the lobby with its creator in seat 1; returns the game id, the next of the one
        counter every deck's tables share (taken in the creating transaction). ``options`` are set-up
        columns only some decks use (the Hydra's ``idle_minutes``, the God's ``life_per_player``)."""
        unknown = set(options) - CREATE_OPTIONS
        if unknown or KIND_OF_DECK.get(deck) != self.kind:
            raise ValueError(f"a {self.kind} table has no {sorted(unknown) or deck}")
        now = self.db.now_iso()
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE challenge_table_ids SET next_id = next_id + 1",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            )
            game_id = int(
                await conn.scalar(
                    "SELECT next_id - 1 FROM challenge_table_ids",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                )
            )
            # The columns as keywords: only their spelling can go wrong (SQL ignores their case).
            values: dict[str, object] = dict(
                kind=self.kind,
                game_id=game_id,
                deck=deck,
                guild_id=guild_id,
                channel_id=channel_id,
                created_by=created_by,
                created_at=now,
                updated_at=now,
                difficulty=difficulty,
                seed=seed,
                language=language,
                window_seconds=window_seconds,
                all_windows=int(all_windows),
                status=LOBBY,  # pragma: no mutate (dropped: the column's default is the same)
                stable_ids=1,  # pragma: no mutate (dropped: the column's default is the same)
                rules=CURRENT_RULES,
                **options,  # a bool (the God's house rule) is stored as 1 or 0 by both engines
            )
            await conn.execute(
                f"INSERT INTO challenge_tables ({', '.join(values)}) VALUES ({', '.join('?' for _ in values)})",
                tuple(values.values()),
            )
            await conn.execute(
                "INSERT INTO challenge_table_seats (kind, game_id, seat, user_id, name) "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                "VALUES (?, ?, 1, ?, ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (self.kind, game_id, created_by, creator_name),
            )
        return game_id

    async def game(self, game_id: int) -> ChallengeRow | None:
        row = await self.db.fetchone(f"{_SELECT} WHERE kind = ? AND game_id = ?", (self.kind, game_id))
        return None if row is None else ChallengeRow(*row)

    async def games_with_status(self, statuses: Sequence[str]) -> list[ChallengeRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(
            f"{_SELECT} WHERE kind = ? AND status IN ({marks}) ORDER BY game_id", (self.kind, *statuses)
        )
        return [ChallengeRow(*row) for row in rows]

    async def open_games(self) -> list[ChallengeRow]:
        """Lobbies and running games: the tables whose message may lag after a crash (timers only arm for
        a running game's pending question)."""
        return await self.games_with_status((LOBBY, PLAYING))

    async def latest_in_channel(self, channel_id: int, statuses: Sequence[str]) -> ChallengeRow | None:
        """The newest table of this kind in the channel (ids from the one counter grow with time; a
        channel's older tables were numbered by its kind alone, which orders them as well)."""
        marks = ", ".join("?" for _ in statuses)
        row = await self.db.fetchone(
            f"{_SELECT} WHERE kind = ? AND channel_id = ? AND status IN ({marks}) ORDER BY game_id DESC LIMIT 1",
            (self.kind, channel_id, *statuses),
        )
        return None if row is None else ChallengeRow(*row)

    async def unfinished_tables_opened_by(self, guild_id: int | None, user_id: int) -> int:
        """Tables of this kind ``user_id`` opened in the server that have not finished (the per-member cap)."""
        return int(
            await self.db.scalar(
                "SELECT COUNT(*) FROM challenge_tables WHERE kind = ? AND guild_id = ? AND created_by = ? AND status != ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (self.kind, guild_id, user_id, FINISHED),
            )
            or 0
        )

    async def update_game(self, game_id: int, **changes: object) -> None:
        unknown = set(changes) - CHANGEABLE
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        sets = ", ".join(f"{name} = ?" for name in changes)
        await self.db.execute(
            f"UPDATE challenge_tables SET {sets}, updated_at = ? WHERE kind = ? AND game_id = ?",
            (*changes.values(), self.db.now_iso(), self.kind, game_id),
            scope=self.scope(game_id),
        )

    set = update_game  # the Horde's and the God's callers' name for it

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.db.fetchall(
            "SELECT seat, user_id, name, heroes FROM challenge_table_seats WHERE kind = ? AND game_id = ? "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "ORDER BY seat",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (self.kind, game_id),
        )
        return [SeatRow(row[0], row[1], row[2], tuple(json.loads(row[3]))) for row in rows]

    async def add_seat(self, game_id: int, user_id: int, name: str, *, limit: int) -> int:
        """Seat a user at the next free seat (checked and written in one transaction)."""
        async with self.db.transaction(self.scope(game_id)) as conn:
            seated = list(
                await conn.fetchall(
                    "SELECT seat, user_id FROM challenge_table_seats WHERE kind = ? AND game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    (self.kind, game_id),
                )
            )
            if any(row[1] == user_id for row in seated):
                raise SeatError("already seated")
            if len(seated) >= limit:
                raise SeatError("table full")
            seat = max((row[0] for row in seated), default=0) + 1
            await conn.execute(
                "INSERT INTO challenge_table_seats (kind, game_id, seat, user_id, name) "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                "VALUES (?, ?, ?, ?, ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (self.kind, game_id, seat, user_id, name),
            )
        return seat

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Leave the lobby; the seats after it move up so seats stay 1..n."""
        table = (self.kind, game_id)
        async with self.db.transaction(self.scope(game_id)) as conn:
            row = await conn.fetchone(
                "SELECT seat FROM challenge_table_seats WHERE kind = ? AND game_id = ? AND user_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (*table, user_id),
            )
            if row is None:
                return
            await conn.execute(
                "DELETE FROM challenge_table_seats WHERE kind = ? AND game_id = ? AND user_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (*table, user_id),
            )
            later = [
                r[0]
                for r in await conn.fetchall(
                    "SELECT seat FROM challenge_table_seats WHERE kind = ? AND game_id = ? AND seat > ? ORDER BY seat",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    (*table, row[0]),
                )
            ]
            for seat in later:
                await conn.execute(
                    "UPDATE challenge_table_seats SET seat = ? WHERE kind = ? AND game_id = ? AND seat = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    (seat - 1, *table, seat),
                )

    async def set_heroes(self, game_id: int, user_id: int, heroes: Sequence[str]) -> None:
        await self.db.execute(
            "UPDATE challenge_table_seats SET heroes = ? WHERE kind = ? AND game_id = ? AND user_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (json.dumps(list(heroes)), self.kind, game_id, user_id),
            scope=self.scope(game_id),
        )

    # -- the action log -----------------------------------------------------------------------------
    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self.db.fetchall(
            "SELECT seq, line, actor_id, at FROM challenge_table_actions WHERE kind = ? AND game_id = ? ORDER BY seq",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (self.kind, game_id),
        )
        return [ActionRow(*row) for row in rows]

    async def append(
        self, game_id: int, seq: int, line: str, actor_id: int | None, finish: Finish | None = None
    ) -> None:
        """Append one action; if it ended the game, finish the game too (and what its kind keeps of its
        players, the Hydra's profiles) in the same transaction.

        A finish may update records shared with other tables (a player finishing two tables at once):
        that transaction waits for every writer (no scope) rather than for its table."""
        now = self.db.now_iso()
        async with self.db.transaction(self.scope(game_id) if finish is None else None) as conn:
            await conn.execute(
                "INSERT INTO challenge_table_actions (kind, game_id, seq, line, actor_id, at) VALUES (?, ?, ?, ?, ?, ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (self.kind, game_id, seq, line, actor_id, now),
            )
            if finish is None:
                await conn.execute(
                    "UPDATE challenge_tables SET updated_at = ?, status = ? WHERE kind = ? AND game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    (now, PLAYING, self.kind, game_id),
                )
                return
            await conn.execute(
                "UPDATE challenge_tables SET status = ?, outcome = ?, turns = ?, defeated = ?, updated_at = ? "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                "WHERE kind = ? AND game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (FINISHED, finish.outcome, finish.turns, finish.defeated, now, self.kind, game_id),
            )
            await self._finished(conn, game_id, finish, now)

    async def _finished(self, conn: Connection, game_id: int, finish: Finish, now: str) -> None:
        """What else a finished game changes, in its transaction (nothing for the Horde and the God)."""

    async def delete_last(self, game_id: int, seq: int) -> None:
        """Undo: remove the action ``seq`` (the caller checked it is the last one and undoable)."""
        await self.db.execute(
            "DELETE FROM challenge_table_actions WHERE kind = ? AND game_id = ? AND seq = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (self.kind, game_id, seq),
            scope=self.scope(game_id),
        )
