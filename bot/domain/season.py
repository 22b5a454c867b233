"""Seasons and leagues: a points rule over casual pod games, results the table confirms, and standings.

Plain Python (no Discord, no SQL). A season scores the finished pod games of one server while it is open.
Each game's points come from its :class:`~bot.domain.pod.PodGameRecord` (the one record a finished game
leaves), so a season never keeps a second account of what happened at the table; what it adds is whether
the table agrees with that account. A result counts towards the standings only once it is final: every
player at the table confirmed it, or an organiser decided it. A dispute holds the result until an organiser
decides, because one player's word should neither make nor unmake everyone else's result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from bot.domain import pod
from bot.domain.errors import DomainError
from bot.domain.pod import PodGameRecord

MAX_NAME = 64
MAX_POINTS = 100  # per win, survival or elimination: a rule beyond this is a typing slip
MAX_MIN_GAMES = 1000

# How a player answers a posted result, and what an organiser may decide.
CONFIRM = "confirm"
DISPUTE = "dispute"
ACCEPT = "accept"  # the result counts as recorded
VOID = "void"  # the result does not count at all
ANSWERS = (CONFIRM, DISPUTE)
DECISIONS = (ACCEPT, VOID)

# A result's state, as the table and the standings see it.
PENDING = "pending"
CONFIRMED = "confirmed"
DISPUTED = "disputed"
ACCEPTED = "accepted"  # decided by an organiser: counts
VOIDED = "voided"  # decided by an organiser: does not count
COUNTING = (CONFIRMED, ACCEPTED)
WAITING = (PENDING, DISPUTED)  # the table or an organiser still has to act


class SeasonError(DomainError):
    prefix = "season.error."


@dataclass(frozen=True)
class PointsRule:
    """What a season awards per game: ``win`` to the last player standing, ``survive`` to each player still
    in a game that ended without a single winner (a draw, or a game stopped early), ``elimination`` for
    each opponent a player knocked out, and the games a player needs before they are ranked."""

    win: int = 3
    survive: int = 1
    elimination: int = 1
    min_games: int = 0

    def text(self) -> str:
        """The rule as ``/season open points:`` reads it back (``win=3 survive=1 elimination=1``)."""
        return f"win={self.win} survive={self.survive} elimination={self.elimination}"


_POINT_KEYS = {
    "win": "win",
    "w": "win",
    "survive": "survive",
    "s": "survive",
    "elimination": "elimination",
    "elim": "elimination",
    "e": "elimination",
    "kill": "elimination",
}
_PAIR = re.compile(r"^(?P<key>[a-z]+)\s*[=:]\s*(?P<value>[+-]?\d{1,6})$")


def parse_points(text: str | None, *, min_games: int = 0) -> PointsRule:
    """A points rule from what an organiser types: ``win=3 survive=1 elimination=1`` (any order, commas or
    spaces between, ``w``/``s``/``e`` for short, keys left out keep their default). Raises SeasonError naming
    the first part it could not read, so the organiser sees which one to fix."""
    if not 0 <= min_games <= MAX_MIN_GAMES:
        raise SeasonError("min_games_out_of_range", limit=MAX_MIN_GAMES, games=min_games)
    values: dict[str, int] = {}
    for part in re.split(r"[\s,;]+", (text or "").strip().lower()):
        if not part:
            continue
        matched = _PAIR.match(part)
        if matched is None or matched["key"] not in _POINT_KEYS:
            raise SeasonError("bad_points", part=part[:40])
        key, value = _POINT_KEYS[matched["key"]], int(matched["value"])
        if key in values:
            raise SeasonError("points_twice", what=key)
        if not -MAX_POINTS <= value <= MAX_POINTS:
            raise SeasonError("points_out_of_range", what=key, limit=MAX_POINTS, points=value)
        values[key] = value
    return PointsRule(min_games=min_games, **values)


def check_name(name: str) -> str:
    """A season's name, trimmed: 1 to 64 characters, so it fits a title and a file name."""
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= MAX_NAME:
        raise SeasonError("bad_name", limit=MAX_NAME)
    return cleaned


# -- one game's result ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """One player's line of a scored game."""

    user_id: int
    name: str
    seat: int
    won: bool
    survived: bool
    eliminations: int  # opponents this player is credited with knocking out
    points: int


def eliminated_by(record: PodGameRecord, elimination: pod.Elimination) -> int | None:
    """Who an elimination is credited to: the owner of the commander that dealt 21 (G5), or the source
    named on the life change that took the player to 0. Poison and concessions name nobody in the log,
    and a player who brought themselves to 0 credits nobody."""
    if elimination.by_commander is not None:
        owner, _ = pod.parse_commander_key(elimination.by_commander)
        return owner if owner != elimination.player else None
    if elimination.reason != pod.LOST_LIFE:
        return None
    lethal = [
        change
        for change in record.life_changes
        if change["seq"] == elimination.seq and change["player"] == elimination.player
    ]
    source = lethal[-1].get("source") if lethal else None
    return int(source) if source is not None and int(source) != elimination.player else None


def score_game(rule: PointsRule, record: PodGameRecord) -> list[SeatResult]:
    """Each player's points for a finished game under ``rule``, in seat order."""
    winner = record.winner
    survivors = set(record.survivors)
    credited: dict[int, int] = {}
    for elimination in record.eliminations:
        killer = eliminated_by(record, elimination)
        if killer is not None:
            credited[killer] = credited.get(killer, 0) + 1
    results = []
    for player in record.players:
        won = player.user_id == winner
        survived = player.user_id in survivors and winner is None
        kills = credited.get(player.user_id, 0)
        points = rule.win * won + rule.survive * survived + rule.elimination * kills
        results.append(
            SeatResult(
                user_id=player.user_id,
                name=player.name,
                seat=player.seat,
                won=won,
                survived=survived,
                eliminations=kills,
                points=points,
            )
        )
    return results


# -- confirmations ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultState:
    """Who at the table has answered a posted result, and an organiser's decision if there is one."""

    players: frozenset[int]
    confirmed: frozenset[int] = frozenset()
    disputed: frozenset[int] = frozenset()
    decision: str | None = None

    @property
    def status(self) -> str:
        if self.decision == ACCEPT:
            return ACCEPTED
        if self.decision == VOID:
            return VOIDED
        if self.disputed:
            return DISPUTED
        return CONFIRMED if self.confirmed >= self.players else PENDING

    @property
    def final(self) -> bool:
        return self.status in (CONFIRMED, ACCEPTED, VOIDED)

    @property
    def counts(self) -> bool:
        return self.status in COUNTING


def answer(state: ResultState, user_id: int, choice: str) -> ResultState:
    """A player at the table confirms or disputes the result (and may change their mind until it is final).

    Raises SeasonError for a bystander, an unknown answer, or a result already final."""
    if choice not in ANSWERS:
        raise SeasonError("bad_answer")
    if user_id not in state.players:
        raise SeasonError("not_at_table")
    if state.final:
        raise SeasonError("already_final", status=state.status)
    confirmed, disputed = state.confirmed - {user_id}, state.disputed - {user_id}
    if choice == CONFIRM:
        confirmed |= {user_id}
    else:
        disputed |= {user_id}
    return replace(state, confirmed=confirmed, disputed=disputed)


def decide(state: ResultState, decision: str) -> ResultState:
    """An organiser's decision: the result counts as recorded (``accept``) or not at all (``void``). An
    organiser may decide a result at any time, also one the table confirmed: they settle what the table
    cannot, and a confirmed result can still turn out wrong."""
    if decision not in DECISIONS:
        raise SeasonError("bad_decision")
    if state.decision == decision:
        raise SeasonError("already_decided", status=state.status)
    return replace(state, decision=decision)


# -- standings ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line of a season's standings; ``place`` is None while they have too few games."""

    user_id: int
    name: str
    points: int
    games: int
    wins: int
    eliminations: int
    place: int | None = None

    @property
    def ranked(self) -> bool:
        return self.place is not None

    def order(self) -> tuple[int, int, int, int]:
        """The tie-breakers, best first: points, then wins, then eliminations, then fewer games (the same
        points in fewer games is the stronger season). Equal on all four means a shared place."""
        return (-self.points, -self.wins, -self.eliminations, self.games)


@dataclass
class _Tally:
    name: str
    points: int = 0
    games: int = 0
    wins: int = 0
    eliminations: int = 0
    seen: set[int] = field(default_factory=set)


def standings(results: Iterable[tuple[int, Iterable[SeatResult]]], rule: PointsRule) -> list[Standing]:
    """The standings from the counting results (``(game id, its seat results)``; a game listed twice is
    counted once), ranked by :func:`rank`."""
    tallies: dict[int, _Tally] = {}
    for game_id, seats in results:
        for seat in seats:
            tally = tallies.setdefault(seat.user_id, _Tally(name=seat.name))
            if game_id in tally.seen:
                continue
            tally.seen.add(game_id)
            tally.games += 1
            tally.points += seat.points
            tally.wins += seat.won
            tally.eliminations += seat.eliminations
            tally.name = seat.name
    return rank(
        (
            Standing(
                user_id=user,
                name=t.name,
                points=t.points,
                games=t.games,
                wins=t.wins,
                eliminations=t.eliminations,
            )
            for user, t in tallies.items()
        ),
        rule,
    )


def rank(lines: Iterable[Standing], rule: PointsRule) -> list[Standing]:
    """Players' season totals in standings order: ranked players first, by :meth:`Standing.order`, sharing a
    place when equal (the next place skipped, 1, 2, 2, 4); players with fewer than ``rule.min_games`` games
    follow, unranked, in the same order. The storage sums a big season's totals in SQL and ranks them here."""
    ordered = sorted(lines, key=lambda line: (*line.order(), line.user_id))
    ranked = [line for line in ordered if line.games >= rule.min_games]
    unranked = [replace(line, place=None) for line in ordered if line.games < rule.min_games]
    placed: list[Standing] = []
    for index, line in enumerate(ranked):
        shared = placed and placed[-1].order() == line.order()
        place = placed[-1].place if shared and placed[-1].place is not None else index + 1
        placed.append(replace(line, place=place))
    return placed + unranked
