"""The Hydra cog: ``/hydra start|heroes|resume|profile`` (see the package's docstring); playing and the
table's messages are every deck's (``cogs.challenge``) with the Hydra's look (``cogs.hydra.panels``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.domain.hydra import HydraError
from bot.domain.hydra.cards import HEROES
from bot.domain.hydra.engine import MAX_HEADS, MIN_HEADS
from bot.services.hydra import DEFAULT_IDLE_MINUTES, DEFAULT_WINDOW_SECONDS, HydraService
from bot.storage.hydra import IDLE, LOBBY
from bot.text import member_name
from cogs._common import command_text
from cogs._errors import RefusingCog
from cogs._permissions import NEW_THREAD_PERMISSIONS, board_permissions, refuse_unless_bot_can_post
from cogs.hydra.panels import HydraPanels

_T = command_text("hydra")


class HydraCog(
    RefusingCog,
    HydraPanels,
    commands.GroupCog,
    name="Hydra",
    group_name="hydra",
    group_description=_T("Face the Hydra: the bot plays the Hydra challenge deck"),
):
    service: HydraService

    def __init__(self, bot: PodkeeperBot) -> None:
        self.start_tables(bot, HydraService(bot.db, notify=bot.dispatch))
        self.reports, self.turn_shown, self.shown_text = {}, {}, {}
        super().__init__()

    # -- slash commands --------------------------------------------------------------------------------
    @app_commands.command(
        name="start", description=_T("Open a Hydra table here; challengers join with a button")
    )
    @app_commands.describe(
        heads=_T("Difficulty: starting Hydra Heads (2 easy, 3 normal, 4 hard)"),
        window=_T("Seconds to counter or prevent before the default (0: wait; default 20)"),
        idle=_T("Minutes without action before the game pauses (default 30)"),
        windows=_T("Open every response window: the Hydra's upkeep and each trigger"),
    )
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction,
        heads: app_commands.Range[int, MIN_HEADS, MAX_HEADS],
        window: app_commands.Range[int, 0, 300] = DEFAULT_WINDOW_SECONDS,
        idle: app_commands.Range[int, 1, 1440] = DEFAULT_IDLE_MINUTES,
        windows: bool = False,
    ) -> None:
        tr = await self._tr(interaction)
        language = await self.table_language(interaction.guild_id)
        channel = interaction.channel
        settings = await self.bot.guild_settings.get(interaction.guild_id or 0)
        parent = channel if settings.pod_threads and isinstance(channel, discord.TextChannel) else None
        needed = board_permissions(channel) + (NEW_THREAD_PERMISSIONS if parent is not None else ())
        if await refuse_unless_bot_can_post(interaction, needed):
            return
        table = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=None,
            user_id=interaction.user.id,
            name=member_name(interaction.user.display_name, interaction.user.id),
            heads=heads,
            language=language,
            window_seconds=window,
            idle_minutes=idle,
            seed=self.fixed_seed,
            all_windows=windows,
            capped=True,
        )
        embed, view = self.lobby_payload(table)
        if parent is not None:
            thread = await parent.create_thread(
                name=tr("hydra.ui.thread_name", game=table.game_id)[:100],
                type=discord.ChannelType.public_thread,
            )
            message = await thread.send(embed=embed, view=view)
            await interaction.response.send_message(tr("hydra.ui.opened_in_thread", thread=thread.mention))
        else:
            await interaction.response.send_message(embed=embed, view=view)
            message = await interaction.original_response()
        await self.boards.record_post(message)
        await self.service.set_messages(table.game_id, channel_id=message.channel.id, message_id=message.id)

    @app_commands.command(
        name="heroes", description=_T("Choose up to two Hero cards for the table you joined")
    )
    @app_commands.describe(
        first=_T("A Hero card"), second=_T("A second Hero card (the same one may be used twice)")
    )
    @app_commands.guild_only()
    async def heroes(
        self, interaction: discord.Interaction, first: str | None = None, second: str | None = None
    ) -> None:
        tr = await self._tr(interaction)
        table = await self.service.table_in_channel(interaction.channel_id or 0, (LOBBY,))
        if table is None:
            raise HydraError("hydra.error.no_lobby")
        table = await self.service.set_heroes(
            table.game_id, interaction.user.id, [name for name in (first, second) if name]
        )
        seat = table.seat_of(interaction.user.id)
        chosen = "\n".join(f"**{name}** — {HEROES[name].text}" for name in (seat.heroes if seat else ()))
        await interaction.response.send_message(
            tr("hydra.ui.heroes_set", heroes=chosen or tr("hydra.ui.no_heroes")), ephemeral=True
        )
        await self.show_board(table.game_id)

    @heroes.autocomplete("first")
    @heroes.autocomplete("second")
    async def hero_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().casefold()
        found = [
            hero
            for hero in HEROES.values()
            if wanted in hero.name.casefold() or wanted in hero.text.casefold()
        ]
        return [
            app_commands.Choice(name=f"{hero.name} — {hero.text}"[:100], value=hero.name) for hero in found
        ][:25]

    @app_commands.command(name="resume", description=_T("Resume the paused Hydra game of this channel"))
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(interaction.channel_id or 0, (IDLE,))
        if table is None:
            raise HydraError("hydra.error.not_idle")
        if await refuse_unless_bot_can_post(
            interaction
        ):  # the resumed table's board is edited on every press
            return
        table = await self.service.resume(table.game_id, interaction.user.id)
        await interaction.response.defer(thinking=True)  # the board image is made in the work pool
        embed, file, view = await self.board_payload(table)
        parts: dict[str, Any] = {
            name: part for name, part in (("file", file), ("view", view)) if part is not None
        }
        message = await interaction.followup.send(embed=embed, wait=True, **parts)
        await self.boards.record_post(message)
        await self.service.set_messages(table.game_id, message_id=message.id)
        self.arm(await self.service.load(table.game_id))

    @app_commands.command(name="profile", description=_T("Hydra games, wins, heads severed and The Slayer"))
    @app_commands.describe(user=_T("Whose profile (default: yours)"))
    async def profile(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        tr = await self._tr(interaction)
        who = user or interaction.user
        profile = await self.service.profile(who.id)
        embed = discord.Embed(
            title=tr("hydra.ui.profile_title", name=who.display_name),
            colour=discord.Colour.gold() if profile.has_slayer else discord.Colour.dark_grey(),
        )
        embed.add_field(name=tr("hydra.ui.games"), value=str(profile.games))
        embed.add_field(name=tr("hydra.ui.wins"), value=str(profile.wins))
        embed.add_field(name=tr("hydra.ui.heads_severed"), value=str(profile.heads_severed))
        best = (
            tr("hydra.ui.best_win_value", heads=profile.best_win_heads, turns=profile.best_win_turns)
            if profile.best_win_heads is not None
            else "—"
        )
        embed.add_field(name=tr("hydra.ui.best_win"), value=best)
        slayer = HEROES["The Slayer"]
        embed.add_field(
            name="The Slayer",
            inline=False,
            value=f"{slayer.text}" if profile.has_slayer else tr("hydra.ui.no_slayer"),
        )
        await interaction.response.send_message(embed=embed)
