"""The Hydra's own look, over the panels every deck shares (``cogs.challenge``): its lobby, its board
(numbered heads, the Heroes' reminders, the table's status, the head pick and the More… menu) and one
message per Hydra turn, edited as the turn goes (what was revealed, what it did, the question its cards
ask, H9), with a report of the players' actions that made heads leave. The turn and report texts are in
``bot.render.hydra_turns``."""

from __future__ import annotations

from typing import Any

import discord

from bot.domain.hydra import Event, HydraGame
from bot.i18n import Translate, t
from bot.i18n.glossary import join_list
from bot.render.hydra import ANSWERS, answer_label, board_image, board_text, hero_reminders
from bot.render.hydra_turns import report_content, turn_content, turn_starts
from bot.render.pil import Image
from bot.services.challenge import ActResult
from bot.services.hydra import HydraTable
from bot.storage.hydra import IDLE
from cogs.challenge.base import Family
from cogs.challenge.components import MoreSelect, TableButton, TableSelect
from cogs.challenge.panels import option_key
from cogs.challenge.play import MORE_ACTIONS, PICKED_ACTIONS, TablePlay

# The Hydra's tables: a board, and a message per Hydra turn; a pick that follows the head; idle tables pause.
HYDRA_FAMILY = Family(
    prefix="hydra",
    name="hydra",
    board="Hydra board",
    idle_pause=True,
    pick_by_serial=True,
    acknowledge_first=True,
    command_example="mill 2",
    damage_title="hydra.ui.damage_title",
)
# Events of the players' own actions that get a report message (heads left, triggers resolved).
_EXPLAINED = frozenset(
    (
        "hydra.log.leaves_dies",
        "hydra.log.leaves_destroyed",
        "hydra.log.leaves_exile",
        "hydra.log.leaves_bounce",
        "hydra.log.leaves_sacrificed",
        "hydra.log.grow",
        "hydra.log.reward",
        "hydra.log.trigger_countered",
    )
)


class HydraPanels(TablePlay):
    """The Hydra's layer over every deck's panels and play (see ``cogs.challenge.base`` for the layers): the
    hooks it overrides, and its turn messages and reports."""

    family = HYDRA_FAMILY
    reports: dict[int, int]  # table -> its players'-turn report message with answer buttons
    turn_shown: dict[int, int]  # table -> the Hydra turn (its start in the log) its turn message shows
    shown_text: dict[int, tuple[str, Any]]  # message -> what it was last edited to show (content, buttons)

    def lobby_payload(self, table: HydraTable) -> tuple[discord.Embed, discord.ui.View]:
        tr = Translate(table.row.language)
        embed = discord.Embed(
            title=tr("hydra.ui.lobby_title", game=table.game_id, heads=table.row.heads),
            description=tr("hydra.ui.lobby_help"),
            colour=discord.Colour.dark_green(),
        )
        for seat in table.seats:
            heroes = join_list(seat.heroes, tr.language) or tr("hydra.ui.no_heroes")
            embed.add_field(name=f"{seat.seat}. {seat.name}", value=heroes[:1024], inline=False)
        view = discord.ui.View(timeout=None)
        view.add_item(
            TableButton(
                "hydra", table.game_id, "join", label=tr("hydra.ui.join"), style=discord.ButtonStyle.primary
            )
        )
        view.add_item(TableButton("hydra", table.game_id, "leave", label=tr("hydra.ui.leave")))
        view.add_item(
            TableButton(
                "hydra", table.game_id, "start", label=tr("hydra.ui.start"), style=discord.ButtonStyle.success
            )
        )
        return embed, view

    def board_embed(self, table: HydraTable, game: HydraGame) -> discord.Embed:
        """The numbered heads, the Heroes' reminders and the table's status (the question is asked in the
        turn message)."""
        language = table.row.language
        tr = Translate(language)
        embed = discord.Embed(
            title=tr("hydra.ui.board_title", game=table.game_id, heads=table.row.heads),
            description=f"```\n{board_text(game, language)}\n```",
            colour=discord.Colour.dark_red(),
        )
        reminders = hero_reminders(game)
        if reminders:
            embed.add_field(name=tr("hydra.ui.heroes"), value="\n".join(reminders)[:1024], inline=False)
        status = self._status_line(table)
        if status:
            embed.add_field(name=tr("hydra.ui.status"), value=status[:1024], inline=False)
        return embed

    @staticmethod
    def board_text(game: HydraGame, language: str) -> str:
        return board_text(game, language)

    @staticmethod
    def board_image(game: HydraGame, language: str) -> Image.Image:
        return board_image(game, language)

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
            view.add_item(
                TableSelect(
                    "hydra",
                    gid,
                    "head",
                    None,
                    self._head_options(game, by_serial=True)[:25],
                    placeholder=tr("hydra.ui.pick_head"),
                    row=0,
                )
            )
        for action in ("attack", "damage", "loselife", *PICKED_ACTIONS[:2]):
            view.add_item(TableButton("hydra", gid, action, label=tr(f"hydra.ui.{action}"), row=1))
        for action in (*PICKED_ACTIONS[2:], "life", "command"):
            view.add_item(TableButton("hydra", gid, action, label=tr(f"hydra.ui.{action}"), row=2))
        view.add_item(
            TableButton(
                "hydra", gid, "end", label=tr("hydra.ui.end"), style=discord.ButtonStyle.success, row=3
            )
        )
        view.add_item(TableButton("hydra", gid, "undo", label=tr("hydra.ui.undo"), row=3))
        view.add_item(
            TableButton(
                "hydra", gid, "concede", label=tr("hydra.ui.concede"), style=discord.ButtonStyle.danger, row=3
            )
        )
        more = [
            discord.SelectOption(label=tr(f"hydra.ui.more.{verb}")[:100], value=verb) for verb in MORE_ACTIONS
        ]
        view.add_item(MoreSelect("hydra", gid, more, placeholder=tr("hydra.ui.more"), row=4))
        return view

    @staticmethod
    def _head_options(game: HydraGame, *, by_serial: bool = False) -> list[discord.SelectOption]:
        """One option per head, labelled with its HEAD number; the value is that number (answers to a
        question) or the head's serial (the board's pick, which must survive other players' actions)."""
        return [
            discord.SelectOption(
                label=f"{game.number_of(h)}. {h.name} ({h.damage}/{h.toughness})"[:100],
                value=str(h.serial if by_serial else game.number_of(h)),
            )
            for h in game.battlefield
        ]

    def turn_view(self, table: HydraTable) -> discord.ui.View | None:
        game, tr, gid = table.game, Translate(table.row.language), table.game_id
        if game is None or game.pending is None or table.row.status != "playing":
            return None
        decision = game.pending
        view = discord.ui.View(timeout=None)
        if decision.kind == "option":
            for index, option in enumerate(decision.options):
                key = option_key(decision.topic, option)
                label = tr(key) if option in ANSWERS else option.title()
                view.add_item(
                    TableButton(
                        "hydra",
                        gid,
                        "answer",
                        decision.topic,
                        str(index),
                        label=label,
                        style=discord.ButtonStyle.primary
                        if option == decision.default
                        else discord.ButtonStyle.secondary,
                    )
                )
        elif decision.kind == "text":
            view.add_item(
                TableButton(
                    "hydra",
                    gid,
                    "exile_named",
                    label=tr("hydra.ui.name_creature"),
                    style=discord.ButtonStyle.primary,
                )
            )
            view.add_item(
                TableButton("hydra", gid, "answer", decision.topic, "none", label=tr("hydra.ui.no_creature"))
            )
        else:
            view.add_item(
                TableSelect(
                    "hydra",
                    gid,
                    "pick",
                    decision.topic,
                    self._head_options(game)[:25],
                    low=max(1, decision.min_heads),
                    high=decision.max_heads,
                    placeholder=tr("hydra.ui.pick_heads", count=decision.max_heads),
                )
            )
            if decision.min_heads == 0:
                view.add_item(
                    TableButton("hydra", gid, "answer", decision.topic, "none", label=tr("hydra.ui.no_heads"))
                )
        view.add_item(
            TableButton(
                "hydra",
                gid,
                "answer",
                decision.topic,
                "default",
                label=tr(
                    "hydra.ui.use_default",
                    default=answer_label(decision.topic, decision.default, tr.language),
                ),
            )
        )
        return view

    async def post_players_report(self, table: HydraTable, events: list[Event]) -> None:
        """One message per players' action that made heads leave (or asked a question): the
        previous report's buttons are removed, so only the current question can be answered."""
        channel = await self._channel(table.row.channel_id)
        old = self.reports.pop(table.game_id, None)
        if old is not None:
            await channel.get_partial_message(old).edit(view=None)
        view = self.turn_view(table)
        message = await channel.send(report_content(table, events), **({"view": view} if view else {}))
        if view is not None:
            self.reports[table.game_id] = message.id

    async def post_turn_message(self, table: HydraTable, start: int) -> None:
        channel = await self._channel(table.row.channel_id)
        view = self.turn_view(table) if start == turn_starts(table.game)[-1] else None
        message = await channel.send(turn_content(table, start), **({"view": view} if view else {}))
        await self.service.set_messages(table.game_id, turn_message_id=message.id)
        self.turn_shown[table.game_id] = start
        table.row = (await self.service.load(table.game_id)).row

    async def refresh_turn_message(self, table: HydraTable, start: int) -> None:
        """Edit the turn message to show turn ``start`` as stored now (skipped when it already does)."""
        message_id = (await self.service.load(table.game_id)).row.turn_message_id  # never a stale id
        if message_id is None or table.game is None:
            return
        latest = start == turn_starts(table.game)[-1]
        content, view = turn_content(table, start), self.turn_view(table) if latest else None
        shown = (content, view.to_components() if view is not None else None)
        if self.shown_text.get(message_id) == shown:
            return
        channel = await self._channel(table.row.channel_id)
        await channel.get_partial_message(message_id).edit(content=content, view=view)
        self.shown_text[message_id] = shown

    async def sync_turn_messages(self, table: HydraTable) -> bool:
        """Post a message for each Hydra turn the stored game has begun that no message shows yet (the
        turn message shown so far gets its final words first, its buttons gone). True when one was posted.

        Decided from the stored game and the turn the current message shows, not from one action's
        events: a pass that runs after a later action's pass (presses under a second apart) then still
        posts each turn once, in its own message."""
        starts = turn_starts(table.game)
        if not starts:
            return False
        if table.row.turn_message_id is None:
            await self.post_turn_message(table, starts[-1])
            return True
        shown = self.turn_shown.setdefault(table.game_id, starts[-1])  # after a restart: the latest
        if shown == starts[-1]:
            return False
        await self.refresh_turn_message(table, shown)
        for start in (s for s in starts if s > shown):
            await self.post_turn_message(table, start)
        return True

    async def reconcile_messages(self, table: HydraTable) -> None:
        """After a start the latest turn message shows the stored turn with its question's buttons (posted
        when the bot died before posting it)."""
        starts = turn_starts(table.game) if table.game is not None else []
        if starts and table.row.turn_message_id is None:
            await self.post_turn_message(table, starts[-1])
        elif starts:
            self.turn_shown[table.game_id] = starts[-1]
            await self.refresh_turn_message(table, starts[-1])

    async def show_after(self, table: HydraTable, result: ActResult) -> None:
        """A new message for each Hydra turn that began (an extra turn too), edits otherwise; a report of
        the players' action that made heads leave or asked a question; then the board, and the end."""
        game, starts = table.game, turn_starts(table.game)
        if await self.sync_turn_messages(table):
            pass  # a Hydra turn began: its new message shows it
        elif (
            starts
            and game is not None
            and (
                game.active == "hydra"
                or game.over
                or any(e.key == "hydra.log.players_turn" for e in result.events)
            )
        ):
            await self.refresh_turn_message(table, starts[-1])
        elif game is not None and (
            game.pending is not None or any(e.key in _EXPLAINED for e in result.events)
        ):
            await self.post_players_report(table, result.events)
        await self.refresh_board(table)
        if result.finished:
            await self.announce_end(table)

    async def announce_end(self, table: HydraTable) -> None:
        channel = await self._channel(table.row.channel_id)
        mentions = " ".join(f"<@{seat.user_id}>" for seat in table.seats)
        key = "hydra.ui.won" if table.game and table.game.outcome == "won" else "hydra.ui.lost"
        await channel.send(t(key, table.row.language, players=mentions))
