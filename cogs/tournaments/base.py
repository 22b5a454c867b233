"""What every part of the tournament cog shares: the reader's language, refusals and who is an organiser."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.domain.pod import PodError
from bot.domain.tournament import TournamentError
from bot.i18n import Translate
from bot.services.tournaments import TournamentService
from bot.storage.tournaments import Tournament
from cogs.tournaments.components import error_text

if TYPE_CHECKING:
    from bot.leases import JobLease
    from cogs.tournaments.matches import MatchRounds


class TournamentBase:
    """Helpers of ``TournamentCog`` (a mixin: the cog sets these attributes)."""

    bot: commands.Bot
    service: TournamentService
    match_rounds: MatchRounds
    _deadlines: dict[int, asyncio.Task[None]]
    deadlines: JobLease

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]

    async def _guild_language(self, guild_id: int | None) -> str:
        """Language for messages no single user asked for (vote results at a table)."""
        return await self.bot.guild_language(guild_id)  # type: ignore[attr-defined]

    async def _refuse(self, interaction: discord.Interaction, error: TournamentError | PodError) -> None:
        text = error_text(error, (await self._tr(interaction)).language)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _latest(self, interaction: discord.Interaction) -> Tournament | None:
        """The server's latest tournament (running or ended), or None after saying there is none."""
        try:
            return await self.service.latest(interaction.guild_id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return None

    async def _is_organiser(self, interaction: discord.Interaction) -> bool:
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        if member.guild_permissions.manage_guild:
            return True
        settings = getattr(self.bot, "guild_settings", None)
        role_id = (await settings.get(interaction.guild_id)).organiser_role_id if settings else None
        return role_id is not None and any(role.id == role_id for role in member.roles)

    async def _require_organiser(self, interaction: discord.Interaction) -> bool:
        if await self._is_organiser(interaction):
            return True
        tr = await self._tr(interaction)
        await interaction.response.send_message(tr("tournament.organiser_only"), ephemeral=True)
        return False

    def _scoring_text(self, tr: Translate, tournament: Tournament) -> str:
        rule = self.service.rule(tournament)
        return tr(f"tournament.scoring.{rule.name}", win=rule.win, draw=rule.draw, survival=rule.survival,
                  vote=rule.vote, elimination=rule.elimination)

