"""A cog's timers run only in the process that holds their kind's lease (bot.leases): with several bot
processes on one database, a timer armed where the lease is not held would fire a second time (a
question's default given twice, an event started twice). Arming there is a no-op, long-lived work is
closed unstarted, and when the process takes the lease over the same calls arm for real."""

from __future__ import annotations

import asyncio

from bot.clock import FakeClock
from cogs._timers import Timers


async def test_a_timer_armed_where_the_lease_is_not_held_never_fires() -> None:
    clock, held = FakeClock(), [False]
    fired: list[str] = []

    async def default_answer() -> None:
        fired.append("default")

    timers: Timers[int] = Timers(clock, "hydra", runs_here=lambda: held[0])
    timers.after(1, 20, default_answer)
    assert not timers.pending(1)
    await asyncio.sleep(0)
    await clock.advance(seconds=60)
    assert fired == []

    ran: list[str] = []

    async def leaderboard() -> None:
        ran.append("looked")

    work = leaderboard()
    timers.spawn(2, work)
    assert not timers.pending(2) and work.cr_frame is None and ran == []  # closed, never started

    held[0] = True  # this process took the lease over: the owner's re-arm goes through the same calls
    timers.after(1, 20, default_answer)
    assert timers.pending(1)
    await asyncio.sleep(0)  # the timer's task starts waiting on the clock
    await clock.advance(seconds=20)
    await asyncio.sleep(0)
    assert fired == ["default"] and not timers.pending(1)
