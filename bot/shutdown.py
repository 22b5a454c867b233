"""Stopping without cutting an interaction in half (SIGTERM/SIGINT in ``podkeeper run``, and every close).

discord.py handles each command, press and modal in a task of its own: the handler defers, stores its
change, then answers or edits the board. Closing the database or the HTTP session under such a task loses
the answer (the change is stored but the member never hears of it) or the change. So before the bot closes
anything, :class:`InteractionGate`

1. stops taking interactions: each new one gets a short private "restarting, nothing was changed";
2. waits, at most ``[discord] shutdown_wait_seconds``, for the handlers already running (and those answers);
3. cancels what still runs then (its transaction rolls back), so a stuck handler cannot hold the stop up;

and only then ``PodkeeperBot.close`` closes the gateway, the HTTP session and the database.

discord.py keeps no list of running handlers; they are found by the names discord.py 2.7 gives their
tasks (pinned in pyproject.toml, as ``stop_views`` relies on too). tests/core/test_shutdown.py fails if
those names change: its slow handler would no longer be waited for.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.clock import clock_of
from bot.i18n import t
from bot.storage.press_journal import CURRENT_ARRIVAL, Arrival

log = logging.getLogger(__name__)

REFUSAL_TASK = "podkeeper-refuse-while-stopping"
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord-ui-dynamic-item-",
    REFUSAL_TASK,
)
ANSWERABLE = (2, 3, 5)  # application command, component, modal submit (not autocomplete or ping)
UNWIND_SECONDS = 1.0  # for cancelled handlers to roll back


class InteractionGate:
    """Sits in front of discord.py's INTERACTION_CREATE parser of one bot."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.open = True
        state = bot._connection
        self._parse = state.parse_interaction_create
        # The gateway reads the parser table; the test harness calls the attribute: both lead here.
        state.parse_interaction_create = self._parse_interaction
        state.parsers["INTERACTION_CREATE"] = self._parse_interaction
        self._refusals: set[asyncio.Task[None]] = set()

    def _parse_interaction(self, data: Any) -> None:
        if self.open:
            self._parsed(data, Arrival(int(data.get("id") or 0), data, clock_of(self.bot).now().timestamp()))
            return
        if data.get("type") in ANSWERABLE:
            task = asyncio.get_running_loop().create_task(self._refuse(data), name=REFUSAL_TASK)
            self._refusals.add(task)
            task.add_done_callback(self._refusals.discard)

    def replay(self, data: Any, at: float) -> None:
        """A press a crash cut short, handed to discord.py again (cogs/_acknowledged.py): acknowledged
        before the crash, journaled again already."""
        self._parsed(data, Arrival(int(data.get("id") or 0), data, at, journaled=True, replayed=True))

    def _parsed(self, data: Any, arrival: Arrival) -> None:
        """discord.py parses it and starts its handlers: each carries ``arrival`` in its context."""
        token = CURRENT_ARRIVAL.set(arrival)
        try:
            self._parse(data)
        finally:
            CURRENT_ARRIVAL.reset(token)

    async def _refuse(self, data: Any) -> None:
        interaction: discord.Interaction = discord.Interaction(data=data, state=self.bot._connection)
        try:
            language = await self.bot.language_for(interaction)
            await interaction.response.send_message(t("core.restarting", language), ephemeral=True)
        except Exception:  # the stop goes on; Discord tells the member the interaction failed
            log.info("could not answer an interaction during shutdown", exc_info=True)

    async def close(self, wait_seconds: float) -> int:
        """Refuse new interactions, wait for the running ones up to ``wait_seconds``, cancel the rest.
        Returns how many had to be cancelled."""
        self.open = False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_seconds
        running = self._running()
        if running:
            log.info(
                "shutting down: waiting up to %s s for %d interaction(s) being handled",
                wait_seconds,
                len(running),
            )
        while running and loop.time() < deadline:
            await asyncio.wait(running, timeout=deadline - loop.time())
            running = self._running()  # refusals answered meanwhile count too
        for task in running:
            task.cancel()
        if running:
            log.warning(
                "shutting down: %d interaction handler(s) still running after %s s were cancelled",
                len(running),
                wait_seconds,
            )
            await asyncio.wait(running, timeout=UNWIND_SECONDS)
        return len(running)

    @staticmethod
    def _running() -> set[asyncio.Task[Any]]:
        current = asyncio.current_task()
        return {
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(HANDLER_TASKS)
        }
