"""``/privacy export|delete`` and the server-data retention (Discord's Developer Policy: members' data rights).

``/privacy export`` sends the caller, privately, a JSON file of everything Podkeeper stores about them.
``/privacy delete`` asks for a confirmation, then deletes their decks, settings and Hydra profile and
replaces their id in games, votes and results with a pseudonym, so other players' standings stay.
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

from bot.client import PodkeeperBot
from bot.i18n import Translate
from bot.leases import JobLease, leases_of
from bot.services.privacy import PrivacyService
from cogs._buttons import KeyedButton
from cogs._common import cog_of

log = logging.getLogger(__name__)
PURGE_EVERY_SECONDS = 24 * 3600


def _T(text: str) -> locale_str:
    return locale_str(text, key=f"app.privacy.{text}")


class DeleteButton(KeyedButton, prefix="privacy:delete", style=discord.ButtonStyle.danger):
    """The confirmation under ``/privacy delete``, keyed by the member it was offered to: only they can
    press it."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction, "Privacy", PrivacyCog).delete_confirmed(interaction, self.key)


class PrivacyCog(
    commands.GroupCog, name="Privacy", group_name="privacy", group_description=_T("Your data in Podkeeper")
):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.service = PrivacyService(bot.db)
        self._purger: JobLease | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DeleteButton)
        self._purger = await leases_of(self.bot).loop(
            "privacy-purge", self._purge_daily
        )  # one process purges

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DeleteButton)
        if self._purger is not None:
            self._purger.stop()

    async def _purge_daily(self) -> None:
        """Delete the data of servers left longer than the retention period ago: now, then daily."""
        while True:
            try:
                purged = await self.service.purge_due(self.bot.config.retention_days)
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

    @app_commands.command(
        name="export", description=_T("Get a file of everything Podkeeper stores about you")
    )
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.service.export(interaction.user.id)
        tr = Translate(await self.bot.language_for(interaction))
        await interaction.followup.send(
            tr("privacy.export.done"),
            ephemeral=True,
            file=discord.File(io.BytesIO(data), f"podkeeper-{interaction.user.id}.json"),
        )

    @app_commands.command(name="delete", description=_T("Delete your data from Podkeeper (asks first)"))
    async def delete(self, interaction: discord.Interaction) -> None:
        tr = Translate(await self.bot.language_for(interaction))
        view = DeleteButton(interaction.user.id, label=tr("privacy.delete.button")).alone()
        await interaction.response.send_message(tr("privacy.delete.confirm"), view=view, ephemeral=True)

    async def delete_confirmed(self, interaction: discord.Interaction, user_id: int) -> None:
        tr = Translate(await self.bot.language_for(interaction))
        if interaction.user.id != user_id:
            await interaction.response.send_message(tr("privacy.delete.not_yours"), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.delete_member(user_id)
        for name in ("Pods", "Hydra"):  # cached games hold the old id: read them again from the database
            forget = getattr(getattr(self.bot.get_cog(name), "service", None), "forget_all", None)
            if callable(forget):
                forget()
        await interaction.followup.send(tr("privacy.delete.done"), ephemeral=True)


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(PrivacyCog(bot))
