"""The Hydra events cog (see the package's docstring): loading and resuming after a restart,
create / join / leave, the organiser's confirmations; the rest is mixed in from ``running`` and ``panels``."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.clock import clock_of
from bot.domain.hydra_events import EVENT_DECKS, EventError
from bot.i18n import EventTranslate, Translate
from bot.leases import leases_of
from bot.services.hydra_events import HydraEventService
from bot.services.reconcile import register_reconcile
from bot.storage.event_invitations import InvitationRepository
from bot.storage.hydra_events import OPEN, RUNNING, SEATED, SEATING, WAITING, EventRow
from bot.text import member_name
from cogs._boards import LiveBoards
from cogs._errors import RefusingCog
from cogs._permissions import NEW_THREAD_PERMISSIONS, board_permissions, refuse_unless_bot_can_post
from cogs._timers import Timers
from cogs._updater import BoardUpdater, lanes_of
from cogs.hydra import HydraCog
from cogs.hydra_events.commands import ChallengeEventCommands, HydraEventCommands
from cogs.hydra_events.components import EventButton
from cogs.hydra_events.invitations import AcceptButton, DeclineButton, Invitations
from cogs.hydra_events.panels import shown
from cogs.hydra_events.running import EventRunning

log = logging.getLogger(__name__)

LEADERBOARD_SECONDS = 5.0  # how often the live leaderboard looks for changes (one edit at most)
ANNOUNCE_COALESCE_SECONDS = 1.0  # a rush on the Join button becomes one edit of the count
SCHEDULED_EVENT_HOURS = 3  # Discord wants an end time for events outside a voice channel


class HydraEventsCog(RefusingCog, EventRunning, commands.Cog, name="HydraEvents"):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.commands = HydraEventCommands(self)
        self.deck_commands = ChallengeEventCommands(self)
        self.parent_group = None
        self.challenge_group = None
        self.service = None
        self.leaderboard_seconds = LEADERBOARD_SECONDS
        # Start timers, grace drops and leaderboards run in the one process holding this lease
        # (bot.leases); it is taken at ready, as resuming events talks to Discord. Elsewhere a timer
        # is not armed: the holder arms it from the database when poked.
        self.schedule = leases_of(bot).lease("hydra-events", self.rearm, self._drop_timers)
        self.timers = Timers(clock_of(bot), "hydra-event", runs_here=self.schedule.runs_here)
        self.shown = {}
        self.announcement_boards = LiveBoards(bot, "event announcement")
        self.scheduled_ends = {}
        self.announcements = BoardUpdater(
            self.refresh_announcement,
            delay=ANNOUNCE_COALESCE_SECONDS,
            what="event announcement",
            channel_of=self._announcement_channel,
            lanes=lanes_of(bot),
            clock=clock_of(bot),
        )
        self._resumed = False
        self.invitations = Invitations(
            bot,
            self.enter_group,
            lambda event_id, members: self.events.check_may_join(event_id, members),
            lambda event_id: self.events.event(event_id),
            self.timers,
            clock_of(bot),
        )
        super().__init__()

    async def _announcement_channel(self, event_id: int) -> int | None:
        """The event's channel: its announcement's edits wait only for that channel's other boards."""
        return (await self.events.event(event_id)).channel_id

    async def cog_load(self) -> None:
        """Join the Hydra cog's ``/hydra`` group as ``/hydra event …`` (and the Challenge cog's as
        ``/challenge event …``): every table is one of their tables, so without the Hydra cog there is
        nothing to run (logged, and no commands are added)."""
        hydra = self.bot.get_cog(HydraCog.__cog_name__)
        if not isinstance(hydra, HydraCog):
            log.error("the Hydra cog is not loaded: /hydra event is not available")
            return
        group = hydra.app_command
        assert group is not None, "the Hydra cog is a GroupCog (/hydra)"
        group.add_command(self.commands)
        self.parent_group = group
        challenge = self.challenge
        if challenge is not None:
            self.challenge_group = challenge.app_command
            self.challenge_group.add_command(self.deck_commands)  # type: ignore[union-attr]
        self.service = HydraEventService(
            self.bot.db,
            hydra.service,
            clock=self.clock,
            decks=challenge.service if challenge is not None else None,
        )
        self.invitations.repo = InvitationRepository(self.bot.db)
        self.bot.add_dynamic_items(EventButton, AcceptButton, DeclineButton)
        register_reconcile(self.bot, "hydra events", self.reconcile_messages)

    async def reconcile_messages(self) -> int:
        """After a start: each active event's announcement and leaderboard show the
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
            self.bot.remove_dynamic_items(EventButton, AcceptButton, DeclineButton)
        if self.challenge_group is not None:
            self.challenge_group.remove_command(self.deck_commands.name)
        self.schedule.stop()
        self._drop_timers()
        self.announcements.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: re-arm start timers, finish seating, restart leaderboards and grace
        timers, and give any role that was awarded but not yet given."""
        if self._resumed or self.service is None:
            return
        self._resumed = True
        await self.schedule.start()

    async def rearm(self, taking_over: bool) -> None:
        """This process runs the events' timers: arm them from what is stored. Taking over (a start,
        or the previous owner died) also finishes what was left half done; a poke (another process
        stored an event or began one) arms timers only, as that process is doing the rest."""
        for event in await self.events.repo.events_with_status((OPEN, SEATING, RUNNING)):
            if event.status == OPEN:
                self.arm_start(event)
            elif taking_over:
                self.timers.spawn(("begin", event.event_id, 0), self._begin_logged(event.event_id))
            elif event.status == RUNNING:
                self.arm_running(event, await self.events.status(event.event_id))
        await self.invitations.rearm()
        if taking_over:
            await self.grant_pending_roles()
            for event in await self.events.repo.finished_without_results():
                await self.publish_results(event.event_id)

    def _drop_timers(self) -> None:
        self.timers.cancel_all()

    # -- create / join / leave ---------------------------------------------------------------------
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        start: str,
        heads: int | None,
        table_size: int | None,
        grace: int,
        deck: str = "hydra",
    ) -> None:
        """``heads``: the deck's difficulty; ``heads`` and ``table_size`` default to the deck's."""
        await self._require_organiser(interaction)
        # The announcement is edited as people join, and each table gets a thread of this channel.
        if await refuse_unless_bot_can_post(
            interaction, board_permissions(interaction.channel) + NEW_THREAD_PERMISSIONS
        ):
            return
        rules = EVENT_DECKS[deck]
        event = await self.events.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=name,
            start=start,
            heads=rules.default_difficulty if heads is None else heads,
            table_size=rules.max_table if table_size is None else table_size,
            grace_minutes=grace,
            language=await self._language(interaction.guild_id),
            deck=deck,
        )
        embed, view = await self.announcement_payload(event)
        parts: dict[str, Any] = {"view": view} if view is not None else {}
        await interaction.response.send_message(embed=embed, **parts)
        message = await interaction.original_response()
        await self.announcement_boards.record_post(message)
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
        tr = EventTranslate(event.language, event.deck)
        try:
            return await guild.create_scheduled_event(
                name=event.name[:100],
                start_time=start,
                end_time=start + timedelta(hours=SCHEDULED_EVENT_HOURS),
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=f"#{getattr(self.bot.get_channel(event.channel_id), 'name', 'hydra')}"[:100],
                description=tr(
                    "hydra_events.ui.scheduled_description", heads=event.heads, size=event.table_size
                )[:1000],
            )
        except discord.Forbidden:
            log.warning("no Create Events permission: Hydra event %s has no scheduled event", event.event_id)
            await interaction.followup.send(
                (await self._tr(interaction))("core.error.no_scheduled_event"), ephemeral=True
            )
            return None
        except discord.HTTPException:
            log.exception("could not create the scheduled event of Hydra event %s", event.event_id)
            return None

    async def join(
        self, interaction: discord.Interaction, event_id: int | None, friends: list[discord.Member]
    ) -> None:
        """Join alone at once; with friends, ask them first (``cogs.hydra_events.invitations``)."""
        event = await self.event_for(interaction, event_id)
        if any(f.bot for f in friends):
            raise EventError("hydra_events.error.no_bots")
        if friends:
            await self.invitations.ask(interaction, event, friends, await self._tr(interaction))
            return
        user = interaction.user
        await self.enter_group(interaction, event, [(user.id, member_name(user.display_name, user.id))])

    async def enter_group(
        self, interaction: discord.Interaction, event: EventRow, members: list[tuple[int, str]]
    ) -> None:
        """Enter a player, or a group whose friends all accepted, and tell whoever acted last."""
        tr = await self._tr(interaction)
        outcome = await self.events.join(event.event_id, members)
        mentions = " ".join(f"<@{uid}>" for uid, _ in members)
        if outcome.state == SEATED and outcome.table is not None:
            thread_id = outcome.table.row.channel_id
            assert thread_id is not None, "a seated table has its thread"
            await self._reply(
                interaction,
                tr(
                    "hydra_events.ui.seated_late",
                    players=mentions,
                    table=outcome.table_no,
                    thread=f"<#{thread_id}>",
                ),
            )
            await self._show_table(event, outcome.table)
            thread = await self._channel(thread_id)
            await thread.send(
                Translate(event.language)(
                    "hydra_events.ui.newcomer_checkin", players=mentions, grace=event.grace_minutes
                ),
                view=self.checkin_view(event),
            )
            self.arm_late_grace(event, outcome.table_no)
        elif outcome.state == WAITING:
            # tables of one (the Horde) are full once they play: "past its first turn" would be wrong
            key = "hydra_events.ui.waiting_alone" if event.table_size == 1 else "hydra_events.ui.waiting"
            await self._reply(interaction, tr(key, players=mentions))
        else:
            await self._reply(
                interaction, tr("hydra_events.ui.joined", players=mentions, event=shown(event.name))
            )
        self.announcements.request(event.event_id)
        await self.announcement_boards.heard(event.event_id, interaction)

    async def _show_table(self, event: EventRow, table: Any) -> None:
        """A table's board after its seats changed, by the cog that shows the deck's tables."""
        await self.panels(event.deck).refresh(table)

    async def leave(self, interaction: discord.Interaction, event_id: int | None) -> None:
        event = await self.event_for(interaction, event_id)
        await self.events.leave(event.event_id, interaction.user.id)
        await self._reply(
            interaction, (await self._tr(interaction))("hydra_events.ui.left", event=shown(event.name))
        )
        await self.announcement_boards.heard(event.event_id, interaction)
        self.announcements.request(event.event_id)

    async def on_button(self, interaction: discord.Interaction, event_id: int, action: str) -> None:
        if action == "join":
            await self.join(interaction, event_id, [])
        elif action == "leave":
            await self.leave(interaction, event_id)
        elif action == "checkin":
            await self.events.check_in(event_id, interaction.user.id)
            await self._reply(interaction, (await self._tr(interaction))("hydra_events.ui.checked_in"))
        elif action in ("confirm_cancel", "confirm_end"):
            await self.confirmed(interaction, event_id, action)

    async def ask_confirmation(
        self, interaction: discord.Interaction, event_id: int | None, action: str
    ) -> None:
        await self._require_organiser(interaction)
        event = await self.event_for(interaction, event_id)
        tr = await self._tr(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(
            EventButton(
                event.event_id,
                action,
                label=tr(f"hydra_events.ui.{action}"),
                style=discord.ButtonStyle.danger,
            )
        )
        await interaction.response.send_message(
            tr(f"hydra_events.ui.{action}_question", event=shown(event.name)), view=view, ephemeral=True
        )

    async def confirmed(self, interaction: discord.Interaction, event_id: int, action: str) -> None:
        await self._require_organiser(interaction)
        tr = await self._tr(interaction)
        event = await self.events.event(event_id)
        if event.status not in (OPEN, SEATING, RUNNING):
            raise EventError("hydra_events.error.not_open")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if action == "confirm_cancel":
            await self.cancel_event(event)
            await interaction.followup.send(
                tr("hydra_events.ui.cancelled_done", event=shown(event.name)), ephemeral=True
            )
        elif event.status != RUNNING:
            await interaction.followup.send(tr("hydra_events.error.not_running"), ephemeral=True)
        else:
            await self.finish_event(event_id)
            await interaction.followup.send(
                tr("hydra_events.ui.ended_done", event=shown(event.name)), ephemeral=True
            )
