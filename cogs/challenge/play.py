"""Playing at a challenge table, for every deck: one action for the person interacting, what the buttons,
menus and forms do, and the table's timers (a question's default, the idle pause).

A refusal (``ChallengeError``) is raised, not caught: the one error path (``cogs._errors``) tells the
member privately, for a button, a menu, a form or a command alike."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from bot.domain.challenge.core import ChallengeError
from bot.i18n import Translate, t
from bot.services.challenge import ActResult, ChallengeTable
from bot.storage.challenge import FINISHED, IDLE, LOBBY
from bot.text import member_name
from cogs.challenge.modals import LineModal
from cogs.challenge.panels import TablePanels

log = logging.getLogger(__name__)

CHOICE_WAIT_FACTOR = 3  # a question waits three response windows before taking its default
LOBBY_ACTIONS = frozenset(("join", "leave", "start"))
PICKED_ACTIONS = ("destroy", "exile", "bounce", "tap")  # buttons that act on the picked permanent
# Buttons that open a one-line form with the command started (``TablePlay.form``).
FORM_BUTTONS = frozenset(("exile_named", "attack", "damage", "loselife", "life", "hit", "command"))
PICKED_FORMS = frozenset(("attack", "damage", "loselife"))  # the forms started on the picked permanent

# The "More…" effects: verb -> (what the form starts with, given the picked permanent; its placeholder).
MORE_ACTIONS: Mapping[str, tuple[str, str]] = {
    "sweep": ("3 all", "3 all | 3 1 2"),
    "weaken": ("1 {head}", "1 all | 2 1 3"),
    "counters": ("1 {head}", "2 1 | -1 all"),
    "sacrifice": ("{head}", "1 | 1 2 | all"),
    "freeze": ("all", "all | 1 2"),
    "copy": ("{head}", "1"),
    "prevent": ("1", "1 | 3 2 | 5 all from Snapping Fang Head"),
    "exilecards": ("graveyard all", "graveyard all | graveyard Hydra Head | library 2"),
    "extraturn": ("", ""),
}


class TablePlay(TablePanels):
    """The layer for playing (see ``cogs.challenge.base`` for the layers)."""

    async def act(self, interaction: discord.Interaction, game_id: int, line: str) -> ActResult:
        """Apply one action for the person interacting, then update the table's messages.

        Where the family acknowledges first (the Hydra's), a button or form is acknowledged before the
        action waits for the table's lock and the database, and a refusal arrives as a private followup;
        elsewhere the refusal is the private answer itself (a slow action is acknowledged in time anyway,
        ``cogs._deadline``)."""
        if (
            self.family.acknowledge_first
            and not interaction.response.is_done()
            and interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit)
        ):
            await interaction.response.defer()
        result = await self.service.act(game_id, interaction.user.id, line)
        if not interaction.response.is_done():
            await interaction.response.defer()
        await self.boards.heard(game_id, interaction)  # how the table is told should its board be refused
        await self.after(result)
        return result

    async def after(self, result: ActResult) -> None:
        """Messages follow the committed state (``show_after``), then the timers for the next question or
        for idleness. Also how an event's table is shown after an action taken elsewhere.

        One pass at a time per table, each reading the stored table afresh (``display_lane``): the
        message a table shows is a function of its stored state, whatever order the passes run in."""
        game_id = result.table.game_id
        async with self.display_lane(game_id):
            table = await self.service.load(game_id)
            try:
                await self.show_after(table, result)
            except discord.HTTPException:
                log.exception("could not update the messages of %s table %s", self.family.name, game_id)
        self.arm(table)

    async def show_after(self, table: ChallengeTable, result: ActResult) -> None:
        """What an action changes on Discord: the board (a deck with turn messages posts those too)."""
        await self.refresh_board(table)

    async def on_button(
        self, interaction: discord.Interaction, game_id: int, action: str, arg: str | None, arg2: str | None
    ) -> None:
        table = await self.service.load(game_id)
        if action in LOBBY_ACTIONS:
            await self._lobby_button(interaction, table, action)
        elif action == "answer":
            await self._answer(interaction, table, arg or "", arg2)
        elif action in FORM_BUTTONS:
            self._seated_or_refused(table, interaction.user.id)  # before the form, not after it is filled
            # Only the forms started on the picked permanent ask for it (it may have left meanwhile).
            picked = self.picked(table, interaction.user.id) if action in PICKED_FORMS else 1
            await interaction.response.send_modal(
                self.form(await self._tr(interaction), table, action, picked, interaction.user.id)
            )
        elif action in PICKED_ACTIONS:
            await self.act(interaction, game_id, f"{action} {self.picked(table, interaction.user.id)}")
        elif action == "end":
            await self.act(interaction, game_id, "end")
        elif action == "undo":
            await self._undo(interaction, game_id)
        elif action == "concede":
            await self._concede(interaction, table)

    def form(self, tr: Translate, table: ChallengeTable, action: str, picked: int, user_id: int) -> LineModal:
        """The one-line form a button of ``FORM_BUTTONS`` opens, its command started for the player (on the
        permanent they picked)."""
        game_id = table.game_id
        if action == "exile_named":
            return LineModal(self, game_id, tr("hydra.ui.swallow_title"), tr("hydra.ui.creature"), "choose ")
        if action == "attack":
            return LineModal(
                self,
                game_id,
                tr("hydra.ui.attack_title"),
                tr("hydra.ui.attack_label"),
                "attack ",
                placeholder="1 3 2 5",
                default=f"{picked} ",
            )
        if action in ("damage", "loselife"):
            title = self.family.damage_title if action == "damage" else "hydra.ui.loselife_title"
            return LineModal(
                self,
                game_id,
                tr(title, head=picked, number=picked),
                tr("hydra.ui.amount"),
                f"{action} {picked} ",
                placeholder="3",
            )
        if action == "hit":
            return LineModal(
                self, game_id, tr("challenge.ui.hit_title"), tr("hydra.ui.amount"), "hit ", placeholder="3"
            )
        if action == "life":
            seat = table.seat_of(user_id)
            return LineModal(
                self,
                game_id,
                tr("hydra.ui.life_title"),
                tr("hydra.ui.life_label"),
                "life ",
                placeholder="1 -3",
                default=f"{seat.seat if seat else 1} ",
            )
        assert action == "command", action
        return LineModal(
            self,
            game_id,
            tr("hydra.ui.command_title"),
            tr("hydra.ui.command_label"),
            "",
            placeholder=self.family.command_example,
        )

    async def on_more(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        if verb not in MORE_ACTIONS:
            return
        start, placeholder = MORE_ACTIONS[verb]
        if not start:
            await self.act(interaction, game_id, verb)
            return
        tr = await self._tr(interaction)
        table = await self.service.load(game_id)
        self._seated_or_refused(table, interaction.user.id)  # before the form, not after it is filled
        picked = self.picked(table, interaction.user.id)
        await interaction.response.send_modal(
            LineModal(
                self,
                game_id,
                tr(f"hydra.ui.more.{verb}"),
                tr("hydra.ui.more_details"),
                f"{verb} ",
                placeholder=placeholder,
                default=start.format(head=picked),
            )
        )

    @staticmethod
    def _seated_or_refused(table: ChallengeTable, user_id: int) -> None:
        """Only the challengers at a table act there. Checked before a form opens, so that someone else
        is told at once instead of filling in the form only to be refused when they send it."""
        if not table.seated(user_id):
            raise ChallengeError("hydra.error.not_a_challenger")

    def picked(self, table: ChallengeTable, user_id: int) -> int:
        """The number of the permanent this person picked for the board's buttons; the first when nothing
        was picked. Where the family picks by serial it is the same permanent even if others left meanwhile
        (and a refusal once it has left)."""
        chosen = self.selected.get((table.game_id, user_id))
        if chosen is None or table.game is None:
            return 1
        if not self.family.pick_by_serial:
            return chosen
        position: int | None = table.game.position_of(chosen)
        if position is None:
            self.selected.pop((table.game_id, user_id), None)
            raise ChallengeError("hydra.error.head_gone")
        return position

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, topic: str | None, values: list[int]
    ) -> None:
        """The board's pick (``topic`` None: remembered for this person) or the answer to the question
        ``topic`` that asks for permanents (refused once that question is no longer the one asked)."""
        table = await self.service.load(game_id)
        if topic is None:
            self._seated_or_refused(table, interaction.user.id)
            if values:
                self.selected[(game_id, interaction.user.id)] = values[0]
            await interaction.response.defer()
            return
        if not self._is_current(table, topic):
            raise ChallengeError("hydra.error.stale")
        await self.act(interaction, game_id, "choose " + (" ".join(map(str, values)) or "none"))

    async def on_heroes(self, interaction: discord.Interaction, game_id: int, names: list[str]) -> None:
        """A player's Hero cards, picked at the lobby's select (stored for their seat, shown in the lobby)."""
        table = await self.service.set_heroes(game_id, interaction.user.id, names)
        await interaction.response.defer()
        await self.refresh(table)

    @staticmethod
    def _is_current(table: ChallengeTable, topic: str | None) -> bool:
        game = table.game
        return game is not None and game.pending is not None and game.pending.topic == topic

    async def _answer(
        self, interaction: discord.Interaction, table: ChallengeTable, first: str, second: str | None
    ) -> None:
        """An answer button: ``answer:<topic>:<option's index | default | none>`` (checked to answer the
        question still asked), or ``answer:<option>`` (the option itself, as the Horde's and the God's
        boards name it)."""
        if second is None:
            await self.act(interaction, table.game_id, f"choose {first}")
            return
        if not self._is_current(table, first):
            raise ChallengeError("hydra.error.stale")
        decision = table.game.pending if table.game is not None else None
        assert decision is not None  # _is_current: there is a question
        if second == "default":
            answer = decision.default
        elif second == "none":
            answer = "none"
        else:
            answer = decision.options[int(second)]
        await self.act(interaction, table.game_id, f"choose {answer}")

    async def _concede(self, interaction: discord.Interaction, table: ChallengeTable) -> None:
        """The member gives up: their own seat where each player has a life total, else the table."""
        result = await self.service.concede(table.game_id, interaction.user.id)
        await interaction.response.defer()
        await self.boards.heard(table.game_id, interaction)
        await self.after(result)

    async def _undo(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.service.undo(game_id, interaction.user.id)
        await interaction.response.defer()
        await self.boards.heard(game_id, interaction)
        await self.show_board(game_id)
        self.arm(table)

    async def _lobby_button(
        self, interaction: discord.Interaction, table: ChallengeTable, action: str
    ) -> None:
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
    def arm(self, table: ChallengeTable) -> None:
        """One timer per table (``cogs._timers``, on the bot's clock): the pending question's default after
        the table's window (a response window) or three windows (any other question); with nothing asked,
        the idle pause where the family pauses idle tables."""
        game = table.game
        if (
            table.row.status in (FINISHED, IDLE, LOBBY)
            or game is None
            or game.over
            or not self.turns.runs_here()
        ):
            self.timers.cancel(table.game_id)
            return
        actions = len(table.actions)
        self.armed_at[table.game_id] = actions
        if game.pending is not None:
            if table.row.window_seconds <= 0:
                self.timers.cancel(table.game_id)
                return  # this table waits for the players' answers
            factor = 1 if game.pending.topic in game.window_topics else CHOICE_WAIT_FACTOR
            topic = game.pending.topic
            self.arm_default(
                table.game_id,
                table.row.window_seconds * factor,
                lambda: self._default_later(table.game_id, topic, actions),
            )
        elif self.family.idle_pause:
            self.timers.after(
                table.game_id, table.row.idle_minutes * 60, lambda: self._idle_later(table.game_id, actions)
            )
        else:
            self.timers.cancel(table.game_id)

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
            log.exception("could not announce the pause of %s table %s", self.family.name, game_id)
