"""Server-wide challenge events as a service: create → join (in groups) → seat → tables play → end.

An event plays one challenge deck (the Hydra, the Horde or the God). Each table is an ordinary table
of the challenge service that keeps that deck's tables (``HydraService`` for the Hydra's, a
``ChallengeService`` for the Horde's and the God's, shared with the cog so both see the same cached
games and per-table locks), reached through ``bot.services.event_tables``: this
service never plays the game, it seats people, watches the tables and adds them up. What is decided here (who sits where, who is a
no-show, who won the event) is stored before anything is shown, so a restart resumes any step:
an event in ``seating`` opens its missing tables, a running event re-arms its timers, an award
whose role was not yet given is given again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from bot.changes import publishes
from bot.clock import SYSTEM_CLOCK, Clock
from bot.domain.hydra_events import (
    DEFAULT_GRACE_MINUTES,
    LOST,
    WON,
    EventError,
    EventSummary,
    Leaderboard,
    OpenTable,
    PlayerLine,
    ScoreTally,
    SeatedPlayer,
    Seating,
    TableLine,
    build_leaderboard,
    check_event_options,
    check_no_shows,
    parse_start,
    place_late_group,
    seat_players,
    summarize,
)
from bot.services.challenge import TABLE_KINDS, ChallengeService, ChallengeTable
from bot.services.event_tables import EventTables
from bot.services.hydra import HydraService
from bot.storage.db import Database
from bot.storage.hydra_events import (
    ACTIVE,
    ALL_STATUSES,
    CANCELLED,
    DROPPED,
    FINISHED,
    JOINED,
    OPEN,
    RUNNING,
    SEATED,
    SEATING,
    WAITING,
    AlreadyEntered,
    Entrant,
    EventRow,
    EventTable,
    HydraEventRepository,
)

log = logging.getLogger(__name__)


def hydra_event_topic(event_id: int) -> str:
    """The change-hub topic of one Hydra event: its entrants, tables and status (see bot.changes).
    A table's own play is ``challenge_table:<game id>`` (``bot.services.challenge.table_topic``), every deck's."""
    return f"hydra_event:{event_id}"


def _event_topic(result: object, event_id: int, *args: object, **kwargs: object) -> str:
    return hydra_event_topic(event_id)


def _seated_at(entrant: Entrant | None, table_opened: datetime) -> datetime:
    """When a player sat down: their own seat time if they joined a table already playing, else the
    table's start."""
    if entrant is None or entrant.seated_at is None:
        return table_opened
    return datetime.fromisoformat(entrant.seated_at)


MAX_NAME = 100


@dataclass(frozen=True)
class JoinOutcome:
    """Where a joining group ended up: ``joined`` (before the start), ``seated`` at a running table
    still in its first turn (with that table), or ``waiting``."""

    state: str
    table_no: int | None = None
    table: ChallengeTable | None = None


@dataclass(frozen=True)
class EventStatus:
    event: EventRow
    entrants: list[Entrant]
    tables: list[EventTable]
    board: Leaderboard

    def count(self, *states: str) -> int:
        return sum(e.state in states for e in self.entrants)

    @cached_property
    def summary(self) -> EventSummary:
        """What every message says about the event (computed once per status)."""
        return summarize(self.board, over=self.event.status in (FINISHED, CANCELLED))


@dataclass(frozen=True)
class Dropped:
    user_ids: list[int]
    result: Any  # the last concession (an ActResult), for the deck's cog to update the table's messages
    next_due: datetime | None = None  # a seated player's grace still runs (a late joiner): look again then


class HydraEventService:
    def __init__(
        self,
        db: Database,
        hydra: HydraService,
        seed_for: Callable[[int, int], int] | None = None,
        clock: Clock = SYSTEM_CLOCK,
        decks: ChallengeService | None = None,
    ) -> None:
        self.clock = clock
        self.repo = HydraEventRepository(db, clock)
        self.changes = db.changes
        self.hydra = hydra
        self.decks = decks or ChallengeService(db)  # the Horde's and the God's tables
        # which service keeps a deck's tables (the Hydra's are stored and numbered apart)
        by_kind = {service.kind: EventTables(service) for service in (hydra, self.decks)}
        self.tables_of: dict[str, EventTables] = {deck: by_kind[kind] for deck, kind in TABLE_KINDS.items()}
        self.seed_for = seed_for  # (event, table) -> the deck's seed; None = random (tests fix it)
        self._locks: dict[int, asyncio.Lock] = {}
        self._tallies: dict[tuple[str, int], ScoreTally] = {}

    def lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    # -- before the start ---------------------------------------------------------------------------
    @publishes(lambda event, **_: hydra_event_topic(event.event_id))
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        start: str,
        heads: int,
        table_size: int,
        language: str,
        grace_minutes: int = DEFAULT_GRACE_MINUTES,
        now: datetime | None = None,
        deck: str = "hydra",
    ) -> EventRow:
        """A new event of ``deck``; ``heads`` is its difficulty (the Hydra's starting heads)."""
        check_event_options(heads, table_size, deck)
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise EventError("hydra_events.error.no_name")
        starts_at = parse_start(start, now or self.clock.now())
        event_id = await self.repo.create(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            starts_at=starts_at.isoformat(),
            heads=heads,
            table_size=table_size,
            grace_minutes=grace_minutes,
            language=language,
            created_by=user_id,
            deck=deck,
        )
        return await self.event(event_id)

    async def event(self, event_id: int) -> EventRow:
        event = await self.repo.event(event_id)
        if event is None:
            raise EventError("hydra_events.error.no_event")
        return event

    async def current(self, guild_id: int, event_id: int | None = None) -> EventRow:
        """The event a command means: the one named, else the server's latest event not yet over."""
        event = await self.repo.event(event_id) if event_id else await self.repo.latest(guild_id, ACTIVE)
        if event is None or event.guild_id != guild_id:
            raise EventError("hydra_events.error.no_event")
        return event

    async def for_status(
        self, guild_id: int, channel_id: int | None, event_id: int | None = None
    ) -> EventRow:
        """The event ``/hydra event status`` means: the one named, else the one whose table plays in this
        thread, else the server's event not yet over, else the latest event of this channel, else of the
        server (a finished event still has results to show)."""
        if not event_id and channel_id is not None:
            event_id = await self.repo.event_of_thread(channel_id)
        if event_id:
            return await self.current(guild_id, event_id)
        event = (
            await self.repo.latest(guild_id, ACTIVE)
            or await self.repo.latest(guild_id, ALL_STATUSES, channel_id=channel_id)
            or await self.repo.latest(guild_id, ALL_STATUSES)
        )
        if event is None:
            raise EventError("hydra_events.error.no_event")
        return event

    async def set_messages(self, event_id: int, **ids: int | None) -> None:
        await self.repo.update(event_id, **ids)

    @publishes(_event_topic)
    async def join(self, event_id: int, members: Sequence[tuple[int, str]]) -> JoinOutcome:
        """A player alone or a group (H10: up to the table size) joins. Before the start they are
        simply entered; once tables run, they sit at a table still in its first turn with room (every
        deck: the table's own feature says whether it still takes players), or wait."""
        if len({user for user, _ in members}) != len(members):
            raise EventError("hydra_events.error.duplicate_member")
        async with self.lock(event_id):
            event = await self.event(event_id)
            if event.status not in ACTIVE:
                raise EventError("hydra_events.error.not_open")
            if len(members) > event.table_size:
                raise EventError("hydra_events.error.group_too_big", max=event.table_size)
            if event.status == OPEN:
                await self._enter(event_id, members, JOINED)
                return JoinOutcome(JOINED)
            return await self._join_late(event, members)

    async def check_may_join(self, event_id: int, members: Sequence[tuple[int, str]]) -> None:
        """What ``join`` would refuse, checked without entering anyone: before friends are asked to
        join (their answer comes later, and the inviter must hear a refusal now, not the friend then)."""
        if len({user for user, _ in members}) != len(members):
            raise EventError("hydra_events.error.duplicate_member")
        event = await self.event(event_id)
        if event.status not in ACTIVE:
            raise EventError("hydra_events.error.not_open")
        if len(members) > event.table_size:
            raise EventError("hydra_events.error.group_too_big", max=event.table_size)
        entered = {entrant.user_id for entrant in await self.repo.entrants(event_id)}
        if any(user in entered for user, _ in members):
            names = [
                name for user, name in members if user in entered
            ]  # t() joins it in the reader's language
            key = (
                "hydra_events.error.already_joined_regroup"
                if event.status == OPEN
                else "hydra_events.error.already_joined"
            )
            raise EventError(key, players=names)

    async def _enter(
        self, event_id: int, members: Sequence[tuple[int, str]], state: str, table_no: int | None = None
    ) -> None:
        try:
            await self.repo.add_group(event_id, members, state=state, table_no=table_no)
        except AlreadyEntered as already:
            names = [name for user, name in members if user in already.args[0]]
            # Before the start, whoever is in can leave and come back as one group: say so.
            key = (
                "hydra_events.error.already_joined_regroup"
                if state == JOINED and len(members) > 1
                else "hydra_events.error.already_joined"
            )
            raise EventError(key, players=names) from None

    async def _join_late(self, event: EventRow, members: Sequence[tuple[int, str]]) -> JoinOutcome:
        tables = await self.repo.tables(event.event_id)
        keeper = self.tables_of[event.deck]
        loaded = {t.table_no: await keeper.view(t.game_id) for t in tables}
        open_tables = [OpenTable(no, len(view.seats), view.in_first_turn) for no, view in loaded.items()]
        table_no = place_late_group(open_tables, len(members), event.table_size)
        if table_no is None:
            await self._enter(event.event_id, members, WAITING)
            return JoinOutcome(WAITING)
        await self._enter(event.event_id, members, SEATED, table_no)
        game_id = next(t.game_id for t in tables if t.table_no == table_no)
        try:
            table = await self._seat_at_running_table(event.deck, game_id, members, event.table_size)
        except EventError:  # the table's first turn ended meanwhile: wait instead
            await self.repo.set_state(event.event_id, [user for user, _ in members], WAITING)
            return JoinOutcome(WAITING)
        await self.repo.set_table(event.event_id, table_no, grace_checked=False)  # the newcomers' grace runs
        return JoinOutcome(SEATED, table_no, table)

    async def _seat_at_running_table(
        self, deck: str, game_id: int, members: Sequence[tuple[int, str]], table_size: int
    ) -> Any:
        """Add late players to a game still in the players' first turn (the Hydra: H3, H10)."""
        table = await self.tables_of[deck].seat_late(game_id, members, table_size)
        if table is None:
            raise EventError("hydra_events.error.table_moved_on")
        return table

    @publishes(_event_topic)
    async def leave(self, event_id: int, user_id: int) -> None:
        """Leave before being seated (joined or waiting); a seated player concedes at their table."""
        async with self.lock(event_id):
            event = await self.event(event_id)
            entrant = next((e for e in await self.repo.entrants(event_id) if e.user_id == user_id), None)
            if event.status not in ACTIVE or entrant is None:
                raise EventError("hydra_events.error.not_joined")
            if entrant.state in (SEATED, DROPPED):
                raise EventError("hydra_events.error.seated_concede")
            await self.repo.remove_entrant(event_id, user_id)

    @publishes(_event_topic)
    async def check_in(self, event_id: int, user_id: int) -> None:
        entrant = next((e for e in await self.repo.entrants(event_id) if e.user_id == user_id), None)
        if entrant is None or entrant.state != SEATED:
            raise EventError("hydra_events.error.not_seated")
        await self.repo.check_in(event_id, user_id)

    # -- the start ----------------------------------------------------------------------------------
    @publishes(_event_topic)
    async def plan(self, event_id: int) -> Seating:
        """Seat everyone who joined (balanced, groups together, H10) and store the plan."""
        async with self.lock(event_id):
            event = await self.event(event_id)
            if event.status != OPEN:
                raise EventError("hydra_events.error.already_begun")
            entrants = await self.repo.entrants(event_id)
            if not entrants:
                raise EventError("hydra_events.error.nobody_joined")
            groups: dict[int, list[int]] = {}
            for entrant in entrants:
                groups.setdefault(entrant.group_id, []).append(entrant.user_id)
            seating = seat_players(list(groups.values()), event.table_size)
            await self.repo.save_seating(event_id, seating.tables, seating.waiting)
            return seating

    @publishes(_event_topic)
    async def seat_waiting(self, event_id: int) -> Seating:
        """Once tables run, the organiser may open new tables for the wait list (same seating
        rules; a lone waiting player may play alone rather than not at all)."""
        async with self.lock(event_id):
            event = await self.event(event_id)
            if event.status != RUNNING:
                raise EventError("hydra_events.error.not_running")
            entrants = await self.repo.entrants(event_id)
            groups: dict[int, list[int]] = {}
            for entrant in entrants:
                if entrant.state == WAITING:
                    groups.setdefault(entrant.group_id, []).append(entrant.user_id)
            if not groups:
                raise EventError("hydra_events.error.nobody_waiting")
            seating = seat_players(list(groups.values()), event.table_size)
            first = max((e.table_no or 0 for e in entrants), default=0) + 1
            await self.repo.seat_at_new_tables(
                event_id, {first + i: users for i, users in enumerate(seating.tables)}
            )
            return seating

    @publishes(_event_topic)
    async def open_tables(self, event_id: int) -> list[tuple[EventTable, Any]]:
        """Create the game of every planned table that has none yet (a restart in the middle
        of seating resumes here) and return the tables still without a thread."""
        async with self.lock(event_id):
            event = await self.event(event_id)
            if event.status not in (SEATING, RUNNING):
                return []
            have = {t.table_no for t in await self.repo.tables(event_id)}
            seated: dict[int, list[Entrant]] = {}
            for entrant in await self.repo.entrants(event_id):
                if entrant.table_no is not None and entrant.state in (SEATED, DROPPED):
                    seated.setdefault(entrant.table_no, []).append(entrant)
            for table_no, players in sorted(seated.items()):
                if table_no not in have:
                    await self._create_game(event, table_no, players)
            keeper = self.tables_of[event.deck]
            return [
                (t, (await keeper.view(t.game_id)).table)
                for t in await self.repo.tables(event_id)
                if t.thread_id is None
            ]

    async def _create_game(self, event: EventRow, table_no: int, players: list[Entrant]) -> None:
        seed = self.seed_for(event.event_id, table_no) if self.seed_for else None
        game_id = await self.tables_of[event.deck].create(event, players, seed)
        await self.repo.add_table(event.event_id, table_no, game_id)

    async def attach_thread(self, event_id: int, table_no: int, thread_id: int) -> None:
        await self.repo.set_table(event_id, table_no, thread_id=thread_id)

    @publishes(_event_topic)
    async def mark_running(self, event_id: int) -> EventRow:
        event = await self.event(event_id)
        if event.status == SEATING:
            await self.repo.update(event_id, status=RUNNING)
        return await self.event(event_id)

    # -- while tables play --------------------------------------------------------------------------
    @publishes(_event_topic)
    async def drop_no_shows(self, event_id: int, table_no: int, now: datetime | None = None) -> Dropped:
        """Seated players whose own grace period (from the table's start, or from when a late joiner sat
        down) is over, and who neither acted nor checked in, concede (the bot concedes for them); the table
        goes on without them. While someone's grace still runs, ``next_due`` says when to look again."""
        table_row = next((t for t in await self.repo.tables(event_id) if t.table_no == table_no), None)
        if table_row is None or table_row.grace_checked:
            return Dropped([], None)
        event = await self.event(event_id)
        keeper = self.tables_of[event.deck]
        table = await keeper.view(table_row.game_id)
        entrants = {e.user_id: e for e in await self.repo.entrants(event_id)}
        present = {a.actor_id for a in table.actions if a.actor_id is not None}
        present |= {user for user, e in entrants.items() if e.checked_in}
        opened = datetime.fromisoformat(table_row.started_at)
        seated = [SeatedPlayer(s.user_id, _seated_at(entrants.get(s.user_id), opened)) for s in table.seats]
        check = check_no_shows(seated, present, now or self.clock.now(), event.grace_minutes)
        result: Any = None
        dropped: list[int] = []
        for seat in table.seats:
            current = await keeper.view(table_row.game_id)
            if (
                seat.user_id not in check.absent
                or current.outcome in (None, WON, LOST)
                or not current.seats[seat.seat - 1].standing
            ):
                continue
            result = await keeper.drop(table_row.game_id, seat.seat) or result
            dropped.append(seat.user_id)
        await self.repo.set_state(event_id, dropped, DROPPED, table_no)
        if check.next_due is None:
            await self.repo.set_table(event_id, table_no, grace_checked=True)
        return Dropped(dropped, result, check.next_due)

    async def status(self, event_id: int) -> EventStatus:
        event = await self.event(event_id)
        tables = await self.repo.tables(event_id)
        entrants = await self.repo.entrants(event_id)
        return EventStatus(event, entrants, tables, await self._leaderboard(event.deck, tables))

    async def _leaderboard(self, deck: str, tables: Sequence[EventTable]) -> Leaderboard:
        lines = []
        for table_row in tables:
            line = await self._table_line(deck, table_row)
            if line is not None:
                lines.append(line)
        return build_leaderboard(lines)

    async def _table_line(self, deck: str, table_row: EventTable) -> TableLine | None:
        keeper = self.tables_of[deck]
        view = await keeper.view(table_row.game_id)
        if view.outcome is None:
            return None
        tally = self._tallies.get((deck, table_row.game_id))
        if tally is None or tally.key != view.tally_key:  # a late player changes the set-up
            tally = self._tallies[(deck, table_row.game_id)] = keeper.tally(view)
        credited = tally.feed(view.actions)
        players = tuple(
            PlayerLine(
                seat.user_id, seat.name, table_row.table_no, credited.get(seat.user_id, 0), seat.standing
            )
            for seat in view.seats
        )
        return TableLine(table_row.table_no, view.outcome, view.turn, view.score, view.left, players)

    async def event_of_game(self, game_id: int, decks: Sequence[str] = ("hydra",)) -> EventRow | None:
        """The event a game of one of ``decks`` (a Hydra game; a Horde or God game) was played at, else None."""
        found = await self.repo.table_of_game(game_id, decks)
        return None if found is None else await self.repo.event(found[0])

    # -- the end ------------------------------------------------------------------------------------
    @publishes(_event_topic)
    async def finish(self, event_id: int, role_id: int | None) -> EventStatus | None:
        """Finish a running event: the standing players of every won table are its winners. The
        awards and the finish are one transaction; None when the event was not running (already
        finished, or cancelled), so nothing is awarded twice or half. (The Slayer itself was
        recorded by the Hydra feature when each table won, H13.)"""
        async with self.lock(event_id):
            status = await self.status(event_id)
            if status.event.status != RUNNING:
                return None
            winners = [(p.user_id, p.table_no) for p in status.board.winners]
            if not await self.repo.finish(event_id, winners, role_id):
                return None
            return await self.status(event_id)

    @publishes(_event_topic)
    async def cancel(self, event_id: int) -> bool:
        async with self.lock(event_id):
            return await self.repo.cancel(event_id)

    async def all_tables_over(self, event_id: int) -> bool:
        return self.tables_all_over(await self.status(event_id))

    @staticmethod
    def tables_all_over(status: EventStatus) -> bool:
        """Every planned table exists and its game has ended."""
        planned = {e.table_no for e in status.entrants if e.table_no is not None}
        return (
            status.event.status == RUNNING
            and bool(status.tables)
            and planned <= {t.table_no for t in status.tables}
            and status.board.finished
        )
