"""Face the Hydra tables: the one challenge repository over the Hydra's SQL tables, plus profiles.

The action log is the truth (a game = seed + actions, replayed by the engine). Appending the action
that ends a game, marking the game finished and updating every challenger's profile happen in one
transaction, so a game can never be finished without its players' records (or the reverse). Seats,
the log and the rest are :class:`bot.storage.challenge.ChallengeRepository`'s, as for every deck.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

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
from bot.storage.db import Connection, Database

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


# The columns of hydra_profiles a profile is read from, in the order of HydraProfile's fields.
_PROFILE_COLUMNS = tuple(field.name for field in fields(HydraProfile))


async def _read_profile(reader: Connection | Database, user_id: int) -> HydraProfile:
    """The stored profile, or a blank one for a player with no finished game yet."""
    row = await reader.fetchone(
        f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?", (user_id,)
    )
    return HydraProfile(*row) if row else HydraProfile(user_id)


def _beats(win: Finish, heads: int | None, turns: int | None) -> bool:
    """A win is the new best with more heads, then in fewer turns; any win beats none."""
    if heads is None or turns is None:
        return True
    return (win.difficulty, -win.turns) > (heads, -turns)  # pragma: no mutate (>=: the same best)


class HydraRepository(ChallengeRepository):
    """The Hydra's tables (the kind ``hydra`` of every deck's tables) and its players' profiles (H13:
    The Slayer)."""

    kind = HYDRA_KIND

    async def _finished(self, conn: Connection, game_id: int, finish: Finish, now: str) -> None:
        """Every challenger's profile counts the game (its players, read in the same transaction)."""
        users = [
            row[0]
            for row in await conn.fetchall(
                "SELECT user_id FROM challenge_table_seats WHERE kind = ? AND game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (self.kind, game_id),
            )
        ]
        for user_id in users:
            await self._record(conn, user_id, finish, now)

    async def _record(self, conn: Connection, user_id: int, finish: Finish, now: str) -> None:
        old = await _read_profile(conn, user_id)
        won = finish.outcome == "won"
        best_heads, best_turns = old.best_win_heads, old.best_win_turns
        if won and _beats(finish, best_heads, best_turns):
            best_heads, best_turns = finish.difficulty, finish.turns
        await conn.execute(
            "INSERT INTO hydra_profiles (user_id, games, wins, heads_severed, best_win_heads, best_win_turns, "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "slayer_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "games = excluded.games, wins = excluded.wins, heads_severed = excluded.heads_severed, "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "best_win_heads = excluded.best_win_heads, best_win_turns = excluded.best_win_turns, "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "slayer_at = excluded.slayer_at, updated_at = excluded.updated_at",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
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
        return await _read_profile(self.db, user_id)


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
