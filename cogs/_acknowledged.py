"""Every press acknowledged before its change is stored is written down first, once, for every cog.

A button or form whose handler defers (Discord's 3 s: the work waits for the game's lock, the database,
the work pool) or that the bot defers late (cogs/_deadline.py) is acknowledged before its change is
stored: a crash in between lost the change silently, while the presser had seen it arrive. The pod
board's plain buttons had a journal of their own (cogs/pods/presses.py); the others - pod undo and
shuffle, the Hydra's and the Horde's and the God's tables, the sideboard panel, tournament buttons -
had none. They are covered here, at the one place every acknowledgement passes
(``_InTimeResponse.defer`` and the late deferral), without any cog knowing:

1. Before the acknowledgement, the interaction as Discord sent it is appended to
   ``interactions.journal`` (next to the database file) and synced to the disk (the press journal's
   shared ``fdatasync``, bot/storage/press_journal.py).
2. The transaction that stores its change also stores its id (``applied_presses``, bot/storage/db.py).
3. When its handler has finished, a "done" line follows.

On start (``replay``, once the bot is ready and knows its servers), each press recorded but neither done
nor in ``applied_presses`` is handed to discord.py again, as if Discord had sent it once more, marked as
already acknowledged: its handler runs as it would have, and its answers - a refusal too, so the presser
learns it could not be applied - arrive as followups of the original interaction. That needs the
interaction's token, valid 15 minutes: an older record is not replayed (logged). A press whose change
spans several transactions is marked by its first: a crash between them replays nothing, as the first
already holds; the handlers here store one change per press.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import discord

from bot.clock import clock_of
from bot.shutdown import HANDLER_TASKS
from bot.storage.press_journal import (
    CURRENT_ARRIVAL,
    PressJournal,
    RecordedInteraction,
    applied_presses,
    forget_applied_presses,
)

log = logging.getLogger(__name__)

OWN_JOURNAL = "podkeeper.own_journal"  # interaction.extras key: a cog journaled this press itself (pods)
PRESSES = (discord.InteractionType.component, discord.InteractionType.modal_submit)
TOKEN_LIFETIME = timedelta(minutes=14)  # Discord's interaction tokens last 15 minutes
FORGET_AFTER = timedelta(days=1)  # ``applied_presses`` rows older than this are no longer needed


class AcknowledgedPresses:
    """The shared journal of one bot process."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.journal: PressJournal | None = None  # open once ``start`` took it
        self._replayed = False

    async def before_acknowledging(self, interaction: discord.Interaction, *, handler: bool) -> None:
        """Write the press down, on the disk, before it is acknowledged. ``handler``: called from the
        handler's own task (its end is the press's end); else from the late deferral (the press ends when
        its handler answers, ``answering``)."""
        arrival = CURRENT_ARRIVAL.get()
        if (
            self.journal is None
            or arrival is None
            or arrival.journaled
            or interaction.type not in PRESSES
            or interaction.extras.get(OWN_JOURNAL)
            or arrival.press_id != interaction.id
        ):
            return
        recorded = RecordedInteraction(arrival.press_id, arrival.payload, arrival.at)
        if await self.journal.record_interaction(recorded):
            arrival.journaled = True
            if handler:
                self._done_with_task(arrival.press_id)

    def answering(self, interaction: discord.Interaction) -> None:
        """The handler of a late-deferred press answers: its change is stored (or refused) by now."""
        arrival = CURRENT_ARRIVAL.get()
        if arrival is not None and arrival.journaled and arrival.press_id == interaction.id:
            self._done_with_task(arrival.press_id)

    def _done_with_task(self, press_id: int) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._done_when_finished(task, press_id)

    def _done_when_finished(self, task: asyncio.Task[Any], press_id: int) -> None:
        journal = self.journal
        if journal is None:
            return

        def finished(done: asyncio.Task[Any]) -> None:
            if not done.cancelled():  # cancelled: the bot is stopping, and the press is replayed at start
                journal.done(press_id)

        task.add_done_callback(finished)

    # -- after a crash --------------------------------------------------------------------------------

    async def start(self) -> list[RecordedInteraction]:
        """Take this process's journal (in ``setup_hook``); returns the presses a crash left to replay."""
        journal = PressJournal(self.bot.config.interaction_journal_path)
        if not journal.acquire():
            log.error(
                "press journal %s is held by another bot process (the same shards twice?): presses of "
                "this process are not protected against a crash",
                journal.path,
            )
            return []
        pending = journal.pending_interactions()
        stored = await applied_presses(self.bot.db, [arrival.press_id for arrival in pending])
        journal.open()
        self.journal = journal
        now = clock_of(self.bot).now()
        await forget_applied_presses(self.bot.db, (now - FORGET_AFTER).isoformat(timespec="seconds"))
        return [arrival for arrival in pending if arrival.press_id not in stored]

    async def replay(self, pending: list[RecordedInteraction]) -> int:
        """Hand each press to discord.py again (once the bot is ready: its handlers need the servers and
        members); returns how many were replayed."""
        if self._replayed or self.journal is None:
            return 0
        self._replayed = True
        now = clock_of(self.bot).now().timestamp()
        replayed = 0
        for arrival in pending:
            if now - arrival.at > TOKEN_LIFETIME.total_seconds():
                log.warning("press %s is older than its token: not applied after the crash", arrival.press_id)
                continue
            if await self.journal.record_interaction(arrival):  # until it is done again, in the new journal
                self._hand_over(arrival)
                replayed += 1
        if replayed:
            log.warning("after a crash: %d acknowledged presses replayed from the press journal", replayed)
        return replayed

    def _hand_over(self, arrival: RecordedInteraction) -> None:
        """discord.py starts the press's handler as it parses it; the press is done when that ends (the
        handler sees the press already acknowledged, so it makes no call that would say so)."""
        before = asyncio.all_tasks()
        self.bot.interactions.replay(arrival.payload, arrival.at)
        for task in asyncio.all_tasks() - before:
            if task.get_name().startswith(HANDLER_TASKS):
                self._done_when_finished(task, arrival.press_id)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None
