"""Background card sync: no commands, one task. Thin: the schedule and the sync are
``bot.services.card_autosync``. After a swap it dispatches ``card_data_changed``, which the deck cog
answers by re-checking registered decks and telling owners whose verdict changed.

The schedule waits on the bot's clock (``bot.clock``), so tests move time instead of sleeping. A bot
that never synced (the first start, on the bundled data) says so in its log, and says again when the
current cards are in; offline, the sync fails fast, the log says so once, and the bundled cards stay."""

from __future__ import annotations

import logging

from discord.ext import commands

from bot.client import PodkeeperBot
from bot.clock import clock_of
from bot.leases import JobLease, leases_of
from bot.services.card_autosync import CardAutoSync

log = logging.getLogger(__name__)

STARTUP_DELAY = 60.0  # let the bot come up (and answer its first commands) before a download
MAX_SLEEP = 3600.0  # look at the schedule again at least hourly (clock changes, config of others)
MIN_SLEEP = 60.0


class CardSyncCog(commands.Cog, name="CardSync"):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.clock = clock_of(bot)
        self.autosync = CardAutoSync(bot.cards, bot.db, bot.config, clock=self.clock.now)
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
        await self._announce()
        await self.clock.sleep(STARTUP_DELAY)
        while True:
            try:
                await self.run_due()
                wait = (await self.autosync.next_due() - self.clock.now()).total_seconds()
            except Exception:  # never let the schedule die: log and look again later
                log.exception("automatic card sync: unexpected error")
                wait = MAX_SLEEP
            await self.clock.sleep(min(max(wait, MIN_SLEEP), MAX_SLEEP))

    async def _announce(self) -> None:
        """On a bot that has never synced, say what the cards are now and that current ones are coming."""
        if await self.autosync.ever_synced():
            return
        log.info(
            "current card data: not synced yet; downloading it from Scryfall in the background in %.0f s "
            "(until then, and while offline, the cards are those up to %s)",
            STARTUP_DELAY,
            self.bot.cards.data_date or "an unknown date",
        )

    async def run_due(self) -> bool:
        """Sync when due; True when new cards were swapped in (and the news dispatched)."""
        before = self.bot.cards.data_date
        result = await self.autosync.run_if_due()
        if result is None:
            return False
        log.info(
            "current card data is in: %d cards, up to %s (before: up to %s); commands use them now",
            result.card_count,
            self.bot.cards.data_date or "an unknown date",
            before or "an unknown date",
        )
        self.bot.dispatch("card_data_changed", result)
        return True


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(CardSyncCog(bot))
