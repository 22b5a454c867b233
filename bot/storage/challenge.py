"""Challenge tables in SQL, for every deck: where a table lives, who sits at it, and its action log.

The game itself is its seed and set-up replayed with the actions. The tables live in two families of
SQL tables written at different times — ``hydra_games/seats/actions`` (migration 0005, the Hydra) and
``challenge_games/seats/actions`` (migration 0011, the Horde and the God) — whose seats and logs have
the same columns; their game rows differ (the Hydra's difficulty is its ``heads``, it keeps its turns
and idle time; the others name their ``deck`` and keep the God's life house rule). One repository reads
and writes both, told by a :class:`TableFamily` which one; each family numbers its games apart, so a
game id means something only together with its family (a custom_id's ``hydra:`` or ``chal:`` prefix).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

from bot.domain.challenge.decks import CURRENT_RULES
from bot.storage.db import Connection, Database, now_iso

LOBBY, PLAYING, IDLE, FINISHED = "lobby", "playing", "idle", "finished"


@dataclass(frozen=True)
class ChallengeRow:
    """A Horde or God table's row."""

    game_id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    deck: str
    difficulty: int
    seed: int
    language: str
    window_seconds: int
    all_windows: int
    status: str
    outcome: str | None
    created_by: int = 0
    stable_ids: int = 1  # numbers are serials (migration 0016; 0 for tables saved before it)
    rules: int = CURRENT_RULES  # the rules version it is played with (migration 0030; 1 for tables saved before it)
    life_per_player: int = 0  # the God's house rule: 20 shared life per player (migration 0030)


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


@dataclass(frozen=True)
class TableFamily:
    """One family of SQL tables (``<prefix>_games``, ``<prefix>_seats``, ``<prefix>_actions``): the
    game row's columns and type, the column holding the difficulty, which columns a table may change,
    and the extra set-up columns a new table may be given."""

    prefix: str
    row_type: type
    difficulty_column: str
    deck_column: bool  # the row names its deck (else every table of the family is ``fixed_deck``)
    fixed_deck: str | None
    changeable: frozenset[str]
    create_options: frozenset[str]  # set-up columns beyond the ones every family has

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self.row_type))

    def row(self, values: Sequence[object]) -> object:
        return self.row_type(**dict(zip(self.columns, values, strict=True)))


DECK_TABLES = TableFamily(
    "challenge", ChallengeRow, "difficulty", deck_column=True, fixed_deck=None,
    changeable=frozenset({"message_id", "channel_id", "status", "outcome"}),
    create_options=frozenset({"life_per_player"}))


def table_scope(game_id: int, family: TableFamily = DECK_TABLES) -> str:
    """The write scope of one table (see ``Database.transaction``): its seats, log and row. The Horde's
    and the God's are ``challenge:<id>``, the Hydra's ``hydra:<id>`` (numbered apart)."""
    return f"{family.prefix}:{game_id}"


class SeatError(Exception):
    """The table is full or the user is already seated."""


class ChallengeRepository:
    """The tables of one family. ``ChallengeRepository(db)`` is the Horde's and the God's;
    :class:`bot.storage.hydra.HydraRepository` is this over the Hydra's, with its players' profiles."""

    family: TableFamily = DECK_TABLES

    def __init__(self, db: Database) -> None:
        self.db = db
        family = self.family
        self._games, self._seats, self._actions = (f"{family.prefix}_{kind}" for kind in ("games", "seats", "actions"))
        self._select = f"SELECT {', '.join(family.columns)} FROM {self._games}"

    def scope(self, game_id: int) -> str:
        return table_scope(game_id, self.family)

    # -- games and seats ----------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int | None, created_by: int, creator_name: str,
                     deck: str, difficulty: int, seed: int, language: str, window_seconds: int = 20,
                     all_windows: bool = False, **options: object) -> int:
        """A new table in the lobby with its creator in seat 1; returns the game id. ``options`` are the
        family's own set-up columns (the Hydra's ``idle_minutes``, the God's ``life_per_player``)."""
        family = self.family
        unknown = set(options) - family.create_options
        if unknown or (family.fixed_deck is not None and deck != family.fixed_deck):
            raise ValueError(f"a {family.prefix} table has no {sorted(unknown) or deck}")
        now = now_iso()
        values: dict[str, object] = {
            "guild_id": guild_id, "channel_id": channel_id, "created_by": created_by, "created_at": now,
            "updated_at": now, family.difficulty_column: difficulty, "seed": seed, "language": language,
            "window_seconds": window_seconds, "all_windows": int(all_windows), "status": LOBBY, "stable_ids": 1,
            "rules": CURRENT_RULES, **{name: int(value) if isinstance(value, bool) else value
                                       for name, value in options.items()}}
        if family.deck_column:
            values["deck"] = deck
        async with self.db.transaction() as conn:
            game_id = await conn.insert(
                f"INSERT INTO {self._games} ({', '.join(values)}) VALUES ({', '.join('?' for _ in values)})",
                tuple(values.values()), returning="game_id")
            await conn.execute(f"INSERT INTO {self._seats} (game_id, seat, user_id, name) VALUES (?, 1, ?, ?)",
                               (game_id, created_by, creator_name))
        return game_id

    async def game(self, game_id: int) -> object | None:
        row = await self.db.fetchone(f"{self._select} WHERE game_id = ?", (game_id,))
        return None if row is None else self.family.row(row)

    async def games_with_status(self, statuses: Sequence[str]) -> list[object]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(f"{self._select} WHERE status IN ({marks}) ORDER BY game_id", tuple(statuses))
        return [self.family.row(row) for row in rows]

    async def open_games(self) -> list[object]:
        """Lobbies and running games: the tables whose message may lag after a crash (timers only arm for
        a running game's pending question)."""
        return await self.games_with_status((LOBBY, PLAYING))

    async def latest_in_channel(self, channel_id: int, statuses: Sequence[str]) -> object | None:
        marks = ", ".join("?" for _ in statuses)
        row = await self.db.fetchone(
            f"{self._select} WHERE channel_id = ? AND status IN ({marks}) ORDER BY game_id DESC LIMIT 1",
            (channel_id, *statuses))
        return None if row is None else self.family.row(row)

    async def unfinished_tables_opened_by(self, guild_id: int | None, user_id: int) -> int:
        """Tables ``user_id`` opened in the server that have not finished (the per-member cap)."""
        return int(await self.db.scalar(
            f"SELECT COUNT(*) FROM {self._games} WHERE guild_id = ? AND created_by = ? AND status != ?",
            (guild_id, user_id, FINISHED)) or 0)

    async def update_game(self, game_id: int, **changes: object) -> None:
        unknown = set(changes) - self.family.changeable
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        sets = ", ".join(f"{name} = ?" for name in changes)
        await self.db.execute(f"UPDATE {self._games} SET {sets}, updated_at = ? WHERE game_id = ?",
                              (*changes.values(), now_iso(), game_id), scope=self.scope(game_id))

    set = update_game  # the Horde's and the God's callers' name for it

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.db.fetchall(
            f"SELECT seat, user_id, name, heroes FROM {self._seats} WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow(row[0], row[1], row[2], tuple(json.loads(row[3]))) for row in rows]

    async def add_seat(self, game_id: int, user_id: int, name: str, *, limit: int) -> int:
        """Seat a user at the next free seat (checked and written in one transaction)."""
        async with self.db.transaction(self.scope(game_id)) as conn:
            seated = list(await conn.fetchall(f"SELECT seat, user_id FROM {self._seats} WHERE game_id = ?",
                                              (game_id,)))
            if any(row[1] == user_id for row in seated):
                raise SeatError("already seated")
            if len(seated) >= limit:
                raise SeatError("table full")
            seat = max((row[0] for row in seated), default=0) + 1
            await conn.execute(f"INSERT INTO {self._seats} (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                               (game_id, seat, user_id, name))
        return seat

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Leave the lobby; the seats after it move up so seats stay 1..n."""
        async with self.db.transaction(self.scope(game_id)) as conn:
            row = await conn.fetchone(f"SELECT seat FROM {self._seats} WHERE game_id = ? AND user_id = ?",
                                      (game_id, user_id))
            if row is None:
                return
            await conn.execute(f"DELETE FROM {self._seats} WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            later = [r[0] for r in await conn.fetchall(
                f"SELECT seat FROM {self._seats} WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, row[0]))]
            for seat in later:
                await conn.execute(f"UPDATE {self._seats} SET seat = ? WHERE game_id = ? AND seat = ?",
                                   (seat - 1, game_id, seat))

    async def set_heroes(self, game_id: int, user_id: int, heroes: Sequence[str]) -> None:
        await self.db.execute(f"UPDATE {self._seats} SET heroes = ? WHERE game_id = ? AND user_id = ?",
                              (json.dumps(list(heroes)), game_id, user_id), scope=self.scope(game_id))

    # -- the action log -----------------------------------------------------------------------------
    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self.db.fetchall(
            f"SELECT seq, line, actor_id, at FROM {self._actions} WHERE game_id = ? ORDER BY seq", (game_id,))
        return [ActionRow(*row) for row in rows]

    async def append(self, game_id: int, seq: int, line: str, actor_id: int | None,
                     finish: Finish | None = None) -> None:
        """Append one action; if it ended the game, finish the game too (and what the family keeps of its
        players, the Hydra's profiles) in the same transaction.

        A finish may update records shared with other tables (a player finishing two tables at once):
        that transaction waits for every writer (no scope) rather than for its table."""
        now = now_iso()
        async with self.db.transaction(self.scope(game_id) if finish is None else None) as conn:
            await conn.execute(
                f"INSERT INTO {self._actions} (game_id, seq, line, actor_id, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, line, actor_id, now))
            if finish is None:
                await conn.execute(f"UPDATE {self._games} SET updated_at = ?, status = ? WHERE game_id = ?",
                                   (now, PLAYING, game_id))
                return
            changes = {"status": FINISHED, **self._finish_columns(finish), "updated_at": now}
            await conn.execute(f"UPDATE {self._games} SET {', '.join(f'{name} = ?' for name in changes)} "
                               "WHERE game_id = ?", (*changes.values(), game_id))
            await self._finished(conn, game_id, finish, now)

    def _finish_columns(self, finish: Finish) -> Mapping[str, object]:
        """What the game row keeps of how it ended."""
        return {"outcome": finish.outcome}

    async def _finished(self, conn: Connection, game_id: int, finish: Finish, now: str) -> None:
        """What else a finished game changes, in its transaction (nothing for the Horde and the God)."""

    async def delete_last(self, game_id: int, seq: int) -> None:
        """Undo: remove the action ``seq`` (the caller checked it is the last one and undoable)."""
        await self.db.execute(f"DELETE FROM {self._actions} WHERE game_id = ? AND seq = ?", (game_id, seq),
                              scope=self.scope(game_id))
