"""What every challenge table cog stands on: its state, languages, a table's channel, and which family of
tables it runs.

A table cog is one class assembled from layers, each a subclass of the one below (``TablesBase`` →
``TablePanels`` → ``TablePlay``, then the deck's own cog: ``ChallengeCog``, or the Hydra's panels and
``HydraCog``), so every method a layer calls is defined below it and the type checker sees it. What
tells the families apart is the data of their :class:`Family`, and the few hooks the Hydra's cog
overrides (its lobby, its board and the one message per Hydra turn).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.client import PodkeeperBot
from bot.clock import clock_of
from bot.domain.challenge.core import ChallengeError
from bot.i18n import Translate
from bot.leases import JobLease, keyed_timers_lease
from bot.services.challenge import ChallengeService
from bot.services.reconcile import register_reconcile
from cogs._boards import LiveBoards
from cogs._timers import TableTimers, Timers
from cogs.challenge.components import attach, detach


@dataclass(frozen=True)
class Family:
    """One family of tables as Discord shows it (the service's ``TableKind`` says where they are stored).

    ``prefix`` starts the custom_id of every component of its tables (``cogs.challenge.components``);
    ``name`` names its turn timers (``<name>-turns`` is their lease), its log lines and its recovery pass;
    ``board`` is what its board is called when a channel refuses it (``cogs._boards``)."""

    prefix: str
    name: str
    board: str
    idle_pause: bool = False  # a table nobody plays at pauses after its idle time (then a resume command)
    pick_by_serial: bool = False  # the board's pick names a permanent by serial, not by its number now
    command_example: str = "sweep 2 all"  # the placeholder of the "any command" form
    acknowledge_first: bool = False  # a press is acknowledged before its action (a refusal: a followup)
    damage_title: str = (
        "challenge.ui.damage_title"  # the damage form's title ({number}, or the Hydra's {head})
    )


class TablesBase(TableTimers):
    """A table cog's state (set by ``start_tables`` in the cog's ``__init__``)."""

    family: ClassVar[Family]
    bot: PodkeeperBot
    service: ChallengeService
    # (table, person) -> the permanent the board's buttons act on: its serial where the family picks by
    # serial (positions shift when a head leaves, so a pick made before another player's action still means
    # the same head), else its number
    selected: dict[tuple[int, int], int]
    timers: Timers[int]  # one per table: the pending question's default or the idle pause (cogs/_timers.py)
    turns: JobLease  # the turn timers run in the one process holding this lease (bot.leases)
    fixed_seed: int | None  # tests (and replays of a reported game) fix the shuffle
    boards: LiveBoards  # the tables' boards stay live for the whole game (cogs/_boards.py)
    display_lanes: dict[int, asyncio.Lock]  # table -> its messages are updated one pass at a time

    def start_tables(self, bot: PodkeeperBot, service: ChallengeService) -> None:
        """The state every table cog starts with."""
        self.bot, self.service = bot, service
        self.selected, self.armed_at, self.display_lanes = {}, {}, {}
        self.timers = Timers(clock_of(bot), self.family.name)
        # Turn timers run in the one process holding this lease (bot.leases); the others poke it.
        self.turns = keyed_timers_lease(
            bot, f"{self.family.name}-turns", self.timers.cancel_all, self.arm_open_tables
        )
        self.fixed_seed = None
        self.boards = LiveBoards(bot, self.family.board)

    async def cog_load(self) -> None:
        attach(self.bot, self.family.prefix, getattr(self, "__cog_name__", ""))
        await self.turns.start()
        register_reconcile(self.bot, f"{self.family.name} tables", self.reconcile_tables)

    async def cog_unload(self) -> None:
        detach(self.bot, self.family.prefix)
        self.turns.stop()
        self.timers.cancel_all()
        self.boards.cancel()

    async def reconcile_tables(self) -> int:
        """Recovery hook (``TablePanels``)."""
        raise NotImplementedError

    def display_lane(self, game_id: int) -> asyncio.Lock:
        """A table's messages are updated one pass at a time, each pass reading the stored table afresh:
        two passes at once once edited a new question into an old turn message (a stale message id), and an
        edit drawn from an older state (a slow image) must never land last."""
        return self.display_lanes.setdefault(game_id, asyncio.Lock())

    async def table_here(self, interaction: discord.Interaction, game_id: int) -> None:
        """Refuse a component whose custom id names a table of another server (a copied message, a
        crafted interaction): to that server the table does not exist. A table in direct messages has no
        server, and neither has a press there."""
        table = await self.service.load(game_id)
        if table.row.guild_id != interaction.guild_id:
            raise ChallengeError("hydra.error.no_table")

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
