"""The one bounded pool for CPU work, so the event loop never waits on it.

Deck checks (parse, resolve, "did you mean", rules) with their wording and summary image, re-checks
after a ruleset or card data change, and image rendering (pod boards, hands, odds charts, standings,
leaderboards, Hydra boards) run here; the loop only awaits the result and keeps answering meanwhile::

    png = await bot.workers.run(render_snapshot, board)          # any picklable CPU work
    with bot.workers.heavy(user_id):                              # a user-started heavy job (deck check)
        result = await bot.workers.run(check_deck_text, data, bot.cards, ...)   # TooManyJobs / JobTimeout

**Two worker processes, not threads: measured** (``benchmarks/bench_responsiveness.py`` part 3, README
"Responsiveness"). Six checks of a 1,000-unknown-name list (with the suggestion cap of
``bot.domain.rules.deck``, ~30 ms of rules and ~50 ms of summary image each on a quiet machine) delayed a
2 ms loop probe by p99 3-22 ms in a 2-process pool, but by p99 56-265 ms in a 2-thread pool and 0.2-1 s
inline, on this shared 2-core machine. Threads lose because of the GIL: the checks are pure Python and
Pillow's text drawing holds the GIL too, and every time the loop thread waits for I/O it must win the GIL
back (the 5 ms switch interval, longer when the cores are busy), so a press that needs twenty loop turns
waits twenty times. A process has its own interpreter, and the loop keeps its GIL to itself.

How workers see the card data: they are *forked* from the bot, so they inherit the ~24k-card index (about
65 MB, shared copy-on-write) instead of loading it again; an object registered with ``share`` is passed
to a job by reference (``run(fn, bot.cards)`` sends a marker, the worker uses its inherited copy).
When a shared object's ``version`` changes (new card data), the pool is retired and the next job forks
fresh workers that see the new data; running jobs finish on the old ones. Arguments and results are
pickled (a checked deck: ~30 KB, ~1 ms). Where ``fork`` is unavailable, the pool uses threads. (Python
3.12+ warns that forking a process with threads may deadlock the child; the workers only run the pure
functions given to them and take no lock another thread could hold, and ``fork`` is asked for explicitly,
so 3.14's new default start method does not change this.)

Fairness: the pool is FIFO, and one user may hold at most ``HEAVY_PER_USER`` heavy jobs at once (more
are refused with a clear message, not queued), so nobody can fill the queue ahead of everyone else.
Every job has a time limit (``JOB_SECONDS``, queueing included): a caller that times out gets
``JobTimeout`` and must treat the work as not done (a deck is then not saved). The limit is measured on the
bot's clock (``bot.clock``), like every other wait of the bot: in production that is the loop's timer, in
tests a ``FakeClock``, so a test says when the limit has passed (``await clock.advance(seconds=30)``)
instead of shrinking it and hoping a busy machine does not reach it first.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import gc
import logging
import multiprocessing
import os
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

from bot.clock import SYSTEM_CLOCK, Clock

log = logging.getLogger(__name__)

T = TypeVar("T")

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
WORKERS = 2  # the machine the bot runs on has two cores
HEAVY_PER_USER = 2  # deck checks/registrations one person may have running at once
JOB_SECONDS = 30.0  # a job (queueing included) that takes longer than this has failed
IMAGES_IN_FLIGHT = 2 * WORKERS  # drawn images waiting for their encoding at once (``WorkPool.image_slot``)

# Objects workers inherit when they are forked, by key (``WorkPool.share``). Module-global so a forked
# worker finds them where the parent put them.
_SHARED: dict[str, Any] = {}


class JobTimeout(Exception):
    """The job did not finish within its time limit (its result, if any, is thrown away)."""


class TooManyJobs(Exception):
    """This user already has ``limit`` heavy jobs running."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"already {limit} heavy jobs running")
        self.limit = limit


class Shared:
    """A shared object sent to a worker by name: unpickled there as the worker's inherited copy."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __reduce__(self) -> tuple[Any, ...]:
        return _inherited, (self.key,)


def _inherited(key: str) -> Any:
    return _SHARED[key]


def _worker_started(bot_pid: int) -> None:
    """In each new worker: Ctrl+C in the terminal reaches the whole process group, but only the bot
    decides how to stop (it shuts the pool down); workers ignore it instead of printing tracebacks.

    SIGTERM gets its default back: a forked worker inherits the bot's asyncio handler, which only writes to
    the bot's wake-up pipe, so a worker told to stop (by a supervisor, or by a test killing a bot) never
    did and stayed behind for good. And the worker asks Linux to end it when the bot dies (even by
    SIGKILL), since nothing else would ever hand it another job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(bot_pid)


def _die_with_parent(bot_pid: int) -> None:
    """``prctl(PR_SET_PDEATHSIG, SIGTERM)`` where Linux offers it; elsewhere nothing (a no-op)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    if os.getppid() != bot_pid:  # the bot died between the fork and the prctl: nobody will ever use us
        os._exit(0)


def _call(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    return fn(*args, **kwargs)


class WorkPool:
    """A bounded worker pool with per-user limits for heavy jobs. One per bot, closed with it."""

    def __init__(
        self,
        workers: int = WORKERS,
        *,
        per_user: int = HEAVY_PER_USER,
        timeout: float = JOB_SECONDS,
        processes: bool | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.workers = workers
        self.per_user = per_user
        self.timeout = timeout
        self.clock = clock  # what the time limits are measured on (the bot's clock)
        self.processes = (
            ("fork" in multiprocessing.get_all_start_methods()) if processes is None else processes
        )
        self._executor: Executor | None = None
        self._shared: dict[int, tuple[str, Callable[[], object]]] = {}  # id(object) -> (key, version)
        self._forked_versions: dict[str, object] = {}
        self._heavy: Counter[int] = Counter()
        self.ran: Counter[str] = Counter()  # jobs submitted, by function name (tests, logs)
        self.pending = 0  # jobs submitted and not finished (the test harness waits for them to settle)
        self._images = asyncio.Semaphore(IMAGES_IN_FLIGHT)

    # -- shared objects ----------------------------------------------------------------------------

    def share(self, obj: object, version: Callable[[], object] = lambda: None) -> None:
        """Let jobs receive ``obj`` by reference: workers use the copy they inherited when forked.
        ``version()`` is compared before every job; when it changed, new workers are forked."""
        key = f"{id(self)}:{id(obj)}"
        _SHARED[key] = obj
        self._shared[id(obj)] = (key, version)

    def _pass(self, value: Any) -> Any:
        found = self._shared.get(id(value)) if self.processes else None
        return Shared(found[0]) if found is not None else value

    def _versions(self) -> dict[str, object]:
        return {key: version() for key, version in self._shared.values()}

    def _pool(self) -> Executor:
        """The executor; (re)started when a shared object changed since its workers were forked."""
        if self._executor is not None and self.processes and self._versions() != self._forked_versions:
            log.info("shared data changed: new worker processes for the next jobs")
            self._executor.shutdown(wait=False)
            self._executor = None
        if self._executor is None:
            if self.processes:
                self._forked_versions = self._versions()
                gc.freeze()  # workers then never touch (so never copy) the parent's objects when collecting
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("fork"),
                    initializer=_worker_started,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="podkeeper-work")
        return self._executor

    # -- running -----------------------------------------------------------------------------------

    async def run(
        self, fn: Callable[..., T], /, *args: Any, timeout: float | None = None, **kwargs: Any
    ) -> T:
        """``fn(*args, **kwargs)`` in a worker; raises ``JobTimeout`` after ``timeout`` seconds of the
        pool's clock (default ``self.timeout``). ``fn`` must be a module-level function and the arguments picklable (or shared).
        A job still queued when it times out never starts. A job whose worker died raises
        ``BrokenProcessPool`` (the next job gets new workers)."""
        name = getattr(fn, "__qualname__", repr(fn))
        self.ran[name] += 1
        self.pending += 1
        try:
            return await self._submit(name, fn, args, kwargs, timeout)
        finally:
            self.pending -= 1

    async def _submit(
        self,
        name: str,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        timeout: float | None,
    ) -> T:
        call = functools.partial(
            _call, fn, tuple(self._pass(a) for a in args), {k: self._pass(v) for k, v in kwargs.items()}
        )
        try:
            future = asyncio.get_running_loop().run_in_executor(self._pool(), call)
        except BrokenExecutor:  # a worker died (killed, out of memory): start afresh for this and later jobs
            log.warning("the work pool was broken (a worker died): starting new workers")
            self._executor = None
            future = asyncio.get_running_loop().run_in_executor(self._pool(), call)
        limit = self.timeout if timeout is None else timeout
        if not await self._finished_within(future, limit):
            log.warning("job %s took longer than %.1f s: given up", name, limit)
            raise JobTimeout(name)
        return future.result()

    async def _finished_within(self, future: asyncio.Future[Any], limit: float) -> bool:
        """Wait for ``future`` until ``limit`` seconds of the pool's clock have passed; False (and the
        future cancelled, so a job still queued never starts) when the limit came first. A cancelled
        caller cancels the job too: what ``asyncio.wait_for`` does, on the bot's clock, not the loop's."""
        # The deadline is read now, not when the timer task first runs: a test moving a fake clock on
        # right after submitting still moves it past this job's limit.
        timer = asyncio.ensure_future(self.clock.sleep_until(self.clock.now() + timedelta(seconds=limit)))
        try:
            done, _ = await asyncio.wait((future, timer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            if not future.done():
                future.cancel()
        return future in done

    @contextlib.contextmanager
    def heavy(self, user_id: int) -> Iterator[None]:
        """Hold one of ``user_id``'s heavy-job slots; raises ``TooManyJobs`` when all are taken."""
        if self._heavy[user_id] >= self.per_user:
            raise TooManyJobs(self.per_user)
        self._heavy[user_id] += 1
        try:
            yield
        finally:
            self._heavy[user_id] -= 1
            if self._heavy[user_id] <= 0:
                del self._heavy[user_id]

    @contextlib.asynccontextmanager
    async def image_slot(self) -> AsyncIterator[None]:
        """Hold one of ``IMAGES_IN_FLIGHT`` places for an image drawn on the loop and encoded here.

        A board's pixels are ~2 MB (Pillow keeps RGB in 4 bytes), and more while pickled for a worker; the pool encodes two at
        a time, so when a hundred Hydra tables end their turn at once, a hundred drawn boards would wait
        in its queue together (the spikes of the 100-table event's peak RSS). Drawing once a
        place is free keeps at most a few in memory and delays no board: the workers were the bottleneck."""
        async with self._images:
            yield

    def heavy_jobs(self, user_id: int) -> int:
        return self._heavy[user_id]

    def close(self) -> None:
        """Stop taking work; queued jobs are dropped, running ones finish in the background."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        for key, _ in self._shared.values():
            _SHARED.pop(key, None)
        self._shared.clear()


async def run_inline(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """The offload function for callers without a bot (the CLI): run right here."""
    return fn(*args, **kwargs)


def in_worker() -> bool:
    """True in a forked worker process (for tests)."""
    return multiprocessing.parent_process() is not None


__all__ = [
    "HEAVY_PER_USER",
    "JOB_SECONDS",
    "WORKERS",
    "JobTimeout",
    "TooManyJobs",
    "WorkPool",
    "in_worker",
    "run_inline",
]
