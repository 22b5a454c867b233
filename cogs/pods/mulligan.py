"""The mulligan step at the table: whose decision it is, told to that player, one press per decision.

Part of the pod cog's package (``cogs.pods``): ``PodsCog`` owns one ``MulliganStep`` and calls it from the
board's Mulligan button and ``/pod mulligan``. What the board, the panels and the ping line say, and the
answer buttons, are in ``cogs.pods.mulligan_panels``.

How a player is reached on real Discord. An ephemeral (private) message can only be the answer to an
interaction of that player, and the interaction's token lets the bot edit that answer for 15 minutes; a
bot cannot start a private message in a channel by itself, and a DM is intrusive (and often closed). So:

* **Private panel.** Pressing Mulligan on the board (or ``/pod mulligan``) answers with the player's own
  panel: where the table stands, and the choices when it is their decision (partial Paris: Keep, 1 … N
  cards set aside; London/Vancouver: Keep / Mulligan). The panel *keeps updating itself*: after every
  change of the game the bot edits it through the interaction it answered
  (``edit_original_response``), for ``PANEL_LIFETIME`` (just under the token's 15 minutes). A press on a
  panel answers that very interaction with the updated panel, which also renews the 15 minutes.
* **A ping for the player whose decision it is.** Editing an ephemeral message notifies nobody, so when
  the decision passes to a player the bot posts one short public line in the board's channel, in the
  board's language: "@bob: your mulligan decision …", with the choices on it. ``allowed_mentions`` names
  that one user (never @everyone or roles). The line before it is deleted, so the channel holds at most
  one. Only the named player's press counts (anyone else is refused privately); the press answers with
  the player's private panel (what to do with the cards), which from then on updates itself. The ping is
  left out when the decider has just opened or answered on their own panel (e.g. the last player still
  mulliganing, asked again at once).

Every choice carries the prompt's number (``pod.MulliganPrompt.number``: the answers given so far), and
the domain refuses a press whose number is not the current one, under the game's lock: a double press, a
press on a line or panel of an earlier moment is never taken as the next answer; the presser gets their
current panel instead. (After an undo the undone question is the current one again, so buttons that ask
it count again: the same question, the same answers.) The state is the game's event log in SQLite, so a restart
loses nothing that matters: buttons are ``DynamicItem``s that route after a restart, a press on a line or
panel from before it is answered from the stored state (the old line is deleted when pressed), and only
the self-updating of panels opened before the restart stops (press Mulligan again).

The step ends by itself: once everyone has kept, the ping line goes, panels and the board say so, with
any set-aside cards to shuffle back (M1), and the board's Start turn 1 button begins the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.domain import pod
from bot.domain.pod import PodError
from bot.i18n import t
from bot.services.pods import LoadedGame
from cogs.pods.mulligan_panels import (
    PromptKey,
    mulligan_live,
    notice_payload,
    panel_payload,
    panel_signature,
    prompt_key,
)

if TYPE_CHECKING:
    from cogs.pods.cog import PodsCog

log = logging.getLogger(__name__)

PANEL_LIFETIME = 14 * 60  # seconds: an interaction token may edit its answer for 15 minutes
OUTDATED = "pod.error.mulligan_outdated"
SWEEP_LIMIT = 50  # recent messages of a board's channel searched for lines left by a previous run


@dataclass
class Panel:
    """A player's private panel the bot may still edit through the interaction that answered with it."""

    interaction: discord.Interaction
    language: str
    opened: float  # time.monotonic() of that interaction
    shown: str  # what it shows (text and prompt number): edited only when that changes
    asked: PromptKey | None  # the prompt it put to its player when they last pressed or opened it

    @property
    def expired(self) -> bool:
        return time.monotonic() - self.opened > PANEL_LIFETIME


@dataclass
class Notice:
    """The public ping line of a game: where it is and which prompt it asks (player, number, hand)."""

    channel_id: int
    message_id: int
    key: PromptKey


class MulliganStep:
    """Tells each player when the mulligan decision is theirs and takes their answers (see module doc)."""

    def __init__(self, cog: PodsCog) -> None:
        self.cog = cog
        self.panels: dict[tuple[int, int], Panel] = {}  # (game, player) -> live private panel
        self.notices: dict[int, Notice] = {}  # game -> its ping line
        self.opened: set[int] = set()  # games where someone opened a panel before the first answer
        self._swept: set[int] = set()  # games whose lines from before a restart were cleaned up
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}

    # -- presses --------------------------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        """The board's Mulligan button or ``/pod mulligan``: the presser's private panel (it begins the step)."""
        if not loaded.state.is_player(interaction.user.id):
            await self.cog.send_error(interaction, PodError("not_a_player"))
            return
        language = await self.cog.bot.language_for(interaction)
        await self._show(interaction, loaded, language, new_message=True)
        self.opened.add(loaded.game_id)
        self.request(loaded.game_id)

    async def answer(
        self, interaction: discord.Interaction, game_id: int, number: int, decision: str
    ) -> None:
        """A press on a choice: record it (in turn, on the current prompt only) and answer privately."""
        user = interaction.user.id
        language = await self.cog.bot.language_for(interaction)
        on_line = not _is_ephemeral(interaction.message)
        note = ""
        try:
            await self.cog.game_in_this_server(interaction, game_id)  # a copied line names no game elsewhere
            loaded = await self.cog.service.change(
                game_id, user, pod.MULLIGAN, player=user, decision=_decision(decision), prompt=number
            )
        except PodError as error:
            if error.key != OUTDATED:
                await self.cog.send_error(interaction, error, game_id)
                return
            loaded, note = await self.cog.service.get(game_id), t(OUTDATED, language)
        await self._show(interaction, loaded, language, new_message=on_line, note=note)
        if on_line and interaction.message is not None:
            await self._retire_line(game_id, interaction.message)
        if not note:
            self.cog.updater.request(game_id)
        self.request(game_id)

    async def _show(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        language: str,
        *,
        new_message: bool,
        note: str = "",
    ) -> None:
        """Answer ``interaction`` with the presser's panel and remember it for later edits."""
        user, live = interaction.user.id, mulligan_live(loaded.state)
        content, view = panel_payload(loaded, user, language, note)
        # Read before awaiting: the cached state changes in place when someone else answers meanwhile,
        # and the next sync must see that this panel shows the older state.
        prompt = pod.mulligan_prompt(loaded.state)
        asked = prompt_key(prompt) if prompt is not None and prompt.player == user else None
        shown = panel_signature(loaded, user, language)
        if new_message:
            await interaction.response.send_message(content, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(content=content, view=view)
        if live:
            self.panels[(loaded.game_id, user)] = Panel(interaction, language, time.monotonic(), shown, asked)

    async def _retire_line(self, game_id: int, message: discord.Message) -> None:
        """A press on a ping line answered it (or found it outdated): the line goes."""
        notice = self.notices.get(game_id)
        if notice is not None and notice.message_id == message.id:
            return  # still the current line (e.g. the wrong player pressed it): sync decides
        await _delete_quietly(message)

    # -- keeping everyone told --------------------------------------------------------------------

    def request(self, game_id: int) -> None:
        """Bring the game's panels and ping line up to date soon (a burst of changes makes one pass)."""
        self._dirty.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(
                self._run(game_id), name=f"pod-mulligan-{game_id}"
            )

    async def _run(self, game_id: int) -> None:
        while game_id in self._dirty:
            self._dirty.discard(game_id)
            try:
                await self.sync(game_id)
            except Exception:  # one failed pass must not stop later ones
                log.exception("could not update the mulligan step of pod game %s", game_id)
        self._tasks.pop(game_id, None)

    async def sync(self, game_id: int) -> None:
        """Edit the live panels that show an older state, and make the ping line ask the current prompt."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            try:
                loaded = await self.cog.service.get(game_id)
            except PodError:
                self._forget(game_id)
                return
            await self._sync_panels(loaded)
            await self._sync_notice(loaded)
            if not mulligan_live(loaded.state):
                self._forget(game_id)

    async def _sync_panels(self, loaded: LoadedGame) -> None:
        for (game_id, user), panel in list(self.panels.items()):
            if game_id != loaded.game_id:
                continue
            shown = panel_signature(loaded, user, panel.language)
            if panel.shown == shown:  # e.g. someone named a commander: nothing new for this panel
                continue
            if panel.expired:
                del self.panels[(game_id, user)]
                continue
            content, view = panel_payload(loaded, user, panel.language)
            try:
                await panel.interaction.edit_original_response(content=content, view=view)
            except discord.HTTPException:  # token expired or the panel was dismissed
                self.panels.pop((game_id, user), None)
                continue
            panel.shown = shown

    async def _sync_notice(self, loaded: LoadedGame) -> None:
        game_id, state = loaded.game_id, loaded.state
        prompt = pod.mulligan_prompt(state)
        want = None
        if prompt is not None and (state.mulligan is not None or game_id in self.opened):
            decider = self.panels.get((game_id, prompt.player))
            looking = decider is not None and not decider.expired and decider.asked == prompt_key(prompt)
            want = None if looking else prompt_key(prompt)
        if game_id not in self._swept:
            await self._sweep(loaded)
        notice = self.notices.get(game_id)
        if notice is not None and notice.key == want:
            return
        if notice is not None:
            del self.notices[game_id]
            await self._delete(notice)
        if want is None or prompt is None or loaded.row.channel_id is None:
            return
        language = await self.cog.board_language(loaded.row.guild_id)
        content, view = notice_payload(loaded, prompt, language)
        channel = self.cog.bot.get_partial_messageable(loaded.row.channel_id)
        try:
            message = await channel.send(
                content,
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, replied_user=False, users=[discord.Object(id=prompt.player)]
                ),
            )
        except discord.HTTPException:
            log.warning("could not post the mulligan ping of pod game %s", game_id)
            return
        self.notices[game_id] = Notice(loaded.row.channel_id, message.id, want)

    async def _sweep(self, loaded: LoadedGame) -> None:
        """Once per game after a (re)start: delete ping lines an earlier run left, whose ids died with it,
        so the channel never shows two lines (a fresh one is posted next). One read of recent history."""
        self._swept.add(loaded.game_id)
        if loaded.row.channel_id is None or self.cog.bot.user is None:
            return
        prefix = f"pod-mull:{loaded.game_id}:"
        current = self.notices.get(loaded.game_id)
        channel = self.cog.bot.get_partial_messageable(loaded.row.channel_id)
        try:
            async for message in channel.history(limit=SWEEP_LIMIT):
                if current is not None and message.id == current.message_id:
                    continue
                if message.author.id == self.cog.bot.user.id and any(
                    (getattr(item, "custom_id", None) or "").startswith(prefix)
                    for row in message.components
                    for item in getattr(row, "children", ())
                ):
                    await _delete_quietly(message)
        except discord.HTTPException:  # no Read Message History: an old line then stays until pressed
            log.info("could not look for old mulligan lines of pod game %s", loaded.game_id)

    async def _delete(self, notice: Notice) -> None:
        await _delete_quietly(
            self.cog.bot.get_partial_messageable(notice.channel_id).get_partial_message(notice.message_id)
        )

    def _forget(self, game_id: int) -> None:
        """Turn 1 started or the game ended: nothing will change any more, drop what we kept."""
        self.opened.discard(game_id)
        for key in [k for k in self.panels if k[0] == game_id]:
            del self.panels[key]

    def cancel(self) -> None:
        for task in self._tasks.values():
            task.cancel()


def _decision(value: str) -> int | str:
    """Partial Paris answers are card counts (keep = 0 is resolved by the domain); the rest stay words."""
    return int(value) if value.isdigit() else value


async def _delete_quietly(message: discord.Message | discord.PartialMessage) -> None:
    """Delete a line of ours; one already gone (deleted by the other path, or by a moderator) is fine."""
    with contextlib.suppress(discord.HTTPException):
        await message.delete()


def _is_ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral
