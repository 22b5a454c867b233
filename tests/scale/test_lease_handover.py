"""Leases at the moments an operator would see go wrong: a poll that moves a held lease (the timers of a
kind re-armed, or their release run, every five seconds), a lost lock session whose timers keep running
in the process that lost it, a stopped kind that still answers pokes, and a log that does not say which
kind's timers stopped. Each poll is called by hand (``check``) instead of waited for, so the order of
events between the two processes is the test's, not the machine's."""

from __future__ import annotations

import asyncio
import logging
import re

import asyncpg
import pytest

from bot.leases import (
    Leases,
    LocalLeases,
    PostgresLeases,
    keyed_timers_lease,
    leases_for,
    leases_of,
    lock_key,
)
from bot.notify import PostgresNotifier, database_namespace
from bot.storage import db as storage
from tests.scale._wait import end_sessions, until

pytestmark = pytest.mark.postgresql_only

KIND = "hydra-turns"


class Timers:
    """A kind's timers as a cog keeps them; ``gate`` (when set) holds a re-arm until it is opened."""

    def __init__(self, due: set[str] | None = None) -> None:
        self.due = set(due or ())
        self.armed: set[str] = set()
        self.rearms = 0
        self.releases = 0
        self.gate: asyncio.Event | None = None

    async def rearm(self, taking_over: bool) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.rearms += 1
        self.armed |= self.due

    def release(self) -> None:
        self.releases += 1
        self.armed.clear()


def process(dsn: str, namespace: str) -> PostgresLeases:
    """A bot process whose polls the test runs itself (the poller's own period is an hour)."""
    return PostgresLeases(dsn, namespace, PostgresNotifier(dsn, namespace), poll_seconds=3600)


async def end_session(dsn: str, leases: PostgresLeases) -> None:
    """What a network cut or a restarted server does to a process's lock session."""
    await end_sessions(dsn, [leases.backend_pid()])


async def test_polls_leave_a_held_lease_and_an_unstarted_one_alone(pg_dsn: str, namespace: str) -> None:
    leases = process(pg_dsn, namespace)
    await leases.start()
    try:
        timers, later = Timers({"turn-1"}), Timers({"vote-1"})
        lease = await leases.register(KIND, timers.rearm, timers.release)
        waiting = leases.lease("tournament-votes", later.rearm, later.release)  # a cog not loaded yet
        for _ in range(3):
            await leases.check()
            await lease.wait_rearmed()
        assert lease.held and (timers.rearms, timers.releases) == (1, 0), (
            "a poll re-armed or dropped held timers"
        )
        assert not waiting.held and later.rearms == 0, "a poll took a lease nobody started"
    finally:
        await leases.close()
    assert leases.backend_pid() is None


async def test_a_lost_session_drops_its_timers_and_the_log_names_the_kind(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = process(pg_dsn, namespace), process(pg_dsn, namespace)
    await first.start()
    await second.start()
    try:
        mine, theirs = Timers({"turn-4"}), Timers({"turn-4"})
        lease = await first.register(KIND, mine.rearm, mine.release)
        other = await second.register(KIND, theirs.rearm, theirs.release)
        assert lease.held and not other.held
        await end_session(pg_dsn, first)
        await second.check()  # the second process takes the freed lock at its poll
        await other.wait_rearmed()
        assert other.held and theirs.armed == {"turn-4"}
        with caplog.at_level(logging.WARNING, logger="bot.leases"):
            await first.check()  # the first learns at its own poll that its session is gone
        assert not lease.held and mine.armed == set() and mine.releases == 1, "the lost timers still run here"
        assert not lease.held, "the lock is the second's now"
        said = [r.getMessage() for r in caplog.records]
        assert f"lease {KIND} lost: its timers stop here (another process takes them over)" in said
        assert any(
            re.fullmatch(
                r"leases: lock connection lost \((?!None\)|%s\)).+\): giving up every lease", r.getMessage()
            )
            for r in caplog.records
        ), "the log says why the lease went"
    finally:
        await first.close()
        await second.close()


async def test_a_rearm_still_running_when_the_lease_is_lost_arms_nothing(pg_dsn: str, namespace: str) -> None:
    leases = process(pg_dsn, namespace)
    await leases.start()
    try:
        timers = Timers({"turn-1"})
        lease = await leases.register(KIND, timers.rearm, timers.release)
        timers.due.add("turn-2")  # another process stored a turn; its poke arrives here ...
        timers.gate = asyncio.Event()
        lease.poke()  # ... and the re-arm waits (for the database, say) while the session is cut
        await asyncio.sleep(0)
        await end_session(pg_dsn, leases)
        blocker = await asyncpg.connect(pg_dsn)  # someone else takes the lock before this process can
        try:
            assert await blocker.fetchval("SELECT pg_try_advisory_lock($1)", lock_key(namespace, KIND))
            await leases.check()
            timers.gate.set()
            await asyncio.sleep(0.05)
            assert not lease.held and timers.armed == set(), "a re-arm finished after the lease was lost"
        finally:
            await blocker.close()
    finally:
        await leases.close()


async def test_a_failing_release_is_logged_with_its_kind_and_the_lease_is_still_given_up(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    leases = process(pg_dsn, namespace)
    await leases.start()

    def broken_release() -> None:
        raise RuntimeError("a timer that would not cancel")

    try:
        lease = await leases.register(KIND, Timers().rearm, broken_release)
        with caplog.at_level(logging.ERROR, logger="bot.leases"):
            await leases.close()
        assert not lease.held
        [failed] = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert failed.getMessage() == f"could not stop the {KIND} timers" and failed.exc_info is not None
        assert str(failed.exc_info[1]) == "a timer that would not cancel"
    finally:
        await leases.close()


async def test_a_stopped_kind_ignores_pokes_and_unknown_kinds_break_nothing(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    owner, other = process(pg_dsn, namespace), process(pg_dsn, namespace)
    await owner.start()
    await other.start()
    try:
        stopped, live = Timers(), Timers()
        gone = await owner.register("card-sync", stopped.rearm, stopped.release)
        kept = await owner.register(KIND, live.rearm, live.release)
        gone.stop()  # the cog was unloaded
        with caplog.at_level(logging.ERROR):
            other.notifier.send("job", "card-sync")
            other.notifier.send("job", "a-kind-nobody-runs")
            other.notifier.send("job", KIND)
            await until(lambda: live.rearms == 2)
            await kept.wait_rearmed()
        assert stopped.rearms == 1, "a stopped kind was re-armed by a poke"
        assert "handler failed" not in caplog.text
    finally:
        await owner.close()
        await other.close()


async def test_a_closed_process_stops_polling(pg_dsn: str, namespace: str) -> None:
    leases = PostgresLeases(pg_dsn, namespace, PostgresNotifier(pg_dsn, namespace), poll_seconds=0.05)
    await leases.start()
    await leases.close()
    await asyncio.sleep(0.1)
    assert [t for t in asyncio.all_tasks() if t.get_name() == "leases" and not t.done()] == []


async def test_a_bot_processes_leases_follow_its_database_and_its_timers(pg_schema_url: str) -> None:
    """``leases_for`` as each bot process opens it: one holder of a kind, a non-holder that pokes the holder
    instead of arming, the change hub relayed both ways and caught up after a cut notice connection, and a
    cog's keyed timers armed on taking over and dropped when the lease goes."""
    first = await storage.Database.open(pg_schema_url)
    second = await storage.Database.open(pg_schema_url)
    # the polls are the test's own (check), never a background one racing them
    here, there = await leases_for(first, poll_seconds=3600), await leases_for(second, poll_seconds=3600)
    try:
        assert isinstance(here, PostgresLeases) and here.poll_seconds == 3600
        landed = await asyncpg.connect(pg_schema_url)
        try:  # the locks and the notices live where the bot's data does (its database and schema)
            where = await database_namespace(landed)
        finally:
            await landed.close()
        assert isinstance(here.notifier, PostgresNotifier)
        assert here.namespace == where and here.notifier.namespace == where
        held, idle = Timers({"turn-1"}), Timers()
        lease = await here.register(KIND, held.rearm, held.release)
        other = await there.register(KIND, idle.rearm, idle.release)
        assert lease.held and not other.held
        assert lease.runs_here()
        await lease.wait_rearmed()
        assert held.rearms == 1, "the holder arms at once, without a poke to itself"
        held.due.add("turn-2")  # the other process stored a turn: it pokes the holder instead of arming
        assert not other.runs_here()
        await until(lambda: held.armed == {"turn-1", "turn-2"})
        assert idle.rearms == 0

        class Cog:
            leases = here

        armed: list[bool] = []
        dropped: list[str] = []

        async def arm_all(taking_over: bool) -> None:
            armed.append(taking_over)

        keyed = keyed_timers_lease(Cog(), "tournament-votes", lambda: dropped.append("all"), arm_all)
        assert keyed.name == "tournament-votes" and here.jobs["tournament-votes"] is keyed
        await keyed.start()
        assert keyed.held and armed == [True], "taking the lease over arms every stored timer"

        with second.changes.subscribe(["pod:7"]) as page:
            first.changes.publish("pod:7")
            assert await page.wait(5.0), "a change committed here wakes the other process's pages"
        with second.changes.subscribe(["pod:8"]) as page:
            await end_notices(pg_schema_url, there)
            assert await page.wait(15.0), "after a cut notice connection every page there reads again"

        await end_session(pg_schema_url, here)
        await here.check()
        await keyed.wait_rearmed()
        # the lost lease dropped the cog's timers; nobody else wanted the kind, so this process took it
        # again on its fresh session and armed everything anew, as a take-over
        assert dropped == ["all"] and armed == [True, True] and keyed.held
    finally:
        await here.close()
        await there.close()
        await first.close()
        await second.close()


async def end_notices(dsn: str, leases: Leases) -> None:
    """Cut a process's notice connection (its LISTEN session), as a network cut would."""
    notifier = leases.notifier
    assert isinstance(notifier, PostgresNotifier) and notifier.session.connection is not None
    await end_sessions(dsn, [notifier.session.connection.get_server_pid()])


async def test_a_background_job_runs_in_one_process_and_stops_where_its_lease_goes(
    pg_dsn: str, namespace: str
) -> None:
    first, second = process(pg_dsn, namespace), process(pg_dsn, namespace)
    await first.start()
    await second.start()
    running: list[asyncio.Task[None]] = []

    async def sync_cards() -> None:
        running.append(asyncio.current_task())  # type: ignore[arg-type]
        await asyncio.Event().wait()

    try:
        await first.loop("card-sync", sync_cards)
        await until(lambda: len(running) == 1)
        assert running[0].get_name() == "job-card-sync", "a task dump names the job"
        timers = Timers()
        other = await second.register("card-sync", timers.rearm, timers.release)
        assert not other.held and timers.rearms == 0, "the job's kind is taken: it runs in one process"
        await end_session(pg_dsn, first)
        await second.check()
        assert other.held
        await first.check()
        await asyncio.sleep(0)
        assert running[0].cancelled(), "the job went on where the lease was lost"
    finally:
        await first.close()
        await second.close()


async def test_closing_one_process_leases_stops_its_background_jobs() -> None:
    leases = LocalLeases()
    started: list[asyncio.Task[None]] = []

    async def purge() -> None:
        started.append(asyncio.current_task())  # type: ignore[arg-type]
        await asyncio.Event().wait()

    await leases.loop("retention-purge", purge)
    await until(lambda: len(started) == 1)
    await leases.close()
    await asyncio.sleep(0)
    assert started[0].cancelled()


async def test_a_bot_that_takes_no_attributes_still_gets_one_process_leases() -> None:
    """A minimal stand-in bot (a test's, a script's) may not take new attributes: it gets fresh
    one-process leases each time instead of an error."""
    owner = object()
    assert isinstance(leases_of(owner), LocalLeases)


async def test_kinds_and_schemas_never_contend_for_one_lock(pg_dsn: str, namespace: str) -> None:
    """One lock per kind and per schema: two kinds are held by two processes at once, and a test schema
    (or another bot's) never waits for this one's lease."""
    first, second = process(pg_dsn, namespace), process(pg_dsn, namespace + "-other")
    third = process(pg_dsn, namespace)
    for leases in (first, second, third):
        await leases.start()
    try:
        here = await first.register(KIND, Timers().rearm)
        elsewhere = await second.register(KIND, Timers().rearm)
        other_kind = await third.register("tournament-votes", Timers().rearm)
        assert here.held and elsewhere.held and other_kind.held
    finally:
        for leases in (first, second, third):
            await leases.close()


async def test_a_failing_poll_is_logged_and_the_polls_go_on(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    leases = PostgresLeases(pg_dsn, namespace, PostgresNotifier(pg_dsn, namespace), poll_seconds=0.02)
    polls: list[int] = []

    async def check() -> None:
        polls.append(1)
        if len(polls) == 1:
            raise RuntimeError("PostgreSQL said no")

    leases.check = check  # type: ignore[method-assign]  # one poll fails, as a query on a broken link can
    with caplog.at_level(logging.ERROR, logger="bot.leases"):
        await leases.start()
        try:
            await until(lambda: len(polls) >= 3)
        finally:
            await leases.close()
    [failed] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert failed.getMessage() == "leases: poll failed" and failed.exc_info is not None
