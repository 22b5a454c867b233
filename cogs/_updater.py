"""Coalesced message edits: a burst of changes to one thing (a pod board, an event announcement) becomes
one edit showing the final state, and one channel's trouble never delays another channel's boards.

Discord allows about 5 edits per 5 s per channel, and a press is answered long before its board is
redrawn, so every feature that redraws a message on each change asks this class instead of editing
itself. Shared by every board kind (hence a module of its own; the leading ``_`` keeps ``cog_modules()``
from loading it as a cog).

Why lanes per channel: discord.py waits out a channel's rate limit *inside* the edit request. When one
slot was shared by every board of the process, a burst or a 429 in one channel held that slot, and every
other server's boards waited behind it (a press in a quiet channel waited 2.7 s instead of 0.44 s). Now
each channel has its own lane: boards of one channel take turns (they share Discord's bucket anyway),
boards of different channels never wait on each other. Rendering is CPU work that already runs in the
bot's work pool (``bot.workers``), which bounds it without holding anything across a network call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.clock import SYSTEM_CLOCK, Clock
from bot.i18n import context_for_everyone

log = logging.getLogger(__name__)

COALESCE_SECONDS = 0.4  # wait this long after a press before editing, so a burst becomes one edit


class EditLater(Exception):  # noqa: N818 - not an error: a request to be called again
    """Raised by a refresh that could not show its board now (Discord said to come back in ``seconds``,
    longer than the bot waits inside a request): the updater asks again after that time, holding nothing."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"edit again in {seconds:.1f} s")
        self.seconds = seconds


class ChannelLanes:
    """One lane (an ``asyncio.Lock``) per channel, shared by every updater of the bot, so boards of
    different features in one channel still take turns and boards in different channels never do."""

    def __init__(self) -> None:
        self._lanes: dict[int | None, asyncio.Lock] = {}

    def lane(self, channel_id: int | None) -> asyncio.Lock:
        return self._lanes.setdefault(channel_id, asyncio.Lock())


def lanes_of(owner: object) -> ChannelLanes:
    """The bot's shared lanes (made on first use), or fresh ones for an owner without them (a test's bot)."""
    lanes = getattr(owner, "board_lanes", None)
    if not isinstance(lanes, ChannelLanes):
        lanes = ChannelLanes()
        with contextlib.suppress(AttributeError):  # an owner taking no attributes: lanes of this updater
            owner.board_lanes = lanes  # type: ignore[attr-defined]
    return lanes


async def _no_channel(key: int) -> int | None:
    return None


class BoardUpdater:
    """Calls ``refresh(key)`` at most once per ``delay`` seconds per key, always after the latest change,
    in the lane of the key's channel (``channel_of(key)``).

    The delay is a debounce of the event loop, not a game timer: it stays on ``asyncio.sleep`` (tests
    set ``delay = 0``) rather than on the bot's clock, whose fake time would never let it pass. A refresh
    raising ``EditLater`` is asked again after that many seconds of the bot's clock (a long
    ``retry_after`` from Discord), with its lane free meanwhile."""

    def __init__(
        self,
        refresh: Callable[[int], Awaitable[None]],
        delay: float = COALESCE_SECONDS,
        *,
        what: str = "board",
        channel_of: Callable[[int], Awaitable[int | None]] = _no_channel,
        lanes: ChannelLanes | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.refresh, self.delay, self.what = refresh, delay, what
        self.channel_of, self.clock = channel_of, clock
        self.lanes = lanes or ChannelLanes()
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._later: dict[int, asyncio.Task[None]] = {}
        self.edits = 0

    def request(self, key: int) -> None:
        self._dirty.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.get_running_loop().create_task(
                self._run(key), name=f"{self.what}-{key}", context=context_for_everyone()
            )

    async def _run(self, key: int) -> None:
        while key in self._dirty:
            await asyncio.sleep(self.delay)
            channel_id = await self._channel(key)
            # One edit at a time in this channel: presses keep being answered meanwhile, and every press
            # that arrives while the key waits for its lane is folded into that key's single edit.
            async with self.lanes.lane(channel_id):
                self._dirty.discard(key)
                await self._refresh_once(key)
        # No await between the loop's last check and here: a press arriving now finds no task and
        # starts a new one. This very task is the one stored under key (a press stores a new one only
        # once the old is done), and a finished task must not stay referenced, one per board ever edited.
        del self._tasks[key]

    async def _channel(self, key: int) -> int | None:
        try:
            return await self.channel_of(key)
        except Exception:  # an unknown key: its refresh will say so; it just gets a lane of its own
            return None

    async def _refresh_once(self, key: int) -> None:
        try:
            await self.refresh(key)
            self.edits += 1
        except EditLater as later:
            self._again_after(key, later.seconds)
        except Exception:  # a failed edit must not stop later ones; the next press retries
            log.exception("could not update %s %s", self.what, key)

    def _again_after(self, key: int, seconds: float) -> None:
        """Ask for ``key`` again once Discord allows it; a press meanwhile may get there first."""
        pending = self._later.get(key)
        if pending is not None and not pending.done():
            return

        async def later() -> None:
            await self.clock.sleep(seconds)
            del self._later[key]  # this very task, stored below before it first runs
            self.request(key)

        self._later[key] = asyncio.get_running_loop().create_task(
            later(),
            name=f"{self.what}-{key}-later",
            # The later ask only calls request, whose edit gets a context for everyone of its own: this
            # one keeps the later task itself (which shows nothing) out of the presser's context.
            context=context_for_everyone(),  # pragma: no mutate (request's own context decides the edit's)
        )

    async def refresh_now(self, key: int) -> None:
        """Refresh ``key`` at once in its channel's lane (a start-up catch-up), a long retry_after
        answered like any other: the key is asked again later."""
        async with self.lanes.lane(await self._channel(key)):
            await self._refresh_once(key)

    def pending(self) -> bool:
        """Whether an edit is queued or running (a ``retry_after`` wait on the clock does not count)."""
        return any(not task.done() for task in self._tasks.values())

    async def flush(self) -> None:
        """Wait for every pending edit (tests, benchmarks, shutdown)."""
        while self.pending():
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def cancel(self) -> None:
        for task in (*self._tasks.values(), *self._later.values()):
            task.cancel()
