"""Battle the Horde and Defeat a God at the table: ``/challenge start``, a lobby, then one board
message per table, edited as the game goes (board, latest log lines, the question of the moment).

Every component is a ``DynamicItem`` whose custom_id carries the table id, so messages posted before
a restart keep working; open tables' timers are re-armed at load. A response window takes its default
after the table's window (default 20 s), any other question after three windows. The Horde is a
single-player challenge (as printed); the God seats up to four players sharing 20 life.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.clock import clock_of
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.decks import RULES
from bot.i18n import Translate
from bot.i18n.glossary import join_list
from bot.leases import keyed_timers_lease
from bot.render.challenge import board_image, board_text, decision_text, log_lines
from bot.render.fonts import png_bytes
from bot.services.challenge import DEFAULT_WINDOW_SECONDS, ActResult, ChallengeService, ChallengeTable
from bot.services.reconcile import register_reconcile
from bot.storage.challenge import FINISHED, LOBBY
from bot.text import member_name
from cogs._boards import BoardMessage, LiveBoards, Where
from cogs._challenge_components import ChallengeButton, ChallengeSelect
from cogs._challenge_lobby import ChallengeHeroSelect, lobby
from cogs._common import command_text
from cogs._errors import answer_refusal
from cogs._permissions import refuse_unless_bot_can_post
from cogs._timers import TableTimers, Timers
from cogs.hydra import LineModal
from cogs.hydra.panels import option_key

log = logging.getLogger(__name__)
CHOICE_WAIT_FACTOR = 3
LOG_LINES = 12


_T = command_text("challenge")  # command texts under ``app.challenge.<text>``


class ChallengeCog(TableTimers, commands.GroupCog, name="Challenge", group_name="challenge",
                   group_description=_T("Battle the Horde or Defeat a God at this channel's table")):
    service: ChallengeService

    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.service = ChallengeService(bot.db, notify=bot.dispatch)  # a table's end: challenge_game_finished
        self.selected: dict[tuple[int, int], int] = {}
        # One timer per table, the pending question's default, on the bot's clock (cogs/_timers.py),
        # run in the one process holding the turn lease (bot.leases); the others poke it.
        self.timers: Timers[int] = Timers(clock_of(bot), "challenge")
        self.armed_at: dict[int, int] = {}  # table -> its action count when its timer was armed
        self._editing: dict[int, asyncio.Lock] = {}  # table -> its message's edits take turns
        self.turns = keyed_timers_lease(bot, "challenge-turns", self.timers.cancel_all, self.arm_open_tables)
        self.fixed_seed: int | None = None
        self.boards = LiveBoards(bot, "challenge table")  # live for the whole game (cogs/_boards.py)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ChallengeButton, ChallengeSelect, ChallengeHeroSelect)
        await self.turns.start()
        register_reconcile(self.bot, "challenge tables", self.reconcile_tables)

    async def reconcile_tables(self) -> int:
        """Recovery hook: after a start every open Horde and God table's one message shows the
        stored state with the pending question's buttons, even when the bot died between storing an action
        and editing the board, or between creating the table and posting it (then it is posted)."""
        tables = await self.service.open_tables()
        for table in tables:
            if table.row.message_id is None:
                channel = self.bot.get_channel(table.row.channel_id) or await self.bot.fetch_channel(
                    table.row.channel_id)
                embed, view = self.payload(table)
                message = await channel.send(embed=embed, view=view)  # type: ignore[union-attr, arg-type]
                await self.boards.record_post(message)
                await self.service.set_message(table.game_id, message.id)
            else:
                await self.refresh(table)
        return len(tables)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ChallengeButton, ChallengeSelect, ChallengeHeroSelect)
        self.turns.stop()
        self.timers.cancel_all()
        self.boards.cancel()

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def table_here(self, interaction: discord.Interaction, game_id: int) -> bool:
        """Whether a component's table belongs to the server it is pressed in; if not it is refused as no
        table at all (a copied message or a crafted custom id must not reach another server's game)."""
        try:
            table = await self.service.load(game_id)
            if table.row.guild_id != interaction.guild_id:
                raise ChallengeError("hydra.error.no_table")
        except ChallengeError as error:
            await self.send_error(interaction, error)
            return False
        return True

    async def send_error(self, interaction: discord.Interaction, error: ChallengeError) -> None:
        await answer_refusal(interaction, error)  # the one path of every cog's refusals (cogs._errors)

    # -- acting ----------------------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, game_id: int, line: str) -> None:
        """One action for the person interacting (LineModal calls this too), then the board."""
        try:
            table = (await self.service.act(game_id, interaction.user.id, line)).table
        except ChallengeError as error:
            await self.send_error(interaction, error)
            return
        if not interaction.response.is_done():
            await interaction.response.defer()
        await self.boards.heard(game_id, interaction)  # how the table is told should its board be refused
        await self.refresh(table)

    async def refresh(self, table: ChallengeTable) -> None:
        """Edit the table's message to its newest stored state, then arm its timer. Edits of one table take
        turns and each reads the table afresh (a load replays nothing: the service keeps the game), so an
        edit drawn from an older state (a slow image, a restart's reconcile pass) never lands last."""
        async with self._editing.setdefault(table.game_id, asyncio.Lock()):
            table = await self.service.load(table.game_id)
            try:
                if (message_id := table.row.message_id) is not None:
                    await self._show(table, message_id)
            except discord.HTTPException:
                log.exception("could not update challenge table %s", table.game_id)
            self.keep_or_arm(table)

    async def _show(self, table: ChallengeTable, message_id: int) -> None:
        """The table's message shows its state: edited, or posted afresh when old (``cogs._boards``)."""
        embed, view, file = await self.board_parts(table)
        where = Where(table.row.guild_id, table.row.channel_id, message_id, table.row.language)
        await self.boards.show_or_later(
            table.game_id, BoardMessage.of(embed, file, view), where, again=lambda: self.refresh(table),
            moved=lambda channel, message: self.service.set_message(table.game_id, message, channel_id=channel))

    async def on_button(self, interaction: discord.Interaction, game_id: int, action: str, arg: str | None) -> None:
        tr = await self._tr(interaction)
        number = self.selected.get((game_id, interaction.user.id), 1)
        try:
            if action == "join":
                table = await self.service.join(game_id, interaction.user.id,
                                                member_name(interaction.user.display_name, interaction.user.id))
            elif action == "start":
                table = await self.service.start(game_id, interaction.user.id)
            elif action == "undo":
                table = await self.service.undo(game_id, interaction.user.id)
            else:
                table = None
        except ChallengeError as error:
            await self.send_error(interaction, error)
            return
        if table is not None:
            await interaction.response.defer()
            await self.boards.heard(game_id, interaction)
            await self.refresh(table)
        elif action == "answer":
            await self.act(interaction, game_id, f"choose {arg}")
        elif action in ("destroy", "end"):
            await self.act(interaction, game_id, action if action == "end" else f"destroy {number}")
        elif action == "concede":
            await self.act(interaction, game_id, "concede")
        elif action == "damage":
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("challenge.ui.damage_title", number=number), tr("hydra.ui.amount"),
                f"damage {number} ", placeholder="3"))
        elif action == "hit":
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("challenge.ui.hit_title"), tr("hydra.ui.amount"), "hit ",
                placeholder="3"))
        elif action == "command":
            await interaction.response.send_modal(LineModal(
                self, game_id, tr("hydra.ui.command_title"), tr("hydra.ui.command_label"), "",
                placeholder="sweep 2 all"))

    async def on_heroes(self, interaction: discord.Interaction, game_id: int, names: list[str]) -> None:
        """A player's Hero cards, picked at the lobby's select (stored for their seat, shown in the lobby)."""
        try:
            table = await self.service.set_heroes(game_id, interaction.user.id, names)
        except ChallengeError as error:
            await self.send_error(interaction, error)
            return
        await interaction.response.defer()
        await self.refresh(table)

    async def on_pick(self, interaction: discord.Interaction, game_id: int, topic: str, values: list[int]) -> None:
        if topic == "perm":
            table = await self.service.load(game_id)
            if not table.seated(interaction.user.id):
                await self.send_error(interaction, ChallengeError("hydra.error.not_a_challenger"))
                return
            self.selected[(game_id, interaction.user.id)] = values[0] if values else 1
            await interaction.response.defer()
            return
        await self.act(interaction, game_id, "choose " + (" ".join(map(str, values)) or "none"))

    # -- timers ----------------------------------------------------------------------------------------
    def arm(self, table: ChallengeTable) -> None:
        """The table's one timer (``cogs._timers``, on the bot's clock): its pending question's default
        after the table's window (a response window) or three windows (any other question)."""
        game, actions = table.game, len(table.actions)
        if game is None or game.over or game.pending is None or table.row.window_seconds <= 0 \
                or not self.turns.runs_here():
            self.timers.cancel(table.game_id)
            return
        self.armed_at[table.game_id] = actions
        topic = game.pending.topic
        factor = 1 if topic in game.window_topics else CHOICE_WAIT_FACTOR
        self.arm_default(table.game_id, table.row.window_seconds * factor,
                         lambda: self._default_later(table.game_id, topic, actions))

    async def _default_later(self, game_id: int, topic: str, actions: int) -> None:
        try:
            answered = await self.service.answer_default(game_id, topic, actions)
        except ChallengeError:
            return
        if answered is not None:
            await self.refresh(answered.table)

    # -- rendering -------------------------------------------------------------------------------------
    async def after(self, result: ActResult) -> None:
        """The table's message follows an action taken elsewhere (the same surface as the Hydra cog's)."""
        await self.refresh(result.table)

    async def post_table(self, channel: Any, table: ChallengeTable) -> None:
        """Show a table that started elsewhere (an event's table, in its thread) and run its timers: its
        messages live in ``channel`` from now on."""
        embed, view, file = await self.board_parts(table)
        message = await self.boards.post(channel, BoardMessage.of(embed, file, view))
        await self.service.set_message(table.game_id, message.id, channel_id=channel.id)
        self.arm(await self.service.load(table.game_id))

    async def board_parts(self, table: ChallengeTable
                          ) -> tuple[discord.Embed, discord.ui.View | None, discord.File | None]:
        """The table's message: its embed and buttons, and its board image while a game is in play. Built
        in one of the work pool's image places (``WorkPool.image_slot``): the pixels wait there for their
        encoding, and the embed and the image show the same moment of the game."""
        async with self.bot.workers.image_slot():  # type: ignore[attr-defined]
            embed, view = self.payload(table)
            return embed, view, await self.board_file(table, embed)

    async def board_file(self, table: ChallengeTable, embed: discord.Embed) -> discord.File | None:
        """The board image of a game in play, shown in ``embed``: drawn here from the live game (it must
        not change under the brush), PNG-encoded in the work pool (the costly part)."""
        if table.game is None:
            return None
        filename = f"{table.row.deck}-{table.game_id}.png"
        embed.set_image(url=f"attachment://{filename}")
        image = board_image(table.game, table.row.language)
        return discord.File(io.BytesIO(await self.bot.workers.run(png_bytes, image)),  # type: ignore[attr-defined]
                            filename=filename)

    def payload(self, table: ChallengeTable) -> tuple[discord.Embed, discord.ui.View | None]:
        tr, language, gid = Translate(table.row.language), table.row.language, table.game_id
        title = tr(f"challenge.ui.title_{table.row.deck}", game=gid)
        players = join_list([seat.name for seat in table.seats], tr.language)
        game = table.game
        if table.row.status == LOBBY or game is None:
            return lobby(table, title, players, ChallengeButton)
        embed = discord.Embed(title=title, description=f"```\n{board_text(game, language)}\n```"[:4000])
        embed.add_field(name=tr("challenge.ui.log"), inline=False,
                        value="\n".join(log_lines(game.events[-LOG_LINES:], language))[-1024:])
        if game.over or table.row.status == FINISHED:
            embed.add_field(name=tr("challenge.ui.now"), value=tr(f"challenge.ui.finished_{game.outcome}",
                                                                  players=players)[:1024])
            return embed, None
        if game.pending is not None:
            owner = table.user_to_answer()
            question = (f"<@{owner}> " if owner else "") + decision_text(game, game.pending, language)
            embed.add_field(name=tr("challenge.ui.now"), value=question[:1024], inline=False)
        else:
            embed.add_field(name=tr("challenge.ui.now"), value=tr("challenge.ui.your_turn"), inline=False)
        return embed, self._view(table)

    def _view(self, table: ChallengeTable) -> discord.ui.View:
        tr, gid, game = Translate(table.row.language), table.game_id, table.game
        assert game is not None
        view = discord.ui.View(timeout=None)
        decision = game.pending
        permanents = [discord.SelectOption(label=f"{game.number_of(p)}. {p.name}"[:100], value=str(game.number_of(p)))
                      for p in game.battlefield][:25]
        if decision is not None and decision.kind == "heads":
            allowed = set(game.allowed_numbers(decision))
            options = [o for o in permanents if int(o.value) in allowed]
            if options:
                view.add_item(ChallengeSelect(gid, decision.topic, options, low=max(1, decision.min_heads),
                                              high=decision.max_heads, row=0,
                                              placeholder=tr("challenge.ui.pick_answer", count=decision.max_heads)))
            if decision.min_heads == 0:
                view.add_item(ChallengeButton(gid, "answer", "none", label=tr("challenge.ui.none"), row=1))
        elif decision is not None:
            for option in decision.options:
                view.add_item(ChallengeButton(gid, "answer", option, label=tr(option_key(decision.topic, option)), row=1,
                                              style=discord.ButtonStyle.primary if option == decision.default
                                              else discord.ButtonStyle.secondary))
        if decision is None or decision.topic in game.window_topics:
            if permanents and decision is None:
                view.add_item(ChallengeSelect(gid, "perm", permanents, placeholder=tr("challenge.ui.pick"), row=0))
            actions = ["damage", "destroy", *(("hit",) if table.row.deck == "horde" else ()), "command"]
            for action in actions:
                view.add_item(ChallengeButton(gid, action, label=tr(f"challenge.ui.{action}" if action == "hit"
                                                                    else f"hydra.ui.{action}"), row=2))
        if decision is None:
            view.add_item(ChallengeButton(gid, "end", label=tr("hydra.ui.end"), style=discord.ButtonStyle.success,
                                          row=3))
            view.add_item(ChallengeButton(gid, "undo", label=tr("hydra.ui.undo"), row=3))
        view.add_item(ChallengeButton(gid, "concede", label=tr("hydra.ui.concede"), style=discord.ButtonStyle.danger,
                                      row=3))
        return view

    # -- slash commands --------------------------------------------------------------------------------
    @app_commands.command(name="start", description=_T("Open a Horde or God table here; players join with a button"))
    @app_commands.describe(deck=_T("Which challenge deck"),
                           difficulty=_T("Horde: your turns before its first (3); God: starting Throngs (2)"),
                           window=_T("Seconds to answer before the default (0: wait; default 20)"),
                           windows=_T("Open every response window: the deck's upkeep and each trigger"),
                           house_rule=_T("God, 2-4 players: house rule of 20 shared life per player (printed: 20)"))
    @app_commands.choices(deck=[app_commands.Choice(name="Battle the Horde", value="horde"),
                                app_commands.Choice(name="Defeat a God", value="god")])
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, deck: app_commands.Choice[str],
                    difficulty: app_commands.Range[int, 1, 4] | None = None,
                    window: app_commands.Range[int, 0, 300] = DEFAULT_WINDOW_SECONDS, windows: bool = False,
                    house_rule: bool = False) -> None:
        language = await self.bot.language_for(interaction)
        level = difficulty if difficulty is not None else RULES[deck.value].default_difficulty
        if await refuse_unless_bot_can_post(interaction):
            return
        try:
            table = await self.service.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, user_id=interaction.user.id,
                name=member_name(interaction.user.display_name, interaction.user.id), deck=deck.value,
                difficulty=level, language=language, seed=self.fixed_seed, window_seconds=window,
                all_windows=windows, life_per_player=house_rule)
        except ChallengeError as error:
            await self.send_error(interaction, error)
            return
        embed, view = self.payload(table)
        await interaction.response.send_message(embed=embed, view=view)  # type: ignore[arg-type]
        message = await interaction.original_response()
        await self.boards.record_post(message)
        await self.service.set_message(table.game_id, message.id)


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(ChallengeCog(bot))
