"""Face the Hydra tables: the one challenge repository over the Hydra's SQL tables, plus profiles.

The action log is the truth (a game = seed + actions, replayed by the engine). Appending the action
that ends a game, marking the game finished and updating every challenger's profile happen in one
transaction, so a game can never be finished without its players' records (or the reverse). Seats,
the log and the rest are :class:`bot.storage.challenge.ChallengeRepository`'s, as for every deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.domain.challenge.decks import CURRENT_RULES
from bot.storage.challenge import (
    FINISHED,
    IDLE,
    LOBBY,
    PLAYING,
    ChallengeRepository,
    Finish,
    SeatError,
    TableFamily,
)
from bot.storage.db import Connection


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

    deck = "hydra"  # what every deck's table row says (not a column: every table here is a Hydra's)
    life_per_player = 0  # the God's house rule, never the Hydra's

    @property
    def difficulty(self) -> int:
        """Every deck's name for the Hydra's starting heads."""
        return self.heads


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


_PROFILE_COLUMNS = ("user_id", "games", "wins", "heads_severed", "best_win_heads", "best_win_turns", "slayer_at")


HYDRA_TABLES = TableFamily(
    "hydra", HydraGameRow, "heads", deck_column=False, fixed_deck="hydra",
    changeable=frozenset({"channel_id", "message_id", "turn_message_id", "status"}),
    create_options=frozenset({"idle_minutes"}))


class HydraRepository(ChallengeRepository):
    """The Hydra's tables (``hydra_games/seats/actions``) and its players' profiles (H13: The Slayer)."""

    family = HYDRA_TABLES

    def _finish_columns(self, finish: Finish) -> Mapping[str, object]:
        return {"outcome": finish.outcome, "turns": finish.turns, "heads_severed": finish.defeated}

    async def _finished(self, conn: Connection, game_id: int, finish: Finish, now: str) -> None:
        """Every challenger's profile counts the game (its players, read in the same transaction)."""
        users = [row[0] for row in await conn.fetchall("SELECT user_id FROM hydra_seats WHERE game_id = ?",
                                                       (game_id,))]
        for user_id in users:
            await self._record(conn, user_id, finish, now)

    async def _record(self, conn: Connection, user_id: int, finish: Finish, now: str) -> None:
        row = await conn.fetchone(f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?",
                                  (user_id,))
        old = HydraProfile(**dict(zip(_PROFILE_COLUMNS, row, strict=True))) if row else HydraProfile(user_id)
        won = finish.outcome == "won"
        best_heads, best_turns = old.best_win_heads, old.best_win_turns
        if won and (best_heads is None or best_turns is None or (finish.difficulty, -finish.turns) > (best_heads, -best_turns)):
            best_heads, best_turns = finish.difficulty, finish.turns
        await conn.execute(
            "INSERT INTO hydra_profiles (user_id, games, wins, heads_severed, best_win_heads, best_win_turns, "
            "slayer_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "games = excluded.games, wins = excluded.wins, heads_severed = excluded.heads_severed, "
            "best_win_heads = excluded.best_win_heads, best_win_turns = excluded.best_win_turns, "
            "slayer_at = excluded.slayer_at, updated_at = excluded.updated_at",
            (user_id, old.games + 1, old.wins + won, old.heads_severed + finish.defeated, best_heads,
             best_turns, old.slayer_at or (now if won else None), now))

    # -- profiles -----------------------------------------------------------------------------------
    async def profile(self, user_id: int) -> HydraProfile:
        row = await self.db.fetchone(
            f"SELECT {', '.join(_PROFILE_COLUMNS)} FROM hydra_profiles WHERE user_id = ?", (user_id,))
        return HydraProfile(**dict(zip(_PROFILE_COLUMNS, row, strict=True))) if row else HydraProfile(user_id)


__all__ = ["FINISHED", "HYDRA_TABLES", "IDLE", "LOBBY", "PLAYING", "HydraGameRow", "HydraProfile", "HydraRepository",
           "SeatError"]
