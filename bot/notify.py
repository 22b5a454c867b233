"""Notices between the bot processes that share one database: "the card data was swapped", "this page's
game changed", "arm the timers of this kind". A notice is a short string ``kind:rest``; it carries no data
(the receiver reads the committed state again), so a notice may be repeated or coalesced freely.

Two transports behind one interface:

- ``LocalNotifier`` (SQLite, the default): one process owns the database, so there is nobody else to tell;
  sending does nothing and nothing arrives.
- ``PostgresNotifier``: PostgreSQL's ``LISTEN``/``NOTIFY`` on one dedicated asyncpg connection per
  process. ``send`` never blocks the caller (it queues; one task sends the queue in one round trip), a
  process never hears its own notices (PostgreSQL echoes them to the sender; they are dropped by backend
  pid), and when the connection breaks it reconnects and calls every handler's ``resync``: notices sent
  while it was away are lost, so the receiver catches up by reading everything again.

The channel is named per ``namespace``: by default the database and schema the connection lands in
(``current_database()/current_schema()``: every process on one database and schema agrees, whatever
host name each one uses), so test schemas sharing one PostgreSQL database never hear each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from bot.forksafe import close_in_forked_children

log = logging.getLogger(__name__)

Handler = Callable[[str], object]
Resync = Callable[[], object]

KEEPALIVE_SECONDS = 5.0  # how soon a silently dropped connection is noticed (and resynced)
RECONNECT_SECONDS = 1.0


def channel_name(namespace: str) -> str:
    """A ``LISTEN`` channel for ``namespace``: an identifier of at most 63 bytes whatever the name."""
    digest = hashlib.sha256(namespace.encode()).hexdigest()[:16]
    return f"podkeeper_{digest}"


async def database_namespace(connection: Any) -> str:
    """Where ``connection`` landed: database and schema (the URL's ``search_path``), the same for every
    process that shares the data."""
    return str(
        await connection.fetchval("SELECT current_database() || '/' || COALESCE(current_schema(), '')")
    )


async def notify_once(dsn: str, kind: str, rest: str = "") -> None:
    """Send one notice from a process that does not listen (``podkeeper cards sync`` beside running
    bots): connect, notify, close. Failures are logged; the bots also poll for what this announces."""
    import asyncpg

    try:
        connection = await asyncpg.connect(dsn)
        try:
            channel = channel_name(await database_namespace(connection))
            await connection.execute("SELECT pg_notify($1, $2)", channel, f"{kind}:{rest}")
        finally:
            await connection.close()
    except (OSError, asyncpg.PostgresError) as error:
        log.warning("could not tell the running bots (%s); they notice within minutes anyway", error)


async def stop_task(task: asyncio.Task[Any]) -> None:
    """Cancel a background task and wait until it has stopped."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


class DedicatedSession:
    """A process's own PostgreSQL connection, outside the pool, for what lives as long as a session:
    ``LISTEN`` (the notices here) and session-level advisory locks (``bot.leases``). Both reconnect after a
    broken connection in their own rhythm; opening, dropping and closing the session is this one piece.

    The connection is closed in forked workers (``bot.forksafe``), so a killed bot's session ends with
    it; ``namespace``, when not given, is where the first connection landed (``database_namespace``)."""

    def __init__(
        self, dsn: str, namespace: str | None = None, connect: Callable[..., Any] | None = None
    ) -> None:
        self.dsn = dsn
        self.namespace = namespace
        self._connect = connect
        self.connection: Any = None

    @property
    def alive(self) -> bool:
        return self.connection is not None and not self.connection.is_closed()

    async def open(self) -> Any:
        """A new connection (raises as asyncpg does when PostgreSQL cannot be reached)."""
        import asyncpg

        self.connection = await (self._connect or asyncpg.connect)(self.dsn)
        close_in_forked_children(self.connection)
        if self.namespace is None:
            self.namespace = await database_namespace(self.connection)
        return self.connection

    def drop(self) -> None:
        """Forget a broken connection: terminated, not closed (no goodbye to a server that may be gone)."""
        if self.connection is not None:
            with contextlib.suppress(Exception):
                self.connection.terminate()
        self.connection = None

    async def close(self) -> None:
        """End the session: its listeners and locks go at once (other processes take over)."""
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close()
        self.connection = None


class Notifier:
    """Handlers per notice kind; the transport is the subclass's. Handlers run on the event loop and
    must not block (a coroutine they return is run as a task)."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[tuple[Handler, Resync | None]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def on(self, kind: str, handler: Handler, resync: Resync | None = None) -> None:
        """Call ``handler(rest)`` for each notice ``kind:rest`` from another process, and ``resync()``
        after notices may have been missed (a reconnect)."""
        if ":" in kind:
            raise ValueError(f"a notice kind has no colon: {kind!r}")
        self._handlers.setdefault(kind, []).append((handler, resync))

    def send(self, kind: str, rest: str = "") -> None:
        """Tell the other processes (never this one). Never blocks and never raises."""

    async def start(self) -> None:
        """Begin listening (after the handlers are registered)."""

    async def close(self) -> None:
        """Send what is queued, stop listening."""
        for task in list(self._tasks):
            task.cancel()

    def _dispatch(self, payload: str) -> None:
        kind, _, rest = payload.partition(":")
        for handler, _resync in self._handlers.get(kind, ()):
            self._run(handler, rest)

    def _resync_all(self) -> None:
        for handlers in self._handlers.values():
            for _handler, resync in handlers:
                if resync is not None:
                    self._run(resync)

    def _run(self, function: Callable[..., object], *args: Any) -> None:
        try:
            result = function(*args)
        except Exception:  # one bad handler must not stop the others or the listener
            log.exception("a notice handler failed")
            return
        if asyncio.iscoroutine(result):
            task = asyncio.get_running_loop().create_task(_logged(result))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


async def _logged(coroutine: Any) -> None:
    try:
        await coroutine
    except Exception:
        log.exception("a notice handler failed")


class LocalNotifier(Notifier):
    """One process, nobody else to tell (SQLite)."""


class PostgresNotifier(Notifier):
    """``LISTEN``/``NOTIFY`` on one dedicated connection (see the module's docstring)."""

    def __init__(
        self, dsn: str, namespace: str | None = None, *, connect: Callable[..., Any] | None = None
    ) -> None:
        super().__init__()
        self.session = DedicatedSession(dsn, namespace, connect)
        self.channel = ""  # known once connected (the namespace may come from the connection)
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._pid: int | None = None
        self._runner: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.received = 0  # notices from other processes (for tests and benchmarks)

    def send(self, kind: str, rest: str = "") -> None:
        self._queue.put_nowait(f"{kind}:{rest}")

    async def start(self) -> None:
        if self._runner is None:
            self._runner = asyncio.get_running_loop().create_task(self._run_forever(), name="notices")
        await self._ready.wait()

    async def close(self) -> None:
        if self._runner is not None:
            await stop_task(self._runner)
            self._runner = None
            with contextlib.suppress(Exception):  # best effort: what is queued goes out before closing
                if self.session.connection is not None and not self._queue.empty():
                    await asyncio.wait_for(self._flush(), 5)
        await self.session.close()
        await super().close()

    @property
    def namespace(self) -> str | None:
        return self.session.namespace

    async def _open(self) -> None:
        connection = await self.session.open()
        self.channel = channel_name(self.session.namespace or "")
        await connection.add_listener(self.channel, self._heard)
        self._pid = connection.get_server_pid()

    def _heard(self, _connection: Any, pid: int, _channel: str, payload: str) -> None:
        if pid == self._pid:
            return  # our own notice, echoed back
        self.received += 1
        self._dispatch(payload)

    async def _run_forever(self) -> None:
        first = True
        while True:
            try:
                await self._open()
                if not first:
                    log.warning(
                        "notices: reconnected to PostgreSQL; catching up on what may have been missed"
                    )
                    self._resync_all()
                first = False
                self._ready.set()
                await self._pump()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("notices: PostgreSQL connection lost (%s); reconnecting", error)
                self.session.drop()
                self._ready.set()  # start() must not hang while PostgreSQL is away
                await asyncio.sleep(RECONNECT_SECONDS)

    async def _pump(self) -> None:
        """Send queued notices in batches; between batches, check the connection is alive.

        ``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` swallows a cancel that
        arrives as the queue hands over a notice, so ``close`` right after a ``send`` waited forever for
        a pump that never stopped (a bot's shutdown hung)."""
        while True:
            try:
                async with asyncio.timeout(KEEPALIVE_SECONDS):
                    first = await self._queue.get()
            except TimeoutError:
                await self.session.connection.execute("SELECT 1")
                continue
            await self._flush(first)

    async def _flush(self, first: str | None = None) -> None:
        batch = [first] if first is not None else []
        while not self._queue.empty():
            batch.append(self._queue.get_nowait())
        unique = list(dict.fromkeys(batch))  # a burst of changes to one game is one notice
        try:
            await self.session.connection.execute(
                "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", self.channel, unique
            )
        except Exception:
            for payload in unique:  # sent again after the reconnect
                self._queue.put_nowait(payload)
            raise
