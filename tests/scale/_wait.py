"""Waiting on other processes' effects (a notice, a lease poll) with a deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    ends = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < ends, "timed out waiting"
        await asyncio.sleep(0.01)
