"""What a Hydra event shows in Discord: the announcement (count, Join / Leave), the live leaderboard
embed and the private status. The texts themselves come from ``bot.render.leaderboard``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import discord

from bot.i18n import EventTranslate
from bot.render.fonts import png_bytes
from bot.render.leaderboard import players_text, render_leaderboard, summary_text, tables_text
from bot.services.hydra_events import EventStatus
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
    Entrant,
    EventRow,
)
from bot.text import fit_lines
from cogs._boards import BoardMessage, Where
from cogs.hydra_events.base import EventsBase, shown
from cogs.hydra_events.components import EventButton

__all__ = ["EventPanels", "empty_start_deadline", "entrant_counts", "leaderboard_png", "shown"]

# A big night can have dozens of winners and tables: mentions in a message and a field are cut with
# "and N more" (the leaderboard lists everyone) so the content stays under Discord's 2,000 and a field its 1,024.
WINNERS_BUDGET = 1500
FIELD_BUDGET = 1000


class EventPanels(EventsBase):
    """The cog's layer for the messages it posts and edits (see ``cogs.hydra_events.base``)."""

    async def announcement_payload(self, event: EventRow) -> tuple[discord.Embed, discord.ui.View | None]:
        tr = EventTranslate(event.language, event.deck)
        entrants = await self.events.repo.entrants(event.event_id)
        embed = discord.Embed(
            title=shown(event.name),
            colour=discord.Colour.dark_red(),
            description=self._announcement_text(event, bool(entrants), tr),
        )
        counts = entrant_counts(entrants)
        embed.add_field(
            name=tr("hydra_events.ui.count_title"),
            value=tr("hydra_events.ui.count", joined=counts[JOINED], waiting=counts[WAITING]),
        )
        embed.add_field(
            name=tr("hydra_events.ui.status_title"), value=tr(f"hydra_events.status.{event.status}")
        )
        embed.set_footer(text=tr("hydra_events.ui.footer", event=event.event_id))
        if event.status in (FINISHED, CANCELLED):
            return embed, None
        view = discord.ui.View(timeout=None)
        view.add_item(
            EventButton(
                event.event_id, "join", label=tr("hydra_events.ui.join"), style=discord.ButtonStyle.success
            )
        )
        view.add_item(EventButton(event.event_id, "leave", label=tr("hydra_events.ui.leave")))
        return embed, view

    def _announcement_text(self, event: EventRow, anyone_joined: bool, tr: EventTranslate) -> str:
        """Before the start: when it starts (and, once the start has come with nobody in, until when it
        waits for players); from the start on: when it began, so "starts in 30 minutes" never outlives it."""
        options = {"heads": event.heads, "size": event.table_size, "grace": event.grace_minutes}
        if event.status != OPEN and event.began_at is not None:
            lines = [tr("hydra_events.ui.announcement_begun", start=_when(event.began_at), **options)]
            if event.status in (SEATING, RUNNING):
                lines.append(tr("hydra_events.ui.join_late"))
            return "\n".join(lines)
        text = tr("hydra_events.ui.announcement", start=_when(event.starts_at), **options)
        waits_until = empty_start_deadline(event)
        if not anyone_joined and datetime.fromisoformat(event.starts_at) <= self.clock.now() < waits_until:
            text += "\n" + tr(
                "hydra_events.ui.waiting_for_players", when=f"<t:{int(waits_until.timestamp())}:R>"
            )
        return text

    async def refresh_announcement(self, event_id: int) -> None:
        """The announcement shows the event as stored: an edit, or a fresh announcement when the message is
        too old to be edited for long (an event night lasts hours: ``cogs._boards``)."""
        event = await self.events.event(event_id)
        if event.message_id is None:
            return
        embed, view = await self.announcement_payload(event)
        where = Where(event.guild_id, event.channel_id, event.message_id, event.language)

        async def moved(channel_id: int, message_id: int) -> None:
            await self.events.set_messages(event_id, message_id=message_id)  # the channel stays the event's

        await self.announcement_boards.show(event_id, BoardMessage(embed=embed, view=view), where, moved)

    def leaderboard_embed(self, status: EventStatus) -> discord.Embed:
        tr = EventTranslate(status.event.language, status.event.deck)
        board = status.summary
        embed = discord.Embed(
            title=tr("hydra_events.board.title", event=shown(status.event.name)),
            description=summary_text(board, tr),
            colour=discord.Colour.gold(),
        )
        embed.add_field(
            name=tr("hydra_events.board.tables"), value=tables_text(board, tr)[:1024], inline=False
        )
        embed.add_field(
            name=tr("hydra_events.board.players"), value=players_text(board, tr)[:1024], inline=False
        )
        return embed

    async def status(self, interaction: discord.Interaction, event_id: int | None) -> None:
        event = await self.events.for_status(interaction.guild_id or 0, interaction.channel_id, event_id)
        tr = await self._tr(interaction)
        status = await self.events.status(event.event_id)
        embed = self.leaderboard_embed(status)
        embed.title = f"{shown(event.name)} — {tr(f'hydra_events.status.{event.status}')}"
        counts = entrant_counts(status.entrants)
        embed.add_field(
            name=tr("hydra_events.ui.count_title"),
            inline=False,
            value=tr(
                "hydra_events.ui.status_counts",
                joined=counts[JOINED],
                seated=counts[SEATED],
                waiting=counts[WAITING],
                dropped=counts[DROPPED],
            ),
        )
        threads = fit_lines(
            [f"{t.table_no}: <#{t.thread_id}>" for t in status.tables if t.thread_id],
            FIELD_BUDGET,
            lambda count: tr("core.and_more", count=count),
            separator=" ",
        )
        if threads:
            embed.add_field(name=tr("hydra_events.board.threads"), value=threads, inline=False)
        mine = next((e for e in status.entrants if e.user_id == interaction.user.id), None)
        if mine is not None:
            embed.set_footer(text=tr(f"hydra_events.you.{mine.state}", table=mine.table_no or "-"))
        await interaction.response.send_message(embed=embed, ephemeral=True)


def entrant_counts(entrants: Sequence[Entrant]) -> dict[str, int]:
    """The counts the announcement and ``status`` both show, so they never disagree: ``joined`` is
    everyone who joined (wherever they are now), then how many sit at a table, wait, or were dropped."""
    counts = {state: sum(e.state == state for e in entrants) for state in (SEATED, WAITING, DROPPED)}
    counts[JOINED] = len(entrants)
    return counts


def empty_start_deadline(event: EventRow) -> datetime:
    """How long an event whose start came with nobody in waits for players: its grace period (then it
    begins with whoever joined, or is cancelled). ``start: now`` is cancelled at once otherwise."""
    return datetime.fromisoformat(event.starts_at) + timedelta(minutes=event.grace_minutes)


def _when(iso: str) -> str:
    """A stored time as a Discord timestamp, in full and relative (each reader sees their own time zone)."""
    stamp = int(datetime.fromisoformat(iso).timestamp())
    return f"<t:{stamp}:F> (<t:{stamp}:R>)"


def leaderboard_png(title: str, summary: object, language: str, deck: str = "hydra") -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop."""
    return png_bytes(render_leaderboard(title, summary, language, deck=deck))  # type: ignore[arg-type]
