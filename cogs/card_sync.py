"""Background card sync: no commands, one task. Thin: the schedule and the sync are
``bot.services.card_autosync``. After a swap it dispatches ``card_data_changed``, which the deck cog
answers by re-checking registered decks and telling owners whose verdict changed."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from discord.ext import commands

from bot.client import PodkeeperBot
from bot.leases import JobLease, leases_of
from bot.services.card_autosync import CardAutoSync

log = logging.getLogger(__name__)

STARTUP_DELAY = 60.0        # let the bot come up (and answer its first commands) before a download
MAX_SLEEP = 3600.0          # look at the schedule again at least hourly (clock changes, config of others)


class CardSyncCog(commands.Cog, name="CardSync"):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.autosync = CardAutoSync(bot.cards, bot.db, bot.config)
        self.lease: JobLease | None = None

    async def cog_load(self) -> None:
        """The schedule runs in one process of those sharing the database (``bot.leases``): the sync
        swaps the card tables for all of them, and each reads the new index on the notice."""
        if self.autosync.enabled:
            self.lease = await leases_of(self.bot).loop("card-sync", self._loop)

    async def cog_unload(self) -> None:
        if self.lease is not None:
            self.lease.stop()

    async def _loop(self) -> None:
        await asyncio.sleep(STARTUP_DELAY)
        while True:
            try:
                await self.run_due()
                wait = (await self.autosync.next_due() - datetime.now(UTC)).total_seconds()
            except Exception:  # never let the schedule die: log and look again later
                log.exception("automatic card sync: unexpected error")
                wait = MAX_SLEEP
            await asyncio.sleep(min(max(wait, 60.0), MAX_SLEEP))

    async def run_due(self) -> bool:
        """Sync when due; True when new cards were swapped in (and the news dispatched)."""
        result = await self.autosync.run_if_due()
        if result is None:
            return False
        self.bot.dispatch("card_data_changed", result)
        return True


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(CardSyncCog(bot))
