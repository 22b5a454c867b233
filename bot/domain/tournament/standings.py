"""Standings: totals per player, admin corrections, tiebreakers and CSV export.

Order: points (with corrections), then opponents' average points (over every opponent faced, once
per game), then votes received (T3), then a seeded coin flip: the same seed always breaks the same
ties the same way, so standings never change between two looks at them.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.domain.tournament.prizes import PRIZE_GOALS, PrizeStats
from bot.domain.tournament.scoring import GameResult, Player, ScoringRule, Tally, add_tally, score_game


@dataclass(frozen=True)
class Correction:
    """An organiser's change to a player's points, kept in the audit log with who and why."""

    player: Player
    points: int
    reason: str
    by: Player


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Player
    tally: Tally
    opponents_average: Fraction
    coin: float
    dropped: bool = False
    prizes: PrizeStats = PrizeStats()

    @property
    def points(self) -> int:
        return self.tally.points


def coin_flip(seed: int, player: Player) -> float:
    """The last tiebreaker: a number in [0, 1) fixed by the tournament's seed and the player."""
    return random.Random(f"tournament:{seed}:coin:{player}").random()


def compute_standings(
    results: Sequence[GameResult],
    rule: ScoringRule,
    *,
    seed: int,
    players: Iterable[Player] = (),
    corrections: Iterable[Correction] = (),
    dropped: Iterable[Player] = (),
    prizes: Mapping[Player, PrizeStats] | None = None,
) -> list[Standing]:
    """Ranked standings. ``players`` adds entrants who have not played yet (0 points)."""
    totals: dict[Player, Tally] = {player: Tally() for player in players}
    opponents: dict[Player, list[Player]] = {player: [] for player in totals}
    for result in results:
        for player, tally in score_game(result, rule).items():
            add_tally(totals.setdefault(player, Tally()), tally)
            opponents.setdefault(player, []).extend(p for p in result.players if p != player)
    for correction in corrections:
        totals.setdefault(correction.player, Tally()).points += correction.points
        opponents.setdefault(correction.player, [])
    dropped = set(dropped)
    prizes = prizes or {}
    rows = [
        (player, tally, _average(totals[o].points for o in opponents[player]), coin_flip(seed, player))
        for player, tally in totals.items()
    ]
    rows.sort(key=lambda row: (-row[1].points, -row[2], -row[1].votes, -row[3]))
    return [
        Standing(rank, player, tally, average, coin, player in dropped, prizes.get(player, PrizeStats()))
        for rank, (player, tally, average, coin) in enumerate(rows, start=1)
    ]


def _average(values: Iterable[int]) -> Fraction:
    values = list(values)
    return Fraction(sum(values), len(values)) if values else Fraction(0)


CSV_COLUMNS: tuple[str, ...] = (
    "rank",
    "player",
    "points",
    "opponents_average",
    "votes",
    "survivals",
    "wins",
    "draws",
    "eliminations",
    "games",
    "dropped",
    *PRIZE_GOALS,
)


def standings_csv(standings: Sequence[Standing], name: Callable[[Player], str] = str) -> str:
    """The standings as CSV (a header row, then one row per player), for spreadsheets."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in standings:
        tally = row.tally
        writer.writerow(
            [
                row.rank,
                csv_safe(name(row.player)),
                tally.points,
                f"{float(row.opponents_average):.2f}",
                tally.votes,
                tally.survivals,
                tally.wins,
                tally.draws,
                tally.eliminations,
                tally.games,
                "yes" if row.dropped else "no",
                *(getattr(row.prizes, goal) for goal in PRIZE_GOALS),
            ]
        )
    return buffer.getvalue()


def csv_safe(text: str) -> str:
    """Keep a player's display name from being run as a spreadsheet formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
