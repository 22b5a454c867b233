"""Face the Hydra at the table: ``/hydra start|heroes|resume|profile``, the lobby, the board and
one message per Hydra turn.

The cog parses, checks nothing the service checks, and renders. Messages of a table:

- the **board** (lobby first, then the live board): embed with the numbered heads, the board
  image, and the players' buttons (head select, attack/damage/destroy/exile/bounce/tap, life,
  any script command, end our turn, undo, concede);
- one **turn message** per Hydra turn, edited as the turn goes: what was revealed (with its text),
  what it did, the damage, and the question the Hydra's cards ask (H9) with answer components.

Every button is a ``DynamicItem`` whose custom_id carries the table id, registered at load, so
buttons of messages posted before a restart keep working; open tables' timers are re-armed at
load. A response window (counter / prevent) takes its default after the table's window (default
20 s); any other question after three windows; a players' turn with no action for the table's
idle time pauses the table (``/hydra resume``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.domain.hydra import Event, HydraError, HydraGame
from bot.domain.hydra.cards import CARDS, HEROES
from bot.domain.hydra.engine import MAX_HEADS, MIN_HEADS, WINDOW_TOPICS
from bot.i18n import Translate, t
from bot.render.fonts import png_bytes
from bot.render.hydra import board_image, board_text, decision_text, event_text, hero_reminders
from bot.services.hydra import (
    DEFAULT_IDLE_MINUTES,
    DEFAULT_WINDOW_SECONDS,
    ActResult,
    HydraService,
    HydraTable,
)
from bot.services.reconcile import register_reconcile
from bot.storage.hydra import FINISHED, IDLE, LOBBY

log = logging.getLogger(__name__)

HEAD_ACTIONS = ("destroy", "exile", "bounce", "tap")
CHOICE_WAIT_FACTOR = 3  # a question waits three response windows before taking its default


def _T(text: str) -> locale_str:
    return locale_str(text, key=f"app.hydra.{text}")


# -- persistent components -----------------------------------------------------------------------------

class HydraButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hydra:(?P<game>\d+):(?P<action>[a-z_]+)(?::(?P<arg>[a-z_0-9]+))?(?::(?P<arg2>[a-z_0-9]+))?"):
    """``hydra:<table>:<action>[:<arg>[:<arg2>]]``; survives restarts."""

    def __init__(self, game_id: int, action: str, arg: str | None = None, arg2: str | None = None, *,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        custom_id = ":".join(p for p in ("hydra", str(game_id), action, arg, arg2) if p is not None)
        super().__init__(discord.ui.Button(label=(label or action)[:80], style=style, row=row, custom_id=custom_id))
        self.game_id, self.action, self.arg, self.arg2 = game_id, action, arg, arg2

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> HydraButton:
        return cls(int(match["game"]), match["action"], match["arg"], match["arg2"], label=item.label or "",
                   style=item.style, row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_button(interaction, self.game_id, self.action, self.arg, self.arg2)


class HeadSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"hydra-(?P<kind>head|pick):(?P<game>\d+)(?::(?P<topic>[a-z_]+))?"):
    """``hydra-head:<table>`` picks the head the board's buttons act on (remembered per person);
    ``hydra-pick:<table>:<topic>`` answers a question that asks for heads (H9)."""

    def __init__(self, game_id: int, kind: str, topic: str | None, options: list[discord.SelectOption],
                 *, low: int = 1, high: int = 1, placeholder: str = "", row: int | None = None) -> None:
        custom_id = f"hydra-{kind}:{game_id}" + (f":{topic}" if topic else "")
        select: discord.ui.Select = discord.ui.Select(
            custom_id=custom_id, options=options or [discord.SelectOption(label="-", value="0")],
            min_values=low, max_values=max(low, min(high, len(options) or 1)), placeholder=placeholder or None,
            row=row)
        super().__init__(select)
        self.game_id, self.kind, self.topic = game_id, kind, topic

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> HeadSelect:
        return cls(int(match["game"]), match["kind"], match["topic"], list(item.options), low=item.min_values,
                   high=item.max_values, placeholder=item.placeholder or "", row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [int(v) for v in self.item.values]
        await _cog(interaction).on_heads(interaction, self.game_id, self.kind, self.topic, values)


class MoreSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"hydra-more:(?P<game>\d+)"):
    """``hydra-more:<table>``: the players' less common effects (issue #14), each opening a modal
    for its details (or acting at once when it has none)."""

    def __init__(self, game_id: int, options: list[discord.SelectOption], *, placeholder: str = "",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"hydra-more:{game_id}", options=options,
                                           placeholder=placeholder or None, row=row))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> MoreSelect:
        return cls(int(match["game"]), list(item.options), placeholder=item.placeholder or "", row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_more(interaction, self.game_id, self.item.values[0])


# The "More…" effects: verb -> (what the modal starts with, given the selected head; its placeholder).
MORE_ACTIONS: dict[str, tuple[str, str]] = {
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


def _turn_starts(game: HydraGame | None) -> list[int]:
    """Where each Hydra turn begins in the game log (one turn message each)."""
    return [] if game is None else [i for i, e in enumerate(game.events) if e.key == "hydra.log.hydra_turn"]


def _cog(interaction: discord.Interaction) -> HydraCog:
    cog = interaction.client.get_cog(HydraCog.__cog_name__)  # type: ignore[union-attr]
    assert isinstance(cog, HydraCog)
    return cog


# -- modals --------------------------------------------------------------------------------------------

class LineModal(discord.ui.Modal):
    """One text field turned into one script-language line (``prefix`` + what was typed)."""

    def __init__(self, cog: HydraCog, game_id: int, title: str, label: str, prefix: str,
                 placeholder: str = "", default: str = "") -> None:
        super().__init__(title=title[:45])
        self.cog, self.game_id, self.prefix = cog, game_id, prefix
        self.text = discord.ui.TextInput(label=label[:45], placeholder=placeholder[:100] or None,
                                         default=default or None, max_length=200, custom_id="text")
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.act(interaction, self.game_id, f"{self.prefix}{self.text.value}".strip())


# -- the cog -------------------------------------------------------------------------------------------

class HydraCog(commands.GroupCog, name="Hydra", group_name="hydra",
               group_description=_T("Face the Hydra: the bot plays the Hydra challenge deck")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = HydraService(bot.db, notify=bot.dispatch)  # type: ignore[attr-defined]
        # (table, person) -> the head the buttons act on, by its serial: positions shift when a head
        # leaves, so a pick made before another player's action still means the same head
        self.selected: dict[tuple[int, int], int] = {}
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.reports: dict[int, int] = {}  # table -> its players'-turn report message with answer buttons
        self.time_scale = 1.0  # tests shrink every timer
        self.fixed_seed: int | None = None  # tests (and replays of a reported game) fix the shuffle
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HydraButton, HeadSelect, MoreSelect)
        for table in await self.service.open_tables():
            self.arm(table)
        register_reconcile(self.bot, "hydra tables", self.reconcile_tables)

    async def reconcile_tables(self) -> int:
        """Recovery hook (issue #13): after a start every open table's board and latest turn message
        show the stored state, with the buttons of the pending question, even when the bot died between
        storing an action and posting the next question. Idempotent: edits, or posts a missing message."""
        tables = await self.service.open_tables()
        for table in tables:
            starts = _turn_starts(table.game) if table.game is not None else []
            if starts and table.row.turn_message_id is None:
                await self.post_turn_message(table, starts[-1])
            elif starts:
                await self.refresh_turn_message(table, starts[-1])
            await self.refresh_board(table)
        return len(tables)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HydraButton, HeadSelect, MoreSelect)
        for task in self.timers.values():
            task.cancel()

    # -- helpers ---------------------------------------------------------------------------------------
    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]

    async def table_language(self, guild_id: int | None) -> str:
        """Everyone at a table reads the same messages: the server's language, else the default."""
        if guild_id and self.bot.guild_settings is not None:  # type: ignore[attr-defined]
            chosen = (await self.bot.guild_settings.get(guild_id)).locale  # type: ignore[attr-defined]
            if chosen:
                return chosen
        return self.bot.config.default_locale  # type: ignore[attr-defined]

    async def send_error(self, interaction: discord.Interaction, error: HydraError) -> None:
        message = (await self._tr(interaction))(error.key, **error.values)
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)

    async def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    # -- acting ----------------------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, game_id: int, line: str) -> ActResult | None:
        """Apply one action for the person interacting, then update the table's messages.

        A button or modal is acknowledged first (the action waits for the table's lock and the
        database); a refusal then arrives as a private followup."""
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit) \
                and not interaction.response.is_done():
            await interaction.response.defer()
        try:
            result = await self.service.act(game_id, interaction.user.id, line)
        except HydraError as error:
            await self.send_error(interaction, error)
            return None
        if not interaction.response.is_done():
            await interaction.response.defer()
        await self.after(result)
        return result

    async def after(self, result: ActResult) -> None:
        """Messages follow the committed state: a new message for each Hydra turn that began (an
        extra turn too), edits otherwise; then the timers for the next question or for idleness."""
        table = result.table
        try:
            game = table.game
            began = sum(e.key == "hydra.log.hydra_turn" for e in result.events)
            starts = _turn_starts(game) if game is not None else []
            if began:
                if not result.hydra_turn_started:  # an extra turn began: the old message is complete
                    await self.refresh_turn_message(table, starts[-began - 1])
                for start in starts[-began:]:
                    await self.post_turn_message(table, start)
            elif starts and game is not None and (game.active == "hydra" or game.over or any(
                    e.key == "hydra.log.players_turn" for e in result.events)):
                await self.refresh_turn_message(table, starts[-1])
            elif game is not None and (game.pending is not None or any(
                    e.key in _EXPLAINED for e in result.events)):
                await self.post_players_report(table, result.events)
            await self.refresh_board(table)
            if result.finished:
                await self.announce_end(table)
        except discord.HTTPException:
            log.exception("could not update the messages of Hydra table %s", table.game_id)
        self.arm(table)

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str, arg: str | None,
                        arg2: str | None) -> None:
        tr = await self._tr(interaction)
        try:
            table = await self.service.load(game_id)
        except HydraError as error:
            await self.send_error(interaction, error)
            return
        head = 1
        if action in ("attack", "damage", "loselife", *HEAD_ACTIONS):
            try:
                head = self._head(table, interaction.user.id)
            except HydraError as error:
                await self.send_error(interaction, error)
                return
        if action in ("join", "leave", "start"):
            await self._lobby_button(interaction, table, action)
        elif action == "answer":
            await self._answer(interaction, table, arg or "", arg2 or "")
        elif action == "exile_named":
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("hydra.ui.swallow_title"), tr("hydra.ui.creature"), "choose "))
        elif action == "attack":
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("hydra.ui.attack_title"), tr("hydra.ui.attack_label"), "attack ",
                placeholder="1 3 2 5", default=f"{head} "))
        elif action in ("damage", "loselife"):
            await interaction.response.send_modal(LineModal(
                self, game_id, tr(f"hydra.ui.{action}_title", head=head), tr("hydra.ui.amount"),
                f"{action} {head} ", placeholder="3"))
        elif action in HEAD_ACTIONS:
            await self.act(interaction, game_id, f"{action} {head}")
        elif action == "life":
            seat = table.seat_of(interaction.user.id)
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("hydra.ui.life_title"), tr("hydra.ui.life_label"), "life ",
                placeholder="1 -3", default=f"{seat.seat if seat else 1} "))
        elif action == "command":
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("hydra.ui.command_title"), tr("hydra.ui.command_label"), "",
                placeholder="mill 2"))
        elif action == "end":
            await self.act(interaction, game_id, "end")
        elif action == "undo":
            await self._undo(interaction, game_id)
        elif action == "concede":
            try:
                result = await self.service.concede(game_id, interaction.user.id)
            except HydraError as error:
                await self.send_error(interaction, error)
                return
            await interaction.response.defer()
            await self.after(result)

    async def on_more(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        if verb not in MORE_ACTIONS:
            return
        start, placeholder = MORE_ACTIONS[verb]
        if not start:
            await self.act(interaction, game_id, verb)
            return
        tr = await self._tr(interaction)
        try:
            head = self._head(await self.service.load(game_id), interaction.user.id)
        except HydraError as error:
            await self.send_error(interaction, error)
            return
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
                await self.send_error(interaction, HydraError("hydra.error.not_a_challenger"))
                return
            if values:
                self.selected[(game_id, interaction.user.id)] = values[0]
            await interaction.response.defer()
            return
        table = await self.service.load(game_id)
        if not self._is_current(table, topic):
            await self.send_error(interaction, HydraError("hydra.error.stale"))
            return
        await self.act(interaction, game_id, "choose " + (" ".join(map(str, values)) or "none"))

    @staticmethod
    def _is_current(table: HydraTable, topic: str | None) -> bool:
        game = table.game
        return game is not None and game.pending is not None and game.pending.topic == topic

    async def _answer(self, interaction: discord.Interaction, table: HydraTable, topic: str, which: str) -> None:
        if not self._is_current(table, topic):
            await self.send_error(interaction, HydraError("hydra.error.stale"))
            return
        decision = table.game.pending  # type: ignore[union-attr]
        if which == "default":
            answer = decision.default
        elif which == "none":
            answer = "none"
        else:
            answer = decision.options[int(which)]
        await self.act(interaction, table.game_id, f"choose {answer}")

    async def _undo(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            table = await self.service.undo(game_id, interaction.user.id)
        except HydraError as error:
            await self.send_error(interaction, error)
            return
        await interaction.response.defer()
        await self.refresh_board(table)
        self.arm(table)

    async def _lobby_button(self, interaction: discord.Interaction, table: HydraTable, action: str) -> None:
        user = interaction.user
        try:
            if action == "join":
                table = await self.service.join(table.game_id, user.id, user.display_name)
            elif action == "leave":
                table = await self.service.leave(table.game_id, user.id)
            else:
                table = await self.service.start(table.game_id, user.id)
        except HydraError as error:
            await self.send_error(interaction, error)
            return
        await interaction.response.defer()
        await self.refresh_board(table)
        self.arm(table)

    # -- timers ----------------------------------------------------------------------------------------
    def arm(self, table: HydraTable) -> None:
        """One timer per table: the pending question's default, or the idle pause."""
        old = self.timers.pop(table.game_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        game = table.game
        if table.row.status in (FINISHED, IDLE, LOBBY) or game is None or game.over:
            return
        if game.pending is not None:
            if table.row.window_seconds <= 0:
                return  # this table waits for the players' answers
            factor = 1 if game.pending.topic in WINDOW_TOPICS else CHOICE_WAIT_FACTOR
            delay = table.row.window_seconds * factor * self.time_scale
            self.timers[table.game_id] = asyncio.create_task(self._default_later(
                table.game_id, game.pending.topic, len(table.actions), delay))
        else:
            delay = table.row.idle_minutes * 60 * self.time_scale
            self.timers[table.game_id] = asyncio.create_task(self._idle_later(table.game_id, len(table.actions),
                                                                              delay))

    async def _default_later(self, game_id: int, topic: str, actions_before: int, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            result = await self.service.answer_default(game_id, topic, actions_before)
        except HydraError:
            return
        if result is not None:
            await self.after(result)

    async def _idle_later(self, game_id: int, actions: int, delay: float) -> None:
        await asyncio.sleep(delay)
        table = await self.service.load(game_id)
        if len(table.actions) != actions:
            return
        await self.service.set_idle(game_id)
        table = await self.service.load(game_id)
        try:
            await self.refresh_board(table)
            channel = await self._channel(table.row.channel_id)  # type: ignore[arg-type]
            await channel.send(t("hydra.ui.paused", table.row.language, minutes=table.row.idle_minutes))
        except discord.HTTPException:
            log.exception("could not announce the pause of Hydra table %s", game_id)

    # -- rendering -------------------------------------------------------------------------------------
    def lobby_payload(self, table: HydraTable) -> tuple[discord.Embed, discord.ui.View]:
        tr = Translate(table.row.language)
        embed = discord.Embed(title=tr("hydra.ui.lobby_title", game=table.game_id, heads=table.row.heads),
                              description=tr("hydra.ui.lobby_help"), colour=discord.Colour.dark_green())
        for seat in table.seats:
            heroes = ", ".join(seat.heroes) or tr("hydra.ui.no_heroes")
            embed.add_field(name=f"{seat.seat}. {seat.name}", value=heroes[:1024], inline=False)
        view = discord.ui.View(timeout=None)
        view.add_item(HydraButton(table.game_id, "join", label=tr("hydra.ui.join"), style=discord.ButtonStyle.primary))
        view.add_item(HydraButton(table.game_id, "leave", label=tr("hydra.ui.leave")))
        view.add_item(HydraButton(table.game_id, "start", label=tr("hydra.ui.start"),
                                  style=discord.ButtonStyle.success))
        return embed, view

    async def board_payload(self, table: HydraTable
                            ) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
        if table.game is None:
            embed, view = self.lobby_payload(table)
            return embed, None, view
        game, language = table.game, table.row.language
        tr = Translate(language)
        embed = discord.Embed(title=tr("hydra.ui.board_title", game=table.game_id, heads=table.row.heads),
                              description=f"```\n{board_text(game, language)}\n```",
                              colour=discord.Colour.dark_red())
        reminders = hero_reminders(game)
        if reminders:
            embed.add_field(name=tr("hydra.ui.heroes"), value="\n".join(reminders)[:1024], inline=False)
        status = self._status_line(table)
        if status:
            embed.add_field(name=tr("hydra.ui.status"), value=status[:1024], inline=False)
        filename = f"hydra-{table.game_id}.png"
        embed.set_image(url=f"attachment://{filename}")
        # Drawn here from the live game (a few ms, and the game must not change under the brush), then
        # PNG-encoded in the work pool (the costly part: ~15 ms of zlib, which releases the GIL).
        image = board_image(game, language)
        view = None if table.row.status in (FINISHED, IDLE) or game.over else self.board_view(table)
        file = discord.File(io.BytesIO(await self.bot.workers.run(png_bytes, image)),  # type: ignore[attr-defined]
                            filename=filename)
        return embed, file, view

    def _status_line(self, table: HydraTable) -> str:
        game, tr = table.game, Translate(table.row.language)
        assert game is not None
        if game.over:
            return tr(f"hydra.cli.outcome_{game.outcome}")
        if table.row.status == IDLE:
            return tr("hydra.ui.paused", minutes=table.row.idle_minutes)
        if game.pending is not None:
            return tr("hydra.ui.hydra_waiting")
        return tr("hydra.ui.your_turn")

    def board_view(self, table: HydraTable) -> discord.ui.View:
        game, tr, gid = table.game, Translate(table.row.language), table.game_id
        assert game is not None
        view = discord.ui.View(timeout=None)
        if game.battlefield:
            view.add_item(HeadSelect(gid, "head", None, self._head_options(game, by_serial=True)[:25],
                                     placeholder=tr("hydra.ui.pick_head"), row=0))
        for action in ("attack", "damage", "loselife", *HEAD_ACTIONS[:2]):
            view.add_item(HydraButton(gid, action, label=tr(f"hydra.ui.{action}"), row=1))
        for action in (*HEAD_ACTIONS[2:], "life", "command"):
            view.add_item(HydraButton(gid, action, label=tr(f"hydra.ui.{action}"), row=2))
        view.add_item(HydraButton(gid, "end", label=tr("hydra.ui.end"), style=discord.ButtonStyle.success, row=3))
        view.add_item(HydraButton(gid, "undo", label=tr("hydra.ui.undo"), row=3))
        view.add_item(HydraButton(gid, "concede", label=tr("hydra.ui.concede"), style=discord.ButtonStyle.danger,
                                  row=3))
        more = [discord.SelectOption(label=tr(f"hydra.ui.more.{verb}")[:100], value=verb) for verb in MORE_ACTIONS]
        view.add_item(MoreSelect(gid, more, placeholder=tr("hydra.ui.more"), row=4))
        return view

    @staticmethod
    def _head_options(game: HydraGame, *, by_serial: bool = False) -> list[discord.SelectOption]:
        """One option per head, labelled with its position; the value is the position (answers to a
        question) or the head's serial (the board's pick, which must survive other players' actions)."""
        return [discord.SelectOption(label=f"{i + 1}. {h.name} ({h.damage}/{h.toughness})"[:100],
                                     value=str(h.serial if by_serial else i + 1))
                for i, h in enumerate(game.battlefield)]

    def turn_content(self, table: HydraTable, start: int) -> str:
        """One Hydra turn (its ``hydra_turn`` event at ``start``): revealed cards with their texts,
        what happened, the damage, and — for the turn in progress — the question of the moment."""
        game, language = table.game, table.row.language
        assert game is not None
        lines = []
        for index, event in enumerate(game.events[start:], start=start):
            if index > start and event.key in ("hydra.log.hydra_turn", "hydra.log.players_turn"):
                break
            text = event_text(event, language)
            lines.append(f"**{text}**" if index == start else text)
            if event.key == "hydra.log.reveal":
                lines.append("> " + CARDS[str(event.values["card"])].oracle_text.replace("\n", "\n> "))
        else:
            if game.pending is not None:
                owner = table.user_to_answer()
                lines.append("")
                lines.append((f"<@{owner}> " if owner else "") + decision_text(game, game.pending, language))
        text = "\n".join(lines)
        return text if len(text) <= 2000 else "…" + text[-1999:]

    def turn_view(self, table: HydraTable) -> discord.ui.View | None:
        game, tr, gid = table.game, Translate(table.row.language), table.game_id
        if game is None or game.pending is None or table.row.status != "playing":
            return None
        decision = game.pending
        view = discord.ui.View(timeout=None)
        if decision.kind == "option":
            for index, option in enumerate(decision.options):
                key = _OPTION_KEYS.get((decision.topic, option), f"hydra.ui.option.{option}")
                label = tr(key) if option in _OPTION_LABELS else option.title()
                view.add_item(HydraButton(gid, "answer", decision.topic, str(index), label=label,
                                          style=discord.ButtonStyle.primary if option == decision.default
                                          else discord.ButtonStyle.secondary))
        elif decision.kind == "text":
            view.add_item(HydraButton(gid, "exile_named", label=tr("hydra.ui.name_creature"),
                                      style=discord.ButtonStyle.primary))
            view.add_item(HydraButton(gid, "answer", decision.topic, "none", label=tr("hydra.ui.no_creature")))
        else:
            view.add_item(HeadSelect(gid, "pick", decision.topic, self._head_options(game)[:25],
                                     low=max(1, decision.min_heads), high=decision.max_heads,
                                     placeholder=tr("hydra.ui.pick_heads", count=decision.max_heads)))
            if decision.min_heads == 0:
                view.add_item(HydraButton(gid, "answer", decision.topic, "none", label=tr("hydra.ui.no_heads")))
        view.add_item(HydraButton(gid, "answer", decision.topic, "default",
                                  label=tr("hydra.ui.use_default", default=decision.default)))
        return view

    def report_content(self, table: HydraTable, events: list[Event]) -> str:
        """What the players' own action did to the Hydra, explained like a Hydra turn: the heads
        that left, Hero's Reward (and the draw reminder), the cards revealed with the texts of the
        heads that grew, and the question of the moment."""
        game, language = table.game, table.row.language
        assert game is not None
        lines = []
        for event in events:
            lines.append(event_text(event, language))
            if event.key == "hydra.log.grow":
                grown = [name for name in str(event.values["cards"]).split(", ") if CARDS[name].is_head]
                lines += ["> " + f"**{name}** — " + CARDS[name].oracle_text.replace("\n", "\n> ") for name in grown]
        if game.pending is not None:
            owner = table.user_to_answer()
            lines += ["", (f"<@{owner}> " if owner else "") + decision_text(game, game.pending, language)]
        text = "\n".join(lines)
        return text if len(text) <= 2000 else "…" + text[-1999:]

    async def post_players_report(self, table: HydraTable, events: list[Event]) -> None:
        """One message per players' action that made heads leave (or asked a question): the
        previous report's buttons are removed, so only the current question can be answered."""
        channel = await self._channel(table.row.channel_id)  # type: ignore[arg-type]
        old = self.reports.pop(table.game_id, None)
        if old is not None:
            await channel.get_partial_message(old).edit(view=None)
        view = self.turn_view(table)
        message = await channel.send(self.report_content(table, events), **({"view": view} if view else {}))
        if view is not None:
            self.reports[table.game_id] = message.id

    async def post_turn_message(self, table: HydraTable, start: int) -> None:
        channel = await self._channel(table.row.channel_id)  # type: ignore[arg-type]
        view = self.turn_view(table) if start == _turn_starts(table.game)[-1] else None
        message = await channel.send(self.turn_content(table, start), **({"view": view} if view else {}))
        await self.service.set_messages(table.game_id, turn_message_id=message.id)
        table.row = (await self.service.load(table.game_id)).row

    async def refresh_turn_message(self, table: HydraTable, start: int) -> None:
        if table.row.turn_message_id is None or table.game is None:
            return
        channel = await self._channel(table.row.channel_id)  # type: ignore[arg-type]
        latest = start == _turn_starts(table.game)[-1]
        await channel.get_partial_message(table.row.turn_message_id).edit(
            content=self.turn_content(table, start), view=self.turn_view(table) if latest else None)

    async def refresh_board(self, table: HydraTable) -> None:
        if table.row.message_id is None or table.row.channel_id is None:
            return
        channel = await self._channel(table.row.channel_id)
        embed, file, view = await self.board_payload(table)
        await channel.get_partial_message(table.row.message_id).edit(
            embed=embed, attachments=[file] if file else [], view=view)

    async def announce_end(self, table: HydraTable) -> None:
        channel = await self._channel(table.row.channel_id)  # type: ignore[arg-type]
        mentions = " ".join(f"<@{seat.user_id}>" for seat in table.seats)
        key = "hydra.ui.won" if table.game and table.game.outcome == "won" else "hydra.ui.lost"
        await channel.send(t(key, table.row.language, players=mentions))

    # -- slash commands --------------------------------------------------------------------------------
    @app_commands.command(name="start", description=_T("Open a Hydra table here; challengers join with a button"))
    @app_commands.describe(heads=_T("Difficulty: starting Hydra Heads (2 easy, 3 normal, 4 hard)"),
                           window=_T("Seconds to counter or prevent before the default (0: wait; default 20)"),
                           idle=_T("Minutes without action before the game pauses (default 30)"),
                           windows=_T("Open every response window: the Hydra's upkeep and each trigger"))
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, heads: app_commands.Range[int, MIN_HEADS, MAX_HEADS],
                    window: app_commands.Range[int, 0, 300] = DEFAULT_WINDOW_SECONDS,
                    idle: app_commands.Range[int, 1, 1440] = DEFAULT_IDLE_MINUTES, windows: bool = False) -> None:
        tr = await self._tr(interaction)
        language = await self.table_language(interaction.guild_id)
        channel = interaction.channel
        settings = await self.bot.guild_settings.get(interaction.guild_id)  # type: ignore[attr-defined]
        use_thread = settings.pod_threads and isinstance(channel, discord.TextChannel)
        table = await self.service.create(
            guild_id=interaction.guild_id, channel_id=None, user_id=interaction.user.id,
            name=interaction.user.display_name, heads=heads, language=language, window_seconds=window,
            idle_minutes=idle, seed=self.fixed_seed, all_windows=windows)
        embed, view = self.lobby_payload(table)
        if use_thread:
            thread = await channel.create_thread(  # type: ignore[union-attr]
                name=tr("hydra.ui.thread_name", game=table.game_id)[:100], type=discord.ChannelType.public_thread)
            message = await thread.send(embed=embed, view=view)
            await interaction.response.send_message(tr("hydra.ui.opened_in_thread", thread=thread.mention))
        else:
            await interaction.response.send_message(embed=embed, view=view)
            message = await interaction.original_response()
        await self.service.set_messages(table.game_id, channel_id=message.channel.id, message_id=message.id)

    @app_commands.command(name="heroes", description=_T("Choose up to two Hero cards for the table you joined"))
    @app_commands.describe(first=_T("A Hero card"), second=_T("A second Hero card (the same one may be used twice)"))
    @app_commands.guild_only()
    async def heroes(self, interaction: discord.Interaction, first: str | None = None,
                     second: str | None = None) -> None:
        tr = await self._tr(interaction)
        table = await self.service.table_in_channel(interaction.channel_id or 0, (LOBBY,))
        if table is None:
            await self.send_error(interaction, HydraError("hydra.error.no_lobby"))
            return
        try:
            table = await self.service.set_heroes(table.game_id, interaction.user.id,
                                                  [name for name in (first, second) if name])
        except HydraError as error:
            await self.send_error(interaction, error)
            return
        seat = table.seat_of(interaction.user.id)
        chosen = "\n".join(f"**{name}** — {HEROES[name].text}" for name in (seat.heroes if seat else ()))
        await interaction.response.send_message(tr("hydra.ui.heroes_set", heroes=chosen or tr("hydra.ui.no_heroes")),
                                                ephemeral=True)
        await self.refresh_board(table)

    @heroes.autocomplete("first")
    @heroes.autocomplete("second")
    async def hero_autocomplete(self, interaction: discord.Interaction, current: str
                                ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().casefold()
        found = [hero for hero in HEROES.values()
                 if wanted in hero.name.casefold() or wanted in hero.text.casefold()]
        return [app_commands.Choice(name=f"{hero.name} — {hero.text}"[:100], value=hero.name) for hero in found][:25]

    @app_commands.command(name="resume", description=_T("Resume the paused Hydra game of this channel"))
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(interaction.channel_id or 0, (IDLE,))
        if table is None:
            await self.send_error(interaction, HydraError("hydra.error.not_idle"))
            return
        try:
            table = await self.service.resume(table.game_id, interaction.user.id)
        except HydraError as error:
            await self.send_error(interaction, error)
            return
        await interaction.response.defer(thinking=True)  # the board image is made in the work pool
        embed, file, view = await self.board_payload(table)
        message = await interaction.followup.send(embed=embed, file=file, view=view, wait=True)  # type: ignore[arg-type]
        await self.service.set_messages(table.game_id, message_id=message.id)
        self.arm(await self.service.load(table.game_id))

    @app_commands.command(name="profile", description=_T("Hydra games, wins, heads severed and The Slayer"))
    @app_commands.describe(user=_T("Whose profile (default: yours)"))
    async def profile(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        tr = await self._tr(interaction)
        who = user or interaction.user
        profile = await self.service.profile(who.id)
        embed = discord.Embed(title=tr("hydra.ui.profile_title", name=who.display_name),
                              colour=discord.Colour.gold() if profile.has_slayer else discord.Colour.dark_grey())
        embed.add_field(name=tr("hydra.ui.games"), value=str(profile.games))
        embed.add_field(name=tr("hydra.ui.wins"), value=str(profile.wins))
        embed.add_field(name=tr("hydra.ui.heads_severed"), value=str(profile.heads_severed))
        best = (tr("hydra.ui.best_win_value", heads=profile.best_win_heads, turns=profile.best_win_turns)
                if profile.best_win_heads is not None else "—")
        embed.add_field(name=tr("hydra.ui.best_win"), value=best)
        slayer = HEROES["The Slayer"]
        embed.add_field(name="The Slayer", inline=False,
                        value=f"{slayer.text}" if profile.has_slayer else tr("hydra.ui.no_slayer"))
        await interaction.response.send_message(embed=embed)


# Events of the players' own actions that get a report message (heads left, triggers resolved).
_EXPLAINED = frozenset(("hydra.log.leaves_dies", "hydra.log.leaves_destroyed", "hydra.log.leaves_exile",
                        "hydra.log.leaves_bounce", "hydra.log.leaves_sacrificed", "hydra.log.grow",
                        "hydra.log.reward", "hydra.log.trigger_countered"))
_OPTION_LABELS = ("pass", "counter", "prevent", "sacrifice", "decline", "damage", "destroy")
_OPTION_KEYS = {("prevent", "pass"): "hydra.ui.option.take_damage", ("upkeep", "pass"): "hydra.ui.option.go_on"}


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HydraCog(bot))
