"""Conceding for someone else at a pod: ``/pod concede player:``.

A player who left the table can't press their own Concede, and the game waits on them. Conceding is each
player's own call, so only a member with Manage Server — or, in a tournament game, an organiser (Manage
Server or the ``/config organiser-role``) — may concede for another player, and since it puts that player
out (and may end the game for everyone, handing the last one the win) it is asked for twice: the command
only offers a private confirmation button, and the permission and the player's seat are checked again when
it is pressed (either may have changed meanwhile). ``/pod concede`` for yourself concedes at once, as the
board's Concede button does. Part of the pod cog's package (``cogs.pods``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.domain import pod
from bot.domain.pod import PodError
from bot.render.pod_history import player_name
from bot.services.pods import LoadedGame
from cogs._common import is_manager, is_organiser
from cogs.pods.components import PodButton

if TYPE_CHECKING:
    from cogs.pods.cog import PodsCog

CONFIRM = "confirm_concede"  # the board-button action (``pod:<game>:confirm_concede:<player id>``)


class ConcedeStep:
    def __init__(self, cog: PodsCog) -> None:
        self.cog = cog

    async def ask(self, interaction: discord.Interaction, loaded: LoadedGame, player_id: int) -> None:
        """Concede now for oneself; for another player, check and offer the confirmation."""
        if player_id == interaction.user.id:
            await self.cog.act(interaction, loaded.game_id, pod.CONCEDE, player=player_id)
            return
        if not await self._may_concede_for(interaction, loaded, player_id):
            return
        tr = await self.cog._tr(interaction)
        name = player_name(loaded.state, player_id)
        view = discord.ui.View(timeout=None)
        view.add_item(
            PodButton(
                loaded.game_id,
                CONFIRM,
                player_id,
                label=tr("pod.button.confirm_concede", player=name),
                style=discord.ButtonStyle.danger,
            )
        )
        await interaction.response.send_message(
            tr("pod.confirm_concede", player=name, game=loaded.game_id), view=view, ephemeral=True
        )

    async def confirmed(self, interaction: discord.Interaction, game_id: int, player_id: int | None) -> None:
        try:
            loaded = await self.cog.service.get(game_id)
        except PodError as error:
            await self.cog.send_error(interaction, error)
            return
        if player_id is None or not await self._may_concede_for(interaction, loaded, player_id):
            return
        try:  # checked as a manager: _may_concede_for let through only managers and a tournament's organisers
            await self.cog.service.change(
                game_id, interaction.user.id, pod.CONCEDE, manager=True, player=player_id
            )
        except PodError as error:
            await self.cog.send_error(interaction, error, game_id)
            return
        tr = await self.cog._tr(interaction)
        await interaction.response.edit_message(
            content=tr("pod.conceded_for", player=player_name(loaded.state, player_id), game=game_id),
            view=None,
        )
        self.cog.updater.request(game_id)

    async def _may_concede_for(
        self, interaction: discord.Interaction, loaded: LoadedGame, player_id: int
    ) -> bool:
        """Manage Server, or an organiser of the tournament the game belongs to; the player must still be in."""
        try:
            if loaded.state.finished:
                raise PodError("game_over")
            allowed = is_manager(interaction) or (
                loaded.row.tournament_id is not None and await is_organiser(interaction)
            )
            if not allowed:
                raise PodError("concede_for_others")
            if not loaded.state.player(player_id).alive:
                raise PodError("player_out")
            if not loaded.state.started:
                raise PodError("not_started")
        except PodError as error:
            await self.cog.send_error(interaction, error, loaded.game_id)
            return False
        return True
