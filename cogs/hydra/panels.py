"""What a Hydra table shows: the lobby, the board (embed, image, players' controls), one message per
Hydra turn and the players' reports, each edited as the game goes."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.domain.hydra import Event, HydraGame
from bot.i18n import Translate, t
from bot.i18n.glossary import join_list
from bot.render.fonts import png_bytes
from bot.render.hydra import ANSWERS, answer_key, answer_label, board_image, board_text, hero_reminders
from bot.render.hydra_turns import report_content, turn_content, turn_starts
from bot.services.hydra import HydraTable
from bot.storage.hydra import FINISHED, IDLE
from cogs._boards import BoardMessage, Where
from cogs.hydra.base import HydraBase
from cogs.hydra.components import HEAD_ACTIONS, MORE_ACTIONS, HeadSelect, HydraButton, MoreSelect

log = logging.getLogger(__name__)

_OPTION_LABELS = ANSWERS


def option_key(topic: str, option: str) -> str:
    """The i18n key of an answer's button, the same for every challenge deck (and the prompts' words)."""
    return answer_key(topic, option)


class HydraPanels(HydraBase):
    """The cog's layer that posts and edits a table's messages (see ``cogs.hydra.base`` for the layers)."""

    def lobby_payload(self, table: HydraTable) -> tuple[discord.Embed, discord.ui.View]:
        tr = Translate(table.row.language)
        embed = discord.Embed(title=tr("hydra.ui.lobby_title", game=table.game_id, heads=table.row.heads),
                              description=tr("hydra.ui.lobby_help"), colour=discord.Colour.dark_green())
        for seat in table.seats:
            heroes = join_list(seat.heroes, tr.language) or tr("hydra.ui.no_heroes")
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
        async with self.bot.workers.image_slot():  # the board's pixels are held until encoded
            return await self._board_payload(table, table.game)

    async def _board_payload(self, table: HydraTable, game: HydraGame
                             ) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
        language = table.row.language
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
        controls = None if table.row.status in (FINISHED, IDLE) or game.over else self.board_view(table)
        file = discord.File(io.BytesIO(await self.bot.workers.run(png_bytes, image)),
                            filename=filename)
        return embed, file, controls

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
        """One option per head, labelled with its HEAD number; the value is that number (answers to a
        question) or the head's serial (the board's pick, which must survive other players' actions)."""
        return [discord.SelectOption(label=f"{game.number_of(h)}. {h.name} ({h.damage}/{h.toughness})"[:100],
                                     value=str(h.serial if by_serial else game.number_of(h)))
                for h in game.battlefield]


    def turn_view(self, table: HydraTable) -> discord.ui.View | None:
        game, tr, gid = table.game, Translate(table.row.language), table.game_id
        if game is None or game.pending is None or table.row.status != "playing":
            return None
        decision = game.pending
        view = discord.ui.View(timeout=None)
        if decision.kind == "option":
            for index, option in enumerate(decision.options):
                key = option_key(decision.topic, option)
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
                                  label=tr("hydra.ui.use_default",
                                           default=answer_label(decision.topic, decision.default, tr.language))))
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

    async def post_table(self, channel: Any, table: HydraTable) -> None:
        """Show a table that started elsewhere (an event's table, in its thread) and run its timers: its
        board lives in ``channel`` from now on (the same surface as the Challenge cog's)."""
        embed, file, view = await self.board_payload(table)
        board = await self.boards.post(channel, BoardMessage.of(embed, file, view))
        await self.service.set_messages(table.game_id, channel_id=channel.id, message_id=board.id)
        self.arm(await self.service.load(table.game_id))  # type: ignore[attr-defined]

    async def refresh(self, table: HydraTable) -> None:
        """Show the table's stored state (its seats changed elsewhere: an event's late players)."""
        await self.show_board(table.game_id)

    async def show_board(self, game_id: int) -> None:
        """Show the table's stored state on its board, in the table's display lane."""
        async with self.display_lane(game_id):
            await self.refresh_board(await self.service.load(game_id))

    async def refresh_board(self, table: HydraTable) -> None:
        """Show the stored state on the board: an edit, or a fresh board when the message is too old to
        be edited for long (``cogs._boards``). Called in the table's display lane."""
        table = await self.service.load(table.game_id)  # the stored state, and where its board is now
        row = table.row
        if row.message_id is None or row.channel_id is None:
            return
        embed, file, view = await self.board_payload(table)
        where = Where(row.guild_id, row.channel_id, row.message_id, row.language)

        async def moved(channel_id: int, message_id: int) -> None:
            await self.service.set_messages(table.game_id, channel_id=channel_id, message_id=message_id)

        try:
            await self.boards.show_or_later(table.game_id, BoardMessage.of(embed, file, view), where, moved,
                                            again=lambda: self.show_board(table.game_id))
        except discord.NotFound:
            log.info("board message of Hydra table %s is gone", table.game_id)

    async def announce_end(self, table: HydraTable) -> None:
        channel = await self._channel(table.row.channel_id)
        mentions = " ".join(f"<@{seat.user_id}>" for seat in table.seats)
        key = "hydra.ui.won" if table.game and table.game.outcome == "won" else "hydra.ui.lost"
        await channel.send(t(key, table.row.language, players=mentions))
