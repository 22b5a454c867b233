"""The ``event …`` subcommands, under ``/hydra`` (Hydra nights) and under ``/challenge`` (nights of
Battle the Horde or Defeat a God): one definition serves both, with each group's own words (their
translations live under ``app.hydra_events.*``); every command hands over to the events cog."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.domain.hydra.engine import MAX_HEADS
from bot.domain.hydra_events import DEFAULT_GRACE_MINUTES, MAX_TABLE_SIZE
from cogs._common import command_text
from cogs._errors import answer_refusal

if TYPE_CHECKING:
    from cogs.hydra_events.cog import HydraEventsCog

_T = command_text("hydra_events")

# The words of each group: (group, create, difficulty, table size, join, leave, status), English as the
# key of their translations.
WORDS = {
    "hydra": (
        "Server-wide Hydra events: many tables, one leaderboard",
        "Announce a Hydra event (organisers)",
        "Difficulty: starting Hydra Heads (2 easy, 3 normal, 4 hard)",
        "Players per table, 2 to 4 (default 4)",
        "Join the Hydra event, alone or with friends at your table",
        "Leave the Hydra event before you are seated",
        "Where the Hydra event stands: players, tables, leaderboard",
    ),
    "challenge": (
        "Server-wide Horde or God events: many tables, one leaderboard",
        "Announce a Horde or God event (organisers)",
        "Difficulty: Horde, your turns before its first (3); God, starting Throngs (2)",
        "Players per table: the Horde seats 1; the God 1 to 4 (default: the most)",
        "Join the challenge event, alone or with friends at your table",
        "Leave the challenge event before you are seated",
        "Where the challenge event stands: players, tables, leaderboard",
    ),
}
DECK_CHOICES = {
    "hydra": [app_commands.Choice(name="Face the Hydra", value="hydra")],
    "challenge": [
        app_commands.Choice(name="Battle the Horde", value="horde"),
        app_commands.Choice(name="Defeat a God", value="god"),
    ],
}


class EventGroup(app_commands.Group):
    """An ``event`` group bound to the events cog (``event_commands`` makes one per kind)."""

    group_text = ""  # the group's description, set per kind

    def __init__(self, cog: HydraEventsCog) -> None:
        super().__init__(name="event", description=_T(self.group_text), guild_only=True)
        self.cog = cog


def event_commands(kind: str) -> type[EventGroup]:
    """The ``event`` group class of ``kind`` (``hydra`` or ``challenge``)."""
    group, create_text, difficulty_text, size_text, join_text, leave_text, status_text = WORDS[kind]
    default_deck = DECK_CHOICES[kind][0].value

    class EventCommands(EventGroup):
        """The ``event`` subcommands; every one hands over to the cog."""

        group_text = group

        @app_commands.command(name="create", description=_T(create_text))
        @app_commands.describe(
            name=_T("The event's name"),
            start=_T("When: now, in 30m, 2h, 2026-12-05 19:00 (UTC) or a Discord timestamp"),
            heads=_T(difficulty_text),
            table_size=_T(size_text),
            grace=_T("Minutes a seated player has to act before being dropped (default 10)"),
            deck=_T("Which challenge deck"),
        )
        @app_commands.choices(deck=DECK_CHOICES[kind])
        async def create(
            self,
            interaction: discord.Interaction,
            name: str,
            start: str,
            heads: app_commands.Range[int, 1, MAX_HEADS] | None = None,
            table_size: app_commands.Range[int, 1, MAX_TABLE_SIZE] | None = None,
            grace: app_commands.Range[int, 1, 120] = DEFAULT_GRACE_MINUTES,
            deck: app_commands.Choice[str] | None = None,
        ) -> None:
            await self.cog.create(
                interaction,
                name,
                start,
                heads,
                table_size,
                grace,
                deck.value if deck is not None else default_deck,
            )

        @app_commands.command(name="join", description=_T(join_text))
        @app_commands.describe(
            friend1=_T("A friend who sits at your table"),
            friend2=_T("Another friend"),
            friend3=_T("A third friend"),
            event=_T("Event number (default: the latest)"),
        )
        async def join(
            self,
            interaction: discord.Interaction,
            friend1: discord.Member | None = None,
            friend2: discord.Member | None = None,
            friend3: discord.Member | None = None,
            event: int | None = None,
        ) -> None:
            friends = [f for f in (friend1, friend2, friend3) if f is not None]
            await self.cog.join(interaction, event, friends)

        @app_commands.command(name="leave", description=_T(leave_text))
        @app_commands.describe(event=_T("Event number (default: the latest)"))
        async def leave(self, interaction: discord.Interaction, event: int | None = None) -> None:
            await self.cog.leave(interaction, event)

        @app_commands.command(
            name="begin",
            description=_T("Start all tables now; later, seat the wait list at new tables (organisers)"),
        )
        @app_commands.describe(event=_T("Event number (default: the latest)"))
        async def begin(self, interaction: discord.Interaction, event: int | None = None) -> None:
            await self.cog.begin_command(interaction, event)

        @app_commands.command(name="status", description=_T(status_text))
        @app_commands.describe(event=_T("Event number (default: the latest)"))
        async def status(self, interaction: discord.Interaction, event: int | None = None) -> None:
            await self.cog.status(interaction, event)

        @app_commands.command(
            name="end", description=_T("End the event now and post the results (organisers)")
        )
        @app_commands.describe(event=_T("Event number (default: the latest)"))
        async def end(self, interaction: discord.Interaction, event: int | None = None) -> None:
            await self.cog.ask_confirmation(interaction, event, "confirm_end")

        @app_commands.command(
            name="cancel", description=_T("Cancel the event; nothing is awarded (organisers)")
        )
        @app_commands.describe(event=_T("Event number (default: the latest)"))
        async def cancel(self, interaction: discord.Interaction, event: int | None = None) -> None:
            await self.cog.ask_confirmation(interaction, event, "confirm_cancel")

        async def on_error(
            self, interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            """The group sits in another cog's group (``/hydra``, ``/challenge``), not in this cog, so the
            cog's ``cog_app_command_error`` does not see its commands: the group tells refusals itself."""
            await answer_refusal(interaction, error)

    return EventCommands


HydraEventCommands = event_commands("hydra")
ChallengeEventCommands = event_commands("challenge")
