"""Battle the Horde and Defeat a God tables in SQLite (migration 0011): where a table lives, who sits
at it, and its action log. The game itself is its seed and set-up replayed with the actions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.challenge.decks import CURRENT_RULES
from bot.storage.db import Database, now_iso

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"


@dataclass(frozen=True)
class ChallengeRow:
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
    stable_ids: int = 1  # numbers are serials (migration 0016; 0 for tables saved before it)
    rules: int = CURRENT_RULES  # the rules version it is played with (migration 0030; 1 for tables saved before it)
    life_per_player: int = 0  # the God's house rule: 20 shared life per player (migration 0030)


_COLUMNS = ("game_id", "guild_id", "channel_id", "message_id", "deck", "difficulty", "seed", "language",
            "window_seconds", "all_windows", "status", "outcome", "stable_ids", "rules", "life_per_player")



def table_scope(game_id: int) -> str:
    """The write scope of one Horde or God table (numbered apart from the Hydra's): seats, log, row."""
    return f"challenge:{game_id}"

class ChallengeRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, deck: str,
                     difficulty: int, seed: int, language: str, window_seconds: int, all_windows: bool = False,
                     life_per_player: bool = False) -> int:
        now = now_iso()
        async with self.db.transaction() as conn:
            game_id = await conn.insert(
                "INSERT INTO challenge_games (guild_id, channel_id, deck, difficulty, seed, language, window_seconds, "
                "all_windows, status, created_by, created_at, updated_at, stable_ids, rules, life_per_player) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (guild_id, channel_id, deck, difficulty, seed, language, window_seconds, int(all_windows), LOBBY,
                 user_id, now, now, CURRENT_RULES, int(life_per_player)), returning="game_id")
            await conn.execute("INSERT INTO challenge_seats (game_id, seat, user_id, name) VALUES (?, 1, ?, ?)",
                               (game_id, user_id, name))
        return game_id

    async def game(self, game_id: int) -> ChallengeRow | None:
        row = await self.db.fetchone(f"SELECT {', '.join(_COLUMNS)} FROM challenge_games WHERE game_id = ?",
                                     (game_id,))
        return None if row is None else ChallengeRow(*row)

    async def open_games(self) -> list[ChallengeRow]:
        """Lobbies and running games: the tables whose message may lag after a crash (timers only arm for
        a running game's pending question)."""
        rows = await self.db.fetchall(
            f"SELECT {', '.join(_COLUMNS)} FROM challenge_games WHERE status IN (?, ?) ORDER BY game_id",
            (LOBBY, PLAYING))
        return [ChallengeRow(*row) for row in rows]

    async def set(self, game_id: int, **changes: object) -> None:
        allowed = {"message_id", "channel_id", "status", "outcome"}
        if set(changes) - allowed:
            raise ValueError(f"cannot change {sorted(set(changes) - allowed)}")
        sets = ", ".join(f"{name} = ?" for name in changes)
        await self.db.execute(f"UPDATE challenge_games SET {sets}, updated_at = ? WHERE game_id = ?",
                              (*changes.values(), now_iso(), game_id), scope=table_scope(game_id))

    async def seats(self, game_id: int) -> list[tuple[int, str]]:
        """(user_id, name) in seat order."""
        rows = await self.db.fetchall(
            "SELECT user_id, name FROM challenge_seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [(row[0], row[1]) for row in rows]

    async def heroes(self, game_id: int) -> dict[int, tuple[str, ...]]:
        """Each seated user's Hero cards (user_id -> names), chosen in the lobby."""
        rows = await self.db.fetchall("SELECT user_id, heroes FROM challenge_seats WHERE game_id = ?", (game_id,))
        return {row[0]: tuple(json.loads(row[1])) for row in rows}

    async def set_heroes(self, game_id: int, user_id: int, heroes: Sequence[str]) -> None:
        await self.db.execute("UPDATE challenge_seats SET heroes = ? WHERE game_id = ? AND user_id = ?",
                              (json.dumps(list(heroes)), game_id, user_id), scope=table_scope(game_id))

    async def add_seat(self, game_id: int, user_id: int, name: str, *, limit: int) -> bool:
        """Seat a user (checked and written in one transaction); False if seated already or full."""
        async with self.db.transaction(table_scope(game_id)) as conn:
            seated = list(await conn.fetchall("SELECT seat, user_id FROM challenge_seats WHERE game_id = ?", (game_id,)))
            if any(row[1] == user_id for row in seated) or len(seated) >= limit:
                return False
            await conn.execute("INSERT INTO challenge_seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                               (game_id, len(seated) + 1, user_id, name))
        return True

    async def actions(self, game_id: int) -> list[tuple[str, int | None]]:
        rows = await self.db.fetchall(
            "SELECT line, actor_id FROM challenge_actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [(row[0], row[1]) for row in rows]

    async def append(self, game_id: int, seq: int, line: str, actor_id: int | None, outcome: str | None) -> None:
        now = now_iso()
        async with self.db.transaction(table_scope(game_id)) as conn:
            await conn.execute("INSERT INTO challenge_actions (game_id, seq, line, actor_id, at) VALUES (?, ?, ?, ?, ?)",
                               (game_id, seq, line, actor_id, now))
            status = FINISHED if outcome else PLAYING
            await conn.execute("UPDATE challenge_games SET status = ?, outcome = ?, updated_at = ? WHERE game_id = ?",
                               (status, outcome, now, game_id))

    async def delete_last(self, game_id: int, seq: int) -> None:
        await self.db.execute("DELETE FROM challenge_actions WHERE game_id = ? AND seq = ?", (game_id, seq),
                              scope=table_scope(game_id))
