"""bot/clock.py: the fake clock wakes sleepers in time order, only when advanced, and never early."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.clock import SYSTEM_CLOCK, FakeClock, clock_of

START = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


async def test_sleepers_wake_in_time_order_and_only_when_due() -> None:
    clock = FakeClock(START)
    woke: list[tuple[str, datetime]] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append((name, clock.now()))

    tasks = [asyncio.create_task(sleeper(name, s)) for name, s in (("late", 90), ("early", 30), ("mid", 60))]
    await asyncio.sleep(0)
    await clock.advance(seconds=59)
    assert woke == [("early", START + timedelta(seconds=30))]  # each wakes at its own time, not at the end
    assert clock.now() == START + timedelta(seconds=59)
    await clock.advance(minutes=1)
    assert woke[1:] == [("mid", START + timedelta(seconds=60)), ("late", START + timedelta(seconds=90))]
    await asyncio.gather(*tasks)


async def test_a_sleeper_that_sleeps_again_is_woken_again_within_one_advance() -> None:
    clock = FakeClock(START)
    ticks: list[datetime] = []

    async def ticker() -> None:
        while True:
            await clock.sleep(10)
            ticks.append(clock.now())

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    await clock.advance(seconds=35)
    assert ticks == [START + timedelta(seconds=s) for s in (10, 20, 30)]
    task.cancel()


async def test_cancelled_sleepers_are_forgotten_and_past_deadlines_return_at_once() -> None:
    clock = FakeClock(START)
    task = asyncio.create_task(clock.sleep_until(START + timedelta(hours=1)))
    await asyncio.sleep(0)
    assert clock.next_wake() == START + timedelta(hours=1)
    task.cancel()
    await asyncio.sleep(0)
    assert clock.next_wake() is None
    await asyncio.wait_for(clock.sleep_until(START - timedelta(days=1)), timeout=1)
    await asyncio.wait_for(clock.sleep(-5), timeout=1)
    assert clock.now() == START  # waiting on the past moves nothing


async def test_the_system_clock_is_aware_and_the_default() -> None:
    assert SYSTEM_CLOCK.now().tzinfo is not None
    await asyncio.wait_for(SYSTEM_CLOCK.sleep_until(SYSTEM_CLOCK.now() - timedelta(seconds=5)), timeout=1)
    fake = FakeClock()

    class Bot:
        clock = fake

    assert clock_of(Bot()) is fake and clock_of(object()) is SYSTEM_CLOCK
