"""What every part of the tournament cog stands on: its state, the reader's language and who is an
organiser. Refusals (``TournamentError``) are raised and told by the one path of ``cogs._errors``.

The cog is one class assembled from layers, each a subclass of the one below (``TournamentBase`` →
``StandingsMessages`` → ``VoteDesk`` → ``TournamentCog``), so every method a layer calls is defined
below it and the type checker sees it (as in ``cogs.pods`` and ``cogs.challenge``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord

from bot.client import PodkeeperBot
from bot.domain.pod import PodError
from bot.domain.tournament import TournamentError
from bot.i18n import Translate
from bot.services.tournaments import TournamentService
from bot.storage.tournaments import Tournament
from cogs._common import is_organiser
from cogs._errors import refusal_text
from cogs.pods.cog import PodsCog

if TYPE_CHECKING:
    from bot.leases import JobLease
    from cogs.tournaments.matches import MatchRounds


class TournamentBase:
    """The tournament cog's state (set in ``TournamentCog.__init__``) and its shared helpers."""

    bot: PodkeeperBot
    service: TournamentService
    match_rounds: MatchRounds
    _deadlines: dict[int, asyncio.Task[None]]
    deadlines: JobLease

    @property
    def pods(self) -> PodsCog | None:
        """The pod tracker: it gives every table of a round its board (None when it is not loaded)."""
        cog = self.bot.get_cog(PodsCog.__cog_name__)
        return cog if isinstance(cog, PodsCog) else None

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def _guild_language(self, guild_id: int | None) -> str:
        """Language for messages no single user asked for (vote results at a table)."""
        return await self.bot.guild_language(guild_id)

    async def _refuse(self, interaction: discord.Interaction, error: PodError) -> None:
        """Tell a refusal without stopping (a table whose board could not start, while the others do)."""
        text = refusal_text(error, (await self._tr(interaction)).language)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _require_organiser(self, interaction: discord.Interaction) -> None:
        """Go on for an organiser (the one rule, ``cogs._common.is_organiser``); refuse anyone else."""
        if not await is_organiser(interaction):
            raise TournamentError("tournament.organiser_only")

    def _scoring_text(self, tr: Translate, tournament: Tournament) -> str:
        rule = self.service.rule(tournament)
        return tr(
            f"tournament.scoring.{rule.name}",
            win=rule.win,
            draw=rule.draw,
            survival=rule.survival,
            vote=rule.vote,
            elimination=rule.elimination,
        )
