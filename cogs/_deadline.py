"""Answering within Discord's 3 seconds when the work might take longer.

A slash command that changes something normally answers once the change is stored, with the result.
That is quick, unless another program holds the SQLite file's write lock (a ``sqlite3`` shell inside a
transaction, a backup tool): the bot then waits up to ``busy_timeout`` (5 s) and missed Discord's
deadline, so the member saw "The application did not respond" and was never told. ``in_time`` defers
the interaction (Discord shows "thinking…") if no answer was sent after ``DEFER_AFTER_SECONDS``; the
answer then arrives as a followup. Discord's deadline is wall-clock time, so this timer is too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

DEFER_AFTER_SECONDS = 1.5  # half of Discord's 3 s, leaving room for a busy event loop and the request


class _LateDefer:
    def __init__(self, interaction: discord.Interaction, ephemeral: bool) -> None:
        self.interaction, self.ephemeral = interaction, ephemeral
        self.deferring = False

    async def run(self) -> None:
        await asyncio.sleep(DEFER_AFTER_SECONDS)
        if self.interaction.response.is_done():
            return
        self.deferring = (
            True  # from here on it must finish: a half-sent defer would leave the answer unsendable
        )
        with contextlib.suppress(discord.HTTPException):
            await self.interaction.response.defer(ephemeral=self.ephemeral, thinking=True)


@asynccontextmanager
async def in_time(interaction: discord.Interaction, *, ephemeral: bool = True) -> AsyncIterator[None]:
    """Around work that answers ``interaction`` afterwards: deferred if it runs long. The caller answers
    with ``interaction.followup`` when ``interaction.response.is_done()``."""
    late = _LateDefer(interaction, ephemeral)
    task = asyncio.create_task(late.run(), name=f"defer-{interaction.id}")
    try:
        yield
    finally:
        if late.deferring:
            await task
        else:
            task.cancel()
