"""Face the Hydra tables in SQLite: the game row, its seats, its append-only action log, profiles.

The action log is the truth (a game = seed + actions, replayed by the engine). Appending the action
that ends a game, marking the game finished and updating every challenger's profile happen in one
transaction, so a game can never be finished without its players' records (or the reverse).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.challenge.decks import CURRENT_RULES
from bot.storage.db import Connection, Database, now_iso

LOBBY, PLAYING, IDLE, FINISHED = "lobby", "playing", "idle", "finished"


@dataclass(frozen=True)
class HydraGameRow:
    game_id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    turn_message_id: int | None
    created_by: int
    created_at: str
    heads: int
    seed: int
    language: str
    window_seconds: int  # response windows (counter / prevent) time out after this; 0 = wait for the players
    idle_minutes: int  # a table with no action for this long is paused (resume with /hydra resume)
    status: str
    outcome: str | None
    turns: int | None
    heads_severed: int | None
    updated_at: str
    all_windows: int = 0  # every response window (migration 0011)
    stable_ids: int = 1  # HEAD numbers are serials (migration 0016; 0 for tables saved before it)
    rules: int = CURRENT_RULES  # the rules version it is played with (migration 0030; 1 for tables saved before it)


@dataclass(frozen=True)
class HydraSeat:
    seat: int
    user_id: int
    name: str
    heroes: tuple[str, ...]


@dataclass(frozen=True)
class HydraActionRow:
    seq: int
    line: str
    actor_id: int | None
    at: str


@dataclass(frozen=True)
class HydraFinish:
    """How a game ended, written with the action that ended it."""

    outcome: str  # won | lost
    turns: int
    heads_severed: int
    starting_heads: int


@dataclass(frozen=True)
class HydraProfile:
    user_id: int
    games: int = 0
    wins: int = 0
    heads_severed: int = 0
    best_win_heads: int | None = None
    best_win_turns: int | None = None
    slayer_at: str | None = None

    @property
    def has_slayer(self) -> bool:
        """H13: beating the Hydra earns the Hero card The Slayer."""
        return self.slayer_at is not None


_GAME_COLUMNS = ("game_id", "guild_id", "channel_id", "message_id", "turn_message_id", "created_by", "created_at",
                 "heads", "seed", "language", "window_seconds", "idle_minutes", "status", "outcome", "turns", "heads_severed", "updated_at",
                 "all_windows", "stable_ids", "rules")
_PROFILE_COLUMNS = ("user_id", "games", "wins", "heads_severed", "best_win_heads", "best_win_turns", "slayer_at")


class SeatError(Exception):
    """The table is full (H10: at most 4) or the user is already seated."""



def table_scope(game_id: int) -> str:
    """The write scope of one Hydra table (see ``Database.transaction``): its seats, log and row."""
    return f"hydra:{game_id}"

class HydraRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def unfinished_tables_opened_by(self, guild_id: int | None, user_id: int) -> int:
        """Tables ``user_id`` opened in the server that have not finished (the per-member cap)."""
        return int(await self.db.scalar(
            "SELECT COUNT(*) FROM hydra_games WHERE guild_id = ? AND created_by = ? AND status != ?",
            (guild_id, user_id, FINISHED)) or 0)

    # -- games and seats ----------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int | None, created_by: int, creator_name: str,
                     heads: int, seed: int, language: str, window_seconds: int = 20,
                     idle_minutes: int = 30, all_windows: bool = False) -> int:
        """A new table in the lobby with its creator in seat 1; returns the game id."""
        now = now_iso()
        async with self.db.transaction() as conn:
            game_id = await conn.insert(
                "INSERT INTO hydra_games (guild_id, channel_id, created_by, created_at, heads, seed, language, "
                "window_seconds, idle_minutes, status, updated_at, all_windows, stable_ids, rules) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
                (guild_id, channel_id, created_by, now, heads, seed, language, window_seconds, idle_minutes, LOBBY,
                 now, int(all_windows), CURRENT_RULES), returning="game_id")
            await conn.execute("INSERT INTO hydra_seats (game_id, seat, user_id, name) VALUES (?, 1, ?, ?)",
                               (game_id, created_by, creator_name))
        return game_id

    async def game(self, game_id: int) -> HydraGameRow | None:
        row = await self.db.fetchone(f"SELECT {', '.join(_GAME_COLUMNS)} FROM hydra_games WHERE game_id = ?",
                                     (game_id,))
        return None if row is None else HydraGameRow(**dict(zip(_GAME_COLUMNS, row, strict=True)))

    async def games_with_status(self, statuses: Sequence[str]) -> list[HydraGameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(
            f"SELECT {', '.join(_GAME_COLUMNS)} FROM hydra_games WHERE status IN ({marks}) ORDER BY game_id",
            tuple(statuses))
        return [HydraGameRow(**dict(zip(_GAME_COLUMNS, row, strict=True))) for row in rows]

    async def latest_in_channel(self, channel_id: int, statuses: Sequence[str]) -> HydraGameRow | None:
        marks = ", ".join("?" for _ in statuses)
        row = await self.db.fetchone(
            f"SELECT {', '.join(_GAME_COLUMNS)} FROM hydra_games WHERE channel_id = ? AND status IN ({marks}) "
            "ORDER BY game_id DESC LIMIT 1", (channel_id, *statuses))
        return None if row is None else HydraGameRow(**dict(zip(_GAME_COLUMNS, row, strict=True)))

    async def update_game(self, game_id: int, **changes: object) -> None:
        allowed = {"channel_id", "message_id", "turn_message_id", "status"}
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        sets = ", ".join(f"{name} = ?" for name in changes)
        await self.db.execute(f"UPDATE hydra_games SET {sets}, updated_at = ? WHERE game_id = ?",
                              (*changes.values(), now_iso(), game_id), scope=table_scope(game_id))

    async def seats(self, game_id: int) -> list[HydraSeat]:
        rows = await self.db.fetchall(
            "SELECT seat, user_id, name, heroes FROM hydra_seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [HydraSeat(row[0], row[1], row[2], tuple(json.loads(row[3]))) for row in rows]

    async def add_seat(self, game_id: int, user_id: int, name: str, *, limit: int) -> int:
        """Seat a user at the next free seat (checked and written in one transaction)."""
        async with self.db.transaction(table_scope(game_id)) as conn:
            seated = list(await conn.fetchall("SELECT seat, user_id FROM hydra_seats WHERE game_id = ?", (game_id,)))
            if any(row[1] == user_id for row in seated):
                raise SeatError("already seated")
            if len(seated) >= limit:
                raise SeatError("table full")
            seat = max((row[0] for row in seated), default=0) + 1
            await conn.execute("INSERT INTO hydra_seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                               (game_id, seat, user_id, name))
        return seat

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        """Leave the lobby; the seats after it move up so seats stay 1..n."""
        async with self.db.transaction(table_scope(game_id)) as conn:
            row = await conn.fetchone("SELECT seat FROM hydra_seats WHERE game_id = ? AND user_id = ?",
                                    (game_id, user_id))
            if row is None:
                return
            await conn.execute("DELETE FROM hydra_seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            later = [r[0] for r in await conn.fetchall("SELECT seat FROM hydra_seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                                    (game_id, row[0]))]
            for seat in later:
                await conn.execute("UPDATE hydra_seats SET seat = ? WHERE game_id = ? AND seat = ?",
                                   (seat - 1, game_id, seat))

    async def set_heroes(self, game_id: int, user_id: int, heroes: Sequence[str]) -> None:
        await self.db.execute("UPDATE hydra_seats SET heroes = ? WHERE game_id = ? AND user_id = ?",
                              (json.dumps(list(heroes)), game_id, user_id), scope=table_scope(game_id))

    # -- the action log -----------------------------------------------------------------------------
    async def actions(self, game_id: int) -> list[HydraActionRow]:
        rows = await self.db.fetchall(
            "SELECT seq, line, actor_id, at FROM hydra_actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [HydraActionRow(*row) for row in rows]

    async def append(self, game_id: int, seq: int, line: str, actor_id: int | None,
                     finish: HydraFinish | None = None) -> None:
        """Append one action; if it ended the game, finish the game and the players' profiles too.

        A finish updates each player's profile from what it read, and a player may finish another table
        at the same moment: that transaction waits for every writer (no scope) rather than for its table."""
        now = now_iso()
        async with self.db.transaction(table_scope(game_id) if finish is None else None) as conn:
            await conn.execute("INSERT INTO hydra_actions (game_id, seq, line, actor_id, at) VALUES (?, ?, ?, ?, ?)",
                               (game_id, seq, line, actor_id, now))
            if finish is None:
                await conn.execute("UPDATE hydra_games SET updated_at = ?, status = ? WHERE game_id = ?",
                                   (now, PLAYING, game_id))
                return
            await conn.execute(
                "UPDATE hydra_games SET status = ?, outcome = ?, turns = ?, heads_severed = ?, updated_at = ? "
                "WHERE game_id = ?", (FINISHED, finish.outcome, finish.turns, finish.heads_severed, now, game_id))
            users = [row[0] for row in await conn.fetchall("SELECT user_id FROM hydra_seats WHERE game_id = ?",
                                                           (game_id,))]
            for user_id in users:
                await self._record(conn, user_id, finish, now)

    async def _record(self, conn: Connection, user_id: int, finish: HydraFinish, now: str) -> None:
        row = await conn.fetchone(f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?",
                                  (user_id,))
        old = HydraProfile(**dict(zip(_PROFILE_COLUMNS, row, strict=True))) if row else HydraProfile(user_id)
        won = finish.outcome == "won"
        best_heads, best_turns = old.best_win_heads, old.best_win_turns
        if won and (best_heads is None or best_turns is None or (finish.starting_heads, -finish.turns) > (best_heads, -best_turns)):
            best_heads, best_turns = finish.starting_heads, finish.turns
        await conn.execute(
            "INSERT INTO hydra_profiles (user_id, games, wins, heads_severed, best_win_heads, best_win_turns, "
            "slayer_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "games = excluded.games, wins = excluded.wins, heads_severed = excluded.heads_severed, "
            "best_win_heads = excluded.best_win_heads, best_win_turns = excluded.best_win_turns, "
            "slayer_at = excluded.slayer_at, updated_at = excluded.updated_at",
            (user_id, old.games + 1, old.wins + won, old.heads_severed + finish.heads_severed, best_heads,
             best_turns, old.slayer_at or (now if won else None), now))

    async def delete_last(self, game_id: int, seq: int) -> None:
        """Undo: remove the action ``seq`` (the caller checked it is the last one and undoable)."""
        await self.db.execute("DELETE FROM hydra_actions WHERE game_id = ? AND seq = ?", (game_id, seq),
                              scope=table_scope(game_id))

    # -- profiles -----------------------------------------------------------------------------------
    async def profile(self, user_id: int) -> HydraProfile:
        row = await self.db.fetchone(
            f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?", (user_id,))
        return HydraProfile(**dict(zip(_PROFILE_COLUMNS, row, strict=True))) if row else HydraProfile(user_id)
