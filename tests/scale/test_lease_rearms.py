"""How a held lease re-arms its timers, at the moments a mistake would fire a timer twice or never: a re-arm
that failed while taking over (the retry must still finish what the previous owner left), pokes arriving
while a re-arm runs (one more run, not one per poke, not none), a poke to a background job (still one
job), a reconnected notice connection (the held kinds catch up, the others do not arm), the lock's
number itself (every version of the bot must contend for the same lock), the lock session's own connect,
and a start while PostgreSQL is out of reach (logged with its retry, polled from a named task)."""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest

from bot.leases import LocalLeases, PostgresLeases, lock_key
from bot.notify import LocalNotifier, PostgresNotifier
from tests.scale._wait import end_sessions, until

KIND = "hydra-turns"


class Rearms:
    """A kind's re-arm that records each call's ``taking_over``; ``failures`` calls raise first, and
    ``gate`` (when set) holds a call until it is opened."""

    def __init__(self, failures: int = 0) -> None:
        self.calls: list[bool] = []
        self.failures = failures
        self.gate: asyncio.Event | None = None

    async def __call__(self, taking_over: bool) -> None:
        self.calls.append(taking_over)
        if self.gate is not None:
            await self.gate.wait()
        if self.failures:
            self.failures -= 1
            raise RuntimeError("the database is away")


async def test_a_take_over_whose_rearm_failed_is_retried_as_a_take_over(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The retry after a failed take-over must still be a take-over: the cog finishes there what the
    previous owner left half done (a vote message never posted), which a plain re-arm does not."""
    leases = LocalLeases()
    rearm = Rearms(failures=1)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.leases"):
            lease = await leases.register(KIND, rearm)
        assert lease.held and lease.rearms == 0
        [failed] = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert failed.getMessage() == f"could not arm the {KIND} timers" and failed.exc_info is not None
        lease.poke()
        await lease.wait_rearmed()
        assert rearm.calls == [True, True] and lease.rearms == 1
        lease.poke()
        await lease.wait_rearmed()
        assert rearm.calls == [True, True, False], "once it succeeded, later pokes arm timers only"
    finally:
        await leases.close()


async def test_pokes_during_a_rearm_are_folded_into_one_more_rearm() -> None:
    """Something stored while the timers are being armed may have been read too early: one more re-arm
    follows, however many pokes came meanwhile."""
    leases = LocalLeases()
    rearm = Rearms()
    try:
        lease = await leases.register(KIND, rearm)
        rearm.gate = asyncio.Event()
        lease.poke()
        await asyncio.sleep(0)  # the re-arm is running, held at the gate
        assert rearm.calls == [True, False]
        for _ in range(3):
            lease.poke()
        rearm.gate.set()
        await lease.wait_rearmed()
        assert rearm.calls == [True, False, False] and lease.rearms == 3
    finally:
        await leases.close()


async def test_a_poke_to_a_running_background_job_starts_no_second_one() -> None:
    leases = LocalLeases()
    started: list[int] = []

    async def purge() -> None:
        started.append(1)
        await asyncio.Event().wait()

    try:
        lease = await leases.loop("retention-purge", purge)
        await until(lambda: started == [1])
        lease.poke()
        await lease.wait_rearmed()
        await asyncio.sleep(0.05)
        assert started == [1] and lease.rearms == 2
    finally:
        await leases.close()


def test_the_lock_numbers_are_the_same_in_every_version() -> None:
    """During a rolling update the old and the new version run side by side: a lock number computed
    differently would let both hold the same kind and fire its timers twice."""
    assert lock_key("", KIND) == 4032953182353336564
    assert lock_key("test/public", "tournament-votes") == 3976711142770536008


@pytest.mark.postgresql_only
async def test_after_a_notice_reconnect_the_held_kinds_rearm_and_the_others_do_not(
    pg_dsn: str, namespace: str
) -> None:
    """Pokes sent while a notice connection was cut are lost: the holder re-arms from the database once it
    is back (not a take-over), and a process that does not hold the kind arms nothing."""
    processes = [
        PostgresLeases(pg_dsn, namespace, PostgresNotifier(pg_dsn, namespace), poll_seconds=3600)
        for _ in range(2)
    ]
    for leases in processes:
        await leases.start()
    try:
        held, idle = Rearms(), Rearms()
        lease = await processes[0].register(KIND, held)
        other = await processes[1].register(KIND, idle)
        assert lease.held and not other.held
        notifiers = [leases.notifier for leases in processes]
        assert all(isinstance(n, PostgresNotifier) and n.session.alive for n in notifiers)
        cut = [n.session.connection.get_server_pid() for n in notifiers]  # type: ignore[attr-defined]
        await end_sessions(pg_dsn, cut)
        # both listen again on new sessions (and have resynced: nothing awaits between the two)
        await until(lambda: all(n._pid not in (None, *cut) for n in notifiers), timeout=15)  # type: ignore[attr-defined]
        await asyncio.sleep(0.05)
        await lease.wait_rearmed()
        assert held.calls == [True, False] and lease.rearms == 2
        assert idle.calls == [] and not other.held
    finally:
        for leases in processes:
            await leases.close()


def lock_session_connect(dsn: str) -> object:
    """The leases' own ``connect``: its connection is named in ``pg_stat_activity``."""
    return asyncpg.connect(dsn, server_settings={"application_name": "podkeeper-leases"})


@pytest.mark.postgresql_only
async def test_the_lock_session_connects_the_way_it_is_told(pg_dsn: str, namespace: str) -> None:
    """A ``connect`` given to the leases opens their lock session (the one whose locks the others see)."""
    leases = PostgresLeases(
        pg_dsn, namespace, LocalNotifier(), poll_seconds=3600, connect=lock_session_connect
    )
    await leases.start()
    try:
        lease = await leases.register(KIND, Rearms())
        assert lease.held
        pid = leases.backend_pid()
        admin = await asyncpg.connect(pg_dsn)
        try:
            name = await admin.fetchval("SELECT application_name FROM pg_stat_activity WHERE pid = $1", pid)
        finally:
            await admin.close()
        assert name == "podkeeper-leases"
    finally:
        await leases.close()


OUT_OF_REACH = "postgresql://nobody@127.0.0.1:1/none"  # nothing listens on port 1: refused at once


async def test_leases_out_of_reach_say_so_and_poll_in_a_task_named_for_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A process started while PostgreSQL is down logs why and when it tries again, and keeps polling
    in a task a task dump names "leases"."""
    leases = PostgresLeases(OUT_OF_REACH, "test", LocalNotifier(), poll_seconds=7)
    with caplog.at_level(logging.WARNING, logger="bot.leases"):
        await leases.start()
    try:
        [warning] = caplog.records
        error = warning.args[0]  # type: ignore[index]
        assert isinstance(error, OSError)
        assert warning.getMessage() == f"leases: cannot reach PostgreSQL ({error}); trying again in 7 s"
        assert [task for task in asyncio.all_tasks() if task.get_name() == "leases"]
        lease = await leases.register(KIND, Rearms())  # tried, not taken: nothing to try it on
        assert not lease.held and leases.backend_pid() is None
    finally:
        await leases.close()
    assert not [task for task in asyncio.all_tasks() if task.get_name() == "leases"]


@pytest.mark.postgresql_only
async def test_one_poll_after_the_lock_session_died_reconnects_and_takes_the_lease_back(
    pg_dsn: str, namespace: str
) -> None:
    """The poll that finds the lock session gone reconnects and, the lock being free, takes the kind back
    at once, as a take-over (its timers were dropped with the lease)."""
    leases = PostgresLeases(pg_dsn, namespace, LocalNotifier(), poll_seconds=3600)
    await leases.start()
    try:
        rearms = Rearms()
        lease = await leases.register(KIND, rearms)
        lost = leases.backend_pid()
        await end_sessions(pg_dsn, [lost])  # its locks are gone with it
        await leases.check()
        assert lease.held and rearms.calls == [True, True]
        assert leases.backend_pid() not in (None, lost)
    finally:
        await leases.close()


async def test_a_rearm_under_way_is_named_for_its_kind_in_a_task_dump() -> None:
    """A kind whose timers never come back is found in a task dump: its re-arm is named after it."""
    leases = LocalLeases()
    try:
        rearm = Rearms()
        lease = await leases.register(KIND, rearm)
        rearm.gate = asyncio.Event()
        lease.poke()
        [running] = [task for task in asyncio.all_tasks() if task.get_name() == f"rearm-{KIND}"]
        rearm.gate.set()
        await lease.wait_rearmed()
        assert running.done() and rearm.calls == [True, False]
    finally:
        await leases.close()


async def test_the_process_that_gains_a_kind_says_so_by_name(caplog: pytest.LogCaptureFixture) -> None:
    """An operator reading which process runs which timers finds one line per kind gained, naming it."""
    leases = LocalLeases()
    try:
        with caplog.at_level(logging.INFO, logger="bot.leases"):
            await leases.register(KIND, Rearms())
        assert [r.getMessage() for r in caplog.records if r.name == "bot.leases"] == [
            f"lease {KIND}: this process runs these timers now"
        ]
    finally:
        await leases.close()


async def test_a_kind_registered_again_replaces_the_earlier_lease_and_stops_its_loop() -> None:
    """A cog loaded again registers its kind again: the earlier lease no longer runs anything here, and a
    background loop of the earlier registration is stopped, so one job runs, not two."""
    leases = LocalLeases()
    runs: list[asyncio.Task[None] | None] = []

    async def purge() -> None:
        runs.append(asyncio.current_task())
        await asyncio.Event().wait()

    try:
        first = await leases.loop("retention-purge", purge)
        await until(lambda: len(runs) == 1)
        second = await leases.loop("retention-purge", purge)
        await until(lambda: len(runs) == 2)
        await asyncio.sleep(0)
        assert first.held is False and second.held is True
        assert leases.jobs == {"retention-purge": second}
        earlier = runs[0]
        assert earlier is not None and earlier.cancelled()
    finally:
        await leases.close()
