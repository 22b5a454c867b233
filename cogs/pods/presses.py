"""What the board's buttons do: plain presses change the game at once, the others open a form, a
private panel or the history; ending a game is asked for twice."""

from __future__ import annotations

from typing import Any

import discord

from bot.domain import pod
from bot.domain.pod import PodError, PodState
from bot.render.pod_history import history_text, player_name
from bot.services.pods import LoadedGame
from cogs._common import is_manager, is_organiser
from cogs.pods.commanders import CommanderPanel, PodCommanders
from cogs.pods.concede import CONFIRM as CONFIRM_CONCEDE
from cogs.pods.modals import AmountModal, CounterModal

# Board buttons that change the game directly (no modal or panel): acknowledged before any work.
PRESSES = frozenset({"life", "poison", "monarch", "initiative", "next", "undo", "concede", "draw", "join", "shuffle"})


class PodPresses(PodCommanders):
    """The cog's layer that answers board buttons (see ``cogs.pods.base`` for the layers)."""

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

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str, arg: int | None) -> None:
        if action in PRESSES:  # answered at once; buttons that open a modal or a panel answer with it
            await self._defer_press(interaction)
        try:
            loaded = await self.game_in_this_server(interaction, game_id)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        state, user = loaded.state, interaction.user.id
        target = self.target_for(state, game_id, user)
        change = _change(action, arg, state, target, interaction.user)
        if change is not None:
            kind, data = change
            await self.act(interaction, game_id, kind, **data)
        elif action == "undo":
            await self._undo(interaction, game_id, 1)
        elif action == "shuffle":
            await self._shuffle(interaction, game_id)
        elif action == "confirm_end":
            await self._end_confirmed(interaction, game_id)
        elif action == CONFIRM_CONCEDE:
            await self.concede_step.confirmed(interaction, game_id, arg)
        else:
            await self._open(interaction, loaded, action, target)

    async def _open(self, interaction: discord.Interaction, loaded: LoadedGame, action: str, target: int) -> None:
        """Buttons that open a modal, a panel or the history (the reader's language is looked up
        only here: plain presses skip that database read)."""
        state, game_id, user = loaded.state, loaded.game_id, interaction.user.id
        tr = await self._tr(interaction)
        if action == "history":
            await interaction.response.send_message(history_text(loaded.events, state, tr), ephemeral=True)
        elif not await self._may_open(interaction, state, target):
            return
        elif action == "amount":
            await interaction.response.send_modal(AmountModal(self, game_id, target, player_name(state, target), tr))
        elif action == "counter":
            await interaction.response.send_modal(CounterModal(self, game_id, target, player_name(state, target), tr))
        elif action == "commander":
            await interaction.response.send_message(tr("pod.panel.commander"), ephemeral=True,
                                                    view=CommanderPanel(self, loaded, user, tr))
        elif action == "commanders":
            await self._open_commanders(interaction, game_id, tr)
        elif action == "mulligan":
            await self.mulligan_step.open(interaction, loaded)  # cogs/pods/mulligan.py

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
        self.updater.request(game_id)

    async def _shuffle(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            await self.service.shuffle_seats(game_id, interaction.user.id, manager=is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        await self._acknowledge(interaction)
        self.updater.request(game_id)

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


def _change(action: str, arg: int | None, state: PodState, target: int,
            user: discord.abc.User) -> tuple[str, dict[str, Any]] | None:
    """The change a board button makes at once (its kind and values for ``act``); None for the buttons
    that confirm, undo or open something instead."""
    if action == "life" and arg is not None:
        return pod.LIFE, {"player": target, "amount": arg}
    if action == "poison":
        return pod.POISON, {"player": target, "amount": 1}
    if action in ("monarch", "initiative"):  # pressed for the holder: nobody holds it any more
        holder = getattr(state, action)
        return pod.MONARCH if action == "monarch" else pod.INITIATIVE, {"player": None if holder == target else target}
    if action == "next":
        return pod.NEXT_TURN, {}
    if action == "concede":
        return pod.CONCEDE, {"player": user.id}
    if action == "draw":  # pressed again: the vote is withdrawn
        return pod.DRAW_VOTE, {"player": user.id, "withdraw": user.id in state.draw_votes}
    if action == "join":
        return pod.JOIN, {"player": user.id, "name": user.display_name}
    return None
