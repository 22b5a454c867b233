"""The one bounded pool for CPU work, so the event loop never waits on it.

Deck checks (parse, resolve, "did you mean", rules), re-checks after a ruleset or card data change,
and image rendering (pod boards, deck summaries, hands, odds charts, standings, leaderboards, Hydra
boards) run here; the loop only awaits the result and keeps answering everyone else meanwhile::

    png = await bot.workers.run(render_snapshot, board)          # any CPU work
    with bot.workers.heavy(user_id):                              # a user-started heavy job (deck check)
        result = await bot.workers.run(check_deck_text, ...)      # raises TooManyJobs / JobTimeout

**Threads, not processes — measured** (``benchmarks/bench_responsiveness.py``, README "Responsiveness"):
with the suggestion work bounded (``bot.domain.rules.deck.SuggestionBudget``) a check of 1,000 unknown
names costs ~30 ms of CPU and its summary image ~50 ms. Six such jobs at once delayed a 2 ms loop probe
by up to 95 ms run inline, p99 33 ms in a 2-thread pool and p99 13 ms in a 2-process pool. The thread
figure is well inside Discord's budget (the loop gets the GIL back at least every 5 ms switch interval;
rapidfuzz, zlib and most of Pillow's drawing release it), while a process pool would need a copy of the
24k-card index in every worker (rebuilt after every card data change) and would pickle every deck
check and image back. So: two threads for two cores.

Fairness: the pool is FIFO, and one user may hold at most ``HEAVY_PER_USER`` heavy jobs at once (more
are refused with a clear message, not queued), so nobody can fill the queue ahead of everyone else.
Every job has a time limit (``JOB_SECONDS``, queueing included): a caller that times out gets
``JobTimeout`` and must treat the work as not done (a deck is then not saved).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

WORKERS = 2          # the machine the bot runs on has two cores
HEAVY_PER_USER = 2   # deck checks/registrations one person may have running or queued at once
JOB_SECONDS = 30.0   # a job (queueing included) that takes longer than this has failed


class JobTimeout(Exception):
    """The job did not finish within its time limit (its result, if any, is thrown away)."""


class TooManyJobs(Exception):
    """This user already has ``limit`` heavy jobs running."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"already {limit} heavy jobs running")
        self.limit = limit


class WorkPool:
    """A bounded thread pool with per-user limits for heavy jobs. One per bot, closed with it."""

    def __init__(self, workers: int = WORKERS, *, per_user: int = HEAVY_PER_USER,
                 timeout: float = JOB_SECONDS) -> None:
        self.workers = workers
        self.per_user = per_user
        self.timeout = timeout
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="podkeeper-work")
        self._heavy: Counter[int] = Counter()
        self.ran: Counter[str] = Counter()  # jobs run in the pool, by function name (tests, logs)

    async def run(self, fn: Callable[..., T], /, *args: Any, timeout: float | None = None, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on a pool thread; raises ``JobTimeout`` after ``timeout`` seconds
        (default ``self.timeout``). A job still queued when it times out never starts."""
        loop = asyncio.get_running_loop()
        name = getattr(fn, "__qualname__", repr(fn))
        future = loop.run_in_executor(self._executor, functools.partial(self._counted, name, fn, *args, **kwargs))
        try:
            return await asyncio.wait_for(future, self.timeout if timeout is None else timeout)
        except TimeoutError:
            log.warning("job %s took longer than %.1f s: given up", name, self.timeout if timeout is None else timeout)
            raise JobTimeout(name) from None

    def _counted(self, name: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        self.ran[name] += 1
        return fn(*args, **kwargs)

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

    def heavy_jobs(self, user_id: int) -> int:
        return self._heavy[user_id]

    def close(self) -> None:
        """Stop taking work; queued jobs are dropped, running ones finish in the background."""
        self._executor.shutdown(wait=False, cancel_futures=True)


async def run_inline(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """The offload function for callers without a bot (the CLI): run right here."""
    return fn(*args, **kwargs)


__all__ = ["HEAVY_PER_USER", "JOB_SECONDS", "WORKERS", "JobTimeout", "TooManyJobs", "WorkPool", "run_inline"]
