"""Server-wide challenge events (first for the Hydra, then for Battle the Horde and Defeat a
God), the plain-Python part: seating, late joiners, no-shows, who defeated what, and the leaderboard.
No discord, no SQL. What differs per deck is in :data:`EVENT_DECKS` (difficulty and table sizes) and
in the score a table's game keeps (heads severed for the Hydra, permanents defeated for the others).

Seating rules (H10: at most 4 challengers share a Hydra):

- tables hold at most ``table_size`` players (2–4);
- no table has fewer than 2 players, unless only one player joined at all. With ``table_size`` 2
  and an odd number of players this cannot be done, so the last solo joiner waits (wait list);
- players who joined together as a group sit at the same table; a group is only split when no
  seating keeps every group together (then the largest group is split first);
- tables are balanced: as few tables as the rules allow, filled evenly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from math import ceil
from typing import Any

from bot.domain.hydra import GameSetup, HydraError, HydraGame
from bot.domain.hydra.engine import MAX_HEADS, MAX_PLAYERS, MIN_HEADS

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = MAX_PLAYERS  # H10: never more than 4 challengers against one Hydra
DEFAULT_TABLE_SIZE = MAX_TABLE_SIZE
DEFAULT_GRACE_MINUTES = 10
# Verbs whose consequences belong to the Hydra's turn or to nobody: heads leaving then count for the
# table, not for the player who pressed "end" or conceded.
_UNCREDITED_VERBS = ("end", "concede")


class EventError(HydraError):
    """Bad input for an event (keys ``hydra_events.error.*``); nothing was changed."""


@dataclass(frozen=True)
class EventDeck:
    """What an event needs to know of a challenge deck: its difficulty range and how many sit at a table."""

    name: str
    min_difficulty: int
    max_difficulty: int
    default_difficulty: int
    min_table: int
    max_table: int
    range_error: str = "hydra_events.error.difficulty_range"  # what a difficulty out of range is called


# The Hydra: starting heads (H2), 2-4 challengers a table (H10). The God: starting Rollicking Throngs,
# 1-4 players sharing 20 life. The Horde: the player's turns before the Horde's first, and it is a
# single-player challenge as printed, so every table seats one.
EVENT_DECKS = {
    "hydra": EventDeck(
        "hydra",
        MIN_HEADS,
        MAX_HEADS,
        3,
        MIN_TABLE_SIZE,
        MAX_TABLE_SIZE,
        range_error="hydra_events.error.heads_range",
    ),
    "god": EventDeck("god", 1, 3, 2, 1, 4),
    "horde": EventDeck("horde", 2, 4, 3, 1, 1),
}


def check_event_options(heads: int, table_size: int, deck: str = "hydra") -> None:
    """The difficulty is one of the deck's (``heads`` is the Hydra's starting heads, H2; the other decks'
    difficulty); a table seats what the deck allows (the Hydra 2–4, H10)."""
    rules = EVENT_DECKS.get(deck)
    if rules is None:
        raise EventError("hydra_events.error.unknown_deck", deck=deck[:20], decks=tuple(EVENT_DECKS))
    if not rules.min_difficulty <= heads <= rules.max_difficulty:
        raise EventError(rules.range_error, min=rules.min_difficulty, max=rules.max_difficulty)
    if not rules.min_table <= table_size <= rules.max_table:
        raise EventError("hydra_events.error.table_size_range", min=rules.min_table, max=rules.max_table)


# -- seating -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """Tables of user ids (table 1 first), the users left waiting, and groups that had to be split."""

    tables: tuple[tuple[int, ...], ...]
    waiting: tuple[int, ...] = ()
    split_groups: tuple[tuple[int, ...], ...] = ()


def seat_players(groups: Sequence[Sequence[int]], table_size: int) -> Seating:
    """Seat ``groups`` (in joining order; a solo player is a group of one) at balanced tables. Tables of
    one (a single-player deck: the Horde) seat everyone alone, splitting every group."""
    if table_size <= 1:
        alone = [tuple(group) for group in groups if group]
        return Seating(
            tuple((user,) for group in alone for user in group),
            split_groups=tuple(group for group in alone if len(group) > 1),
        )
    table_size = min(MAX_TABLE_SIZE, table_size)
    work = [tuple(group) for group in groups if group]
    split: list[tuple[int, ...]] = []
    for group in list(work):  # a group larger than a table is split into table-sized chunks
        if len(group) > table_size:
            split.append(group)
            index = work.index(group)
            work[index : index + 1] = [group[i : i + table_size] for i in range(0, len(group), table_size)]
    total = sum(len(group) for group in work)
    if total == 0:
        return Seating(())
    if total == 1:
        return Seating((work[0],))
    waiting: tuple[int, ...] = ()
    if table_size == MIN_TABLE_SIZE and total % 2:
        last_solo = max(i for i, group in enumerate(work) if len(group) == 1)  # exists: pairs are even
        waiting = work.pop(last_solo)
    while True:
        tables = _pack_evenly(work, table_size)
        if tables is not None:
            return Seating(tables, waiting, tuple(split))
        largest = max(range(len(work)), key=lambda i: (len(work[i]), -i))
        split.append(work[largest])
        work[largest : largest + 1] = [(user,) for user in work[largest]]


def _pack_evenly(groups: Sequence[tuple[int, ...]], table_size: int) -> tuple[tuple[int, ...], ...] | None:
    """Fewest tables first: largest group first into the emptiest table it fits. None when no
    table count gives every table at least two players with the groups intact."""
    total = sum(len(group) for group in groups)
    order = sorted(range(len(groups)), key=lambda i: (-len(groups[i]), i))
    for count in range(ceil(total / table_size), total // MIN_TABLE_SIZE + 1):
        tables: list[list[int]] = [[] for _ in range(count)]
        placed = True
        for index in order:
            group = groups[index]
            fitting = [t for t in range(count) if len(tables[t]) + len(group) <= table_size]
            if not fitting:
                placed = False
                break
            tables[min(fitting, key=lambda t: (len(tables[t]), t))].extend(group)
        if placed and all(len(table) >= MIN_TABLE_SIZE for table in tables):
            return tuple(tuple(table) for table in tables)
    return None


@dataclass(frozen=True)
class OpenTable:
    """A running table as seen by late seating: its number, how many sit there, and whether the
    players are still in their first turn (only then can someone sit down)."""

    table_no: int
    seated: int
    in_first_turn: bool


def place_late_group(tables: Iterable[OpenTable], group_size: int, table_size: int) -> int | None:
    """The table a late group joins: still in its first turn, with room for the whole group, the
    emptiest first. None means the group waits (wait list)."""
    fitting = [
        t for t in tables if t.in_first_turn and t.seated + group_size <= min(table_size, MAX_TABLE_SIZE)
    ]
    if not fitting:
        return None
    return min(fitting, key=lambda t: (t.seated, t.table_no)).table_no


def in_first_turn(game: HydraGame) -> bool:
    """The players' first turn (H3): nobody has ended it yet."""
    return game.in_players_first_turn


def no_shows(seated: Iterable[int], present: Iterable[int]) -> list[int]:
    """Seated players who never acted (nor checked in) by the end of the grace period."""
    here = set(present)
    return [user for user in seated if user not in here]


@dataclass(frozen=True)
class SeatedPlayer:
    """A player at a table and when they sat down: the table's start, or later for a late joiner."""

    user_id: int
    seated_at: datetime


@dataclass(frozen=True)
class NoShowCheck:
    """Who is a no-show at ``now`` (their own grace period is over and they never acted nor checked in),
    and when the next seated player's grace period ends (None: nobody's is still running)."""

    absent: tuple[int, ...]
    next_due: datetime | None


def check_no_shows(
    seated: Iterable[SeatedPlayer], present: Iterable[int], now: datetime, grace_minutes: int
) -> NoShowCheck:
    """Each player's grace period runs from their own seat, so a late joiner is not judged by the
    table's start (they were dropped seconds after sitting down). A player who acted or checked in is
    never a no-show; one whose grace is still running is looked at again at ``next_due``."""
    here = set(present)
    grace = timedelta(minutes=grace_minutes)
    absent: list[int] = []
    pending: list[datetime] = []
    for player in seated:
        if player.user_id in here:
            continue
        due = player.seated_at + grace
        if due <= now:
            absent.append(player.user_id)
        else:
            pending.append(due)
    return NoShowCheck(tuple(absent), min(pending, default=None))


# -- who severed which head ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    line: str
    actor_id: int | None


class ScoreTally:
    """A table's score per player, by replaying its action log through the deck's engine: heads
    severed (the Hydra), the deck's permanents defeated (the Horde, the God).

    What leaves the battlefield is credited to the player whose action made it leave. What leaves
    during the deck's own turn (after "end") or by the bot's default answers counts for the table
    only. Feeding is incremental: only new actions are replayed, and an undo (the log no longer
    extends what was replayed) rebuilds from the seed. ``key`` is the game's set-up: a tally made for
    another set-up (a late player sat down) is made again.
    """

    def __init__(self, key: object, new_game: Callable[[], Any], score: Callable[[Any], int]) -> None:
        self.key, self._new_game, self._score = key, new_game, score
        self._reset()

    def _reset(self) -> None:
        self.game = self._new_game()
        self.applied: list[int] = []
        self.by_player: dict[int, int] = {}

    def feed(self, actions: Sequence[LoggedAction]) -> dict[int, int]:
        if [a.seq for a in actions[: len(self.applied)]] != self.applied:
            self._reset()
        for action in actions[len(self.applied) :]:
            before = self._score(self.game)
            self.game.apply(action.line)
            self.applied.append(action.seq)
            gained = self._score(self.game) - before
            if gained and action.actor_id is not None and action.line.split()[0] not in _UNCREDITED_VERBS:
                self.by_player[action.actor_id] = self.by_player.get(action.actor_id, 0) + gained
        return dict(self.by_player)


class SeveranceTally(ScoreTally):
    """Heads severed per player at one Hydra table."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__(setup, lambda: HydraGame(setup), lambda game: game.heads_severed)

    @property
    def setup(self) -> GameSetup:
        return self.key  # type: ignore[return-value]


# -- the leaderboard -----------------------------------------------------------------------------------

ONGOING, WON, LOST = "ongoing", "won", "lost"


@dataclass(frozen=True)
class PlayerLine:
    user_id: int
    name: str
    table_no: int
    severed: int
    standing: bool  # still in the game (not at 0 life, not conceded or dropped)


@dataclass(frozen=True)
class TableLine:
    table_no: int
    outcome: str  # ongoing | won | lost
    turns: int
    severed: int
    heads_left: int
    players: tuple[PlayerLine, ...]


@dataclass(frozen=True)
class Leaderboard:
    tables: tuple[TableLine, ...]  # ranked: wins (fastest first), then running, then losses
    players: tuple[PlayerLine, ...]  # ranked by heads severed
    won: int
    lost: int
    running: int
    standing: int  # players still standing at running tables
    fastest_win: TableLine | None
    winners: tuple[PlayerLine, ...] = field(default=())  # standing players of won tables

    @property
    def finished(self) -> bool:
        return self.running == 0


def _table_rank(line: TableLine) -> tuple[int, int, int, int]:
    group = {WON: 0, ONGOING: 1, LOST: 2}.get(line.outcome, 3)
    turns = line.turns if line.outcome == WON else 0
    return group, turns, -line.severed, line.table_no


def build_leaderboard(tables: Iterable[TableLine]) -> Leaderboard:
    """Tables won/lost, heads severed per player and table, the fastest win, who still stands."""
    ranked = tuple(sorted(tables, key=_table_rank))
    wins = [line for line in ranked if line.outcome == WON]
    players = tuple(
        sorted(
            (p for line in ranked for p in line.players),
            key=lambda p: (-p.severed, not p.standing, p.table_no, p.name.casefold()),
        )
    )
    running = [line for line in ranked if line.outcome == ONGOING]
    return Leaderboard(
        tables=ranked,
        players=players,
        won=len(wins),
        lost=sum(line.outcome == LOST for line in ranked),
        running=len(running),
        standing=sum(p.standing for line in running for p in line.players),
        fastest_win=wins[0] if wins else None,
        winners=tuple(p for line in wins for p in line.players if p.standing),
    )


# -- the summary every message shows ------------------------------------------------------------------

UNFINISHED = "unfinished"  # a table still playing when the event ended
# What an event's results say (EventSummary.result).
NO_TABLES, WINNERS, HYDRA_WON_ALL, ENDED_UNFINISHED = (
    "no_tables",
    "winners",
    "hydra_won_all",
    "ended_unfinished",
)


@dataclass(frozen=True)
class TableSummary:
    """One table as every message describes it. ``outcome`` is won, lost, ongoing, or unfinished (the event
    ended while it played)."""

    table_no: int
    outcome: str
    turns: int
    severed: int
    players: tuple[PlayerLine, ...]

    @property
    def standing(self) -> int:
        return sum(p.standing for p in self.players)

    @property
    def seated(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class EventSummary:
    """An event's state, computed once from its leaderboard and rendered the same way everywhere (the live
    board, ``/hydra event status``, the results, the image), so no two messages can disagree: the counts are
    sums over ``tables``, and "players standing" means the same thing in the summary as on each table line."""

    over: bool
    tables: tuple[TableSummary, ...]  # ranked as on the leaderboard
    players: tuple[PlayerLine, ...]  # ranked by heads severed
    winners: tuple[PlayerLine, ...]  # standing players of won tables
    fastest_win: TableSummary | None

    def count(self, outcome: str) -> int:
        return sum(table.outcome == outcome for table in self.tables)

    @property
    def won(self) -> int:
        return self.count(WON)

    @property
    def lost(self) -> int:
        return self.count(LOST)

    @property
    def playing(self) -> int:
        return self.count(ONGOING)

    @property
    def unfinished(self) -> int:
        return self.count(UNFINISHED)

    @property
    def standing(self) -> int:
        """Players still standing at any table: the winners of won tables and those still (or, at the end,
        last) playing."""
        return sum(table.standing for table in self.tables)

    @property
    def result(self) -> str:
        """Which results message applies: winners, the Hydra won every table, ended with tables unfinished."""
        if not self.tables:
            return NO_TABLES
        if self.winners:
            return WINNERS
        return HYDRA_WON_ALL if self.lost == len(self.tables) else ENDED_UNFINISHED

    def table(self, table_no: int) -> TableSummary | None:
        return next((table for table in self.tables if table.table_no == table_no), None)


def summarize(board: Leaderboard, *, over: bool) -> EventSummary:
    """The summary of an event whose tables stand as ``board``; ``over``: the event has ended, so a table
    still playing is unfinished rather than ongoing."""
    tables = tuple(
        TableSummary(
            line.table_no,
            UNFINISHED if over and line.outcome == ONGOING else line.outcome,
            line.turns,
            line.severed,
            line.players,
        )
        for line in board.tables
    )
    fastest = (
        None
        if board.fastest_win is None
        else next(table for table in tables if table.table_no == board.fastest_win.table_no)
    )
    return EventSummary(over, tables, board.players, board.winners, fastest)


# -- the start time ------------------------------------------------------------------------------------

_RELATIVE = re.compile(
    r"^(?:in\s*)?(?:(?P<h>\d+)\s*h(?:ours?)?)?\s*(?:(?P<m>\d+)\s*m(?:in(?:utes?)?)?)?$", re.I
)
_DISCORD_TIMESTAMP = re.compile(r"^<t:(?P<ts>\d+)(?::[a-zA-Z])?>$")
LATEST_START = timedelta(days=366)


def parse_start(text: str, now: datetime) -> datetime:
    """When the event starts, from what an organiser types: ``now``, ``in 30m`` / ``2h`` / ``1h30m``,
    a Discord timestamp ``<t:1767294000:F>``, a Unix time, or ISO 8601 (``2026-12-05 19:00``, UTC
    unless an offset such as ``+09:00`` is given). Must not lie in the past or more than a year ahead."""
    raw = text.strip()
    start: datetime | None = None
    relative = _RELATIVE.match(raw)
    stamp = _DISCORD_TIMESTAMP.match(raw)
    try:  # numbers beyond any calendar (99999999999999999999, in 99999999999h) are "too late", not a crash
        if raw.casefold() in ("now", "0"):
            start = now
        elif relative and (relative["h"] or relative["m"]):
            start = now + timedelta(hours=int(relative["h"] or 0), minutes=int(relative["m"] or 0))
        elif stamp or raw.isdecimal():  # isdecimal, not isdigit: "²" and "①" are digits int() refuses
            start = datetime.fromtimestamp(int(stamp["ts"] if stamp else raw), tz=UTC)
    except (OverflowError, OSError, ValueError):
        raise EventError("hydra_events.error.start_too_late", text=raw[:50]) from None
    if start is None:
        try:
            start = datetime.fromisoformat(raw.replace(" ", "T", 1))
        except ValueError:
            raise EventError("hydra_events.error.bad_start", text=raw[:50]) from None
        if start.tzinfo is None:
            start = start.replace(tzinfo=UTC)
    if start < now - timedelta(minutes=1):
        raise EventError("hydra_events.error.start_in_past", text=raw[:50])
    if start > now + LATEST_START:
        raise EventError("hydra_events.error.start_too_late", text=raw[:50])
    return start.astimezone(UTC)
