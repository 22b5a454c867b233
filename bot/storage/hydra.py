"""Face the Hydra tables: the one challenge repository over the Hydra's SQL tables, plus profiles.

The action log is the truth (a game = seed + actions, replayed by the engine). Appending the action
that ends a game, marking the game finished and updating every challenger's profile happen in one
transaction, so a game can never be finished without its players' records (or the reverse). Seats,
the log and the rest are :class:`bot.storage.challenge.ChallengeRepository`'s, as for every deck.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.challenge import (
    FINISHED,
    HYDRA_KIND,
    IDLE,
    LOBBY,
    PLAYING,
    ChallengeRepository,
    ChallengeRow,
    Finish,
    SeatError,
)
from bot.storage.db import Connection

HydraGameRow = ChallengeRow  # a Hydra table's row is every deck's (``heads`` is its difficulty)


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


_PROFILE_COLUMNS = (
    "user_id",
    "games",
    "wins",
    "heads_severed",
    "best_win_heads",
    "best_win_turns",
    "slayer_at",
)


class HydraRepository(ChallengeRepository):
    """The Hydra's tables (the kind ``hydra`` of every deck's tables) and its players' profiles (H13:
    The Slayer)."""

    kind = HYDRA_KIND

    async def _finished(self, conn: Connection, game_id: int, finish: Finish, now: str) -> None:
        """Every challenger's profile counts the game (its players, read in the same transaction)."""
        users = [
            row[0]
            for row in await conn.fetchall(
                "SELECT user_id FROM challenge_table_seats WHERE kind = ? AND game_id = ?",
                (self.kind, game_id),
            )
        ]
        for user_id in users:
            await self._record(conn, user_id, finish, now)

    async def _record(self, conn: Connection, user_id: int, finish: Finish, now: str) -> None:
        row = await conn.fetchone(
            f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?", (user_id,)
        )
        old = HydraProfile(**dict(zip(_PROFILE_COLUMNS, row, strict=True))) if row else HydraProfile(user_id)
        won = finish.outcome == "won"
        best_heads, best_turns = old.best_win_heads, old.best_win_turns
        if won and (
            best_heads is None
            or best_turns is None
            or (finish.difficulty, -finish.turns) > (best_heads, -best_turns)
        ):
            best_heads, best_turns = finish.difficulty, finish.turns
        await conn.execute(
            "INSERT INTO hydra_profiles (user_id, games, wins, heads_severed, best_win_heads, best_win_turns, "
            "slayer_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "games = excluded.games, wins = excluded.wins, heads_severed = excluded.heads_severed, "
            "best_win_heads = excluded.best_win_heads, best_win_turns = excluded.best_win_turns, "
            "slayer_at = excluded.slayer_at, updated_at = excluded.updated_at",
            (
                user_id,
                old.games + 1,
                old.wins + won,
                old.heads_severed + finish.defeated,
                best_heads,
                best_turns,
                old.slayer_at or (now if won else None),
                now,
            ),
        )

    # -- profiles -----------------------------------------------------------------------------------
    async def profile(self, user_id: int) -> HydraProfile:
        row = await self.db.fetchone(
            f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?", (user_id,)
        )
        return HydraProfile(**dict(zip(_PROFILE_COLUMNS, row, strict=True))) if row else HydraProfile(user_id)


__all__ = [
    "FINISHED",
    "IDLE",
    "LOBBY",
    "PLAYING",
    "HydraGameRow",
    "HydraProfile",
    "HydraRepository",
    "SeatError",
]
