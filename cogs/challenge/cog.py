"""The Challenge cog: ``/challenge start``, a Battle the Horde or Defeat a God table in this channel (see
the package's docstring). Everything after the start is the package's, the same for every deck."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.domain.challenge.decks import RULES
from bot.services.challenge import DEFAULT_WINDOW_SECONDS, ChallengeService
from bot.text import member_name
from cogs._common import command_text
from cogs._errors import RefusingCog
from cogs._permissions import refuse_unless_bot_can_post
from cogs.challenge.base import Family
from cogs.challenge.play import TablePlay

_T = command_text("challenge")  # command texts under ``app.challenge.<text>``
# The Horde's and the God's tables (and any deck's kept with theirs): one board message each.
DECK_FAMILY = Family(prefix="chal", name="challenge", board="challenge table")


class ChallengeCog(
    RefusingCog,
    TablePlay,
    commands.GroupCog,
    name="Challenge",
    group_name="challenge",
    group_description=_T("Battle the Horde or Defeat a God at this channel's table"),
):
    family = DECK_FAMILY

    def __init__(self, bot: PodkeeperBot) -> None:
        self.start_tables(
            bot, ChallengeService(bot.db, notify=bot.dispatch)
        )  # a table's end: challenge_game_finished
        super().__init__()

    # -- slash commands --------------------------------------------------------------------------------
    @app_commands.command(
        name="start", description=_T("Open a Horde or God table here; players join with a button")
    )
    @app_commands.describe(
        deck=_T("Which challenge deck"),
        difficulty=_T("Horde: your turns before its first (3); God: starting Throngs (2)"),
        window=_T("Seconds to answer before the default (0: wait; default 20)"),
        windows=_T("Open every response window: the deck's upkeep and each trigger"),
        house_rule=_T("God, 2-4 players: house rule of 20 shared life per player (printed: 20)"),
    )
    @app_commands.choices(
        deck=[
            app_commands.Choice(name="Battle the Horde", value="horde"),
            app_commands.Choice(name="Defeat a God", value="god"),
        ]
    )
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction,
        deck: app_commands.Choice[str],
        difficulty: app_commands.Range[int, 1, 4] | None = None,
        window: app_commands.Range[int, 0, 300] = DEFAULT_WINDOW_SECONDS,
        windows: bool = False,
        house_rule: bool = False,
    ) -> None:
        language = await self.bot.language_for(interaction)
        level = difficulty if difficulty is not None else RULES[deck.value].default_difficulty
        if await refuse_unless_bot_can_post(interaction):
            return
        table = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=member_name(interaction.user.display_name, interaction.user.id),
            deck=deck.value,
            difficulty=level,
            language=language,
            seed=self.fixed_seed,
            window_seconds=window,
            all_windows=windows,
            life_per_player=house_rule,
        )
        embed, view = self.lobby_payload(table)
        await interaction.response.send_message(embed=embed, view=view)
        message = await interaction.original_response()
        await self.boards.record_post(message)
        await self.service.set_messages(table.game_id, message_id=message.id)
