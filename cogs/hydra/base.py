"""What every part of the Hydra cog stands on: its state, languages and a table's channel.

The cog is one class assembled from layers, each a subclass of the one below (``HydraBase`` →
``HydraPanels`` → ``HydraPlay`` → ``HydraCog``), so every method a layer calls is defined below it and
the type checker sees it (no ``self: HydraCog`` annotations on unrelated mixins).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.client import PodkeeperBot
from bot.domain.hydra import HydraError
from bot.i18n import Translate
from bot.leases import JobLease
from bot.services.hydra import HydraService
from cogs._boards import LiveBoards
from cogs._timers import TableTimers, Timers


class HydraBase(TableTimers):
    """The Hydra cog's state (set in ``HydraCog.__init__``)."""

    bot: PodkeeperBot
    service: HydraService
    # (table, person) -> the head the buttons act on, by its serial: positions shift when a head
    # leaves, so a pick made before another player's action still means the same head
    selected: dict[tuple[int, int], int]
    timers: Timers[int]  # one per table: the pending question's default or the idle pause (cogs/_timers.py)
    turns: JobLease  # the turn timers run in the one process holding this lease (bot.leases)
    reports: dict[int, int]  # table -> its players'-turn report message with answer buttons
    fixed_seed: int | None  # tests (and replays of a reported game) fix the shuffle
    boards: LiveBoards  # the tables' boards stay live for the whole game (cogs/_boards.py)
    turn_shown: dict[int, int]  # table -> the Hydra turn (its start in the log) its turn message shows
    shown_text: dict[int, tuple[str, Any]]  # message -> what it was last edited to show (content, buttons)
    display_lanes: dict[int, asyncio.Lock]  # table -> its messages are updated one pass at a time

    def display_lane(self, game_id: int) -> asyncio.Lock:
        """A table's messages are updated one pass at a time, each pass reading the stored table afresh:
        two passes at once once edited a new question into an old turn message (a stale message id)."""
        return self.display_lanes.setdefault(game_id, asyncio.Lock())

    async def table_here(self, interaction: discord.Interaction, game_id: int) -> None:
        """Refuse a component whose custom id names a table of another server (a copied message, a
        crafted interaction): to that server the table does not exist. A table in direct messages has no
        server, and neither has a press there."""
        table = await self.service.load(game_id)
        if table.row.guild_id != interaction.guild_id:
            raise HydraError("hydra.error.no_table")

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def table_language(self, guild_id: int | None) -> str:
        """Everyone at a table reads the same messages: the server's language, else the default."""
        if guild_id:
            chosen = (await self.bot.guild_settings.get(guild_id)).locale
            if chosen:
                return chosen
        return self.bot.config.default_locale

    async def _channel(self, channel_id: int | None) -> Any:
        """A table's channel (a table has one once its lobby was posted)."""
        assert channel_id is not None, "the table's lobby was never posted"
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
