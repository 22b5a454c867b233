"""The one place a cog schedules work for later: a keyed timer on the bot's clock (issue 21).

A Hydra table's question takes its default after a response window, an idle table pauses, an event
starts at its hour: each is ``timers.at(key, due, job)``. The time is the bot's ``Clock``
(``bot/clock.py``), so tests move a ``FakeClock`` (``await h.advance(seconds=60)``) instead of sleeping,
and every timer goes through ``Timers._run``, the single spot where running several bot processes
would take a lease on the key before firing (the scale-out work).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from datetime import datetime, timedelta

from bot.clock import Clock

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Timers:
    """At most one pending timer per key; scheduling a key again replaces its timer."""

    def __init__(self, clock: Clock, name: str) -> None:
        self.clock, self.name = clock, name
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}

    def at(self, key: Hashable, due: datetime, job: Job) -> None:
        """Run ``job`` once the clock reads ``due`` (at once if that has passed), unless replaced or cancelled."""
        self.cancel(key)
        self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key, due, job),
                                                                  name=f"{self.name}-timer-{key}")

    def after(self, key: Hashable, seconds: float, job: Job) -> None:
        """Run ``job`` ``seconds`` from now on the clock."""
        self.at(key, self.clock.now() + timedelta(seconds=seconds), job)

    def cancel(self, key: Hashable) -> None:
        """Drop ``key``'s timer. A timer re-arming its own key from inside its job is not cancelled (it is
        finishing anyway, and cancelling it would abort the job that is re-arming)."""
        old = self._tasks.pop(key, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

    def cancel_all(self) -> None:
        for key in list(self._tasks):
            self.cancel(key)

    def pending(self, key: Hashable) -> bool:
        task = self._tasks.get(key)
        return task is not None and not task.done()

    async def _run(self, key: Hashable, due: datetime, job: Job) -> None:
        await self.clock.sleep_until(due)
        try:
            await job()
        except Exception:  # a failed job is logged; the next change re-arms the key
            log.exception("%s timer %s failed", self.name, key)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
