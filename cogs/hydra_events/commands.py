"""The ``/hydra event …`` subcommands: each hands over to the cog (``cogs.hydra_events.cog``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.domain.hydra.engine import MAX_HEADS, MIN_HEADS
from bot.domain.hydra_events import DEFAULT_GRACE_MINUTES, MAX_TABLE_SIZE, MIN_TABLE_SIZE
from cogs._common import command_text
from cogs._errors import answer_refusal

if TYPE_CHECKING:
    from cogs.hydra_events.cog import HydraEventsCog

_T = command_text("hydra_events")


class EventCommands(app_commands.Group):
    """The ``event`` subcommands; every one hands over to the cog."""

    def __init__(self, cog: HydraEventsCog) -> None:
        super().__init__(name="event", description=_T("Server-wide Hydra events: many tables, one leaderboard"),
                         guild_only=True)
        self.cog = cog

    @app_commands.command(name="create", description=_T("Announce a Hydra event (organisers)"))
    @app_commands.describe(name=_T("The event's name"),
                           start=_T("When: now, in 30m, 2h, 2026-12-05 19:00 (UTC) or a Discord timestamp"),
                           heads=_T("Difficulty: starting Hydra Heads (2 easy, 3 normal, 4 hard)"),
                           table_size=_T("Players per table, 2 to 4 (default 4)"),
                           grace=_T("Minutes a seated player has to act before being dropped (default 10)"))
    async def create(self, interaction: discord.Interaction, name: str, start: str,
                     heads: app_commands.Range[int, MIN_HEADS, MAX_HEADS] = 3,
                     table_size: app_commands.Range[int, MIN_TABLE_SIZE, MAX_TABLE_SIZE] = MAX_TABLE_SIZE,
                     grace: app_commands.Range[int, 1, 120] = DEFAULT_GRACE_MINUTES) -> None:
        await self.cog.create(interaction, name, start, heads, table_size, grace)

    @app_commands.command(name="join", description=_T("Join the Hydra event, alone or with friends at your table"))
    @app_commands.describe(friend1=_T("A friend who sits at your table"), friend2=_T("Another friend"),
                           friend3=_T("A third friend"), event=_T("Event number (default: the latest)"))
    async def join(self, interaction: discord.Interaction, friend1: discord.Member | None = None,
                   friend2: discord.Member | None = None, friend3: discord.Member | None = None,
                   event: int | None = None) -> None:
        friends = [f for f in (friend1, friend2, friend3) if f is not None]
        await self.cog.join(interaction, event, friends)

    @app_commands.command(name="leave", description=_T("Leave the Hydra event before you are seated"))
    @app_commands.describe(event=_T("Event number (default: the latest)"))
    async def leave(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await self.cog.leave(interaction, event)

    @app_commands.command(name="begin", description=_T("Start all tables now; later, seat the wait list at new tables (organisers)"))
    @app_commands.describe(event=_T("Event number (default: the latest)"))
    async def begin(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await self.cog.begin_command(interaction, event)

    @app_commands.command(name="status", description=_T("Where the Hydra event stands: players, tables, leaderboard"))
    @app_commands.describe(event=_T("Event number (default: the latest)"))
    async def status(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await self.cog.status(interaction, event)

    @app_commands.command(name="end", description=_T("End the event now and post the results (organisers)"))
    @app_commands.describe(event=_T("Event number (default: the latest)"))
    async def end(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await self.cog.ask_confirmation(interaction, event, "confirm_end")

    @app_commands.command(name="cancel", description=_T("Cancel the event; nothing is awarded (organisers)"))
    @app_commands.describe(event=_T("Event number (default: the latest)"))
    async def cancel(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await self.cog.ask_confirmation(interaction, event, "confirm_cancel")


    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The group sits in the Hydra cog's ``/hydra`` group, not in this cog, so the cog's
        ``cog_app_command_error`` does not see its commands: the group tells refusals itself."""
        await answer_refusal(interaction, error)
