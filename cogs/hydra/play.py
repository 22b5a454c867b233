"""Playing at a Hydra table: one action for the person interacting, what the buttons and menus do, and
the table's timers (a question's default, the idle pause)."""

from __future__ import annotations

import logging

import discord

from bot.domain.challenge.core import ChallengeError
from bot.domain.hydra import HydraError
from bot.domain.hydra.engine import WINDOW_TOPICS
from bot.i18n import Translate, t
from bot.render.hydra_turns import turn_starts
from bot.services.hydra import ActResult, HydraTable
from bot.storage.hydra import FINISHED, IDLE, LOBBY
from bot.text import member_name
from cogs.hydra.components import HEAD_ACTIONS, MORE_ACTIONS
from cogs.hydra.modals import LineModal
from cogs.hydra.panels import HydraPanels

log = logging.getLogger(__name__)

CHOICE_WAIT_FACTOR = 3  # a question waits three response windows before taking its default
# Events of the players' own actions that get a report message (heads left, triggers resolved).
_EXPLAINED = frozenset(("hydra.log.leaves_dies", "hydra.log.leaves_destroyed", "hydra.log.leaves_exile",
                        "hydra.log.leaves_bounce", "hydra.log.leaves_sacrificed", "hydra.log.grow",
                        "hydra.log.reward", "hydra.log.trigger_countered"))
# Buttons that open a one-line form with the command started (``HydraPlay._form``).
_FORM_BUTTONS = frozenset(("exile_named", "attack", "damage", "loselife", "life", "command"))


class HydraPlay(HydraPanels):
    """The cog's layer for playing (see ``cogs.hydra.base`` for the layers). A refusal (``HydraError``) is raised, not caught: the one error path
    (``cogs._errors``) tells the member privately."""

    async def act(self, interaction: discord.Interaction, game_id: int, line: str) -> ActResult:
        """Apply one action for the person interacting, then update the table's messages.

        A button or modal is acknowledged first (the action waits for the table's lock and the
        database); a refusal then arrives as a private followup."""
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit) \
                and not interaction.response.is_done():
            await interaction.response.defer()
        result = await self.service.act(game_id, interaction.user.id, line)
        if not interaction.response.is_done():
            await interaction.response.defer()
        await self.boards.heard(game_id, interaction)  # how the table is told should its board be refused
        await self.after(result)
        return result

    async def after(self, result: ActResult) -> None:
        """Messages follow the committed state: a new message for each Hydra turn that began (an
        extra turn too), edits otherwise; then the timers for the next question or for idleness.

        One pass at a time per table, each reading the stored table afresh (``display_lane``): the
        message a table shows is a function of its stored state, whatever order the passes run in."""
        game_id = result.table.game_id
        async with self.display_lane(game_id):
            table = await self.service.load(game_id)
            try:
                await self._show_after(table, result)
            except discord.HTTPException:
                log.exception("could not update the messages of Hydra table %s", game_id)
        self.arm(table)

    async def _show_after(self, table: HydraTable, result: ActResult) -> None:
        game, starts = table.game, turn_starts(table.game)
        if await self.sync_turn_messages(table):
            pass  # a Hydra turn began: its new message shows it
        elif starts and game is not None and (game.active == "hydra" or game.over or any(
                e.key == "hydra.log.players_turn" for e in result.events)):
            await self.refresh_turn_message(table, starts[-1])
        elif game is not None and (game.pending is not None or any(e.key in _EXPLAINED for e in result.events)):
            await self.post_players_report(table, result.events)
        await self.refresh_board(table)
        if result.finished:
            await self.announce_end(table)

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str, arg: str | None,
                        arg2: str | None) -> None:
        table = await self.service.load(game_id)
        head = 1
        if action in ("attack", "damage", "loselife", *HEAD_ACTIONS):
            head = self._head(table, interaction.user.id)
        if action in ("join", "leave", "start"):
            await self._lobby_button(interaction, table, action)
        elif action == "answer":
            await self._answer(interaction, table, arg or "", arg2 or "")
        elif action in _FORM_BUTTONS:
            form = self._form(await self._tr(interaction), table, action, head, interaction.user.id)
            await interaction.response.send_modal(form)
        elif action in HEAD_ACTIONS:
            await self.act(interaction, game_id, f"{action} {head}")
        elif action == "end":
            await self.act(interaction, game_id, "end")
        elif action == "undo":
            await self._undo(interaction, game_id)
        elif action == "concede":
            result = await self.service.concede(game_id, interaction.user.id)
            await interaction.response.defer()
            await self.after(result)

    def _form(self, tr: Translate, table: HydraTable, action: str, head: int, user_id: int) -> LineModal:
        """The one-line form a button of ``_FORM_BUTTONS`` opens, its command started for the player."""
        game_id = table.game_id
        if action == "exile_named":
            return LineModal(self, game_id, tr("hydra.ui.swallow_title"), tr("hydra.ui.creature"), "choose ")
        if action == "attack":
            return LineModal(self, game_id, tr("hydra.ui.attack_title"), tr("hydra.ui.attack_label"), "attack ",
                             placeholder="1 3 2 5", default=f"{head} ")
        if action in ("damage", "loselife"):
            return LineModal(self, game_id, tr(f"hydra.ui.{action}_title", head=head), tr("hydra.ui.amount"),
                             f"{action} {head} ", placeholder="3")
        if action == "life":
            seat = table.seat_of(user_id)
            return LineModal(self, game_id, tr("hydra.ui.life_title"), tr("hydra.ui.life_label"), "life ",
                             placeholder="1 -3", default=f"{seat.seat if seat else 1} ")
        assert action == "command", action
        return LineModal(self, game_id, tr("hydra.ui.command_title"), tr("hydra.ui.command_label"), "",
                         placeholder="mill 2")

    async def on_more(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        if verb not in MORE_ACTIONS:
            return
        start, placeholder = MORE_ACTIONS[verb]
        if not start:
            await self.act(interaction, game_id, verb)
            return
        tr = await self._tr(interaction)
        head = self._head(await self.service.load(game_id), interaction.user.id)
        await interaction.response.send_modal(LineModal(
            self, game_id, tr(f"hydra.ui.more.{verb}"), tr("hydra.ui.more_details"), f"{verb} ",
            placeholder=placeholder, default=start.format(head=head)))

    def _head(self, table: HydraTable, user_id: int) -> int:
        """The position (HEAD number) of the head this person picked — the same head even if others
        left meanwhile; the first head when nothing was picked."""
        serial = self.selected.get((table.game_id, user_id))
        if serial is None or table.game is None:
            return 1
        position = table.game.position_of(serial)
        if position is None:
            self.selected.pop((table.game_id, user_id), None)
            raise HydraError("hydra.error.head_gone")
        return position

    async def on_heads(self, interaction: discord.Interaction, game_id: int, kind: str, topic: str | None,
                       values: list[int]) -> None:
        if kind == "head":
            table = await self.service.load(game_id)
            if table.seat_of(interaction.user.id) is None:
                raise HydraError("hydra.error.not_a_challenger")
            if values:
                self.selected[(game_id, interaction.user.id)] = values[0]
            await interaction.response.defer()
            return
        table = await self.service.load(game_id)
        if not self._is_current(table, topic):
            raise HydraError("hydra.error.stale")
        await self.act(interaction, game_id, "choose " + (" ".join(map(str, values)) or "none"))

    @staticmethod
    def _is_current(table: HydraTable, topic: str | None) -> bool:
        game = table.game
        return game is not None and game.pending is not None and game.pending.topic == topic

    async def _answer(self, interaction: discord.Interaction, table: HydraTable, topic: str, which: str) -> None:
        if not self._is_current(table, topic):
            raise HydraError("hydra.error.stale")
        decision = table.game.pending if table.game is not None else None
        assert decision is not None  # _is_current: there is a question
        if which == "default":
            answer = decision.default
        elif which == "none":
            answer = "none"
        else:
            answer = decision.options[int(which)]
        await self.act(interaction, table.game_id, f"choose {answer}")

    async def _undo(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.service.undo(game_id, interaction.user.id)
        await interaction.response.defer()
        await self.boards.heard(game_id, interaction)
        await self.show_board(game_id)
        self.arm(table)

    async def _lobby_button(self, interaction: discord.Interaction, table: HydraTable, action: str) -> None:
        user = interaction.user
        if action == "join":
            table = await self.service.join(table.game_id, user.id, member_name(user.display_name, user.id))
        elif action == "leave":
            table = await self.service.leave(table.game_id, user.id)
        else:
            table = await self.service.start(table.game_id, user.id)
        await interaction.response.defer()
        await self.boards.heard(table.game_id, interaction)
        await self.show_board(table.game_id)
        self.arm(table)

    # -- timers ----------------------------------------------------------------------------------------
    def arm(self, table: HydraTable) -> None:
        """One timer per table (``cogs._timers``, on the bot's clock): the pending question's default, or
        the idle pause."""
        game = table.game
        if table.row.status in (FINISHED, IDLE, LOBBY) or game is None or game.over or not self.turns.runs_here():
            self.timers.cancel(table.game_id)
            return
        actions = len(table.actions)
        self.armed_at[table.game_id] = actions
        if game.pending is not None:
            if table.row.window_seconds <= 0:
                self.timers.cancel(table.game_id)
                return  # this table waits for the players' answers
            factor = 1 if game.pending.topic in WINDOW_TOPICS else CHOICE_WAIT_FACTOR
            topic = game.pending.topic
            self.arm_default(table.game_id, table.row.window_seconds * factor,
                             lambda: self._default_later(table.game_id, topic, actions))
        else:
            self.timers.after(table.game_id, table.row.idle_minutes * 60,
                              lambda: self._idle_later(table.game_id, actions))

    async def _default_later(self, game_id: int, topic: str, actions_before: int) -> None:
        try:
            result = await self.service.answer_default(game_id, topic, actions_before)
        except ChallengeError:
            return
        if result is not None:
            await self.after(result)

    async def _idle_later(self, game_id: int, actions: int) -> None:
        table = await self.service.load(game_id)
        if len(table.actions) != actions:
            return
        await self.service.set_idle(game_id)
        table = await self.service.load(game_id)
        try:
            await self.show_board(game_id)
            channel = await self._channel(table.row.channel_id)
            await channel.send(t("hydra.ui.paused", table.row.language, minutes=table.row.idle_minutes))
        except discord.HTTPException:
            log.exception("could not announce the pause of Hydra table %s", game_id)
