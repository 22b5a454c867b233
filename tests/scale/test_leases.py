"""Leases: each kind of timer runs in one process at a time, and another takes over when it dies.

Two ``PostgresLeases`` on separate connections stand for two bot processes; ending one's lock session
(``pg_terminate_backend``, what a killed process's session amounts to) hands the lease to the other at
its next poll."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass

import asyncpg
import pytest

from bot.leases import JobLease, LocalLeases, PostgresLeases, leases_of, lock_key
from bot.notify import PostgresNotifier
from tests.scale._wait import end_sessions, until

pytestmark = pytest.mark.postgresql_only


class Timers:
    """A kind's timers as a cog keeps them: armed from "the database" (``due``), dropped on release."""

    def __init__(self) -> None:
        self.armed: set[str] = set()
        self.due: set[str] = set()
        self.rearms = 0
        self.takeovers = 0

    async def rearm(self, taking_over: bool) -> None:
        self.rearms += 1
        self.takeovers += taking_over
        self.armed |= self.due

    def release(self) -> None:
        self.armed.clear()


def process(dsn: str, namespace: str) -> PostgresLeases:
    return PostgresLeases(dsn, namespace, PostgresNotifier(dsn, namespace), poll_seconds=0.2)


@dataclass
class Contender:
    """One bot process competing for a kind of timer: its leases, its lease of the kind and its timers."""

    leases: PostgresLeases
    lease: JobLease
    timers: Timers


@contextlib.asynccontextmanager
async def contenders(
    dsn: str, namespace: str, kind: str, due: Iterable[str] = ()
) -> AsyncIterator[tuple[Contender, Contender]]:
    """Two processes on separate connections registering ``kind`` in turn (the first gets it), each with
    timers that ``due`` says are stored; both closed after."""
    started = [process(dsn, namespace), process(dsn, namespace)]
    for leases in started:
        await leases.start()
    try:
        pair = []
        for leases in started:
            timers = Timers()
            timers.due = set(due)
            pair.append(Contender(leases, await leases.register(kind, timers.rearm, timers.release), timers))
        yield pair[0], pair[1]
    finally:
        for leases in started:
            await leases.close()


async def test_one_process_holds_a_kind_and_the_other_takes_over_when_it_dies(
    pg_dsn: str, namespace: str
) -> None:
    async with contenders(pg_dsn, namespace, "tournament-votes", due={"vote-1"}) as (first, second):
        assert first.lease.held and not second.lease.held
        assert first.timers.armed == {"vote-1"} and second.timers.armed == set()
        await asyncio.sleep(0.6)  # polls do not move a held lease
        assert first.lease.held and not second.lease.held

        assert first.leases._poller is not None
        first.leases._poller.cancel()  # the first process dies: no more polls, and its session ends
        first.leases.session.connection.terminate()
        await until(lambda: second.lease.held)
        await second.lease.wait_rearmed()
        assert second.timers.armed == {"vote-1"}, "the new owner arms the kind's timers from the database"


async def test_a_lost_lock_connection_stops_the_timers_and_one_process_owns_them_after(
    pg_dsn: str, namespace: str
) -> None:
    async with contenders(pg_dsn, namespace, "hydra-turns", due={"turn-4"}) as (first, second):
        rearms_before = first.timers.rearms
        # the first process lives on, but its lock session is gone (a network cut, a restarted server)
        await end_sessions(pg_dsn, [first.leases.backend_pid()])
        # The first process learns that its session is gone only when its connection says so, which on a
        # busy machine may be after the second took the lock: wait until exactly one holds the kind (the
        # effects of a timer are guarded by the stored state, so that moment of overlap applies nothing
        # twice), and until the winner armed its timers (holding comes a moment before arming).
        await until(
            lambda: (
                first.lease.held != second.lease.held
                and (second.lease.held or first.timers.rearms > rearms_before)
            )
        )
        winner = first if first.lease.held else second
        await winner.lease.wait_rearmed()
        for _ in range(5):  # from then on: one owner, never both
            assert first.lease.held != second.lease.held
            assert (first.timers.armed, second.timers.armed) in (({"turn-4"}, set()), (set(), {"turn-4"}))
            await asyncio.sleep(0.25)


async def test_a_poke_makes_the_owner_arm_what_another_process_stored(pg_dsn: str, namespace: str) -> None:
    async with contenders(pg_dsn, namespace, "hydra-events") as (owner, other):
        assert owner.lease.held and not other.lease.held
        owner.timers.due.add("event-3-start")  # the other process stored an event that needs a start timer
        other.lease.poke()
        await until(lambda: "event-3-start" in owner.timers.armed)
        assert other.timers.armed == set()


async def test_a_graceful_close_hands_over_at_the_next_poll(pg_dsn: str, namespace: str) -> None:
    old, new = process(pg_dsn, namespace), process(pg_dsn, namespace)
    await old.start()
    await new.start()
    ran: list[str] = []

    async def job(name: str) -> None:
        ran.append(name)
        await asyncio.Event().wait()

    try:
        await old.loop("card-sync", lambda: job("old"))
        lease = await new.loop("card-sync", lambda: job("new"))
        await until(lambda: ran == ["old"])
        await old.close()  # a rolling update stops the old version
        await until(lambda: lease.held)
        await until(lambda: ran == ["old", "new"])
    finally:
        await new.close()


async def test_lock_keys_differ_per_namespace_and_name() -> None:
    keys = {lock_key(ns, name) for ns in ("a", "b") for name in ("hydra-turns", "tournament-votes")}
    assert len(keys) == 4 and all(-(2**63) <= key < 2**63 for key in keys)


async def test_one_process_holds_every_lease_at_once() -> None:
    leases = LocalLeases()
    timers = Timers()
    timers.due = {"t"}
    lease = await leases.register("hydra-turns", timers.rearm, timers.release)
    assert lease.held and timers.armed == {"t"}
    lease.poke()
    await lease.wait_rearmed()
    assert (timers.rearms, timers.takeovers) == (2, 1), "a poke arms timers only"
    await leases.close()
    assert not lease.held


async def test_a_bot_without_leases_gets_one_process_leases_kept_on_it() -> None:
    class Bot:
        pass

    bot = Bot()
    assert leases_of(bot) is leases_of(bot)
    assert isinstance(leases_of(bot), LocalLeases)


HOLDER = """
import asyncio, os, sys, time
from bot.leases import PostgresLeases
from bot.notify import PostgresNotifier

async def main(dsn, namespace):
    leases = PostgresLeases(dsn, namespace, PostgresNotifier(dsn, namespace))
    await leases.start()
    lease = await leases.register("hydra-events", lambda taking_over: asyncio.sleep(0))
    assert lease.held
    child = os.fork()  # a work-pool worker, forked after the lock connection was opened
    if child == 0:
        os.close(1)  # not the test's pipe: asyncio's wait() for the killed holder would wait for it to close
        time.sleep(60)
        os._exit(0)
    print(child, leases.backend_pid(), flush=True)
    await asyncio.sleep(60)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


async def test_a_killed_holder_loses_its_leases_even_with_forked_workers_alive(
    pg_dsn: str, namespace: str
) -> None:
    """Forked workers inherit the lock connection's socket; unless they close their copy, the session
    outlives the killed bot and nobody can take its timers over (bot.forksafe)."""
    import os
    import signal
    import sys

    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, pg_dsn, namespace, stdout=asyncio.subprocess.PIPE
    )
    assert holder.stdout is not None
    worker, session = (int(n) for n in (await asyncio.wait_for(holder.stdout.readline(), 30)).split())
    successor = process(pg_dsn, namespace)
    await successor.start()
    try:
        lease = await successor.register("hydra-events", Timers().rearm)
        assert not lease.held
        holder.send_signal(signal.SIGKILL)
        await holder.wait()
        await until(lambda: lease.held, timeout=10)
        admin = await asyncpg.connect(pg_dsn)
        try:
            assert (
                await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", session) == 0
            ), "the killed bot's lock session ended although its forked worker lives on"
        finally:
            await admin.close()
    finally:
        await successor.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)
