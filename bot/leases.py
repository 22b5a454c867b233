"""Which process runs each kind of timer or background job, when several bot processes share a database.

Every timer (Hydra turn defaults, Hydra event starts, grace drops, leaderboard refreshes, tournament vote
deadlines) and every background job (scheduled card syncs, the retention purge) belongs to a *kind*,
and each kind is owned by one process at a time through a lease:

- On SQLite (``LocalLeases``) one process owns the database, so it holds every lease at once: timers
  behave exactly as they did before leases existed.
- On PostgreSQL (``PostgresLeases``) a lease is a session-level advisory lock
  (``pg_try_advisory_lock``) taken on one dedicated connection per process. A process that dies loses
  its session and with it its locks; the others try every ``poll_seconds`` (5 s: well inside the
  30 s allowed) and the first to get the lock re-arms that kind's timers from the database.

A cog makes the lease of a kind with ``leases_of(bot).lease(name, rearm, release)`` and follows it with
``await lease.start()`` (in ``cog_load``, or ``on_ready`` for timers whose resumption talks to Discord):

- ``rearm(taking_over)`` (idempotent) arms every timer of the kind from what is stored. It runs when the
  lease is gained (start-up or take-over: ``taking_over`` is True, so the cog may also finish what the
  previous owner left half done, e.g. post a vote message it never posted) and whenever another process
  stored something that needs a timer here (``JobLease.poke``, sent as a ``job:<name>`` notice;
  ``taking_over`` False: arm timers only, the process that stored the change is still doing the rest).
- ``release()`` cancels the kind's timers when the lease is lost (the lock connection broke): another
  process may be running them by now.

A cog arms a timer only where ``lease.runs_here()`` (held; otherwise it pokes the owner, who arms it).
A lease keeps two processes from *scheduling* the same timer; what keeps a timer's effect from being
applied twice (the owner changing while one fires) is that each effect is conditional on the stored
state it changes, in the same transaction (a vote closes only while open, a grace drop only for a table
not yet checked, a default answer only at the action count it was armed for, awards once per event).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from bot.notify import DedicatedSession, LocalNotifier, Notifier, PostgresNotifier, stop_task
from bot.storage.engines import POSTGRESQL

if TYPE_CHECKING:
    from bot.storage.db import Database

log = logging.getLogger(__name__)

LEASE_POLL_SECONDS = 5.0
Rearm = Callable[[bool], Awaitable[object]]
Release = Callable[[], object]


class JobLease:
    """One kind of timers: whether this process runs them, and how to (re)arm or drop them."""

    def __init__(self, leases: Leases, name: str, rearm: Rearm, release: Release | None) -> None:
        self.leases = leases
        self.name = name
        self.held = False
        self.started = False  # followed (tried now and at every poll) once started
        self._rearm = rearm
        self._release = release
        self._again = False  # pragma: no mutate (never read before _rearm_loop sets it)
        self._taking_over = False  # pragma: no mutate (read once held, and _gained sets it first)
        self._running: asyncio.Task[None] | None = None
        self.rearms = 0  # how often the timers were armed from the database (tests, benchmarks)

    async def start(self) -> None:
        """Try to take the lease now (``rearm`` has run before this returns when it was taken), and
        keep trying while another process holds it."""
        self.started = True
        if not self.held:
            await self.leases._try(self)

    def stop(self) -> None:
        """Stop following the lease (a cog unloaded): its timers are the cog's to cancel."""
        self.leases.forget(self.name)

    def runs_here(self) -> bool:
        """Whether this process arms this kind's timers; when not, the owner is poked to arm what was
        just stored."""
        if not self.held:
            self.poke()
        return self.held

    def poke(self) -> None:
        """Something stored needs a timer of this kind: arm it here when held, else tell the owner."""
        if self.held:
            self.request_rearm()
        else:
            self.leases.notifier.send("job", self.name)

    def request_rearm(self) -> None:
        """Run ``rearm`` soon; requests while it runs are folded into one more run."""
        if self._running is not None and not self._running.done():
            self._again = True
            return
        self._running = asyncio.get_running_loop().create_task(self._rearm_loop(), name=f"rearm-{self.name}")

    async def wait_rearmed(self) -> None:
        """Until a requested re-arm has finished (tests)."""
        while self._running is not None and not self._running.done():
            await asyncio.shield(self._running)

    async def _rearm_loop(self) -> None:
        while True:
            self._again = False
            if not self.held:
                return
            taking_over, self._taking_over = self._taking_over, False
            try:
                await self._rearm(taking_over)
                self.rearms += 1
            except Exception:  # the next poke or take-over tries again
                self._taking_over = taking_over
                log.exception("could not arm the %s timers", self.name)
            if not self._again:
                return

    async def _gained(self) -> None:
        self.held = True
        self._taking_over = True
        log.info("lease %s: this process runs these timers now", self.name)
        self.request_rearm()
        await self.wait_rearmed()

    def _lost(self) -> None:
        if not self.held:
            return
        self.held = False
        log.warning("lease %s lost: its timers stop here (another process takes them over)", self.name)
        if self._running is not None:
            self._running.cancel()
        if self._release is not None:
            try:
                self._release()
            except Exception:
                log.exception("could not stop the %s timers", self.name)


class Leases:
    """The leases of this process, by kind; ``LocalLeases`` or ``PostgresLeases``."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        self.jobs: dict[str, JobLease] = {}
        notifier.on("job", self._poked, resync=self._resync)

    def lease(self, name: str, rearm: Rearm, release: Release | None = None) -> JobLease:
        """The lease of kind ``name``, not yet tried (``JobLease.start``)."""
        self.forget(name)  # a cog loaded again replaces its earlier registration
        lease = JobLease(self, name, rearm, release)
        self.jobs[name] = lease
        return lease

    async def register(self, name: str, rearm: Rearm, release: Release | None = None) -> JobLease:
        """``lease`` and ``start``: when this process gets it, ``rearm`` has run before this returns (so
        a cog's timers are armed by the end of its ``cog_load``, as without leases)."""
        lease = self.lease(name, rearm, release)
        await lease.start()
        return lease

    async def loop(self, name: str, job: Callable[[], Coroutine[Any, Any, None]]) -> JobLease:
        """A background loop (``job`` runs until cancelled) that runs in one process only: started
        when the lease is gained, cancelled when it is lost."""
        task: asyncio.Task[None] | None = None

        async def start(_taking_over: bool) -> None:
            nonlocal task
            if task is None or task.done():
                task = asyncio.get_running_loop().create_task(job(), name=f"job-{name}")

        def stop() -> None:
            if task is not None:
                task.cancel()

        lease = await self.register(name, start, stop)
        lease._release_loop = stop  # type: ignore[attr-defined]  # close() stops it too
        return lease

    def forget(self, name: str) -> None:
        """Stop following ``name``."""
        lease = self.jobs.pop(name, None)
        if lease is not None:
            lease.held = False
            if lease._running is not None:
                lease._running.cancel()
            stop = getattr(lease, "_release_loop", None)
            if stop is not None:
                stop()

    async def start(self) -> None:
        await self.notifier.start()

    async def close(self) -> None:
        for name in list(self.jobs):
            self.forget(name)
        await self.notifier.close()

    async def _try(self, lease: JobLease) -> None:
        await lease._gained()

    def _poked(self, name: str) -> None:
        lease = self.jobs.get(name)
        if lease is not None and lease.held:
            lease.request_rearm()

    def _resync(self) -> None:
        """Pokes may have been missed: every held kind re-arms from the database."""
        for lease in self.jobs.values():
            if lease.held:
                lease.request_rearm()


class LocalLeases(Leases):
    """SQLite: one process owns the database and so every lease."""

    def __init__(self, notifier: Notifier | None = None) -> None:
        super().__init__(notifier or LocalNotifier())


def lock_key(namespace: str, name: str) -> int:
    """The advisory lock of lease ``name``: a signed 64-bit number from the namespace (the schema, so
    test schemas in one database never contend) and the name."""
    digest = hashlib.sha256(f"podkeeper\0{namespace}\0{name}".encode()).digest()
    return int.from_bytes(
        digest[:8],
        "big",  # pragma: no mutate (the default byte order since Python 3.11, the oldest supported)
        signed=True,
    )


class PostgresLeases(Leases):
    """Session-level advisory locks on one dedicated connection (see the module's docstring)."""

    def __init__(
        self,
        dsn: str,
        namespace: str | None,
        notifier: Notifier,
        *,
        poll_seconds: float = LEASE_POLL_SECONDS,
        connect: Callable[..., Any] | None = None,
    ) -> None:
        super().__init__(notifier)
        self.session = DedicatedSession(dsn, namespace, connect)  # the locks live on this session
        self.poll_seconds = poll_seconds
        self._lock = asyncio.Lock()  # one query at a time on the lock connection
        self._poller: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await super().start()
        await self._ensure_connection()
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll(), name="leases")

    async def close(self) -> None:
        if self._poller is not None:
            await stop_task(self._poller)
            self._poller = None
        for lease in self.jobs.values():
            lease._lost()
        await super().close()
        await self.session.close()  # the locks go at once: others take over

    @property
    def namespace(self) -> str | None:
        return self.session.namespace

    async def _ensure_connection(self) -> bool:
        if self.session.alive:
            return True
        import asyncpg

        try:
            await self.session.open()
        except (OSError, asyncpg.PostgresError) as error:
            log.warning(
                "leases: cannot reach PostgreSQL (%s); trying again in %.0f s", error, self.poll_seconds
            )
            self.session.drop()
            return False
        return True

    async def _try(self, lease: JobLease) -> None:
        if not await self._ensure_connection():
            return
        async with self._lock:
            got = await self.session.connection.fetchval(
                "SELECT pg_try_advisory_lock($1)", lock_key(self.session.namespace or "", lease.name)
            )
        if got:
            await lease._gained()

    async def _poll(self) -> None:
        """Notice a broken lock connection (its locks are gone: stop those timers), and try to take
        every lease this process does not hold."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("leases: poll failed")

    async def check(self) -> None:
        """One poll (also called by tests instead of waiting for it)."""
        if self.session.connection is not None:
            try:
                async with self._lock:
                    await self.session.connection.fetchval("SELECT 1")
            except Exception as error:
                log.warning("leases: lock connection lost (%s): giving up every lease", error)
                self.session.drop()
                for lease in self.jobs.values():
                    lease._lost()
        for lease in list(self.jobs.values()):
            if lease.started and not lease.held:
                await self._try(lease)

    def backend_pid(self) -> int | None:
        """The lock session's server pid (tests end it to simulate a lost connection)."""
        connection = self.session.connection
        return None if connection is None else int(connection.get_server_pid())


def leases_of(owner: object) -> Leases:
    """The leases a bot carries as ``.leases``; a bot built without them (a test's minimal bot) gets
    one-process leases, kept on it so its cogs share them."""
    leases = getattr(owner, "leases", None)
    if leases is None:
        leases = LocalLeases()
        with contextlib.suppress(AttributeError):
            owner.leases = leases  # type: ignore[attr-defined]
    return leases  # type: ignore[no-any-return]


async def leases_for(db: Database, *, poll_seconds: float = LEASE_POLL_SECONDS) -> Leases:
    """The leases (and notices) of a bot process on ``db``, started: one-process ones on SQLite; on
    PostgreSQL advisory locks and LISTEN/NOTIFY on two dedicated connections, with the database's change
    hub relayed to and from the other processes (a live page served here follows changes made there)."""
    if db.engine != POSTGRESQL:
        return LocalLeases()
    notifier = PostgresNotifier(db.url)
    leases = PostgresLeases(db.url, None, notifier, poll_seconds=poll_seconds)
    hub = db.changes
    hub.relay = lambda topic: notifier.send("change", topic)
    notifier.on("change", hub.deliver, resync=hub.deliver_all)
    await leases.start()
    return leases


def keyed_timers_lease(
    owner: object, name: str, drop_all: Callable[[], None], arm_all: Callable[[bool], Awaitable[object]]
) -> JobLease:
    """The common shape: a cog keeps its timers by key (a table, a game) and can arm them all from what
    is stored (``arm_all(taking_over)``, idempotent); losing the lease drops them all (``drop_all``)."""

    async def rearm(taking_over: bool) -> None:
        await arm_all(taking_over)

    return leases_of(owner).lease(name, rearm, drop_all)
