"""Answering every interaction within Discord's 3 seconds when the work might take longer.

A command, press or form that changes something normally answers once the change is stored. That is
quick, unless another program holds the SQLite file's write lock (a ``sqlite3`` shell inside a
transaction, a backup tool): the bot then waits up to ``busy_timeout`` (5 s) and missed Discord's
deadline, so the member saw "The application did not respond" and was never told. Deferring in each
cog covered only the commands someone remembered; so it is done once, here, for every interaction the
bot receives (``Deadlines.watch``, called from ``PodkeeperBot.dispatch`` before any handler runs):

- If nothing has answered it after ``DEFER_AFTER_SECONDS``, it is deferred: a slash command shows
  "thinking…" privately, a press or form is acknowledged without changing anything.
- The handler does not need to know. Its ``interaction.response`` is swapped for ``_InTimeResponse``,
  which, once deferred, sends ``send_message`` as the followup that fills the "thinking…" message
  (or, for a public answer, replaces it with a new public message) and ``edit_message`` as an edit of
  the original response - what the handler meant, arriving later.

Discord's deadline is wall-clock time, so this timer is too (``loop.call_later``), never the bot's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

DEFER_AFTER_SECONDS = 1.5  # half of Discord's 3 s, leaving room for a busy event loop and the request
ANSWERABLE = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)  # not autocomplete or ping: they cannot be deferred
_STATE = "podkeeper.deadline"  # interaction.extras key: its _Watch


class _Watch:
    """One interaction's race between its handler's first answer and the late deferral."""

    def __init__(self) -> None:
        self.answering = False  # the handler has started its own first answer: no deferral now
        self.deferral: asyncio.Future[bool] | None = None  # the late deferral, once it started
        self.thinking = (
            False  # that deferral is a "thinking…" message (else a press's silent acknowledgement)
        )

    async def deferred(self) -> bool:
        """Whether the late deferral answered the interaction (waiting for it if it is under way)."""
        return self.deferral is not None and await self.deferral


def _watch_of(interaction: discord.Interaction) -> _Watch:
    return interaction.extras.setdefault(_STATE, _Watch())  # type: ignore[no-any-return]


class _InTimeResponse(discord.InteractionResponse):  # type: ignore[type-arg]
    """``interaction.response`` of a watched interaction: the same calls, rerouted once it was deferred."""

    __slots__ = ()

    async def send_message(self, content: Any = None, **options: Any) -> Any:
        watch = _watch_of(self._parent)
        if not await watch.deferred():
            watch.answering = True
            return await super().send_message(content, **options)
        interaction = self._parent
        _acknowledged_of(interaction).answering(interaction)
        delete_after = options.pop("delete_after", None)
        anew = watch.thinking and not options.get("ephemeral", False)
        if anew:  # the "thinking…" message is private: post the public answer anew (a press has none)
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        sent = await interaction.followup.send(
            content if content is not None else discord.utils.MISSING, wait=True, **options
        )
        if anew:
            interaction._original_response = sent  # type: ignore[assignment]  # original_response() finds it
        if delete_after is not None:
            await sent.delete(delay=delete_after)
        return None

    async def edit_message(self, **options: Any) -> Any:
        watch = _watch_of(self._parent)
        if not await watch.deferred():
            watch.answering = True
            return await super().edit_message(**options)
        _acknowledged_of(self._parent).answering(self._parent)
        options.pop("delete_after", None)
        options.pop("suppress_embeds", None)
        await self._parent.edit_original_response(**options)
        return None

    async def defer(self, **options: Any) -> Any:
        watch = _watch_of(self._parent)
        if await watch.deferred():
            _acknowledged_of(self._parent).answering(self._parent)  # its press ends with this handler
            return None  # already deferred, late: what the handler asked for is done
        watch.answering = True
        await _acknowledged_of(self._parent).before_acknowledging(self._parent, handler=True)
        return await super().defer(**options)

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        watch = _watch_of(self._parent)
        if not await watch.deferred():
            watch.answering = True
        return await super().send_modal(modal)  # after a deferral Discord refuses it: said, as before


class Deadlines:
    """The late deferrals of one bot: armed for every interaction, cancelled when the bot closes."""

    def __init__(self, after_seconds: float = DEFER_AFTER_SECONDS) -> None:
        self.after_seconds = after_seconds
        self._timers: set[asyncio.TimerHandle] = set()
        self._deferrals: set[asyncio.Task[bool]] = set()

    def watch(self, interaction: discord.Interaction, *, acknowledged: bool = False) -> None:
        """Called as the interaction arrives, before its handler runs. ``acknowledged``: a press replayed
        after a crash (cogs/_acknowledged.py), deferred before the crash: its handler's answers go to the
        followups at once."""
        if interaction.type not in ANSWERABLE or interaction.response.is_done():
            return
        interaction.response.__class__ = _InTimeResponse  # the same object and state, rerouting calls
        watch = _watch_of(interaction)
        if acknowledged:
            watch.deferral = asyncio.get_running_loop().create_future()
            watch.deferral.set_result(True)
            watch.thinking = interaction.message is None
            interaction.response._response_type = discord.InteractionResponseType.deferred_message_update
            return
        loop = asyncio.get_running_loop()
        timer: asyncio.TimerHandle | None = None

        def due() -> None:
            self._timers.discard(timer)  # type: ignore[arg-type]
            self._defer_if_unanswered(interaction)

        timer = loop.call_later(self.after_seconds, due)
        self._timers.add(timer)

    def _defer_if_unanswered(self, interaction: discord.Interaction) -> None:
        watch = _watch_of(interaction)
        if watch.answering or interaction.response.is_done():
            return
        watch.thinking = _thinking(interaction)
        task = asyncio.get_running_loop().create_task(_defer(interaction), name=f"defer-{interaction.id}")
        watch.deferral = task
        self._deferrals.add(task)
        task.add_done_callback(self._deferrals.discard)

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()


def _thinking(interaction: discord.Interaction) -> bool:
    """A command, or a form opened by one, is deferred as "thinking…"; a press or a form under a message
    silently (the message stays as it is)."""
    return interaction.type == discord.InteractionType.application_command or interaction.message is None


def _acknowledged_of(interaction: discord.Interaction) -> Any:
    """The bot's shared journal of acknowledged presses (cogs/_acknowledged.py)."""
    return interaction.client.acknowledged  # type: ignore[attr-defined]


async def _defer(interaction: discord.Interaction) -> bool:
    """Acknowledge in time (see ``_thinking``), a press written to the shared journal first. True when
    Discord took it."""
    try:
        await _acknowledged_of(interaction).before_acknowledging(interaction, handler=False)
        if _thinking(interaction):
            await discord.InteractionResponse.defer(interaction.response, ephemeral=True, thinking=True)
        else:
            await discord.InteractionResponse.defer(interaction.response)
    except discord.HTTPException as failure:  # answered meanwhile, or the token expired: the handler goes on
        log.info("could not defer interaction %s in time: %s", interaction.id, failure)
        return False
    return True
