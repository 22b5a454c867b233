"""``/privacy export`` and the server-data retention (Discord's Developer Policy: members' data rights).

``/privacy export`` sends the caller, privately, a JSON file of everything Podkeeper stores about them.
When the bot leaves a server, the departure is recorded; the server's data is deleted once
``[privacy] retention_days`` (default 30) have passed, checked at start and daily. Rejoining in time
cancels it. ``podkeeper db purge-guild ID`` deletes at once.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import Translate
from bot.services.privacy import PrivacyService

log = logging.getLogger(__name__)
PURGE_EVERY_SECONDS = 24 * 3600


def _T(text: str) -> locale_str:
    return locale_str(text, key=f"app.privacy.{text}")


class PrivacyCog(commands.GroupCog, name="Privacy", group_name="privacy",
                 group_description=_T("Your data in Podkeeper")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = PrivacyService(bot.db)  # type: ignore[attr-defined]
        self._purger: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self._purger = asyncio.create_task(self._purge_daily(), name="privacy-retention")

    async def cog_unload(self) -> None:
        if self._purger is not None:
            self._purger.cancel()

    async def _purge_daily(self) -> None:
        """Delete the data of servers left longer than the retention period ago: now, then daily."""
        while True:
            try:
                purged = await self.service.purge_due(self.bot.config.retention_days)  # type: ignore[attr-defined]
                if purged:
                    log.info("deleted the data of servers left long enough ago: %s", purged)
            except Exception:
                log.exception("the retention purge failed; retrying tomorrow")
            await asyncio.sleep(PURGE_EVERY_SECONDS)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.service.left(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.service.returned(guild.id)

    @app_commands.command(name="export", description=_T("Get a file of everything Podkeeper stores about you"))
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.service.export(interaction.user.id)
        tr = Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]
        await interaction.followup.send(tr("privacy.export.done"), ephemeral=True,
                                        file=discord.File(io.BytesIO(data), f"podkeeper-{interaction.user.id}.json"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PrivacyCog(bot))
