"""What every part of the pod cog stands on: its state, the reader's language, applying one change and
telling a refusal.

The cog is one class assembled from layers, each a subclass of the one below (``PodsBase`` → ``PodBoard``
→ ``PodCommanders`` → ``PodPresses`` → ``PodsCog``), so every method a layer calls is defined below it
and the type checker sees it (no ``self: PodsCog`` annotations on unrelated mixins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.client import PodkeeperBot
from bot.domain.errors import DomainError
from bot.domain.pod import PodError, PodState
from bot.i18n import Translate, t
from bot.render.pod_history import player_name
from bot.services.decks import DeckService
from bot.services.pods import LoadedGame, PodService
from cogs._boards import LiveBoards
from cogs._common import is_manager
from cogs._timers import Timers
from cogs._updater import BoardUpdater

if TYPE_CHECKING:
    from cogs.pods.concede import ConcedeStep
    from cogs.pods.match import MatchStep
    from cogs.pods.mulligan import MulliganStep


class PodsBase:
    """The pod cog's state and its one way of changing a game (``act``)."""

    bot: PodkeeperBot
    service: PodService
    updater: BoardUpdater
    boards: LiveBoards  # keeps each board live for the whole game (cogs/_boards.py)
    first_posts: Timers[int]  # games whose first board another process may still be posting
    mulligan_step: MulliganStep
    match_step: MatchStep
    concede_step: ConcedeStep  # conceding for someone else: cogs/pods/concede.py
    selected: dict[tuple[int, int], int]  # (game, person pressing) -> player whose totals they change

    # -- languages -------------------------------------------------------------------------------------

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def board_language(self, guild_id: int | None) -> str:
        """Everyone reads the same board: the server's language (see ``PodkeeperBot.guild_language``)."""
        return await self.bot.guild_language(guild_id)

    def decks(self) -> DeckService:
        return DeckService(self.bot.db, self.bot.cards)

    # -- acting ------------------------------------------------------------------------------------------

    async def act(
        self,
        interaction: discord.Interaction,
        game_id: int,
        kind: str,
        *,
        press_id: int | None = None,
        **data: Any,
    ) -> LoadedGame | None:
        """Apply one change for the person interacting, acknowledge, and schedule the board edit.

        A press or a modal is acknowledged (deferred) before anything else: the change waits for the
        game's lock and the database's one writer, and in a burst of hundreds of presses that queue is
        longer than Discord's 3 s. Deferring first keeps every answer in time; the change is then
        applied exactly once (a refusal arrives as a private followup). ``press_id`` is the board press
        written to the press journal first (cogs/pods/presses.py), stored with the change."""
        await self._defer_press(interaction)
        try:
            # a slash command is deferred if the database makes it wait (cogs/_deadline.py, for every one)
            loaded = await self.service.change(
                game_id, interaction.user.id, kind, manager=is_manager(interaction), press_id=press_id, **data
            )
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return None
        await self._acknowledge(interaction, game_id)
        await self.board_changed(game_id, interaction)
        return loaded

    async def board_changed(self, game_id: int, interaction: discord.Interaction | None = None) -> None:
        """Ask for the board's edit; the press's interaction is how the table is told should Discord
        refuse the board (``cogs._boards``)."""
        self.updater.request(game_id)
        await self.boards.heard(game_id, interaction)

    async def board_channel(self, game_id: int) -> int | None:
        """The channel of the game's board: its edits wait only for that channel's other boards."""
        return (await self.service.get(game_id)).row.channel_id

    async def game_in_this_server(self, interaction: discord.Interaction, game_id: int) -> LoadedGame:
        """The game a press or a ``game:`` option names, if it belongs to the server it was used in.

        A component's custom id and a typed number are only numbers: a game of another server is answered
        as no game at all, so nothing reveals or changes it from there."""
        loaded = await self.service.get(game_id)
        if loaded.row.guild_id != interaction.guild_id:
            raise PodError("no_game")
        return loaded

    @staticmethod
    async def _defer_press(interaction: discord.Interaction) -> None:
        """Acknowledge a button, select or modal at once without changing the message (type 6)."""
        if interaction.response.is_done():
            return
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            await interaction.response.defer()

    async def _acknowledge(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        """A press updates its own board silently; a slash command says which game it changed
        (a tournament round puts several boards in one channel)."""
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        language = await self.bot.language_for(interaction)
        text = t("pod.done", language) if game_id is None else t("pod.done_game", language, game=game_id)
        if interaction.response.is_done():  # deferred while the change waited (cogs/_deadline.py)
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def send_error(
        self, interaction: discord.Interaction, error: DomainError, game_id: int | None = None
    ) -> None:
        """A refusal, privately, in the reader's language; with ``game_id``, user ids among its values are
        shown as the players' names (the domain names players by id)."""
        tr = await self._tr(interaction)
        values = dict(error.values)
        if game_id is not None and values:
            state = (await self.service.get(game_id)).state
            values = {
                k: player_name(state, v) if isinstance(v, int) and state.is_player(v) else v
                for k, v in values.items()
            }
        message = tr(error.key, **values)
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)

    def target_for(self, state: PodState, game_id: int, user_id: int) -> int | None:
        """The player whose totals this person's presses change: their pick while that player is in
        the game, else themselves while they are. None when neither holds (the pick was eliminated,
        the presser is out, or is a manager who picked nobody): the press asks, it never guesses."""
        chosen = self.selected.get((game_id, user_id))
        if chosen is not None:
            if state.is_player(chosen) and state.player(chosen).alive:
                return chosen
            del self.selected[(game_id, user_id)]  # a pick of someone out of the game is no pick
            return None
        if state.is_player(user_id) and state.player(user_id).alive:
            return user_id
        return None
