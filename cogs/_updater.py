"""Coalesced message edits: a burst of changes to one thing (a pod board, an event announcement) becomes
one edit showing the final state.

Discord allows about 5 edits per 5 s per channel, and a press is answered long before its board is
redrawn, so every feature that redraws a message on each change asks this class instead of editing
itself. Shared by the pod cog and the Hydra events cog (hence a module of its own; the leading ``_``
keeps ``cog_modules()`` from loading it as a cog).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

COALESCE_SECONDS = 0.4  # wait this long after a press before editing, so a burst becomes one edit


class BoardUpdater:
    """Calls ``refresh(key)`` at most once per ``delay`` seconds per key, always after the latest change.

    The delay is a debounce of the event loop, not a game timer: it stays on ``asyncio.sleep`` (tests
    set ``delay = 0``) rather than on the bot's clock, whose fake time would never let it pass."""

    def __init__(self, refresh: Callable[[int], Awaitable[None]], delay: float = COALESCE_SECONDS,
                 *, what: str = "board") -> None:
        self.refresh, self.delay, self.what = refresh, delay, what
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._render_slot = asyncio.Semaphore(1)
        self.edits = 0

    def request(self, key: int) -> None:
        self._dirty.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key), name=f"{self.what}-{key}")

    async def _run(self, key: int) -> None:
        while key in self._dirty:
            await asyncio.sleep(self.delay)
            # One render at a time: presses keep being answered in between, and every press that
            # arrives while a key waits for its turn is folded into that key's single edit.
            async with self._render_slot:
                self._dirty.discard(key)
                try:
                    await self.refresh(key)
                    self.edits += 1
                except Exception:  # a failed edit must not stop later ones; the next press retries
                    log.exception("could not update %s %s", self.what, key)
        # No await between the loop's last check and here: a press arriving now finds no task and
        # starts a new one.
        self._tasks.pop(key, None)

    async def flush(self) -> None:
        """Wait for every pending edit (tests, benchmarks, shutdown)."""
        while any(not task.done() for task in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def cancel(self) -> None:
        for task in self._tasks.values():
            task.cancel()
