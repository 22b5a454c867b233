"""A Hydra event from its start to its results: the start timer, seating and table threads, the grace
period for no-shows, the live leaderboard, and the end (awards, winner role, results image)."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.domain.hydra import HydraError
from bot.domain.hydra_events import LOST, EventError
from bot.i18n import EventTranslate, Translate
from bot.render.leaderboard import results_text
from bot.services.hydra_events import EventStatus
from bot.storage.hydra_events import FINISHED, OPEN, RUNNING, SEATED, EventRow
from bot.text import fit_lines
from cogs._permissions import role_grant_problem
from cogs.hydra_events.components import EventButton
from cogs.hydra_events.panels import WINNERS_BUDGET, EventPanels, empty_start_deadline, leaderboard_png, shown

log = logging.getLogger(__name__)

RESULTS_RETRY_SECONDS = 30  # a refused results post is tried again after this, doubling each time ...
RESULTS_TRIES = 6  # ... this many tries in all (about 30 minutes), then at the next start


class EventRunning(EventPanels):
    """The cog's layer for everything after the announcement (see ``cogs.hydra_events.base``)."""

    def arm_start(self, event: EventRow) -> None:
        """Begin at the stored start time (at once if the bot was down past it)."""
        starts_at = datetime.fromisoformat(event.starts_at)
        self.timers.at(
            ("start", event.event_id, 0),
            starts_at,
            lambda: self._begin_when_due(event.event_id),
            armed=datetime.fromisoformat(event.created_at),
        )

    async def _begin_when_due(self, event_id: int) -> None:
        event = await self.events.event(event_id)
        if event.status != OPEN:
            return
        if not await self.events.repo.entrants(event_id):
            waits_until = empty_start_deadline(event)
            if self.clock.now() < waits_until:  # nobody could join yet (``start: now``): wait for players
                self.timers.at(("start", event_id, 0), waits_until, lambda: self._begin_when_due(event_id))
                self.announcements.request(event_id)
                return
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
        await self._require_organiser(interaction)
        event = await self.event_for(interaction, event_id)
        if event.status not in (OPEN, RUNNING):
            raise EventError("hydra_events.error.already_begun")
        # Seat the wait list before deferring: "nobody is waiting" must stay private, and after a public
        # "thinking…" Discord would show the refusal (the first follow-up) to everyone.
        if event.status == RUNNING:  # a second wave: new tables for the wait list
            await self.events.seat_waiting(event.event_id)
        await interaction.response.defer(thinking=True)
        status = await self.begin_event(event.event_id)
        await interaction.followup.send(
            (await self._tr(interaction))(
                "hydra_events.ui.begun",
                event=shown(event.name),
                tables=len(status.tables),
                players=status.count(SEATED),
            )
        )

    async def begin_event(self, event_id: int) -> EventStatus:
        """Seat everyone, open each table's thread and Hydra, post the leaderboard. Every step is
        stored first, so calling this again after a restart finishes what was left."""
        self.timers.cancel(("start", event_id, 0))
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
            self.arm_running(event, status)
        self.announcements.request(event_id)
        return status

    def arm_running(self, event: EventRow, status: EventStatus) -> None:
        """A running event's timers: each table's grace drop not yet done, and the leaderboard."""
        for table_row in status.tables:
            if not table_row.grace_checked:
                self.arm_grace(event, table_row.table_no, table_row.started_at)
        self.timers.spawn(("board", event.event_id, 0), self._watch(event.event_id))

    async def _open_thread(self, announcement: Any, event: EventRow, table_no: int, hydra_table: Any) -> None:
        tr = EventTranslate(event.language, event.deck)
        thread = await announcement.create_thread(
            name=tr("hydra_events.ui.thread_name", event=event.name, table=table_no)[:100],
            type=discord.ChannelType.public_thread,
        )
        mentions = " ".join(f"<@{user_id}>" for user_id in hydra_table.user_ids)
        view = self.checkin_view(event)
        await thread.send(
            tr(
                "hydra_events.ui.table_intro",
                players=mentions,
                table=table_no,
                event=shown(event.name),
                heads=event.heads,
                grace=event.grace_minutes,
            ),
            view=view,
        )
        await self.panels(event.deck).post_table(thread, hydra_table)
        await self.events.attach_thread(event.event_id, table_no, thread.id)

    @staticmethod
    def checkin_view(event: EventRow) -> discord.ui.View:
        """The "I'm here" button under a table's first message and under each late joiner's welcome."""
        tr = EventTranslate(event.language, event.deck)
        view = discord.ui.View(timeout=None)
        view.add_item(
            EventButton(
                event.event_id,
                "checkin",
                label=tr("hydra_events.ui.checkin"),
                style=discord.ButtonStyle.primary,
            )
        )
        return view

    # -- while tables play --------------------------------------------------------------------------
    def arm_grace(self, event: EventRow, table_no: int, started_at: str) -> None:
        armed = datetime.fromisoformat(started_at)  # stored: a clock that jumped back is noticed on re-arm
        self._arm_grace_at(
            event.event_id, table_no, armed + timedelta(minutes=event.grace_minutes), armed=armed
        )

    def arm_late_grace(self, event: EventRow, table_no: int | None) -> None:
        """A late joiner's grace runs from their seat: look at the table again then, unless a look is
        already due sooner (it re-arms itself for whoever's grace is still running)."""
        if table_no is not None and not self.timers.pending(("grace", event.event_id, table_no)):
            self._arm_grace_at(
                event.event_id, table_no, self.clock.now() + timedelta(minutes=event.grace_minutes)
            )

    def _arm_grace_at(
        self, event_id: int, table_no: int, due: datetime, *, armed: datetime | None = None
    ) -> None:
        # Once due, the drop runs to the end: it may end the event, and ending it cancels the timers
        # (this one too) while the board is still being drawn in the work pool.
        self.timers.at(
            ("grace", event_id, table_no),
            due,
            lambda: asyncio.shield(self._drop_no_shows(event_id, table_no)),
            armed=armed,
        )

    async def _drop_no_shows(self, event_id: int, table_no: int) -> None:
        dropped = await self.events.drop_no_shows(event_id, table_no)
        if dropped.next_due is not None:  # a late joiner's grace still runs
            self._arm_grace_at(event_id, table_no, dropped.next_due)
        if not dropped.user_ids:
            return
        status = await self.events.status(event_id)
        panels = self.panels(status.event.deck, required=False)
        if dropped.result is not None and panels is not None:
            # The drop runs to its end even when the bot is closing (its timer is shielded); the deck's cog
            # may be unloaded by then, and its table's board is caught up at the next start.
            await panels.after(dropped.result)
        table = next(t for t in status.tables if t.table_no == table_no)
        shown = status.summary.table(table_no)
        if table.thread_id is not None:
            thread = await self._channel(table.thread_id)
            key = (
                "hydra_events.ui.dropped_lost"
                if shown is not None and shown.outcome == LOST
                else "hydra_events.ui.dropped"
            )
            await thread.send(
                EventTranslate(status.event.language, status.event.deck)(
                    key, players=" ".join(f"<@{u}>" for u in dropped.user_ids), table=table_no
                )
            )

    async def _watch(self, event_id: int) -> None:
        """The live leaderboard: look every few seconds, edit only when it changed, and finish the
        event when every table has ended. (Polling, because the Hydra feature announces only the
        end of a game, not each turn.)"""
        while True:
            try:
                if await self.refresh_leaderboard(event_id):
                    return
                await self.keep_scheduled_event_open(await self.events.event(event_id))
            except Exception:  # one failed edit must not stop the leaderboard
                log.exception("could not refresh the leaderboard of Hydra event %s", event_id)
            await self.clock.sleep(self.leaderboard_seconds)

    @commands.Cog.listener()
    async def on_hydra_game_finished(self, record: Any) -> None:
        """A Hydra table ended: look at the leaderboard now rather than at the next tick."""
        await self._table_finished(record.game_id, record.deck)

    @commands.Cog.listener()
    async def on_challenge_game_finished(self, record: Any) -> None:
        """A Horde or God table ended (won, lost, conceded): the same, for the other decks' tables."""
        await self._table_finished(record.game_id, record.deck)

    async def _table_finished(self, game_id: int, deck: str) -> None:
        event = await self.events.event_of_game(game_id, (deck,))
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
        assert self.bot.guild_settings is not None
        role_id = (await self.bot.guild_settings.get(event.guild_id)).winner_role_id
        if await self.events.finish(event_id, role_id) is None:
            return
        self.timers.cancel_where(lambda key: key[1] == event_id)
        not_given = await self.grant_pending_roles()
        await self.publish_results(event_id, not_given.get(event_id, []))

    async def publish_results(
        self, event_id: int, not_given: Sequence[RoleNotGiven] = (), tries: int = 0
    ) -> None:
        """Post the results of a finished event once. A post Discord refuses (a channel bucket drained by
        the night's last presses, a permission taken) is tried again on the bot's clock, after
        ``RESULTS_RETRY_SECONDS`` doubling each time, ``RESULTS_TRIES`` times; after that at the next start.
        The winners named are the stored awards, not a fresh look at the tables; ``not_given`` are the
        winner roles Discord would refuse, said in the results so nobody believes they were given."""
        status = await self.events.status(event_id)
        event = status.event
        if event.status != FINISHED or event.results_message_id is not None:
            return
        tr = EventTranslate(event.language, event.deck)
        try:
            channel = await self._channel(event.channel_id)
            embed = self.leaderboard_embed(status)
            if event.leaderboard_message_id:
                await channel.get_partial_message(event.leaderboard_message_id).edit(embed=embed)
            winners = fit_lines(
                [f"<@{award.user_id}>" for award in await self.events.repo.awards(event_id)],
                WINNERS_BUDGET,
                lambda count: tr("core.and_more", count=count),
                separator=" ",
            )
            text = results_text(status.summary, tr, shown(event.name), winners) + roles_not_given_text(
                not_given, tr
            )
            png = await self.bot.workers.run(
                leaderboard_png, event.name, status.summary, event.language, event.deck
            )
            file = discord.File(io.BytesIO(png), filename=f"hydra-event-{event_id}.png")
            embed.set_image(url=f"attachment://{file.filename}")
            message = await channel.send(text, embed=embed, file=file)
        except (discord.HTTPException, discord.RateLimited) as error:
            if tries + 1 < RESULTS_TRIES:
                seconds = max(RESULTS_RETRY_SECONDS * 2**tries, getattr(error, "retry_after", 0))
                log.warning(
                    "could not post the results of Hydra event %s (again in %d s)",
                    event_id,
                    seconds,
                    exc_info=True,
                )
                self.timers.after(
                    ("results", event_id, 0),
                    seconds,
                    lambda: self.publish_results(event_id, not_given, tries + 1),
                )
            else:
                log.exception(
                    "could not post the results of Hydra event %s (again at the next start)", event_id
                )
            return
        await self.events.set_messages(event_id, results_message_id=message.id)
        await self._scheduled_status(event, discord.EventStatus.completed)
        self.announcements.request(event_id)

    async def grant_pending_roles(self) -> dict[int, list[RoleNotGiven]]:
        """Give the winner role for every award not yet marked given (retried after a restart). A role
        Discord would refuse (checked now: it may have moved above the bot's since it was configured) is
        not asked for; those are returned by event, with the reason, for the results to say."""
        not_given: dict[int, list[RoleNotGiven]] = {}
        for event_id, guild_id, award in await self.events.repo.roles_to_grant():
            role = self._role(guild_id, award.role_id) if award.role_id is not None else None
            problem = "role_gone" if role is None else role_grant_problem(role)
            if problem is None:
                try:
                    await self.bot.http.add_role(
                        guild_id,
                        award.user_id,
                        award.role_id,  # type: ignore[arg-type]
                        reason="Hydra event winner",
                    )
                except discord.Forbidden:
                    problem = "role_above_bot"
                except discord.HTTPException:
                    log.warning(
                        "could not give role %s to %s (event %s)", award.role_id, award.user_id, event_id
                    )
                    continue
            if problem is not None:
                log.warning(
                    "winner role %s not given to %s (event %s): %s",
                    award.role_id,
                    award.user_id,
                    event_id,
                    problem,
                )
                name = role.name if role is not None else str(award.role_id)
                not_given.setdefault(event_id, []).append(RoleNotGiven(award.user_id, name, problem))
                continue
            await self.events.repo.role_granted(event_id, award.user_id)
        return not_given

    def _role(self, guild_id: int, role_id: int) -> discord.Role | None:
        guild = self.bot.get_guild(guild_id)
        return guild.get_role(role_id) if guild is not None else None


ROLE_LINE_BUDGET = 300  # characters of mentions per role line: the results stay within a message's 2,000


@dataclass(frozen=True)
class RoleNotGiven:
    """A winner role the bot did not give: to whom, the role's name, and why (``role_grant_problem``)."""

    user_id: int
    role_name: str
    problem: str


def roles_not_given_text(not_given: Sequence[RoleNotGiven], tr: Translate) -> str:
    """A line per role the results must not pretend was given: the role by name (a mention would ping
    it), its winners, and what a server admin can do."""
    by_role: dict[tuple[str, str], list[int]] = {}
    for item in not_given:
        by_role.setdefault((item.role_name, item.problem), []).append(item.user_id)
    return "".join(
        "\n"
        + tr(
            "hydra_events.ui.role_not_given",
            role=discord.utils.escape_markdown(name),
            players=fit_lines(
                [f"<@{user}>" for user in users],
                ROLE_LINE_BUDGET,
                lambda count: tr("core.and_more", count=count),
                separator=" ",
            ),
            reason=tr(f"hydra_events.ui.role_reason.{problem}"),
        )
        for (name, problem), users in by_role.items()
    )
