"""The alternative prize goals of T2, computed from game records.

Per player and game:
* ``combat_damage``   — most combat damage dealt in a single turn (all combat damage the player's
  creatures dealt that turn, to every opponent together);
* ``commander_kills`` — wins by commander damage: opponents the player knocked out with 21 or more
  combat damage from their commander (G5);
* ``commander_mana``  — mana spent casting one's commander: its mana value plus the tax paid, summed
  over every cast (G3a/G3b decide the tax; the pod tracker records what was paid);
* ``mana_pool``       — most mana in the pool at once, as reported by the player and confirmed by
  ANOTHER player at the table (unconfirmed or self-confirmed reports do not count).

Over a scope (one round, or the whole tournament) single-moment goals take the maximum and running
counts are summed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.domain.tournament.scoring import Player

PRIZE_GOALS: tuple[str, ...] = ("combat_damage", "commander_kills", "commander_mana", "mana_pool")
_MAXIMUM_GOALS = frozenset({"combat_damage", "mana_pool"})


@dataclass(frozen=True)
class PrizeStats:
    """One player's figures for the prize goals, in one game or summed over a scope."""

    combat_damage: int = 0
    commander_kills: int = 0
    commander_mana: int = 0
    mana_pool: int = 0

    def combine(self, other: PrizeStats) -> PrizeStats:
        """Merge two scopes: maxima for single-moment goals, sums for running counts."""
        values = {}
        for goal in PRIZE_GOALS:
            mine, theirs = getattr(self, goal), getattr(other, goal)
            values[goal] = max(mine, theirs) if goal in _MAXIMUM_GOALS else mine + theirs
        return PrizeStats(**values)


@dataclass(frozen=True)
class CombatDamage:
    turn: int
    source: Player
    amount: int


@dataclass(frozen=True)
class CommanderCast:
    player: Player
    mana_value: int
    tax_paid: int


@dataclass(frozen=True)
class Elimination:
    player: Player
    cause: str  # "life", "commander_damage", "poison", "concede", ...
    by: Player | None = None


@dataclass(frozen=True)
class ManaPoolReport:
    player: Player
    amount: int
    confirmed_by: Player | None = None


def best_combat_turn(damage: Iterable[CombatDamage]) -> dict[Player, int]:
    """Most combat damage each source dealt in one turn (damage of one turn is added up first)."""
    per_turn: dict[tuple[Player, int], int] = defaultdict(int)
    for event in damage:
        per_turn[(event.source, event.turn)] += event.amount
    best: dict[Player, int] = defaultdict(int)
    for (source, _turn), amount in per_turn.items():
        best[source] = max(best[source], amount)
    return dict(best)


def commander_mana_spent(casts: Iterable[CommanderCast]) -> dict[Player, int]:
    spent: dict[Player, int] = defaultdict(int)
    for cast in casts:
        spent[cast.player] += cast.mana_value + cast.tax_paid
    return dict(spent)


def commander_damage_kills(eliminations: Iterable[Elimination]) -> dict[Player, int]:
    kills: dict[Player, int] = defaultdict(int)
    for elimination in eliminations:
        if (
            elimination.cause == "commander_damage"
            and elimination.by is not None
            and elimination.by != elimination.player
        ):
            kills[elimination.by] += 1
    return dict(kills)


def confirmed_mana_pool(reports: Iterable[ManaPoolReport], players: Sequence[Player]) -> dict[Player, int]:
    """The largest confirmed report per player; the confirmer must be someone else at that table."""
    at_table = set(players)
    best: dict[Player, int] = defaultdict(int)
    for report in reports:
        confirmer = report.confirmed_by
        if report.player in at_table and confirmer in at_table and confirmer != report.player:
            best[report.player] = max(best[report.player], report.amount)
    return dict(best)


def game_prize_stats(
    players: Sequence[Player],
    *,
    damage: Iterable[CombatDamage] = (),
    casts: Iterable[CommanderCast] = (),
    eliminations: Iterable[Elimination] = (),
    mana_reports: Iterable[ManaPoolReport] = (),
) -> dict[Player, PrizeStats]:
    """Every player's prize figures for one game."""
    combat = best_combat_turn(damage)
    mana = commander_mana_spent(casts)
    kills = commander_damage_kills(eliminations)
    pool = confirmed_mana_pool(mana_reports, players)
    return {
        player: PrizeStats(
            combat.get(player, 0), kills.get(player, 0), mana.get(player, 0), pool.get(player, 0)
        )
        for player in players
    }


def combine_stats(per_game: Iterable[Mapping[Player, PrizeStats]]) -> dict[Player, PrizeStats]:
    """A scope's figures from its games' figures."""
    total: dict[Player, PrizeStats] = {}
    for game in per_game:
        for player, stats in game.items():
            total[player] = total[player].combine(stats) if player in total else stats
    return total


def prize_leaders(stats: Mapping[Player, PrizeStats]) -> dict[str, tuple[int, list[Player]]]:
    """For each goal: the best figure and everyone who reached it (ties share); goals nobody scored
    in are left out."""
    leaders: dict[str, tuple[int, list[Player]]] = {}
    for goal in PRIZE_GOALS:
        best = max((getattr(s, goal) for s in stats.values()), default=0)
        if best > 0:
            leaders[goal] = (best, [p for p, s in stats.items() if getattr(s, goal) == best])
    return leaders
