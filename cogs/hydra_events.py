"""Server-wide Hydra events: ``/hydra event create|join|leave|begin|status|end|cancel``.

An organiser (Manage Server, or the server's organiser role from ``/config``) creates an event: a
Discord scheduled event plus an announcement message with Join / Leave buttons and a live count.
At the start time (a timer re-armed from the stored start after a restart) or on ``/hydra event
begin``, everyone is seated (``bot.domain.hydra_events``: balanced, groups together, H10) and each
table gets a thread with an ordinary Hydra table of the Hydra cog, all playing at once. A live
leaderboard message in the announcement channel is refreshed every few seconds, only when
something changed (so edits are coalesced however busy the tables are). When every table has
finished, or the organiser ends the event, the results and the leaderboard image are posted, the
winners are recorded in one transaction, and the server's winner role is given.

The commands sit under the Hydra cog's ``/hydra`` group (added to its group object at load, so
``/hydra event create`` etc.); each table is a table of the Hydra cog, played with its buttons.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.clock import Clock, clock_of
from bot.domain.hydra import HydraError
from bot.domain.hydra.engine import MAX_HEADS, MIN_HEADS
from bot.domain.hydra_events import DEFAULT_GRACE_MINUTES, LOST, MAX_TABLE_SIZE, MIN_TABLE_SIZE, EventError
from bot.i18n import Translate
from bot.render.fonts import png_bytes
from bot.render.leaderboard import players_text, render_leaderboard, results_text, summary_text, tables_text
from bot.services.hydra_events import EventStatus, HydraEventService
from bot.services.reconcile import register_reconcile
from bot.storage.hydra_events import (
    CANCELLED,
    DROPPED,
    FINISHED,
    JOINED,
    OPEN,
    RUNNING,
    SEATED,
    SEATING,
    WAITING,
    EventRow,
)
from bot.text import ECHO, fit, fit_lines
from cogs.pods import BoardUpdater

log = logging.getLogger(__name__)

LEADERBOARD_SECONDS = 5.0  # how often the live leaderboard looks for changes (one edit at most)
ANNOUNCE_COALESCE_SECONDS = 1.0  # a rush on the Join button becomes one edit of the count
SCHEDULED_EVENT_HOURS = 3  # Discord wants an end time for events outside a voice channel
# A big night can have dozens of winners and tables: mentions in a message and a field are cut with
# "and N more" (the leaderboard lists everyone) so the content stays under Discord's 2,000 and a field its 1,024.
WINNERS_BUDGET = 1500
FIELD_BUDGET = 1000


def shown(name: str) -> str:
    """An event name as users typed it, Markdown escaped and at most ``ECHO`` characters (thread and
    scheduled-event names, which show no Markdown, use the stored name)."""
    return fit(name, ECHO)


def _T(text: str) -> locale_str:
    return locale_str(text, key=f"app.hydra_events.{text}")


class EventButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hevent:(?P<event>\d+):(?P<action>[a-z_]+)"):
    """``hevent:<event>:<join|leave|checkin|confirm_cancel|confirm_end>``; survives restarts."""

    def __init__(self, event_id: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=(label or action)[:80], style=style,
                                           custom_id=f"hevent:{event_id}:{action}"))
        self.event_id, self.action = event_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> EventButton:
        return cls(int(match["event"]), match["action"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog(HydraEventsCog.__cog_name__)  # type: ignore[union-attr]
        assert isinstance(cog, HydraEventsCog)
        await cog.on_button(interaction, self.event_id, self.action)


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


class HydraEventsCog(commands.Cog, name="HydraEvents"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.commands = EventCommands(self)
        self.parent_group: app_commands.Group | None = None
        self.service: HydraEventService | None = None
        self.leaderboard_seconds = LEADERBOARD_SECONDS
        self.timers: dict[tuple[str, int, int], asyncio.Task[None]] = {}
        self.shown: dict[int, Any] = {}  # event -> the leaderboard content last sent (edit only on change)
        self.announcements = BoardUpdater(SimpleNamespace(refresh_board=self.refresh_announcement),  # type: ignore[arg-type]
                                          delay=ANNOUNCE_COALESCE_SECONDS)
        self._resumed = False
        super().__init__()

    # -- loading ------------------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        """The bot's clock: event starts, grace periods and leaderboard ticks wait on it."""
        return clock_of(self.bot)

    @property
    def hydra(self) -> Any:
        """The Hydra cog: it owns the tables' service (shared cache and locks), board and timers."""
        return self.bot.get_cog("Hydra")

    async def cog_load(self) -> None:
        """Join the Hydra cog's ``/hydra`` group as ``/hydra event …``: every table is one of its
        tables, so without it there is nothing to run (logged, and no commands are added)."""
        hydra = self.hydra
        if hydra is None:
            log.error("the Hydra cog is not loaded: /hydra event is not available")
            return
        self.parent_group = hydra.app_command
        self.parent_group.add_command(self.commands)  # type: ignore[union-attr]
        self.service = HydraEventService(self.bot.db, hydra.service, clock=self.clock)  # type: ignore[attr-defined]
        self.bot.add_dynamic_items(EventButton)
        register_reconcile(self.bot, "hydra events", self.reconcile_messages)

    async def reconcile_messages(self) -> int:
        """After a start (issue #13): each active event's announcement and leaderboard show the
        stored entrants and tables, even if the bot died between storing a change and editing them."""
        active = await self.events.repo.events_with_status((OPEN, SEATING, RUNNING))
        for event in active:
            await self.refresh_announcement(event.event_id)
            if event.status == RUNNING:
                await self.refresh_leaderboard(event.event_id)
        return len(active)

    async def cog_unload(self) -> None:
        if self.parent_group is not None:
            self.parent_group.remove_command(self.commands.name)
            self.bot.remove_dynamic_items(EventButton)
        for task in self.timers.values():
            task.cancel()
        self.announcements.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: re-arm start timers, finish seating, restart leaderboards and grace
        timers, and give any role that was awarded but not yet given."""
        if self._resumed or self.service is None:
            return
        self._resumed = True
        for event in await self.events.repo.events_with_status((OPEN, SEATING, RUNNING)):
            if event.status == OPEN:
                self.arm_start(event)
            else:
                self._spawn(("begin", event.event_id, 0), self._begin_logged(event.event_id))
        await self.grant_pending_roles()
        for event in await self.events.repo.finished_without_results():
            await self.publish_results(event.event_id)

    @property
    def events(self) -> HydraEventService:
        assert self.service is not None
        return self.service

    # -- helpers ------------------------------------------------------------------------------------
    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]

    async def _reply(self, interaction: discord.Interaction, text: str, *, ephemeral: bool = True,
                     **kwargs: Any) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)

    async def refuse(self, interaction: discord.Interaction, error: HydraError) -> None:
        await self._reply(interaction, (await self._tr(interaction))(error.key, **error.values))

    async def _event(self, interaction: discord.Interaction, event_id: int | None) -> EventRow | None:
        try:
            return await self.events.current(interaction.guild_id or 0, event_id)
        except EventError as error:
            await self.refuse(interaction, error)
            return None

    async def is_organiser(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the organiser role configured for the server."""
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        if member.guild_permissions.manage_guild:
            return True
        role_id = (await self.bot.guild_settings.get(interaction.guild_id)).organiser_role_id  # type: ignore[attr-defined]
        return role_id is not None and any(role.id == role_id for role in member.roles)

    async def _organiser_only(self, interaction: discord.Interaction) -> bool:
        if await self.is_organiser(interaction):
            return True
        await self.refuse(interaction, EventError("hydra_events.error.organiser_only"))
        return False

    async def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    def _spawn(self, key: tuple[str, int, int], coroutine: Any) -> None:
        old = self.timers.pop(key, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        self.timers[key] = asyncio.get_running_loop().create_task(coroutine, name=f"hydra-event-{key[0]}-{key[1]}")

    async def _language(self, guild_id: int | None) -> str:
        return await self.hydra.table_language(guild_id) if self.hydra else self.bot.config.default_locale  # type: ignore[attr-defined]

    # -- create / join / leave ---------------------------------------------------------------------
    async def create(self, interaction: discord.Interaction, name: str, start: str, heads: int, table_size: int,
                     grace: int) -> None:
        if not await self._organiser_only(interaction):
            return
        try:
            event = await self.events.create(
                guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id, name=name, start=start, heads=heads, table_size=table_size,
                grace_minutes=grace, language=await self._language(interaction.guild_id))
        except EventError as error:
            await self.refuse(interaction, error)
            return
        embed, view = await self.announcement_payload(event)
        await interaction.response.send_message(embed=embed, view=view)
        message = await interaction.original_response()
        await self.events.set_messages(event.event_id, message_id=message.id)
        scheduled = await self._create_scheduled_event(interaction, event)
        if scheduled is not None:
            await self.events.set_messages(event.event_id, scheduled_event_id=scheduled.id)
        self.arm_start(await self.events.event(event.event_id))

    async def _create_scheduled_event(self, interaction: discord.Interaction, event: EventRow) -> Any:
        """The Discord scheduled event of a Hydra night; without Create Events the organiser is
        told privately (the Hydra event itself works without it)."""
        guild = interaction.guild
        if guild is None:
            return None
        start = max(datetime.fromisoformat(event.starts_at), self.clock.now() + timedelta(minutes=1))
        tr = Translate(event.language)
        try:
            return await guild.create_scheduled_event(
                name=event.name[:100], start_time=start, end_time=start + timedelta(hours=SCHEDULED_EVENT_HOURS),
                entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
                location=f"#{getattr(self.bot.get_channel(event.channel_id), 'name', 'hydra')}"[:100],
                description=tr("hydra_events.ui.scheduled_description", heads=event.heads,
                               size=event.table_size)[:1000])
        except discord.Forbidden:
            log.warning("no Create Events permission: Hydra event %s has no scheduled event", event.event_id)
            await interaction.followup.send((await self._tr(interaction))("core.error.no_scheduled_event"), ephemeral=True)
            return None
        except discord.HTTPException:
            log.exception("could not create the scheduled event of Hydra event %s", event.event_id)
            return None

    async def _scheduled_status(self, event: EventRow, status: discord.EventStatus) -> None:
        if event.scheduled_event_id is None:
            return
        guild = self.bot.get_guild(event.guild_id)
        try:
            scheduled = await guild.fetch_scheduled_event(event.scheduled_event_id)  # type: ignore[union-attr]
            await scheduled.edit(status=status)
        except (discord.HTTPException, AttributeError):
            log.warning("could not set the scheduled event of Hydra event %s to %s", event.event_id, status)

    async def join(self, interaction: discord.Interaction, event_id: int | None,
                   friends: list[discord.Member]) -> None:
        event = await self._event(interaction, event_id)
        if event is None:
            return
        tr = await self._tr(interaction)
        user = interaction.user
        members = [(user.id, user.display_name)] + [(f.id, f.display_name) for f in friends]
        if any(f.bot for f in friends):
            await self.refuse(interaction, EventError("hydra_events.error.no_bots"))
            return
        try:
            outcome = await self.events.join(event.event_id, members)
        except EventError as error:
            await self.refuse(interaction, error)
            return
        mentions = " ".join(f"<@{uid}>" for uid, _ in members)
        if outcome.state == SEATED and outcome.table is not None:
            thread_id = outcome.table.row.channel_id
            await self._reply(interaction, tr("hydra_events.ui.seated_late", players=mentions,
                                              table=outcome.table_no, thread=f"<#{thread_id}>"))
            await self.hydra.refresh_board(outcome.table)
            thread = await self._channel(thread_id)
            await thread.send(Translate(event.language)("hydra_events.ui.newcomer", players=mentions))
        elif outcome.state == WAITING:
            await self._reply(interaction, tr("hydra_events.ui.waiting", players=mentions))
        else:
            await self._reply(interaction, tr("hydra_events.ui.joined", players=mentions, event=shown(event.name)))
        self.announcements.request(event.event_id)

    async def leave(self, interaction: discord.Interaction, event_id: int | None) -> None:
        event = await self._event(interaction, event_id)
        if event is None:
            return
        try:
            await self.events.leave(event.event_id, interaction.user.id)
        except EventError as error:
            await self.refuse(interaction, error)
            return
        await self._reply(interaction, (await self._tr(interaction))("hydra_events.ui.left", event=shown(event.name)))
        self.announcements.request(event.event_id)

    async def on_button(self, interaction: discord.Interaction, event_id: int, action: str) -> None:
        if action == "join":
            await self.join(interaction, event_id, [])
        elif action == "leave":
            await self.leave(interaction, event_id)
        elif action == "checkin":
            try:
                await self.events.check_in(event_id, interaction.user.id)
            except EventError as error:
                await self.refuse(interaction, error)
                return
            await self._reply(interaction, (await self._tr(interaction))("hydra_events.ui.checked_in"))
        elif action in ("confirm_cancel", "confirm_end"):
            await self.confirmed(interaction, event_id, action)

    # -- the start ----------------------------------------------------------------------------------
    def arm_start(self, event: EventRow) -> None:
        """Begin at the stored start time (at once if the bot was down past it)."""
        starts_at = datetime.fromisoformat(event.starts_at)
        self._spawn(("start", event.event_id, 0), self._begin_later(event.event_id, starts_at))

    async def _begin_later(self, event_id: int, starts_at: datetime) -> None:
        await self.clock.sleep_until(starts_at)
        event = await self.events.event(event_id)
        if event.status != OPEN:
            return
        if not await self.events.repo.entrants(event_id):
            await self.cancel_event(event, reason_key="hydra_events.ui.cancelled_empty")
            return
        await self._begin_logged(event_id)

    async def _begin_logged(self, event_id: int) -> None:
        """Begin from a timer or after a restart: nobody to tell, so a failure is logged (the next
        restart, or ``/hydra event begin``, resumes from what was stored)."""
        try:
            await self.begin_event(event_id)
        except (EventError, HydraError, discord.HTTPException):
            log.exception("could not begin Hydra event %s", event_id)

    async def begin_command(self, interaction: discord.Interaction, event_id: int | None) -> None:
        if not await self._organiser_only(interaction):
            return
        event = await self._event(interaction, event_id)
        if event is None:
            return
        if event.status not in (OPEN, RUNNING):
            await self.refuse(interaction, EventError("hydra_events.error.already_begun"))
            return
        await interaction.response.defer(thinking=True)
        try:
            if event.status == RUNNING:  # a second wave: new tables for the wait list
                await self.events.seat_waiting(event.event_id)
            status = await self.begin_event(event.event_id)
        except EventError as error:
            await self.refuse(interaction, error)
            return
        await interaction.followup.send((await self._tr(interaction))(
            "hydra_events.ui.begun", event=shown(event.name), tables=len(status.tables),
            players=status.count(SEATED)))

    async def begin_event(self, event_id: int) -> EventStatus:
        """Seat everyone, open each table's thread and Hydra, post the leaderboard. Every step is
        stored first, so calling this again after a restart finishes what was left."""
        timer = self.timers.pop(("start", event_id, 0), None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        event = await self.events.event(event_id)
        if event.status == OPEN:
            await self.events.plan(event_id)
        announcement = await self._channel(event.channel_id)
        for table_row, hydra_table in await self.events.open_tables(event_id):
            await self._open_thread(announcement, event, table_row.table_no, hydra_table)
        event = await self.events.mark_running(event_id)
        status = await self.events.status(event_id)
        if event.status == RUNNING:
            if event.leaderboard_message_id is None:
                message = await announcement.send(embed=self.leaderboard_embed(status))
                await self.events.set_messages(event_id, leaderboard_message_id=message.id)
            await self._scheduled_status(event, discord.EventStatus.active)
            for table_row in status.tables:
                if not table_row.grace_checked:
                    self.arm_grace(event, table_row.table_no, table_row.started_at)
            self._spawn(("board", event_id, 0), self._watch(event_id))
        self.announcements.request(event_id)
        return status

    async def _open_thread(self, announcement: Any, event: EventRow, table_no: int, hydra_table: Any) -> None:
        tr = Translate(event.language)
        thread = await announcement.create_thread(name=tr("hydra_events.ui.thread_name", event=event.name,
                                                          table=table_no)[:100],
                                                  type=discord.ChannelType.public_thread)
        mentions = " ".join(f"<@{seat.user_id}>" for seat in hydra_table.seats)
        view = discord.ui.View(timeout=None)
        view.add_item(EventButton(event.event_id, "checkin", label=tr("hydra_events.ui.checkin"),
                                  style=discord.ButtonStyle.primary))
        await thread.send(tr("hydra_events.ui.table_intro", players=mentions, table=table_no, event=shown(event.name),
                             heads=event.heads, grace=event.grace_minutes), view=view)
        embed, file, board_view = await self.hydra.board_payload(hydra_table)
        extra: dict[str, Any] = {"file": file} if file else {}
        if board_view is not None:
            extra["view"] = board_view
        board = await thread.send(embed=embed, **extra)
        await self.hydra.service.set_messages(hydra_table.game_id, channel_id=thread.id, message_id=board.id)
        await self.events.attach_thread(event.event_id, table_no, thread.id)
        self.hydra.arm(await self.hydra.service.load(hydra_table.game_id))

    # -- while tables play --------------------------------------------------------------------------
    def arm_grace(self, event: EventRow, table_no: int, started_at: str) -> None:
        due = datetime.fromisoformat(started_at) + timedelta(minutes=event.grace_minutes)
        self._spawn(("grace", event.event_id, table_no), self._grace_later(event.event_id, table_no, due))

    async def _grace_later(self, event_id: int, table_no: int, due: datetime) -> None:
        await self.clock.sleep_until(due)
        # Once due, the drop runs to the end: it may end the event, and ending it cancels the timers
        # (this one too) while the board is still being drawn in the work pool.
        await asyncio.shield(self._drop_no_shows(event_id, table_no))

    async def _drop_no_shows(self, event_id: int, table_no: int) -> None:
        dropped = await self.events.drop_no_shows(event_id, table_no)
        if not dropped.user_ids:
            return
        if dropped.result is not None:
            await self.hydra.after(dropped.result)
        status = await self.events.status(event_id)
        table = next(t for t in status.tables if t.table_no == table_no)
        shown = status.summary.table(table_no)
        if table.thread_id is not None:
            thread = await self._channel(table.thread_id)
            key = "hydra_events.ui.dropped_lost" if shown is not None and shown.outcome == LOST else \
                "hydra_events.ui.dropped"
            await thread.send(Translate(status.event.language)(
                key, players=" ".join(f"<@{u}>" for u in dropped.user_ids), table=table_no))

    async def _watch(self, event_id: int) -> None:
        """The live leaderboard: look every few seconds, edit only when it changed, and finish the
        event when every table has ended. (Polling, because the Hydra feature announces only the
        end of a game, not each turn.)"""
        while True:
            try:
                if await self.refresh_leaderboard(event_id):
                    return
            except Exception:  # one failed edit must not stop the leaderboard
                log.exception("could not refresh the leaderboard of Hydra event %s", event_id)
            await self.clock.sleep(self.leaderboard_seconds)

    @commands.Cog.listener()
    async def on_hydra_game_finished(self, record: Any) -> None:
        """A table ended: look at the leaderboard now rather than at the next tick."""
        event = await self.events.event_of_game(record.game_id)
        if event is not None and event.status == RUNNING:
            await self.refresh_leaderboard(event.event_id)

    async def refresh_leaderboard(self, event_id: int) -> bool:
        """Edit the live leaderboard if it changed; finish the event when all tables ended.
        Returns True once the event is over."""
        status = await self.events.status(event_id)
        if status.event.status != RUNNING:
            return True
        if self.events.tables_all_over(status):
            await self.finish_event(event_id)
            return True
        embed = self.leaderboard_embed(status)
        if self.shown.get(event_id) != embed.to_dict() and status.event.leaderboard_message_id:
            channel = await self._channel(status.event.channel_id)
            await channel.get_partial_message(status.event.leaderboard_message_id).edit(embed=embed)
            self.shown[event_id] = embed.to_dict()
        return False

    # -- the end ------------------------------------------------------------------------------------
    async def finish_event(self, event_id: int) -> None:
        """Award (one transaction), give the winner role, then post the results with the image."""
        event = await self.events.event(event_id)
        role_id = (await self.bot.guild_settings.get(event.guild_id)).winner_role_id  # type: ignore[attr-defined]
        if await self.events.finish(event_id, role_id) is None:
            return
        self._stop_timers(event_id)
        await self.grant_pending_roles()
        await self.publish_results(event_id)

    async def publish_results(self, event_id: int) -> None:
        """Post the results of a finished event once (again after a restart if posting failed).
        The winners named are the stored awards, not a fresh look at the tables."""
        status = await self.events.status(event_id)
        event = status.event
        if event.status != FINISHED or event.results_message_id is not None:
            return
        tr = Translate(event.language)
        try:
            channel = await self._channel(event.channel_id)
            embed = self.leaderboard_embed(status)
            if event.leaderboard_message_id:
                await channel.get_partial_message(event.leaderboard_message_id).edit(embed=embed)
            winners = fit_lines([f"<@{award.user_id}>" for award in await self.events.repo.awards(event_id)],
                                WINNERS_BUDGET, lambda count: tr("core.and_more", count=count), separator=" ")
            text = results_text(status.summary, tr, shown(event.name), winners)
            png = await self.bot.workers.run(_leaderboard_png, event.name, status.summary,  # type: ignore[attr-defined]
                                             event.language)
            file = discord.File(io.BytesIO(png), filename=f"hydra-event-{event_id}.png")
            embed.set_image(url=f"attachment://{file.filename}")
            message = await channel.send(text, embed=embed, file=file)
        except discord.HTTPException:
            log.exception("could not post the results of Hydra event %s (retried at the next start)", event_id)
            return
        await self.events.set_messages(event_id, results_message_id=message.id)
        await self._scheduled_status(event, discord.EventStatus.completed)
        self.announcements.request(event_id)

    async def grant_pending_roles(self) -> None:
        """Give the winner role for every award not yet marked given (retried after a restart)."""
        for event_id, guild_id, award in await self.events.repo.roles_to_grant():
            try:
                await self.bot.http.add_role(guild_id, award.user_id, award.role_id,  # type: ignore[arg-type]
                                             reason="Hydra event winner")
            except discord.HTTPException:
                log.warning("could not give role %s to %s (event %s)", award.role_id, award.user_id, event_id)
                continue
            await self.events.repo.role_granted(event_id, award.user_id)

    async def ask_confirmation(self, interaction: discord.Interaction, event_id: int | None, action: str) -> None:
        if not await self._organiser_only(interaction):
            return
        event = await self._event(interaction, event_id)
        if event is None:
            return
        tr = await self._tr(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(EventButton(event.event_id, action, label=tr(f"hydra_events.ui.{action}"),
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message(tr(f"hydra_events.ui.{action}_question", event=shown(event.name)),
                                                view=view, ephemeral=True)

    async def confirmed(self, interaction: discord.Interaction, event_id: int, action: str) -> None:
        if not await self._organiser_only(interaction):
            return
        tr = await self._tr(interaction)
        event = await self.events.event(event_id)
        if event.status not in (OPEN, SEATING, RUNNING):
            await self.refuse(interaction, EventError("hydra_events.error.not_open"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if action == "confirm_cancel":
            await self.cancel_event(event)
            await interaction.followup.send(tr("hydra_events.ui.cancelled_done", event=shown(event.name)), ephemeral=True)
        elif event.status != RUNNING:
            await interaction.followup.send(tr("hydra_events.error.not_running"), ephemeral=True)
        else:
            await self.finish_event(event_id)
            await interaction.followup.send(tr("hydra_events.ui.ended_done", event=shown(event.name)), ephemeral=True)

    async def cancel_event(self, event: EventRow, reason_key: str = "hydra_events.ui.cancelled") -> None:
        if not await self.events.cancel(event.event_id):
            return
        self._stop_timers(event.event_id)
        channel = await self._channel(event.channel_id)
        await channel.send(Translate(event.language)(reason_key, event=shown(event.name)))
        await self._scheduled_status(event, discord.EventStatus.cancelled)
        self.announcements.request(event.event_id)

    def _stop_timers(self, event_id: int) -> None:
        for key in [k for k in self.timers if k[1] == event_id]:
            task = self.timers.pop(key)
            if task is not asyncio.current_task():
                task.cancel()

    # -- rendering ----------------------------------------------------------------------------------
    async def announcement_payload(self, event: EventRow) -> tuple[discord.Embed, discord.ui.View | None]:
        tr = Translate(event.language)
        entrants = await self.events.repo.entrants(event.event_id)
        stamp = int(datetime.fromisoformat(event.starts_at).timestamp())
        embed = discord.Embed(title=shown(event.name), colour=discord.Colour.dark_red(), description=tr(
            "hydra_events.ui.announcement", start=f"<t:{stamp}:F> (<t:{stamp}:R>)", heads=event.heads,
            size=event.table_size, grace=event.grace_minutes))
        counts = {state: sum(e.state == state for e in entrants) for state in (JOINED, SEATED, WAITING)}
        embed.add_field(name=tr("hydra_events.ui.count_title"), value=tr(
            "hydra_events.ui.count", joined=counts[JOINED] + counts[SEATED], waiting=counts[WAITING]))
        embed.add_field(name=tr("hydra_events.ui.status_title"), value=tr(f"hydra_events.status.{event.status}"))
        embed.set_footer(text=tr("hydra_events.ui.footer", event=event.event_id))
        if event.status in (FINISHED, CANCELLED):
            return embed, None
        view = discord.ui.View(timeout=None)
        view.add_item(EventButton(event.event_id, "join", label=tr("hydra_events.ui.join"),
                                  style=discord.ButtonStyle.success))
        view.add_item(EventButton(event.event_id, "leave", label=tr("hydra_events.ui.leave")))
        return embed, view

    async def refresh_announcement(self, event_id: int) -> None:
        event = await self.events.event(event_id)
        if event.message_id is None:
            return
        embed, view = await self.announcement_payload(event)
        channel = await self._channel(event.channel_id)
        await channel.get_partial_message(event.message_id).edit(embed=embed, view=view)

    def leaderboard_embed(self, status: EventStatus) -> discord.Embed:
        tr = Translate(status.event.language)
        board = status.summary
        embed = discord.Embed(title=tr("hydra_events.board.title", event=shown(status.event.name)),
                              description=summary_text(board, tr), colour=discord.Colour.gold())
        embed.add_field(name=tr("hydra_events.board.tables"), value=tables_text(board, tr)[:1024], inline=False)
        embed.add_field(name=tr("hydra_events.board.players"), value=players_text(board, tr)[:1024], inline=False)
        return embed

    async def status(self, interaction: discord.Interaction, event_id: int | None) -> None:
        try:
            event = await self.events.for_status(interaction.guild_id or 0, interaction.channel_id, event_id)
        except EventError as error:
            await self.refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        status = await self.events.status(event.event_id)
        embed = self.leaderboard_embed(status)
        embed.title = f"{shown(event.name)} — {tr(f'hydra_events.status.{event.status}')}"
        embed.add_field(name=tr("hydra_events.ui.count_title"), inline=False, value=tr(
            "hydra_events.ui.status_counts", joined=status.count(JOINED), seated=status.count(SEATED),
            waiting=status.count(WAITING), dropped=status.count(DROPPED)))
        threads = fit_lines([f"{t.table_no}: <#{t.thread_id}>" for t in status.tables if t.thread_id], FIELD_BUDGET,
                            lambda count: tr("core.and_more", count=count), separator=" ")
        if threads:
            embed.add_field(name=tr("hydra_events.board.threads"), value=threads, inline=False)
        mine = next((e for e in status.entrants if e.user_id == interaction.user.id), None)
        if mine is not None:
            embed.set_footer(text=tr(f"hydra_events.you.{mine.state}", table=mine.table_no or "-"))
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _leaderboard_png(title: str, summary: object, language: str) -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop."""
    return png_bytes(render_leaderboard(title, summary, language))  # type: ignore[arg-type]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HydraEventsCog(bot))
