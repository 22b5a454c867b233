"""The one place a cog schedules work for later: a keyed timer on the bot's clock.

A Hydra table's question takes its default after a response window, an idle table pauses, an event
starts at its hour: each is ``timers.at(key, due, job)``. The time is the bot's ``Clock``
(``bot/clock.py``), so tests move a ``FakeClock`` (``await h.advance(seconds=60)``) instead of sleeping,
and every timer goes through ``Timers._run``, the single spot where running several bot processes
would take a lease on the key before firing (the scale-out work).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from datetime import datetime, timedelta
from typing import Any, Generic, Protocol, TypeVar

from bot.clock import Clock
from bot.i18n import context_for_everyone

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
K = TypeVar("K", bound=Hashable)  # what a timer is keyed by: a table id, (what, event, table)


def sane_due(due: datetime, armed: datetime, now: datetime, what: str) -> datetime:
    """When to fire a stored deadline that was set at ``armed``: ``due``, unless the clock now reads a time
    from which ``due`` is further away than the whole wait ever was (``due - armed``). Then the clock
    jumped back since the deadline was set (a Raspberry Pi starts a day behind until NTP answers), and
    waiting for ``due`` would fire far too late: wait the whole length from now instead, and say so."""
    longest = due - armed
    if due - now <= longest or longest < timedelta(0):
        return due
    log.warning(
        "%s: the clock reads %s, %s before the deadline was set (%s); the clock jumped back? "
        "waiting the deadline's full length (%s) from now instead of until %s",
        what,
        now.isoformat(timespec="seconds"),
        armed - now,
        armed.isoformat(timespec="seconds"),
        longest,
        due.isoformat(timespec="seconds"),
    )
    return now + longest


class Timers(Generic[K]):
    """At most one pending timer per key; scheduling a key again replaces its timer."""

    def __init__(self, clock: Clock, name: str, runs_here: Callable[[], bool] = lambda: True) -> None:
        """``runs_here``: whether this process runs these timers now (``bot.leases``: with several bot
        processes on one database one holds each kind); when it doesn't, arming is a no-op, as the
        holder arms the same timers from the database."""
        self.clock, self.name, self.runs_here = clock, name, runs_here
        self._tasks: dict[K, asyncio.Task[None]] = {}

    def at(self, key: K, due: datetime, job: Job, *, armed: datetime | None = None) -> None:
        """Run ``job`` once the clock reads ``due`` (at once if that has passed), unless replaced or cancelled.
        ``armed``, when the deadline was set (stored beside it), lets a re-arm after a restart notice a
        clock that jumped back (``sane_due``)."""
        if armed is not None:
            due = sane_due(due, armed, self.clock.now(), f"{self.name} timer {key}")
        self.cancel(key)
        if not self.runs_here():
            return
        self._tasks[key] = asyncio.get_running_loop().create_task(
            self._run(key, due, job), name=f"{self.name}-timer-{key}", context=context_for_everyone()
        )

    def after(self, key: K, seconds: float, job: Job) -> None:
        """Run ``job`` ``seconds`` from now on the clock."""
        self.at(key, self.clock.now() + timedelta(seconds=seconds), job)

    def spawn(self, key: K, work: Awaitable[None]) -> None:
        """Run long-lived keyed work now (a live leaderboard that waits on the clock between looks, a
        resumed start): kept, replaced and cancelled like a timer."""
        self.cancel(key)
        if not self.runs_here():
            if inspect.iscoroutine(work):
                work.close()  # never awaited: closed so Python doesn't warn about it
            return
        self._tasks[key] = asyncio.get_running_loop().create_task(
            self._keep(key, work), name=f"{self.name}-work-{key}", context=context_for_everyone()
        )

    def cancel(self, key: K) -> None:
        """Drop ``key``'s timer. A timer re-arming its own key from inside its job is not cancelled (it is
        finishing anyway, and cancelling it would abort the job that is re-arming)."""
        old = self._tasks.pop(key, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

    def cancel_where(self, chosen: Callable[[K], bool]) -> None:
        """Drop every timer whose key is ``chosen`` (an event's timers when it ends)."""
        for key in [key for key in self._tasks if chosen(key)]:
            self.cancel(key)

    def cancel_all(self) -> None:
        self.cancel_where(lambda _: True)

    def pending(self, key: K) -> bool:
        task = self._tasks.get(key)
        return task is not None and not task.done()

    def task(self, key: K) -> asyncio.Task[None] | None:
        """``key``'s pending task, if any (tests check a timer was kept rather than re-armed)."""
        return self._tasks.get(key)

    async def _run(self, key: K, due: datetime, job: Job) -> None:
        await self.clock.sleep_until(due)
        await self._keep(key, job())

    async def _keep(self, key: K, work: Awaitable[None]) -> None:
        try:
            await work
        except Exception:  # a failed job is logged; the next change re-arms the key
            log.exception("%s timer %s failed", self.name, key)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]


class _OpenTables(Protocol):
    async def open_tables(self) -> Sequence[Any]: ...


class TableTimers:
    """The turn timers of a cog that runs challenge tables (the Hydra's, the Horde's, the God's): one timer
    per table, keyed by its game id. The cog says what a table's timer is (``arm``); arming every open table
    when this process takes the turn lease, or is poked, and letting a due default finish are shared here."""

    service: _OpenTables
    timers: Timers[int]
    armed_at: dict[int, int]  # table -> its action count when its timer was armed

    def arm(self, table: Any) -> None:
        """Arm (or cancel) ``table``'s one timer from its stored state (the cog's)."""
        raise NotImplementedError

    async def arm_open_tables(self, taking_over: bool = True) -> None:
        """Arm every open table's timer. A poke (another process acted at some table) leaves alone the
        timers still armed for their table's current action: re-arming would restart their wait."""
        for table in await self.service.open_tables():
            if taking_over:
                self.arm(table)
            else:
                self.keep_or_arm(table)

    def keep_or_arm(self, table: Any) -> None:
        """Arm ``table``'s timer unless it is still armed for its current action: a poke, or a board
        redrawn without an action (a restart's reconcile pass), must not restart a question's wait."""
        if self.timers.pending(table.game_id) and self.armed_at.get(table.game_id) == len(table.actions):
            return
        self.arm(table)

    def arm_default(self, game_id: int, seconds: float, default: Job) -> None:
        """Run ``default`` (store the pending question's default answer, then show it) ``seconds`` from
        now. Once due it runs to its end: a re-arm meanwhile (a poke, a restart's reconcile pass) must not
        cut it off between storing and showing, which would leave the table's messages an answer behind."""
        self.timers.after(game_id, seconds, lambda: asyncio.shield(default()))
