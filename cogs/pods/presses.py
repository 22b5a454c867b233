"""What the board's buttons do: plain presses change the game at once, the others open a form, a
private panel or the history; ending a game is asked for twice.

A plain press is acknowledged before its change is stored (Discord's 3 s), so it is first written to
the press journal (bot/storage/press_journal.py); a press a crash interrupted is applied when the bot
starts again (``replay_presses``), and its presser is told if it can no longer be applied.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import discord

from bot.clock import clock_of
from bot.domain import pod
from bot.domain.pod import PodError, PodState
from bot.i18n import Translate
from bot.render.pod_history import history_pages, history_text, player_name
from bot.services.pods import LoadedGame
from bot.storage.press_journal import PressJournal, RecordedPress
from bot.text import member_name
from cogs._acknowledged import OWN_JOURNAL
from cogs._common import is_manager, is_organiser
from cogs.pods.commanders import CommanderPanel, PodCommanders
from cogs.pods.components import PodButton
from cogs.pods.concede import CONFIRM as CONFIRM_CONCEDE
from cogs.pods.modals import AmountModal, CounterModal

log = logging.getLogger(__name__)

# Board buttons that change the game directly (no modal or panel): acknowledged before any work.
PRESSES = frozenset(
    {"life", "poison", "monarch", "initiative", "next", "undo", "concede", "draw", "join", "shuffle"}
)
HISTORY_PAGE = "history_page"  # a button under a history page: the page it turns to

# Buttons that act on the player picked in the board's select (by default the presser themselves).
TARGETED = frozenset({"life", "poison", "monarch", "initiative", "amount", "counter"})

# Those written to the press journal first: each means the same change whenever it is applied. (Undo and
# shuffle are not: "undo the last change" after a restart could undo another one.)
JOURNALED = PRESSES - {"undo", "shuffle"}
REPLAY_WITHIN = timedelta(days=1)  # an older record is not applied (its press mark may be gone)
TOKEN_LIFETIME = timedelta(minutes=14)  # Discord's interaction tokens last 15 minutes


class PodPresses(PodCommanders):
    """The cog's layer that answers board buttons (see ``cogs.pods.base`` for the layers)."""

    journal: PressJournal | None = None  # open while the cog is loaded (``replay_presses``)
    _telling: asyncio.Task[None] | None = None

    # -- the press journal: after a crash -------------------------------------------------------------

    async def replay_presses(self) -> None:
        """Apply the presses a crash left recorded but not stored, in the order they came, then start a
        fresh journal; the pressers of those that can no longer be applied are told (in a task, so the
        start does not wait on Discord)."""
        journal = PressJournal(self.bot.config.press_journal_path)
        if not journal.acquire():
            log.error(
                "press journal %s is held by another bot process (the same shards twice?): board presses "
                "of this process are not protected against a crash",
                journal.path,
            )
            return
        pending = journal.pending()
        stored = await self.service.stored_presses([press.press_id for press in pending])
        now = clock_of(self.bot).now()
        applied, refused = 0, []
        for press in pending:
            if press.press_id in stored:
                continue
            if now.timestamp() - press.at > REPLAY_WITHIN.total_seconds():
                log.warning(
                    "press %s on game %s is older than a day: not applied", press.press_id, press.game_id
                )
                continue
            error = await self._apply_recorded(press)
            if error is None:
                applied += 1
            else:
                refused.append((press, error))
        journal.open()
        self.journal = journal
        await self.service.forget_presses_before((now - REPLAY_WITHIN).isoformat(timespec="seconds"))
        if applied or refused:
            log.warning(
                "after a crash: %d board presses applied from the press journal, %d refused "
                "(their pressers are told)",
                applied,
                len(refused),
            )
        if refused:
            self._telling = asyncio.create_task(self._tell_refused(refused), name="press-journal-refusals")

    async def _apply_recorded(self, press: RecordedPress) -> PodError | None:
        """The same change the press would have made, judged on the game as it is now."""
        try:
            loaded = await self.service.get(press.game_id)
            if loaded.row.guild_id != press.guild_id:  # as the live press: another server's game is no game
                raise PodError("no_game")
            state = loaded.state
            if press.selected is not None:  # the presser's pick, as it was (picks are not stored)
                self.selected[(press.game_id, press.user_id)] = press.selected
            target = self.target_for(state, press.game_id, press.user_id)
            if press.action in TARGETED and target is None:  # as the live press: ask, never guess
                raise PodError("press_target_gone")
            change = _change(
                press.action, press.arg, state, target or press.user_id, press.user_id, press.user_name
            )
            if change is None:
                return None
            kind, data = change
            await self.service.change(
                press.game_id, press.user_id, kind, manager=press.manager, press_id=press.press_id, **data
            )
        except PodError as error:
            return error
        return None

    async def _tell_refused(self, refused: list[tuple[RecordedPress, PodError]]) -> None:
        """A private followup on each press's own interaction, while its token lasts (a webhook call:
        it needs no gateway connection, only the login ``setup_hook`` runs after)."""
        now = clock_of(self.bot).now().timestamp()
        for press, error in refused:
            if now - press.at > TOKEN_LIFETIME.total_seconds():
                continue
            tr = Translate(await self.bot.language_for_member(press.guild_id, press.user_id))
            text = tr("pod.press_not_applied", game=press.game_id, reason=tr(error.key, **error.values))
            followup = discord.Webhook.from_state(  # what discord.py's Interaction.followup builds
                {"id": press.application_id, "type": 3, "token": press.token}, state=self.bot._connection
            )
            try:
                await followup.send(text, ephemeral=True)
            except discord.HTTPException as failure:
                log.warning(
                    "could not tell the presser of %s that it was not applied: %s", press.press_id, failure
                )

    async def on_pick(self, interaction: discord.Interaction, game_id: int, values: list[int]) -> None:
        await self._defer_press(interaction)
        try:
            loaded = await self.game_in_this_server(interaction, game_id)
            pod.check_may_change(loaded.state, interaction.user.id, None, manager=is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error)
            return
        if values:
            self.selected[(game_id, interaction.user.id)] = values[0]

    async def on_button(
        self, interaction: discord.Interaction, game_id: int, action: str, arg: int | None
    ) -> None:
        press = await self._record_press(interaction, game_id, action, arg)
        try:
            await self._pressed(interaction, game_id, action, arg, press)
        except asyncio.CancelledError:
            raise  # the bot is stopping: the record stays, and the press is applied at the next start
        except BaseException:
            self._finished(press)  # an unexpected error was reported to the presser: not applied later
            raise
        self._finished(press)

    def _finished(self, press: RecordedPress | None) -> None:
        if press is not None and self.journal is not None:
            self.journal.done(press.press_id)

    async def _record_press(
        self, interaction: discord.Interaction, game_id: int, action: str, arg: int | None
    ) -> RecordedPress | None:
        """Write a plain press down before it is acknowledged (None for the buttons that are not)."""
        if action not in JOURNALED or self.journal is None:
            return None
        press = RecordedPress(
            press_id=interaction.id,
            game_id=game_id,
            action=action,
            arg=arg,
            user_id=interaction.user.id,
            user_name=interaction.user.display_name,
            manager=is_manager(interaction),
            selected=self.selected.get((game_id, interaction.user.id)),
            guild_id=interaction.guild_id,
            application_id=interaction.application_id,
            token=interaction.token,
            at=clock_of(self.bot).now().timestamp(),
        )
        interaction.extras[OWN_JOURNAL] = True  # not the shared journal's too (cogs/_acknowledged.py)
        await self.journal.record(press)
        return press

    async def _pressed(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: str,
        arg: int | None,
        press: RecordedPress | None,
    ) -> None:
        if action in PRESSES:  # answered at once; buttons that open a modal or a panel answer with it
            await self._defer_press(interaction)
        try:
            loaded = await self.game_in_this_server(interaction, game_id)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        state, user = loaded.state, interaction.user.id
        target = self.target_for(state, game_id, user)
        if action in TARGETED and target is None:
            await self._ask_for_target(interaction, state)
            return
        change = _change(action, arg, state, target or user, user, interaction.user.display_name)
        if change is not None:
            kind, data = change
            await self.act(interaction, game_id, kind, press_id=press.press_id if press else None, **data)
        elif action == "undo":
            await self._undo(interaction, game_id, 1)
        elif action == "shuffle":
            await self._shuffle(interaction, game_id)
        elif action == "confirm_end":
            await self._end_confirmed(interaction, game_id)
        elif action == CONFIRM_CONCEDE:
            await self.concede_step.confirmed(interaction, game_id, arg)
        else:
            await self._open(interaction, loaded, action, target or user, arg or 1)

    async def _ask_for_target(self, interaction: discord.Interaction, state: PodState) -> None:
        """A targeted press with nobody to target: say so and change nothing. An outsider first
        learns that the game is not theirs."""
        if not await self._may_open(interaction, state, None):
            return
        tr = await self._tr(interaction)
        message = tr("pod.error.press_target_gone")
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)

    async def _open(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        action: str,
        target: int,
        target_page: int = 1,
    ) -> None:
        """Buttons that open a modal, a panel or the history (the reader's language is looked up
        only here: plain presses skip that database read)."""
        state, game_id, user = loaded.state, loaded.game_id, interaction.user.id
        tr = await self._tr(interaction)
        if action == "history":
            await self.send_history(interaction, loaded, tr)
        elif action == HISTORY_PAGE:
            await self.send_history(interaction, loaded, tr, page=target_page, turning=True)
        elif not await self._may_open(interaction, state, target):
            return
        elif action == "amount":
            await interaction.response.send_modal(
                AmountModal(self, game_id, target, player_name(state, target), tr)
            )
        elif action == "counter":
            await interaction.response.send_modal(
                CounterModal(self, game_id, target, player_name(state, target), tr)
            )
        elif action == "commander":
            await interaction.response.send_message(
                tr("pod.panel.commander"), ephemeral=True, view=CommanderPanel(self, loaded, user, tr)
            )
        elif action == "commanders":
            await self._open_commanders(interaction, game_id, tr)
        elif action == "mulligan":
            await self.mulligan_step.open(interaction, loaded)  # cogs/pods/mulligan.py

    async def send_history(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        tr: Translate,
        page: int = 1,
        *,
        turning: bool = False,
    ) -> None:
        """A page of the game's history, privately, with buttons to older and newer pages; a page
        button turns the page of the message it sits under."""
        text = history_text(loaded.events, loaded.state, tr, page)
        pages = history_pages(loaded.events)
        view = discord.ui.View(timeout=None)
        for label, number in (("pod.button.history_older", page + 1), ("pod.button.history_newer", page - 1)):
            if 1 <= number <= pages:
                view.add_item(PodButton(loaded.game_id, HISTORY_PAGE, number, label=tr(label)))
        if turning:
            await interaction.response.edit_message(content=text, view=view)
        elif view.children:
            await interaction.response.send_message(text, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _may_open(self, interaction: discord.Interaction, state: PodState, target: int | None) -> bool:
        """Check before opening a modal or panel, so an outsider learns at once that it is not theirs."""
        try:
            pod.check_may_change(state, interaction.user.id, target, manager=is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error)
            return False
        return True

    async def _undo(self, interaction: discord.Interaction, game_id: int, steps: int) -> None:
        try:
            await self.service.undo(game_id, interaction.user.id, steps, manager=is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        await self._acknowledge(interaction, game_id)
        await self.board_changed(game_id, interaction)

    async def _shuffle(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            await self.service.shuffle_seats(game_id, interaction.user.id, manager=is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        await self._acknowledge(interaction)
        await self.board_changed(game_id, interaction)

    # -- ending: /pod end offers the button, the button ends -------------------------------------------

    async def _may_end(self, interaction: discord.Interaction, loaded: LoadedGame) -> bool:
        """Anyone who may change the game may stop it, except a tournament game: organisers only."""
        try:
            if loaded.state.finished:
                raise PodError("game_over")
            if loaded.row.tournament_id is not None:
                if not await is_organiser(interaction):
                    raise PodError("tournament_end_organisers")
            else:
                pod.check_may_change(loaded.state, interaction.user.id, None, manager=is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error)
            return False
        return True

    async def _end_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            loaded = await self.service.get(game_id)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        if not await self._may_end(interaction, loaded):
            return
        organiser = loaded.row.tournament_id is not None or is_manager(interaction)  # checked by _may_end
        try:
            await self.service.change(game_id, interaction.user.id, pod.STOP, manager=organiser)
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        tr = await self._tr(interaction)
        await interaction.response.edit_message(content=tr("pod.ended_done", game=game_id), view=None)
        self.updater.request(game_id)


def _change(
    action: str, arg: int | None, state: PodState, target: int, user_id: int, user_name: str
) -> tuple[str, dict[str, Any]] | None:
    """The change a board button makes at once (its kind and values for ``act``); None for the buttons
    that confirm, undo or open something instead."""
    if action == "life" and arg is not None:
        return pod.LIFE, {"player": target, "amount": arg}
    if action == "poison":
        return pod.POISON, {"player": target, "amount": 1}
    if action in ("monarch", "initiative"):  # pressed for the holder: nobody holds it any more
        holder = getattr(state, action)
        return pod.MONARCH if action == "monarch" else pod.INITIATIVE, {
            "player": None if holder == target else target
        }
    if action == "next":
        return pod.NEXT_TURN, {}
    if action == "concede":
        return pod.CONCEDE, {"player": user_id}
    if action == "draw":  # pressed again: the vote is withdrawn
        return pod.DRAW_VOTE, {"player": user_id, "withdraw": user_id in state.draw_votes}
    if action == "join":
        return pod.JOIN, {"player": user_id, "name": member_name(user_name, user_id)}
    return None
