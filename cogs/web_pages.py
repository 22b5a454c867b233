"""The links to the live web pages: ``/pod overlay``, ``/tournament page``, ``/hydra event page``, ``/stats page``.

The commands join the groups of the cogs that own those features (``/pod``, ``/tournament``,
``/hydra event``) when this cog loads — after them, as cogs load in name order — so those cogs need
no changes for it. Every answer is private: a link is a secret that opens a page to whoever has it.
The page server itself is started by the bot (``bot.client``) when ``[web] enabled``.

The owning cogs are reached through their public methods only (``PodsCog.game_here``, the services,
``cogs._common.is_organiser``). A domain refusal ("no tournament here", "no such event") is raised, not
caught: these commands are bound to no cog, so it reaches the tree's handler, which tells it like every
other refusal (``bot.client.on_app_command_error`` → ``cogs._errors.answer_refusal``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.i18n import Translate
from bot.storage.pages import PageLink, PageLinkRepository
from cogs._common import cog_of, command_text, is_manager, is_organiser
from cogs.hydra_events import HydraEventsCog
from cogs.pods import PodsCog
from cogs.tournaments import TournamentCog

log = logging.getLogger(__name__)


_T = command_text("page")  # see bot/i18n/messages/web.toml


REVOKE_HELP = _T("Make a new link; the old one stops working")


class WebPagesCog(commands.Cog, name="WebPages"):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.links = PageLinkRepository(bot.db)
        self._added: list[tuple[app_commands.Group, str]] = []

    # -- joining the other features' groups --------------------------------------------------------

    async def cog_load(self) -> None:
        self._attach(["pod"], self._overlay_command())
        self._attach(["tournament"], self._tournament_command())
        self._attach(["hydra", "event"], self._hydra_command())
        self._attach(["stats"], self._stats_command())

    async def cog_unload(self) -> None:
        for group, name in self._added:
            group.remove_command(name)
        self._added.clear()

    def _attach(self, path: list[str], command: app_commands.Command[Any, ..., Any]) -> None:
        group: Any = self.bot.tree.get_command(path[0])
        for name in path[1:]:
            group = group.get_command(name) if isinstance(group, app_commands.Group) else None
        if not isinstance(group, app_commands.Group):
            log.warning("/%s is not loaded: no /%s %s", " ".join(path), " ".join(path), command.name)
            return
        group.add_command(command)
        self._added.append((group, command.name))

    def _overlay_command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.command(
            name=_T("overlay"),
            description=_T("Private link to a stream overlay of the game's board (1920×1080)"),
        )
        @app_commands.describe(
            game=_T("Game number (default: the running game in this channel)"), revoke=REVOKE_HELP
        )
        @app_commands.rename(revoke=_T("revoke"))
        @app_commands.guild_only()
        async def overlay(
            interaction: discord.Interaction, game: int | None = None, revoke: bool = False
        ) -> None:
            await self.pod_overlay(interaction, game, revoke)

        return overlay

    def _tournament_command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.command(
            name=_T("page"), description=_T("Private link to the live standings and pairings page")
        )
        @app_commands.describe(revoke=REVOKE_HELP)
        @app_commands.rename(revoke=_T("revoke"))
        @app_commands.guild_only()
        async def page(interaction: discord.Interaction, revoke: bool = False) -> None:
            await self.tournament_page(interaction, revoke)

        return page

    def _hydra_command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.command(
            name=_T("page"), description=_T("Private link to the event's live leaderboard page")
        )
        @app_commands.describe(event=_T("Event number (default: the current event)"), revoke=REVOKE_HELP)
        @app_commands.rename(revoke=_T("revoke"))
        @app_commands.guild_only()
        async def page(
            interaction: discord.Interaction, event: int | None = None, revoke: bool = False
        ) -> None:
            await self.hydra_event_page(interaction, event, revoke)

        return page

    def _stats_command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.command(
            name=_T("page"), description=_T("Private link to the server's live leaderboard page")
        )
        @app_commands.describe(revoke=REVOKE_HELP)
        @app_commands.rename(revoke=_T("revoke"))
        @app_commands.guild_only()
        async def page(interaction: discord.Interaction, revoke: bool = False) -> None:
            await self.stats_page(interaction, revoke)

        return page

    # -- the commands ----------------------------------------------------------------------------------

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _give(
        self,
        interaction: discord.Interaction,
        kind: str,
        resource_id: int,
        revoke: bool,
        text_key: str = "web.link.text",
    ) -> None:
        """Answer privately with the resource's link (a new one when revoking, which stops the old)."""
        tr = await self._tr(interaction)
        server = self.bot.pages
        if server is None:
            await self._say(interaction, tr("web.link.disabled"))
            return
        old: PageLink | None = None
        if revoke:
            old = await self.links.link(
                kind, resource_id, guild_id=interaction.guild_id, created_by=interaction.user.id
            )
        link = await self.links.link(
            kind, resource_id, guild_id=interaction.guild_id, created_by=interaction.user.id, revoke=revoke
        )
        text = tr(text_key, url=server.url(link))
        if old is not None:
            await server.revoke(old)
            text += "\n" + tr("web.link.revoked")
        await self._say(interaction, text)

    async def pod_overlay(self, interaction: discord.Interaction, game: int | None, revoke: bool) -> None:
        pods = cog_of(interaction, PodsCog.__cog_name__, PodsCog)
        loaded = await pods.game_here(interaction, game)  # answers the error itself
        if loaded is None:
            return
        if not is_manager(interaction) and not loaded.state.is_player(interaction.user.id):
            await self._say(interaction, (await self._tr(interaction))("web.link.players_only"))
            return
        await self._give(interaction, "pod", loaded.game_id, revoke, "web.link.overlay")

    async def tournament_page(self, interaction: discord.Interaction, revoke: bool) -> None:
        service = cog_of(interaction, TournamentCog.__cog_name__, TournamentCog).service
        tournament = await service.latest(interaction.guild_id or 0)  # refuses when there is none
        entrants = {e.user_id for e in await service.entrants(tournament.tournament_id)}
        if await self._may(
            interaction, await is_organiser(interaction), interaction.user.id in entrants, revoke
        ):
            await self._give(interaction, "tournament", tournament.tournament_id, revoke)

    async def hydra_event_page(
        self, interaction: discord.Interaction, event_id: int | None, revoke: bool
    ) -> None:
        events = cog_of(interaction, HydraEventsCog.__cog_name__, HydraEventsCog)
        event = await events.event_for(interaction, event_id)  # refuses when there is none
        entrants = {e.user_id for e in await events.events.repo.entrants(event.event_id)}
        if await self._may(
            interaction, await is_organiser(interaction), interaction.user.id in entrants, revoke
        ):
            await self._give(interaction, "hydra_event", event.event_id, revoke)

    async def stats_page(self, interaction: discord.Interaction, revoke: bool) -> None:
        """Every member may get the server's leaderboard link (its figures are the server's); only
        organisers replace it, which would stop every page open on the old one."""
        if await self._may(interaction, await is_organiser(interaction), True, revoke):
            await self._give(interaction, "stats", interaction.guild_id or 0, revoke)

    async def _may(
        self, interaction: discord.Interaction, organiser: bool, entrant: bool, revoke: bool
    ) -> bool:
        """Organisers get and replace an event's link; its players may get it (to follow on their phones)
        but not replace it, which would stop the organiser's projector."""
        if organiser or (entrant and not revoke):
            return True
        tr = await self._tr(interaction)
        await self._say(
            interaction, tr("web.link.revoke_organisers" if entrant else "web.link.organisers_only")
        )
        return False


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(WebPagesCog(bot))
