"""The figures the statistics show, as plain values: what ``bot/storage/stats.py`` reads with SQL and
``cogs/stats.py``, the chart and the leaderboard page show. A win rate is wins over games, 0 without
games; a streak is a run of consecutive wins in finishing order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

# A member ranks on the server leaderboard from this many games on: one lucky win is no 100 % rate.
MIN_GAMES_TO_RANK = 3


def win_rate(wins: int, games: int) -> float:
    return wins / games if games else 0.0


class WinRate:
    """The win rate of a figure that has ``games`` and ``wins``."""

    games: int
    wins: int

    @property
    def rate(self) -> float:
        return win_rate(self.wins, self.games)


@dataclass(frozen=True)
class Tally(WinRate):
    """Games and wins of one thing: a commander, a deck, a month, a member."""

    label: str
    games: int
    wins: int


@dataclass(frozen=True)
class HeadToHead:
    """Games two members sat at the same table, and how often each of them won one of those."""

    opponent: int
    name: str
    games: int
    wins: int  # the member's wins in those games
    losses: int  # the opponent's wins in those games

    @property
    def deleted(self) -> bool:
        """The opponent asked for their data to be deleted: their id is a negative pseudonym."""
        return self.opponent < 0


@dataclass(frozen=True)
class Streaks:
    best: int
    current: int


def streaks(results: Iterable[bool]) -> Streaks:
    """The longest run of wins, and the run still going at the end (results in finishing order)."""
    best = current = 0
    for won in results:
        current = current + 1 if won else 0
        best = max(best, current)
    return Streaks(best=best, current=current)


@dataclass(frozen=True)
class MemberStats(WinRate):
    user_id: int
    games: int
    wins: int
    average_turns: float | None
    average_minutes: float | None
    streaks: Streaks
    by_commander: list[Tally]
    by_deck: list[Tally]
    eliminated_how: list[Tally]  # label: pod.LOST_*; games = times; wins unused (0)
    eliminated_others: list[Tally]  # label: pod.LOST_*; games = players this member eliminated that way
    head_to_head: list[HeadToHead]
    per_month: list[Tally]


@dataclass(frozen=True)
class CommanderStats(WinRate):
    name: str
    games: int
    wins: int
    pilots: int
    average_turns: float | None
    eliminations: int  # players eliminated by whoever played this commander
    top_pilots: list[Tally]  # label: user id as text


@dataclass(frozen=True)
class LongGame:
    game_id: int
    turns: int
    duration_seconds: int | None
    ended_at: str | None
    winner: int | None


@dataclass(frozen=True)
class StreakHolder:
    user_id: int
    name: str
    streak: int


@dataclass(frozen=True)
class LeaderboardLine(WinRate):
    user_id: int
    name: str
    games: int
    wins: int


@dataclass(frozen=True)
class ServerStats:
    guild_id: int
    games: int
    players: int
    average_turns: float | None
    average_minutes: float | None
    commanders: list[Tally]  # most played
    identities: list[Tally]  # most played colour identities
    longest: list[LongGame]
    streaks: list[StreakHolder]  # the longest win streaks
    leaderboard: list[LeaderboardLine]  # ranked members (MIN_GAMES_TO_RANK games or more)
    per_month: list[Tally] = field(default_factory=list)
