"""What every part of the Hydra events cog stands on: its state, the clock, the Hydra cog, answering,
an event's channel, cancelling an event.

The cog is one class assembled from layers, each a subclass of the one below (``EventsBase`` →
``EventPanels`` → ``EventRunning`` → ``HydraEventsCog``), so every method a layer calls is defined below
it and the type checker sees it (no ``self: HydraEventsCog`` annotations on unrelated mixins).
Every timer of an event (its start, a table's grace period, the live leaderboard) is one of
``self.timers`` (``cogs._timers``), keyed ``(what, event id, table)``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.client import PodkeeperBot
from bot.clock import Clock, clock_of
from bot.domain.hydra_events import EventError
from bot.i18n import EventTranslate, Translate
from bot.leases import JobLease
from bot.services.challenge import DECK_TABLES, HYDRA_TABLES, TABLE_KINDS
from bot.services.hydra_events import HydraEventService
from bot.storage.hydra_events import EventRow
from bot.text import ECHO, fit
from cogs._boards import LiveBoards
from cogs._common import is_organiser
from cogs._timers import Timers
from cogs._updater import BoardUpdater
from cogs.hydra import HydraCog

# The cog that shows each kind of table (by the kind's name; ``TABLE_KINDS`` says each deck's kind).
PANELS_OF = {HYDRA_TABLES.name: HydraCog.__cog_name__, DECK_TABLES.name: "Challenge"}

log = logging.getLogger(__name__)


def shown(name: str) -> str:
    """An event name as users typed it, Markdown escaped and at most ``ECHO`` characters (thread and
    scheduled-event names, which show no Markdown, use the stored name)."""
    return fit(name, ECHO)


# A running event's scheduled event ends at least this far ahead; when less is left, it moves by a step.
SCHEDULED_END_MARGIN = timedelta(minutes=30)
SCHEDULED_END_STEP = timedelta(hours=1)
_FINAL = (discord.EventStatus.completed, discord.EventStatus.cancelled)


def status_steps(current: discord.EventStatus, target: discord.EventStatus) -> list[discord.EventStatus]:
    """The edits that take a scheduled event from ``current`` towards ``target`` by Discord's transitions:
    SCHEDULED→ACTIVE|CANCELED and ACTIVE→COMPLETED; COMPLETED and CANCELED are final. An event already
    under way is completed rather than cancelled, and one never started is started before completing."""
    if current in _FINAL or current is target:
        return []
    scheduled = current is discord.EventStatus.scheduled
    if target is discord.EventStatus.active:
        return [target] if scheduled else []
    if target is discord.EventStatus.cancelled:
        return [target] if scheduled else [discord.EventStatus.completed]
    if target is discord.EventStatus.completed:
        return [discord.EventStatus.active, target] if scheduled else [target]
    return []


class EventsBase:
    """The Hydra events cog's state (set in ``HydraEventsCog.__init__``) and what every layer uses."""

    bot: PodkeeperBot
    parent_group: app_commands.Group | None  # /hydra, which /hydra event joins
    challenge_group: app_commands.Group | None  # /challenge, which /challenge event joins
    schedule: JobLease  # the events' timers run in the one process holding this lease (bot.leases)
    service: HydraEventService | None
    leaderboard_seconds: float
    timers: Timers[tuple[str, int, int]]  # (what, event id, table number)
    shown: dict[int, Any]  # event -> the leaderboard content last sent (edit only on change)
    scheduled_ends: dict[int, datetime]  # event -> the end its scheduled event was last seen or set to
    announcements: BoardUpdater
    announcement_boards: LiveBoards  # announcements stay live for the whole night (cogs/_boards.py)

    # -- loading ------------------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        """The bot's clock: event starts, grace periods and leaderboard ticks wait on it."""
        return clock_of(self.bot)

    @property
    def hydra(self) -> HydraCog:
        """The Hydra cog: it owns the tables' service (shared cache and locks), board and timers."""
        cog = self.bot.get_cog(HydraCog.__cog_name__)
        assert isinstance(cog, HydraCog), "the Hydra cog is not loaded (cog_load said so)"
        return cog

    @property
    def challenge(self) -> Any:
        """The Challenge cog: it owns the Horde's and the God's tables (service, board and timers)."""
        return self.bot.get_cog("Challenge")

    def panels(self, deck: str, *, required: bool = True) -> Any:
        """The cog that shows and runs ``deck``'s tables (the one that owns the service keeping them):
        each offers ``post_table(channel, table)``, ``refresh(table)`` and ``after(act_result)``. None
        when it is not loaded (``required=False``: the bot is closing)."""
        cog = self.bot.get_cog(PANELS_OF[TABLE_KINDS[deck].name])
        assert cog is not None or not required, f"the cog showing {deck} tables is not loaded"
        return cog

    @property
    def events(self) -> HydraEventService:
        assert self.service is not None
        return self.service

    # -- helpers ------------------------------------------------------------------------------------
    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def _reply(
        self, interaction: discord.Interaction, text: str, *, ephemeral: bool = True, **kwargs: Any
    ) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)

    async def event_for(self, interaction: discord.Interaction, event_id: int | None) -> EventRow:
        """The event a command names (the server's latest when none); refuses when there is none."""
        return await self.events.current(interaction.guild_id or 0, event_id)

    async def _require_organiser(self, interaction: discord.Interaction) -> None:
        if not await is_organiser(interaction):
            raise EventError("hydra_events.error.organiser_only")

    async def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    async def _language(self, guild_id: int | None) -> str:
        return await self.hydra.table_language(guild_id)

    async def _scheduled_status(self, event: EventRow, status: discord.EventStatus) -> None:
        """Move the Discord scheduled event towards ``status`` by Discord's transitions only (it may have
        moved by itself: Discord completes an active event at its end time)."""
        if event.scheduled_event_id is None:
            return
        guild = self.bot.get_guild(event.guild_id)
        try:
            scheduled = await guild.fetch_scheduled_event(event.scheduled_event_id)  # type: ignore[union-attr]
            for step in status_steps(scheduled.status, status):
                scheduled = await scheduled.edit(status=step)
        except (discord.HTTPException, AttributeError):
            log.warning("could not set the scheduled event of Hydra event %s to %s", event.event_id, status)

    async def keep_scheduled_event_open(self, event: EventRow) -> None:
        """While the event is played, keep its scheduled event's end ahead of the clock: Discord completes
        an active event at its end time, which would mark a long night over while tables still play."""
        if event.scheduled_event_id is None:
            return
        now = self.clock.now()
        known = self.scheduled_ends.get(event.event_id)
        if known is not None and known - now > SCHEDULED_END_MARGIN:
            return
        guild = self.bot.get_guild(event.guild_id)
        try:
            scheduled = await guild.fetch_scheduled_event(event.scheduled_event_id)  # type: ignore[union-attr]
            end = scheduled.end_time
            if scheduled.status is discord.EventStatus.active and (
                end is None or end - now <= SCHEDULED_END_MARGIN
            ):
                end = now + SCHEDULED_END_STEP
                await scheduled.edit(end_time=end)
        except (discord.HTTPException, AttributeError):
            log.warning("could not move the end of the scheduled event of Hydra event %s", event.event_id)
            return
        if end is not None:
            self.scheduled_ends[event.event_id] = end

    async def cancel_event(self, event: EventRow, reason_key: str = "hydra_events.ui.cancelled") -> None:
        if not await self.events.cancel(event.event_id):
            return
        self.timers.cancel_where(lambda key: key[1] == event.event_id)
        channel = await self._channel(event.channel_id)
        await channel.send(EventTranslate(event.language, event.deck)(reason_key, event=shown(event.name)))
        await self._scheduled_status(event, discord.EventStatus.cancelled)
        self.announcements.request(event.event_id)
