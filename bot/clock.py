"""One source of time for everything that waits: vote deadlines, Hydra event starts, grace periods,
leaderboard ticks.

Code that schedules asks a ``Clock`` for ``now()`` and sleeps with ``sleep``/``sleep_until`` instead of
calling ``datetime.now`` and ``asyncio.sleep`` itself, so tests swap in a ``FakeClock`` and move time
forward (``await clock.advance(minutes=5)``) instead of sleeping, shrinking timers or polling. The bot
owns one clock (``PodkeeperBot.clock``, found by ``clock_of(bot)``); the Discord test harness gives it a
``FakeClock``. (Leases for running the bot in several processes would take their time from here too.)
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return after ``seconds`` of this clock's time (at once for zero or less)."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Return once this clock reads ``when`` or later (at once if that has passed)."""
        ...


class SystemClock:
    """The wall clock and the event loop's timers."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def sleep_until(self, when: datetime) -> None:
        await asyncio.sleep(max(0.0, (when - self.now()).total_seconds()))


SYSTEM_CLOCK = SystemClock()


def clock_of(owner: object) -> Clock:
    """The clock an object (the bot) carries as ``.clock``, else the system clock: cogs loaded by a bot
    built without one (a test's minimal bot) still work."""
    clock = getattr(owner, "clock", None)
    return clock if clock is not None else SYSTEM_CLOCK


def iso_clock(clock: Clock) -> Callable[[], str]:
    """``clock``'s time as the ISO text (whole seconds, UTC) the event logs store: what services that
    stamp events take (``PodService(clock=...)``), so the stamps follow the bot's clock too."""
    return lambda: clock.now().isoformat(timespec="seconds")


class FakeClock:
    """A clock that moves only when told: ``advance`` wakes, in time order, every sleeper that falls due.

    It starts at the real current time (whole seconds) unless given ``start``, so timestamps written by
    code that does not use a clock yet stay close to it.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC).replace(microsecond=0)
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> datetime:
        return self._now

    async def sleep(self, seconds: float) -> None:
        await self.sleep_until(self._now + timedelta(seconds=max(0.0, seconds)))

    async def sleep_until(self, when: datetime) -> None:
        if when <= self._now:
            await asyncio.sleep(0)  # still a suspension point, like asyncio.sleep(0)
            return
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), wake))
        await _parked(wake)

    def next_wake(self) -> datetime | None:
        """When the earliest sleeper wakes (None when nobody sleeps)."""
        self._drop_cancelled()
        return self._sleepers[0][0] if self._sleepers else None

    async def advance(self, seconds: float = 0.0, **delta: float) -> None:
        """Move time forward by ``seconds`` plus ``timedelta(**delta)``, waking sleepers one due time at a
        time: each woken task runs up to its next suspension before time moves on (work that waits on
        I/O keeps running afterwards: the harness's ``settle`` waits for it)."""
        target = self._now + timedelta(seconds=seconds, **delta)
        while (due := self.next_wake()) is not None and due <= target:
            self._now = max(self._now, due)
            while self._sleepers and self._sleepers[0][0] <= self._now:
                wake = heapq.heappop(self._sleepers)[2]
                if not wake.done():
                    wake.set_result(None)
            for _ in range(5):  # let the woken tasks run (and perhaps sleep again) before moving on
                await asyncio.sleep(0)
        self._now = max(self._now, target)

    def jump(self, seconds: float = 0.0, **delta: float) -> None:
        """Set the clock by ``seconds`` plus ``timedelta(**delta)`` (negative: back), as a wall clock
        corrected by NTP or set wrong at boot does; unlike ``advance`` nobody is woken on the way."""
        self._now += timedelta(seconds=seconds, **delta)

    def _drop_cancelled(self) -> None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)


async def _parked(wake: asyncio.Future[None]) -> None:
    """Where a task waits on a ``FakeClock`` (the test harness recognises this frame as "a timer that is
    not due": fake time does not pass by itself)."""
    await wake


PARKED_CODE = _parked.__code__
