"""Waiting on other processes' effects (a notice, a lease poll, a cut session) with a deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable

import asyncpg


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    ends = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < ends, "timed out waiting"
        await asyncio.sleep(0.01)


async def end_sessions(dsn: str, pids: Iterable[int | None]) -> None:
    """Cut server sessions as a network cut or a restarted server would, and return once they are gone.

    ``pg_terminate_backend(pid)`` only signals the backend: its advisory locks are freed a moment later,
    when it has exited, and a test that tries the lock in that moment fails on a busy machine. With a
    timeout the call waits until the backend has exited (and its locks with it)."""
    admin = await asyncpg.connect(dsn)
    try:
        for pid in pids:
            assert pid is not None, "the session to cut is not open"
            assert await admin.fetchval("SELECT pg_terminate_backend($1, 30000)", pid), (
                f"backend {pid} lived on"
            )
    finally:
        await admin.close()
