"""The work pool (bot.workers): jobs run in forked worker processes, shared objects arrive by reference
and are re-forked when they change, time limits, dead workers, and the per-user limit on heavy jobs."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.domain.decklist import DecklistRefused
from bot.workers import JobTimeout, TooManyJobs, WorkPool, in_worker


def where() -> tuple[int, bool]:
    return os.getpid(), in_worker()


def read_shared(box: Box) -> str:
    return box.value


def wait_for(path: str, limit: float = 10.0) -> str:
    ends = time.monotonic() + limit
    while not os.path.exists(path) and time.monotonic() < ends:
        time.sleep(0.01)
    return "released"


def die() -> None:
    os._exit(70)


class Box:
    """Not picklable (it holds a lock): it can only reach a worker as a shared object."""

    def __init__(self, value: str) -> None:
        self.value = value
        self.lock = threading.Lock()
        self.version = 1


@pytest.fixture
async def pool():
    workers = WorkPool(timeout=10)
    yield workers
    workers.close()


async def test_jobs_run_in_worker_processes_not_on_the_loop(pool: WorkPool) -> None:
    pid, in_child = await pool.run(where)
    assert in_child and pid != os.getpid()
    assert pool.ran["where"] == 1


async def test_shared_objects_reach_workers_by_reference_and_new_versions_fork_new_workers(
    pool: WorkPool,
) -> None:
    box = Box("first")
    with pytest.raises(TypeError):
        pickle.dumps(box)
    pool.share(box, version=lambda: box.version)
    assert await pool.run(read_shared, box) == "first"
    box.value = "second"  # forked workers keep the copy they inherited ...
    assert await pool.run(read_shared, box) == "first"
    box.version = 2  # ... until the object says it changed: then new workers see it
    assert await pool.run(read_shared, box) == "second"


async def test_a_job_over_its_time_limit_raises_job_timeout(pool: WorkPool, tmp_path: Path) -> None:
    gate = tmp_path / "go"
    with pytest.raises(JobTimeout):
        await pool.run(wait_for, str(gate), timeout=0.2)
    gate.touch()


def touch(path: str) -> None:
    Path(path).touch()


async def test_the_time_limit_runs_on_the_pools_clock_and_a_job_that_missed_it_never_starts(
    tmp_path: Path,
) -> None:
    """The bot hands its clock to the pool, so a test's fake clock (not the machine's speed) decides when a
    job has taken too long; a job given up while still queued is never run afterwards."""
    clock = FakeClock()
    pool = WorkPool(workers=1, processes=False, clock=clock)
    gate, ran = tmp_path / "go", tmp_path / "ran"
    try:
        holder = asyncio.create_task(pool.run(wait_for, str(gate), timeout=3600))
        queued = asyncio.create_task(pool.run(touch, str(ran), timeout=30))
        for _ in range(3):  # both tasks start and submit their jobs: their limits count from here
            await asyncio.sleep(0)
        assert pool.pending == 2
        await clock.advance(seconds=29)
        for _ in range(10):
            await asyncio.sleep(0)
        assert not queued.done() and pool.pending == 2  # within its limit: still waited for
        await clock.advance(seconds=1)
        with pytest.raises(JobTimeout):
            await queued
        gate.touch()
        assert await holder == "released"
        assert await pool.run(where) and not ran.exists()  # the worker went on past it
    finally:
        gate.touch()
        pool.close()


async def test_a_dead_worker_fails_its_jobs_and_the_next_job_gets_new_workers(pool: WorkPool) -> None:
    with pytest.raises(Exception) as failure:
        await pool.run(die)
    assert "terminated abruptly" in str(failure.value) or "broken" in str(failure.value).lower()
    pid, in_child = await pool.run(where)
    assert in_child and pid != os.getpid()


async def test_the_loop_keeps_turning_while_workers_are_busy(pool: WorkPool, tmp_path: Path) -> None:
    gate = tmp_path / "go"
    jobs = [asyncio.create_task(pool.run(wait_for, str(gate))) for _ in range(pool.workers + 1)]
    ticks = 0
    for _ in range(20):
        await asyncio.sleep(0.005)
        ticks += 1
    assert ticks == 20 and not any(job.done() for job in jobs)
    gate.touch()
    assert await asyncio.gather(*jobs) == ["released"] * (pool.workers + 1)


def test_heavy_jobs_are_limited_per_user_and_slots_come_back() -> None:
    pool = WorkPool(per_user=2, processes=False)
    with pool.heavy(1), pool.heavy(1):
        with pytest.raises(TooManyJobs) as refused, pool.heavy(1):
            pass
        assert refused.value.limit == 2
        with pool.heavy(2):  # someone else is not affected
            assert pool.heavy_jobs(2) == 1
    with pytest.raises(RuntimeError), pool.heavy(1):
        raise RuntimeError("the job failed")
    assert pool.heavy_jobs(1) == 0
    pool.close()


def test_a_refused_list_survives_the_trip_back_from_a_worker() -> None:
    refusal = pickle.loads(pickle.dumps(DecklistRefused("too_many_lines", lines=1200, limit=1000)))
    assert refusal.reason == "too_many_lines" and refusal.values == {"lines": 1200, "limit": 1000}


async def test_image_slots_hold_at_most_images_in_flight_and_come_back(pool: WorkPool) -> None:
    from bot.workers import IMAGES_IN_FLIGHT

    inside, most, release = 0, 0, asyncio.Event()

    async def draw_and_encode() -> None:
        nonlocal inside, most
        async with pool.image_slot():
            inside += 1
            most = max(most, inside)
            await release.wait()
            inside -= 1

    tasks = [asyncio.create_task(draw_and_encode()) for _ in range(IMAGES_IN_FLIGHT + 3)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert inside == IMAGES_IN_FLIGHT, "the boards past the limit wait for a place before they are drawn"
    release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert most == IMAGES_IN_FLIGHT and inside == 0
    async with pool.image_slot():  # every place came back
        pass


def _gone(pid: int, limit: float = 10.0) -> bool:
    """Whether process ``pid`` ended (or became a zombie nobody reaps) within ``limit`` seconds."""
    ends = time.monotonic() + limit
    while time.monotonic() < ends:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


async def test_a_worker_stops_on_sigterm_even_under_the_bots_signal_handler(pool: WorkPool) -> None:
    """Was: workers inherited the bot's asyncio SIGTERM handler (it only writes to the bot's wake-up pipe),
    so a worker told to stop never did, and every killed bot left its workers behind for good."""
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: None)  # what `podkeeper run` installs
    try:
        worker, _ = await pool.run(where)  # the first job forks the workers, under that handler
        os.kill(worker, signal.SIGTERM)
        assert _gone(worker)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


_ORPHAN_SCRIPT = """
import asyncio
from bot.workers import WorkPool
from tests.core.test_workers import where

async def main():
    pool = WorkPool(processes=True)
    pid, _ = await pool.run(where)
    print(pid, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


@pytest.mark.slow  # a subprocess
def test_workers_end_when_the_bot_is_killed(tmp_path: Path) -> None:
    """A SIGKILLed bot can't shut its pool down: its workers must not outlive it."""
    bot = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN_SCRIPT],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert not _gone(worker, limit=0.2)  # it is alive while the bot is
    finally:
        bot.kill()
        bot.wait()
    assert _gone(worker)
