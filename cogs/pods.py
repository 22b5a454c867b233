"""Pod tracking at the table: ``/pod ...`` and the live board (embed + image + buttons).

The cog parses options, checks who acts, calls ``PodService`` and renders. Every change is committed by
the service before the board is touched; the board message is then edited by ``BoardUpdater``, which
coalesces a burst of presses into one edit showing the final state (Discord allows ~5 edits per 5 s
per channel). Buttons are ``DynamicItem``s whose custom_id carries the game id, registered at load,
so the buttons of a board posted before a restart keep working.

For the tournament feature: ``cog.start_linked_game(channel, players, ruleset=..., tournament_id=...,
round_number=...)`` creates a linked game and posts its board; ``pod_game_finished`` is dispatched with
a ``PodGameRecord`` when any game ends.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.domain import pod
from bot.domain.mulligan import MulliganStyle
from bot.domain.pod import Event, PodError, PodState
from bot.domain.pod_commanders import commander_problem
from bot.i18n import Translate, t
from bot.render.board import header_text, render_snapshot, seat_label, snapshot
from bot.services.decks import DeckService
from bot.services.pods import LoadedGame, PodService
from bot.services.reconcile import register_reconcile
from bot.text import ECHO, fit, fit_lines
from cogs._pod_concede import CONFIRM as CONFIRM_CONCEDE
from cogs._pod_concede import ConcedeStep
from cogs._pod_match import MATCH_CHOICE, MatchButton, MatchStep, Refusal
from cogs._pod_mulligan import MulliganChoice, MulliganStep
from cogs._pod_mulligan import board_lines as mulligan_board_lines

log = logging.getLogger(__name__)


def _T(text: str) -> locale_str:
    """A command text localised through the key ``app.pod.<text>``: the ``pod`` namespace keeps our
    catalogue keys from colliding with another feature's identical English text."""
    return locale_str(text, key=f"app.pod.{text}")


COALESCE_SECONDS = 0.4  # wait this long after a press before editing, so a burst becomes one edit
HISTORY_LINES = 25
HISTORY_BUDGET = 1900  # characters of history in one message (Discord's limit is 2,000)
RECENT_GAMES = 10
_MENTION = re.compile(r"<@!?(\d+)>|\b(\d{15,21})\b")

RULESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in pod.RULESETS]
MATCH_CHOICES = [app_commands.Choice(name=_T("Best of three"), value=MATCH_CHOICE)]
MULLIGAN_CHOICES = [app_commands.Choice(name=_T(style.value.replace("_", " ").title()), value=style.value)
                    for style in MulliganStyle]


# -- persistent components ---------------------------------------------------------------------------

class PodButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pod:(?P<game>\d+):(?P<action>[a-z_]+)(?::(?P<arg>-?\d+))?"):
    """A board button; ``pod:<game>:<action>[:<number>]`` survives restarts."""

    def __init__(self, game_id: int, action: str, arg: int | None = None, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        custom_id = f"pod:{game_id}:{action}" + ("" if arg is None else f":{arg}")
        super().__init__(discord.ui.Button(label=label or action, style=style, row=row, custom_id=custom_id))
        self.game_id, self.action, self.arg = game_id, action, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PodButton:
        arg = match["arg"]
        return cls(int(match["game"]), match["action"], None if arg is None else int(arg), label=item.label or "",
                   style=item.style, row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_button(interaction, self.game_id, self.action, self.arg)


class PlayerSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"pod-pick:(?P<game>\d+)"):
    """Chooses whose totals the life buttons change (remembered per person pressing)."""

    def __init__(self, game_id: int, options: Sequence[discord.SelectOption] = (), placeholder: str = "") -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"pod-pick:{game_id}", options=list(options) or [discord.SelectOption(label="-", value="0")],
            placeholder=placeholder or None, row=0)
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> PlayerSelect:
        return cls(int(match["game"]), item.options, item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_pick(interaction, self.game_id, [int(v) for v in self.item.values])


def _cog(interaction: discord.Interaction) -> PodsCog:
    cog = interaction.client.get_cog(PodsCog.__cog_name__)  # type: ignore[union-attr]
    assert isinstance(cog, PodsCog)
    return cog


# -- modals and ephemeral panels -------------------------------------------------------------------------

class AmountModal(discord.ui.Modal):
    """Any life change or an exact total, optionally as combat damage from a seat (tournament stats)."""

    def __init__(self, cog: PodsCog, game_id: int, target: int, target_name: str, tr: Translate) -> None:
        super().__init__(title=tr("pod.modal.life_title", name=target_name)[:45])
        self.cog, self.game_id, self.target, self.tr = cog, game_id, target, tr
        self.amount = discord.ui.TextInput(label=tr("pod.modal.amount")[:45], required=False, max_length=8,
                                           placeholder="-3", custom_id="amount")
        self.total = discord.ui.TextInput(label=tr("pod.modal.total")[:45], required=False, max_length=8,
                                          custom_id="total")
        self.source = discord.ui.TextInput(label=tr("pod.modal.combat_from")[:45], required=False, max_length=2,
                                           custom_id="source")
        for field in (self.amount, self.total, self.source):
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        amount, total = self.amount.value.strip(), self.total.value.strip()
        if bool(amount) == bool(total):
            await self.cog.send_error(interaction, PodError("bad_amount"))
            return
        data: dict[str, Any] = {"player": self.target}
        if self.source.value.strip():
            loaded = await self.cog.service.get(self.game_id)
            seat = _int_or_none(self.source.value)
            if seat is None or not 1 <= seat <= len(loaded.state.players):
                await self.cog.send_error(interaction, PodError("bad_seat"))
                return
            data.update(source=loaded.state.players[seat - 1].user_id, combat=True)
        if amount:
            await self.cog.act(interaction, self.game_id, pod.LIFE, amount=_int_or_text(amount), **data)
        else:
            await self.cog.act(interaction, self.game_id, pod.SET_LIFE, total=_int_or_text(total), **data)


class CounterModal(discord.ui.Modal):
    """Poison or a named counter (energy, experience, storm …) for the selected player."""

    def __init__(self, cog: PodsCog, game_id: int, target: int, target_name: str, tr: Translate) -> None:
        super().__init__(title=tr("pod.modal.counter_title", name=target_name)[:45])
        self.cog, self.game_id, self.target = cog, game_id, target
        self.name = discord.ui.TextInput(label=tr("pod.modal.counter_name")[:45], max_length=pod.MAX_COUNTER_NAME,
                                         placeholder=tr("pod.modal.counter_hint")[:100], custom_id="name")
        self.amount = discord.ui.TextInput(label=tr("pod.modal.amount")[:45], max_length=8, placeholder="+1",
                                           custom_id="amount")
        self.add_item(self.name)
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        name = self.name.value.strip()
        amount = _int_or_text(self.amount.value)
        if name.lower() in POISON_WORDS:
            await self.cog.act(interaction, self.game_id, pod.POISON, player=self.target, amount=amount)
        else:
            await self.cog.act(interaction, self.game_id, pod.COUNTER, player=self.target, name=name, amount=amount)


# Board buttons that change the game directly (no modal or panel): acknowledged before any work.
_PRESSES = frozenset({"life", "poison", "monarch", "initiative", "next", "undo", "concede", "draw", "join", "shuffle"})

POISON_WORDS = {"poison", "毒", "中毒", "毒カウンター"}


class CommanderModal(discord.ui.Modal):
    """Name one's commander(s) by typing (until a registered deck can be picked); partners in field 2."""

    def __init__(self, cog: PodsCog, game_id: int, player: int, tr: Translate) -> None:
        super().__init__(title=tr("pod.modal.commanders_title")[:45])
        self.cog, self.game_id, self.player = cog, game_id, player
        self.first = discord.ui.TextInput(label=tr("pod.modal.commander")[:45], required=False, max_length=150,
                                          custom_id="commander")
        self.second = discord.ui.TextInput(label=tr("pod.modal.partner")[:45], required=False, max_length=150,
                                           custom_id="partner")
        self.add_item(self.first)
        self.add_item(self.second)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.name_commanders(interaction, self.game_id, self.player,
                                       [self.first.value, self.second.value])


class DamageModal(discord.ui.Modal):
    def __init__(self, cog: PodsCog, game_id: int, commander: str, target: int, title: str, tr: Translate) -> None:
        super().__init__(title=title[:45])
        self.cog, self.game_id, self.commander, self.target = cog, game_id, commander, target
        self.amount = discord.ui.TextInput(label=tr("pod.modal.damage")[:45], max_length=4, placeholder="5",
                                           custom_id="damage")
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.act(interaction, self.game_id, pod.COMMANDER_DAMAGE, commander=self.commander,
                           target=self.target, amount=_int_or_text(self.amount.value))


class CommanderPanel(discord.ui.View):
    """Ephemeral: source commander → player hit → amount (G5); cast with tax (G3a/G3b)."""

    def __init__(self, cog: PodsCog, loaded: LoadedGame, actor: int, tr: Translate) -> None:
        super().__init__(timeout=600)
        self.cog, self.game_id, self.tr = cog, loaded.game_id, tr
        state = loaded.state
        commanders = state.all_commanders()
        own = [c for c in commanders if c.owner == actor]
        self.commander = (own or commanders)[0].key if commanders else None
        self.target: int | None = None  # nobody is hit by default: the Damage press asks first
        self.source_select: discord.ui.Select = discord.ui.Select(
            placeholder=tr("pod.panel.source"), row=0,
            options=[discord.SelectOption(label=_commander_label(state, c, tr)[:100], value=c.key,
                                          default=c.key == self.commander) for c in commanders][:25]
            or [discord.SelectOption(label="-", value="-")])
        self.source_select.callback = self._pick_source  # type: ignore[method-assign]
        self.target_select: discord.ui.Select = discord.ui.Select(
            placeholder=tr("pod.panel.target"), row=1,
            options=[discord.SelectOption(label=f"{i + 1} {p.name}"[:100], value=str(p.user_id))
                     for i, p in enumerate(state.players) if p.alive][:25])
        self.target_select.callback = self._pick_target  # type: ignore[method-assign]
        self.add_item(self.source_select)
        self.add_item(self.target_select)
        self.damage = discord.ui.Button(label=tr("pod.button.damage"), style=discord.ButtonStyle.danger, row=2)
        self.damage.callback = self._damage  # type: ignore[method-assign]
        self.cast = discord.ui.Button(label=tr("pod.button.cast"), style=discord.ButtonStyle.primary, row=2)
        self.cast.callback = self._cast  # type: ignore[method-assign]
        self.add_item(self.damage)
        self.add_item(self.cast)
        if state.tax_variant == "G3b":
            self.zone = discord.ui.Button(label=tr("pod.button.command_zone"), row=2)
            self.zone.callback = self._command_zone  # type: ignore[method-assign]
            self.add_item(self.zone)

    async def _pick_source(self, interaction: discord.Interaction) -> None:
        self.commander = self.source_select.values[0]
        await interaction.response.defer()

    async def _pick_target(self, interaction: discord.Interaction) -> None:
        self.target = int(self.target_select.values[0])
        await interaction.response.defer()

    async def _damage(self, interaction: discord.Interaction) -> None:
        if self.commander is None:
            await self.cog.send_error(interaction, PodError("unknown_commander"))
            return
        if self.target is None:
            await self.cog.send_error(interaction, PodError("pick_target"))
            return
        loaded = await self.cog.service.get(self.game_id)
        state = loaded.state
        title = self.tr("pod.modal.damage_title", commander=_commander_label(state, state.commander(self.commander),
                                                                            self.tr),
                        name=_name(state, self.target))
        await interaction.response.send_modal(DamageModal(self.cog, self.game_id, self.commander, self.target, title,
                                                          self.tr))

    async def _cast(self, interaction: discord.Interaction) -> None:
        """G3a/G3b: record the cast and tell the caster the tax paid and the next cost."""
        loaded = await self.cog.act(interaction, self.game_id, pod.CAST, commander=self.commander)
        if loaded is not None and self.commander is not None:
            state = loaded.state
            commander = state.commander(self.commander)
            await interaction.followup.send(
                self.tr("pod.cast_done", commander=_commander_label(state, commander, self.tr),
                        tax=state.cast_log[-1]["tax"], next=state.next_tax(commander)), ephemeral=True)

    async def _command_zone(self, interaction: discord.Interaction) -> None:
        await self.cog.act(interaction, self.game_id, pod.TO_COMMAND_ZONE, commander=self.commander)


class DeckPanel(discord.ui.View):
    """Ephemeral: choose one of your registered decks, or type a commander name instead."""

    def __init__(self, cog: PodsCog, game_id: int, decks: Sequence[Any], tr: Translate) -> None:
        super().__init__(timeout=600)
        self.cog, self.game_id, self.tr = cog, game_id, tr
        self.select: discord.ui.Select = discord.ui.Select(
            placeholder=tr("pod.panel.deck_placeholder"), row=0,
            options=[discord.SelectOption(label=d.name[:100], value=d.name[:100],
                                          description=(" + ".join(d.commanders) or "-")[:100]) for d in decks][:25])
        self.select.callback = self._pick  # type: ignore[method-assign]
        self.add_item(self.select)
        typed = discord.ui.Button(label=tr("pod.button.type_commander"), row=1)
        typed.callback = self._type  # type: ignore[method-assign]
        self.add_item(typed)

    async def _pick(self, interaction: discord.Interaction) -> None:
        await self.cog.pick_deck(interaction, self.game_id, self.select.values[0])

    async def _type(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(CommanderModal(self.cog, self.game_id, interaction.user.id, self.tr))


# -- coalesced board edits ---------------------------------------------------------------------------------

class BoardUpdater:
    """Edits each game's board at most once per ``delay`` seconds, always with the latest state."""

    def __init__(self, cog: PodsCog, delay: float = COALESCE_SECONDS) -> None:
        self.cog, self.delay = cog, delay
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._render_slot = asyncio.Semaphore(1)
        self.edits = 0

    def request(self, game_id: int) -> None:
        self._dirty.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id),
                                                                         name=f"pod-board-{game_id}")

    async def _run(self, game_id: int) -> None:
        while game_id in self._dirty:
            await asyncio.sleep(self.delay)
            # One render at a time: presses keep being answered in between, and every press that
            # arrives while a game waits for its turn is folded into that game's single edit.
            async with self._render_slot:
                self._dirty.discard(game_id)
                try:
                    await self.cog.refresh_board(game_id)
                    self.edits += 1
                except Exception:  # a failed edit must not stop later ones; the next press retries
                    log.exception("could not update the board of pod game %s", game_id)
        # No await between the loop's last check and here: a press arriving now finds no task and
        # starts a new one.
        self._tasks.pop(game_id, None)

    async def flush(self) -> None:
        """Wait for every pending edit (tests, benchmarks, shutdown)."""
        while any(not task.done() for task in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def cancel(self) -> None:
        for task in self._tasks.values():
            task.cancel()


# -- the cog ------------------------------------------------------------------------------------------------

class PodsCog(commands.GroupCog, name="Pods", group_name="pod", group_description=_T("Track a Commander game at the table")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = PodService(bot.db, notify=bot.dispatch)  # type: ignore[attr-defined]
        self.updater = BoardUpdater(self)
        self.mulligan_step = MulliganStep(self)
        self.match_step = MatchStep(self)  # matches and sideboard swaps: cogs/_pod_match.py
        self.concede_step = ConcedeStep(self)  # conceding for someone else: cogs/_pod_concede.py
        self.selected: dict[tuple[int, int], int] = {}  # (game, person pressing) -> player whose totals they change
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PodButton, PlayerSelect, MulliganChoice, MatchButton)
        register_reconcile(self.bot, "pods", self.reconcile_boards)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PodButton, PlayerSelect, MulliganChoice, MatchButton)
        self.updater.cancel()
        self.mulligan_step.cancel()
        self.match_step.cancel()

    # -- languages -------------------------------------------------------------------------------------

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]

    async def board_language(self, guild_id: int | None) -> str:
        """Everyone reads the same board: the server's language (see ``PodkeeperBot.guild_language``)."""
        return await self.bot.guild_language(guild_id)  # type: ignore[attr-defined]

    # -- acting ------------------------------------------------------------------------------------------

    async def act(self, interaction: discord.Interaction, game_id: int, kind: str, **data: Any) -> LoadedGame | None:
        """Apply one change for the person interacting, acknowledge, and schedule the board edit.

        A press or a modal is acknowledged (deferred) before anything else: the change waits for the
        game's lock and the database's one writer, and in a burst of hundreds of presses that queue is
        longer than Discord's 3 s. Deferring first keeps every answer in time; the change is then
        applied exactly once (a refusal arrives as a private followup)."""
        await self._defer_press(interaction)
        try:
            loaded = await self.service.change(game_id, interaction.user.id, kind, manager=_is_manager(interaction),
                                               **data)
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return None
        await self._acknowledge(interaction, game_id)
        self.updater.request(game_id)
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
        if interaction.response.is_done():
            return
        if interaction.type == discord.InteractionType.component or interaction.type == discord.InteractionType.modal_submit:
            await interaction.response.defer()
        else:
            language = await self.bot.language_for(interaction)  # type: ignore[attr-defined]
            text = t("pod.done", language) if game_id is None else t("pod.done_game", language, game=game_id)
            await interaction.response.send_message(text, ephemeral=True)

    async def send_error(self, interaction: discord.Interaction, error: PodError, game_id: int | None = None) -> None:
        tr = await self._tr(interaction)
        values = dict(error.values)
        if game_id is not None and values:
            state = (await self.service.get(game_id)).state
            values = {k: _name(state, v) if isinstance(v, int) and state.is_player(v) else v for k, v in values.items()}
        message = tr(error.key, **values)
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)

    def target_for(self, state: PodState, game_id: int, user_id: int) -> int:
        """The player whose totals this person's presses change: their pick, else themselves."""
        chosen = self.selected.get((game_id, user_id))
        if chosen is not None and state.is_player(chosen) and state.player(chosen).alive:
            return chosen
        if state.is_player(user_id) and state.player(user_id).alive:
            return user_id
        alive = state.alive
        return alive[0].user_id if alive else state.players[0].user_id

    async def on_pick(self, interaction: discord.Interaction, game_id: int, values: list[int]) -> None:
        await self._defer_press(interaction)
        try:
            loaded = await self.service.get(game_id)
            pod.check_may_change(loaded.state, interaction.user.id, None, manager=_is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error)
            return
        if values:
            self.selected[(game_id, interaction.user.id)] = values[0]

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str, arg: int | None) -> None:
        if action in _PRESSES:  # answered at once; buttons that open a modal or a panel answer with it
            await self._defer_press(interaction)
        try:
            loaded = await self.service.get(game_id)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        state, user = loaded.state, interaction.user.id
        target = self.target_for(state, game_id, user)
        if action == "life" and arg is not None:
            await self.act(interaction, game_id, pod.LIFE, player=target, amount=arg)
        elif action == "poison":
            await self.act(interaction, game_id, pod.POISON, player=target, amount=1)
        elif action in ("monarch", "initiative"):
            holder = getattr(state, action)
            await self.act(interaction, game_id, pod.MONARCH if action == "monarch" else pod.INITIATIVE,
                           player=None if holder == target else target)
        elif action == "next":
            await self.act(interaction, game_id, pod.NEXT_TURN)
        elif action == "undo":
            await self._undo(interaction, game_id, 1)
        elif action == "concede":
            await self.act(interaction, game_id, pod.CONCEDE, player=user)
        elif action == "draw":
            voted = user in state.draw_votes
            await self.act(interaction, game_id, pod.DRAW_VOTE, player=user, withdraw=voted)
        elif action == "join":
            await self.act(interaction, game_id, pod.JOIN, player=user, name=interaction.user.display_name)
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
            await interaction.response.send_message(self.history_text(loaded, tr), ephemeral=True)
        elif not await self._may_open(interaction, state, target):
            return
        elif action == "amount":
            await interaction.response.send_modal(AmountModal(self, game_id, target, _name(state, target), tr))
        elif action == "counter":
            await interaction.response.send_modal(CounterModal(self, game_id, target, _name(state, target), tr))
        elif action == "commander":
            await interaction.response.send_message(tr("pod.panel.commander"), ephemeral=True,
                                                    view=CommanderPanel(self, loaded, user, tr))
        elif action == "commanders":
            await self._open_commanders(interaction, game_id, tr)
        elif action == "mulligan":
            await self._open_mulligan(interaction, loaded, tr)

    async def _may_open(self, interaction: discord.Interaction, state: PodState, target: int | None) -> bool:
        """Check before opening a modal or panel, so an outsider learns at once that it is not theirs."""
        try:
            pod.check_may_change(state, interaction.user.id, target, manager=_is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error)
            return False
        return True

    async def _undo(self, interaction: discord.Interaction, game_id: int, steps: int) -> None:
        try:
            await self.service.undo(game_id, interaction.user.id, steps, manager=_is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        await self._acknowledge(interaction, game_id)
        self.updater.request(game_id)

    async def _shuffle(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            await self.service.shuffle_seats(game_id, interaction.user.id, manager=_is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        await self._acknowledge(interaction)
        self.updater.request(game_id)

    async def _open_commanders(self, interaction: discord.Interaction, game_id: int, tr: Translate) -> None:
        """Pick one of your registered decks (its commanders, partners as two), or type a name."""
        decks = await self.decks().list_decks(interaction.guild_id or 0, interaction.user.id)
        if not decks:
            await interaction.response.send_modal(CommanderModal(self, game_id, interaction.user.id, tr))
            return
        await interaction.response.send_message(tr("pod.panel.deck"), ephemeral=True,
                                                view=DeckPanel(self, game_id, decks, tr))

    def decks(self) -> DeckService:
        return DeckService(self.bot.db, self.bot.cards)  # type: ignore[attr-defined]

    async def pick_deck(self, interaction: discord.Interaction, game_id: int, deck_name: str) -> None:
        record = await self.decks().get(interaction.guild_id or 0, interaction.user.id, deck_name)
        if record is None:
            await self.send_error(interaction, PodError("unknown_deck"))
            return
        await self.act(interaction, game_id, pod.COMMANDERS, player=interaction.user.id,
                       names=list(record.commanders) or [None], deck=record.name)

    async def _open_mulligan(self, interaction: discord.Interaction, loaded: LoadedGame, tr: Translate) -> None:
        await self.mulligan_step.open(interaction, loaded)  # cogs/_pod_mulligan.py

    async def name_commanders(self, interaction: discord.Interaction, game_id: int, player: int,
                              names: Sequence[str | None]) -> None:
        """Resolve typed commander names against the card data (printed names accepted) and store them."""
        resolved: list[str | None] = []
        found_cards = []
        for raw in names:
            text = (raw or "").strip()
            if not text:
                continue
            cards = getattr(self.bot, "cards", None)
            if cards is None:
                resolved.append(text)
                continue
            found = cards.resolve(text)
            if not found.found:
                hint = ", ".join(found.suggestions[:3]) if found.suggestions else "-"
                await self.send_error(interaction, PodError("unknown_card", name=fit(text, ECHO), suggestions=hint))
                return
            resolved.append(found.card.name)
            found_cards.append(found.card)
        if not await self._commanders_legal(interaction, game_id, found_cards):
            return
        await self.act(interaction, game_id, pod.COMMANDERS, player=player, names=resolved or [None])

    async def _commanders_legal(self, interaction: discord.Interaction, game_id: int, cards: Sequence[Any]) -> bool:
        """Refuse, saying why, commanders that can't lead (together) under the game's ruleset."""
        try:
            ruleset = (await self.service.get(game_id)).state.ruleset
        except PodError as error:
            await self.send_error(interaction, error)
            return False
        problem = commander_problem(cards, ruleset)
        if problem is None:
            return True
        tr = await self._tr(interaction)
        key, values = problem
        if "reason" in values:
            values = {**values, "reason": tr(values["reason"])}
        await self.send_error(interaction, PodError(key, **values))
        return False

    # -- the board -----------------------------------------------------------------------------------------

    async def board_payload(self, loaded: LoadedGame) -> tuple[discord.Embed, discord.File, discord.ui.View | None]:
        language = await self.board_language(loaded.row.guild_id)
        tr = Translate(language)
        state = loaded.state
        # Everything is read from the state on the loop, before the await (the state keeps changing);
        # the image is drawn in the work pool so a burst of renders never delays acknowledging other
        # presses past Discord's 3 s.
        board = snapshot(state, language, title=f"#{loaded.game_id}",
                         commander_names=self.commander_names(state, language))
        filename = f"pod-{loaded.game_id}.png"
        embed = discord.Embed(title=tr("pod.embed.title", game=loaded.game_id, ruleset=state.ruleset),
                              description=self.board_description(loaded, tr),
                              colour=discord.Colour.dark_grey() if state.finished else discord.Colour.blurple())
        embed.set_image(url=f"attachment://{filename}")
        if loaded.row.tournament_id is not None:
            embed.set_footer(text=tr("pod.embed.tournament", tournament=loaded.row.tournament_id,
                                     round=loaded.row.round_number or "-"))
        view = self.board_view(loaded, tr)
        await self.match_step.decorate(loaded, embed, view, tr)
        png = await self.bot.workers.run(render_snapshot, board)  # type: ignore[attr-defined]
        return embed, discord.File(fp=io.BytesIO(png), filename=filename), view

    def commander_names(self, state: PodState, language: str) -> dict[str, str]:
        """Commander names as printed in ``language`` when the card data has them (never translated by us)."""
        cards = getattr(self.bot, "cards", None)
        names: dict[str, str] = {}
        for commander in state.all_commanders():
            card = cards.get(commander.name) if cards is not None and commander.name else None
            if card is not None:
                names[commander.key] = card.printed_name(language)
        return names

    def board_description(self, loaded: LoadedGame, tr: Translate) -> str:
        state = loaded.state
        lines = [header_text(state, tr.language)]
        names = {p.user_id: p.name for p in state.players}
        if not state.started:
            lines.append(tr("pod.embed.seats", seats=" → ".join(f"{i + 1}. {p.name}" for i, p in enumerate(state.players))))
            lines += mulligan_board_lines(state, names, tr)
        if state.draw_votes and not state.finished:
            lines.append(tr("pod.embed.draw_votes", names=", ".join(names[u] for u in sorted(state.draw_votes))))
        if state.finished:
            for place, users in state.standings():
                lines.append(f"{place}. " + ", ".join(names[u] for u in users))
        if state.own_totals_only:
            lines.append(tr("pod.embed.own_totals_only"))
        return "\n".join(lines)[:4000]

    def board_view(self, loaded: LoadedGame, tr: Translate) -> discord.ui.View | None:
        state, gid = loaded.state, loaded.game_id
        view = discord.ui.View(timeout=None)
        if state.finished:
            view.add_item(PodButton(gid, "history", label=tr("pod.button.history"), row=0))
            return view
        options = [discord.SelectOption(label=f"{i + 1} {p.name} ({p.life})"[:100], value=str(p.user_id))
                   for i, p in enumerate(state.players) if p.alive]
        view.add_item(PlayerSelect(gid, options, tr("pod.button.pick_player")))
        for amount in (-5, -1, 1, 5):
            view.add_item(PodButton(gid, "life", amount, label=f"{amount:+d}", row=1,
                                    style=discord.ButtonStyle.danger if amount < 0 else discord.ButtonStyle.success))
        view.add_item(PodButton(gid, "amount", label=tr("pod.button.amount"), row=1))
        view.add_item(PodButton(gid, "commander", label=tr("pod.button.commander"), row=2,
                                style=discord.ButtonStyle.primary))
        view.add_item(PodButton(gid, "poison", label=tr("pod.button.poison"), row=2))
        view.add_item(PodButton(gid, "counter", label=tr("pod.button.counter"), row=2))
        view.add_item(PodButton(gid, "monarch", label=tr("pod.board.monarch"), row=2))
        view.add_item(PodButton(gid, "initiative", label=tr("pod.board.initiative"), row=2))
        view.add_item(PodButton(gid, "next", label=tr("pod.button.next_turn" if state.started else "pod.button.start"),
                                row=3, style=discord.ButtonStyle.primary))
        view.add_item(PodButton(gid, "undo", label=tr("pod.button.undo"), row=3))
        view.add_item(PodButton(gid, "history", label=tr("pod.button.history"), row=3))
        view.add_item(PodButton(gid, "concede", label=tr("pod.button.concede"), row=3))
        view.add_item(PodButton(gid, "draw", label=tr("pod.button.draw"), row=3))
        if not state.started:
            if state.mulligan is None and loaded.row.tournament_id is None:  # the pairing seats a tournament
                view.add_item(PodButton(gid, "join", label=tr("pod.button.join"), row=4,
                                        style=discord.ButtonStyle.success))
                view.add_item(PodButton(gid, "shuffle", label=tr("pod.button.shuffle"), row=4))
            view.add_item(PodButton(gid, "commanders", label=tr("pod.button.commanders"), row=4))
            view.add_item(PodButton(gid, "mulligan", label=tr("pod.button.mulligan"), row=4))
        return view

    async def post_board(self, channel: discord.abc.Messageable, loaded: LoadedGame) -> discord.Message:
        seq = loaded.events[-1].seq
        embed, file, view = await self.board_payload(loaded)
        message = await channel.send(embed=embed, file=file, view=view)
        await self.service.set_message(loaded.game_id, message.channel.id, message.id)
        await self.service.mark_shown(loaded.game_id, seq)
        return message

    async def refresh_board(self, game_id: int) -> None:
        """Edit the game's current board message to show the stored state (no fetch: the ids suffice)."""
        loaded = await self.service.get(game_id)
        self.mulligan_step.request(game_id)  # panels and the ping line follow undo and /pod end too
        if loaded.row.message_id is None or loaded.row.channel_id is None:
            return
        seq = loaded.events[-1].seq  # read before rendering: a press during the render leaves it lagging
        embed, file, view = await self.board_payload(loaded)
        message = self.bot.get_partial_messageable(loaded.row.channel_id).get_partial_message(loaded.row.message_id)
        try:
            await message.edit(embed=embed, attachments=[file], view=view)
        except discord.NotFound:  # the board was deleted: /pod show posts a new one
            log.info("board message of pod game %s is gone", game_id)
        await self.service.mark_shown(game_id, seq)

    async def reconcile_boards(self) -> int:
        """After a start: edit each board behind its log, and post the board of a game stored just
        before a crash but never posted (in the channel where it was started)."""
        count = 0
        for game_id in await self.service.lagging_boards():
            loaded = await self.service.get(game_id)
            if loaded.row.message_id is not None:
                await self.refresh_board(game_id)
            elif loaded.row.channel_id is not None and not loaded.state.finished:
                await self.post_board(self.bot.get_partial_messageable(loaded.row.channel_id), loaded)
            count += 1
        return count

    # -- starting ---------------------------------------------------------------------------------------------

    async def start_linked_game(self, channel: discord.abc.Messageable, players: Sequence[discord.abc.User],
                                *, ruleset: str, guild_id: int | None = None, created_by: int | None = None,
                                starting_life: int | None = None, tournament_id: int | None = None,
                                round_number: int | None = None) -> tuple[LoadedGame, discord.Message]:
        """For the tournament feature: create a game linked to a round and post its board in ``channel``.

        Raises PodError (nothing stored) for a bad ruleset, life total or player list."""
        guild = getattr(channel, "guild", None)
        loaded = await self.service.start_game(
            guild_id=guild_id if guild_id is not None else (guild.id if guild else None),
            channel_id=getattr(channel, "id", None), created_by=created_by,
            players=[(p.id, p.display_name) for p in players], ruleset=ruleset, starting_life=starting_life,
            tournament_id=tournament_id, round_number=round_number)
        return loaded, await self.post_board(channel, loaded)

    async def _players_from(self, interaction: discord.Interaction, text: str) -> list[tuple[int, str]]:
        """The mentioned members in order. A mention of someone who is not a member of this server
        refuses the whole list (PodError naming them) rather than silently seating fewer players."""
        ids: list[int] = []
        for match in _MENTION.finditer(text or ""):
            user_id = int(match.group(1) or match.group(2))
            if user_id not in ids:
                ids.append(user_id)
        names = {user_id: await self._display_name(interaction, user_id) for user_id in ids}
        strangers = [user_id for user_id, name in names.items() if name is None]
        if strangers:
            raise PodError("not_members", users=" ".join(f"<@{u}>" for u in strangers))
        return [(user_id, names[user_id] or "") for user_id in ids]

    async def _display_name(self, interaction: discord.Interaction, user_id: int) -> str | None:
        """The member's display name, or None when ``user_id`` is not a member of the server."""
        if interaction.user.id == user_id:
            return interaction.user.display_name
        guild = interaction.guild
        if guild is None:
            return None
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        return None if member is None else member.display_name

    @app_commands.command(name="start", description=_T("Start a game and post its live board"))
    @app_commands.describe(players=_T("Players by mention, in seat order (2 to 8; more can join before turn 1)"),
                           ruleset=_T("Ruleset (default: the server's)"), life=_T("Starting life (default 40)"),
                           own_totals_only=_T("Players change only their own totals"),
                           mulligan=_T("Mulligan style (default: the ruleset's)"),
                           match=_T("Best of three games (a duel-zh game of two players always is)"))
    @app_commands.choices(ruleset=RULESET_CHOICES, mulligan=MULLIGAN_CHOICES, match=MATCH_CHOICES)
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, players: str, ruleset: str | None = None,
                    life: app_commands.Range[int, 1, pod.LIFE_BOUND] | None = None, own_totals_only: bool = False,
                    mulligan: str | None = None, match: str | None = None) -> None:
        tr = await self._tr(interaction)
        try:
            chosen = await self._players_from(interaction, players)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        if not chosen:
            await interaction.response.send_message(tr("pod.error.no_players_mentioned"), ephemeral=True)
            return
        ruleset = ruleset or await self.bot.ruleset_for(interaction.guild_id)  # type: ignore[attr-defined]
        try:
            loaded = await self.match_step.start_game(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, created_by=interaction.user.id,
                players=chosen, ruleset=ruleset, starting_life=life, own_totals_only=own_totals_only,
                mulligan_style=mulligan, match=match)
        except Refusal as error:
            await self.send_error(interaction, error)
            return
        await interaction.response.defer(thinking=True)  # the board image may wait for the work pool
        channel = interaction.channel
        settings = await self.bot.guild_settings.get(interaction.guild_id)  # type: ignore[attr-defined]
        refused: discord.Forbidden | None = None
        if settings.pod_threads and isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(name=tr("pod.thread_name", game=loaded.game_id)[:100],
                                                     type=discord.ChannelType.public_thread)
            except discord.Forbidden as error:
                refused = error  # no thread here: the board goes in the channel, and the user learns why
            else:
                await self.post_board(thread, loaded)
                await interaction.followup.send(tr("pod.started_in_thread", game=loaded.game_id,
                                                   thread=thread.mention))
                return
        await self._send_board(interaction, loaded)
        if refused is not None:
            await self.bot.explain_refusal(interaction, refused)  # type: ignore[attr-defined]

    async def _send_board(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        """The board as the answer to a deferred command; it becomes the game's live board."""
        seq = loaded.events[-1].seq  # read before rendering: a press during the render leaves it lagging
        embed, file, view = await self.board_payload(loaded)
        message = await interaction.followup.send(embed=embed, file=file, view=view, wait=True)  # type: ignore[arg-type]
        if not loaded.state.finished:
            await self.service.set_message(loaded.game_id, message.channel.id, message.id)
            await self.service.mark_shown(loaded.game_id, seq)

    # -- slash alternatives ---------------------------------------------------------------------------------------

    async def _game_here(self, interaction: discord.Interaction, game: int | None,
                         who: int | None = None) -> LoadedGame | None:
        """The game named by ``game:``, else the running game in this channel that the caller (or ``who``)
        plays in (a tournament round posts every table's board in one channel), else the only running one.
        With several candidates the caller is asked to name one rather than reaching the newest."""
        try:
            if game is not None:
                loaded = await self.service.get(game)
                if loaded.row.guild_id != interaction.guild_id:
                    raise PodError("no_game")
                return loaded
            running = [await self.service.get(row.game_id)
                       for row in await self.service.open_in_channel(interaction.channel_id or 0)]
            if not running:
                raise PodError("no_open_game")
            mine = [g for g in running if g.state.is_player(who or interaction.user.id)] or running
            if len(mine) > 1:
                raise PodError("which_game", games=", ".join(f"#{g.game_id}" for g in reversed(mine)))
            return mine[0]
        except PodError as error:
            await self.send_error(interaction, error)
            return None

    @app_commands.command(name="show", description=_T("Post the board of the game again"))
    @app_commands.describe(game=_T("Game number (default: the running game in this channel)"))
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is None:
            return
        await interaction.response.defer(thinking=True)
        await self._send_board(interaction, loaded)

    @app_commands.command(name="history", description=_T("Who changed what, and when"))
    @app_commands.describe(game=_T("Game number (default: the running game in this channel)"))
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is None:
            return
        await interaction.response.send_message(self.history_text(loaded, await self._tr(interaction)),
                                                ephemeral=True)

    @app_commands.command(name="end", description=_T("End the game now; whoever is alive survives"))
    @app_commands.describe(game=_T("Game number (default: the running game in this channel)"))
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Ending stops the game for everyone (no winner), so it is asked for twice: this command
        only offers a confirmation button. A tournament game is ended only by an organiser."""
        loaded = await self._game_here(interaction, game)
        if loaded is None or not await self._may_end(interaction, loaded):
            return
        tr = await self._tr(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(PodButton(loaded.game_id, "confirm_end", label=tr("pod.button.confirm_end"),
                                style=discord.ButtonStyle.danger))
        await interaction.response.send_message(tr("pod.confirm_end", game=loaded.game_id), view=view,
                                                ephemeral=True)

    async def _may_end(self, interaction: discord.Interaction, loaded: LoadedGame) -> bool:
        """Anyone who may change the game may stop it, except a tournament game: organisers only."""
        try:
            if loaded.state.finished:
                raise PodError("game_over")
            if loaded.row.tournament_id is not None:
                if not await self._is_organiser(interaction):
                    raise PodError("tournament_end_organisers")
            else:
                pod.check_may_change(loaded.state, interaction.user.id, None, manager=_is_manager(interaction))
        except PodError as error:
            await self.send_error(interaction, error)
            return False
        return True

    async def _is_organiser(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the server's organiser role (``/config organiser-role``)."""
        if _is_manager(interaction):
            return True
        settings = await self.bot.guild_settings.get(interaction.guild_id)  # type: ignore[attr-defined]
        roles = getattr(interaction.user, "roles", [])
        return settings.organiser_role_id is not None and any(r.id == settings.organiser_role_id for r in roles)

    async def _end_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            loaded = await self.service.get(game_id)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        if not await self._may_end(interaction, loaded):
            return
        organiser = loaded.row.tournament_id is not None or _is_manager(interaction)  # checked by _may_end
        try:
            await self.service.change(game_id, interaction.user.id, pod.STOP, manager=organiser)
        except PodError as error:
            await self.send_error(interaction, error, game_id)
            return
        tr = await self._tr(interaction)
        await interaction.response.edit_message(content=tr("pod.ended_done", game=game_id), view=None)
        self.updater.request(game_id)

    @app_commands.command(name="concede", description=_T("Concede; or, with Manage Server, for a player who left"))
    @app_commands.describe(player=_T("Who concedes (default: you)"),
                           game=_T("Game number (default: that player's running game in this channel)"))
    @app_commands.guild_only()
    async def concede(self, interaction: discord.Interaction, player: discord.Member | None = None,
                      game: int | None = None) -> None:
        """For another player this only offers a confirmation (``cogs/_pod_concede.py``)."""
        who = (player or interaction.user).id
        loaded = await self._game_here(interaction, game, who)
        if loaded is not None:
            await self.concede_step.ask(interaction, loaded, who)

    @app_commands.command(name="list", description=_T("Recent games in this server"))
    @app_commands.guild_only()
    async def list_games(self, interaction: discord.Interaction) -> None:
        tr = await self._tr(interaction)
        rows = await self.service.recent(interaction.guild_id or 0, RECENT_GAMES)
        if not rows:
            await interaction.response.send_message(tr("pod.list.empty"), ephemeral=True)
            return
        lines = []
        for row in rows:
            state = (await self.service.get(row.game_id)).state
            names = ", ".join(p.name for p in state.players)
            where = f"<#{row.channel_id}>" if row.channel_id else "-"
            lines.append(tr("pod.list.line", game=row.game_id, date=row.created_at[:10], where=where, names=names,
                            result=header_text(state, tr.language) if state.finished else tr("pod.list.running")))
        embed = discord.Embed(title=tr("pod.list.title"), description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="mulligan", description=_T("Answer the mulligan step before turn 1"))
    @app_commands.describe(game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def mulligan_command(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is not None:
            await self._open_mulligan(interaction, loaded, await self._tr(interaction))

    @app_commands.command(name="commander", description=_T("Name your commander(s) for the running game"))
    @app_commands.describe(name=_T("Your commander"), partner=_T("Your second commander (partners)"),
                           game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def commander(self, interaction: discord.Interaction, name: str, partner: str | None = None,
                        game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is not None:
            await self.name_commanders(interaction, loaded.game_id, interaction.user.id, [name, partner])

    @commander.autocomplete("name")
    @commander.autocomplete("partner")
    async def commander_autocomplete(self, interaction: discord.Interaction, current: str
                                     ) -> list[app_commands.Choice[str]]:
        cards = getattr(self.bot, "cards", None)
        if cards is None or not current:
            return []
        language = await self.bot.language_for(interaction)  # type: ignore[attr-defined]
        return [app_commands.Choice(name=shown, value=card_id)
                for shown, card_id in cards.choices(current, language, limit=25)]

    @app_commands.command(name="life", description=_T("Change a player's life"))
    @app_commands.describe(player=_T("Whose life"), amount=_T("Change, e.g. -3 or 5"),
                           game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def life(self, interaction: discord.Interaction, player: discord.Member,
                   amount: app_commands.Range[int, -pod.LIFE_BOUND, pod.LIFE_BOUND], game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is not None:
            await self.act(interaction, loaded.game_id, pod.LIFE, player=player.id, amount=amount)

    @app_commands.command(name="damage", description=_T("Commander damage: source commander, player hit, amount"))
    @app_commands.describe(owner=_T("The commander's owner"), target=_T("The player hit"),
                           amount=_T("Combat damage"), partner=_T("The owner's second commander (partners)"),
                           game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def damage(self, interaction: discord.Interaction, owner: discord.Member, target: discord.Member,
                     amount: app_commands.Range[int, 1, pod.MAX_COMMANDER_HIT], partner: bool = False,
                     game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is not None:
            await self.act(interaction, loaded.game_id, pod.COMMANDER_DAMAGE,
                           commander=pod.commander_key(owner.id, 1 if partner else 0), target=target.id, amount=amount)

    @app_commands.command(name="next", description=_T("Pass to the next turn"))
    @app_commands.describe(game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def next_turn(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is not None:
            await self.act(interaction, loaded.game_id, pod.NEXT_TURN)

    @app_commands.command(name="undo", description=_T("Undo the last changes"))
    @app_commands.describe(steps=_T("How many changes to undo"),
                           game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction, steps: app_commands.Range[int, 1, 50] = 1,
                   game: int | None = None) -> None:
        loaded = await self._game_here(interaction, game)
        if loaded is not None:
            await self._undo(interaction, loaded.game_id, steps)

    # -- history -------------------------------------------------------------------------------------------------

    def history_text(self, loaded: LoadedGame, tr: Translate) -> str:
        """The last changes, newest last; undone ones struck through."""
        state = loaded.state
        dropped = {seq for e in loaded.events if e.kind == pod.UNDO for seq in e.data["seqs"]}
        lines = []
        for event in loaded.events[-HISTORY_LINES:]:
            text = f"{_discord_time(event.at)} {describe_event(event, state, tr)}"
            lines.append(f"~~{text}~~" if event.seq in dropped else text)
        return fit_lines(lines, HISTORY_BUDGET, lambda count: tr("core.and_more", count=count),
                         keep_last=True) or tr("pod.history.empty")


# -- helpers ----------------------------------------------------------------------------------------------------

def describe_event(event: Event, state: PodState, tr: Translate) -> str:
    """One history line in the reader's language."""
    data = event.data
    actor = _name(state, event.actor) if event.actor is not None else "-"
    values: dict[str, Any] = {"actor": actor}
    if "player" in data and data["player"] is not None:
        values["player"] = _name(state, data["player"])
    if "target" in data:
        values["player"] = _name(state, data["target"])
    if "amount" in data:
        values["amount"] = _signed(data["amount"])
    if "commander" in data:
        try:
            values["commander"] = _commander_label(state, state.commander(data["commander"]), tr)
        except PodError:
            values["commander"] = data["commander"]
    if event.kind == pod.SET_LIFE:
        values["total"] = data.get("total")
    if event.kind == pod.UNDO:
        values["count"] = len(data.get("seqs", []))
    if event.kind == pod.COUNTER:
        values["name"] = fit(str(data.get("name") or ""), ECHO)  # typed by a player: shown as typed
    if event.kind == pod.MULLIGAN:
        values["decision"] = data.get("decision")
    if event.kind == pod.SWAP:
        values.update(out=data.get("out"), into=data.get("in"), count=data.get("count", 1))
    if event.kind == pod.COMMANDERS:
        values["names"] = ", ".join(n or "?" for n in data.get("names", [])) or "-"
    if event.kind in (pod.MONARCH, pod.INITIATIVE) and data.get("player") is None:
        values["player"] = "-"
    key = f"pod.history.{event.kind}"
    try:
        return tr(key, **values)
    except (KeyError, IndexError):
        return f"{actor}: {event.kind}"


def _commander_label(state: PodState, commander: pod.Commander, tr: Translate) -> str:
    owner = _name(state, commander.owner)
    name = commander.name or tr("pod.board.unnamed_commander")
    return f"{seat_label(state, commander)} {name} ({owner})"


def _name(state: PodState, user_id: Any) -> str:
    try:
        return state.player(int(user_id)).name
    except (PodError, TypeError, ValueError):
        return f"<{user_id}>"


def _discord_time(iso: str) -> str:
    """A Discord timestamp tag: each reader sees the time in their own time zone."""
    try:
        return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:T>"
    except ValueError:
        return f"`{iso}`"


def _signed(value: Any) -> str:
    try:
        return f"{int(value):+d}"
    except (TypeError, ValueError):
        return str(value)


def _int_or_none(text: str) -> int | None:
    try:
        return int(text.strip().replace("+", "", 1))
    except ValueError:
        return None


def _int_or_text(text: str) -> int | str:
    """A typed number as int; anything else stays text so the domain refuses it with bad_amount."""
    number = _int_or_none(text)
    return text if number is None else number


def _is_manager(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PodsCog(bot))
