"""What a challenge table shows: its lobby, then its board (embed, image, the players' controls), edited as
the game goes; the same for every deck. A deck's own look is a few hooks its cog overrides (the Hydra's:
its lobby, its board and one message per Hydra turn, in ``cogs.hydra.panels``); a deck with none of its
own is shown as the Horde and the God are: one board holding the latest log lines and the question of
the moment with its answers."""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import Translate
from bot.i18n.glossary import join_list
from bot.render import challenge as deck_render
from bot.render.fonts import png_bytes
from bot.render.hydra import answer_key
from bot.render.pil import Image
from bot.services.challenge import ChallengeTable
from bot.storage.challenge import FINISHED, IDLE, LOBBY
from cogs._boards import BoardMessage, Where
from cogs.challenge.base import TablesBase
from cogs.challenge.components import BOARD_PICK, TableButton, TableSelect
from cogs.challenge.lobby import lobby

log = logging.getLogger(__name__)
LOG_LINES = 12  # the latest log lines a one-message board shows
# The board's buttons a deck has beyond every deck's (damage, destroy, any command): the Horde's library is
# its life, so hitting it (milling) is a button of its own.
DECK_BUTTONS: Mapping[str, tuple[str, ...]] = {"horde": ("hit",)}
# A button's label where it is not ``hydra.ui.<action>`` (the words every deck shares).
BUTTON_LABELS: Mapping[str, str] = {"hit": "challenge.ui.hit"}


def option_key(topic: str, option: str) -> str:
    """The i18n key of an answer's button, the same for every challenge deck (and the prompts' words)."""
    return answer_key(topic, option)


class TablePanels(TablesBase):
    """The layer that posts and edits a table's messages (see ``cogs.challenge.base`` for the layers)."""

    # -- the deck's look (hooks) -------------------------------------------------------------------------
    def lobby_payload(self, table: ChallengeTable) -> tuple[discord.Embed, discord.ui.View]:
        """The lobby: seats and Hero cards, the Hero cards select, Join and Start."""
        tr = Translate(table.row.language)
        players = join_list([seat.name for seat in table.seats], tr.language)
        return lobby(table, self.title(table), players, self.family.prefix)

    def title(self, table: ChallengeTable) -> str:
        return Translate(table.row.language)(f"challenge.ui.title_{table.row.deck}", game=table.game_id)

    def board_embed(self, table: ChallengeTable, game: Any) -> discord.Embed:
        """The board's embed: the board as text, the latest log lines, and what is asked now."""
        tr, language = Translate(table.row.language), table.row.language
        embed = discord.Embed(
            title=self.title(table), description=f"```\n{self.board_text(game, language)}\n```"[:4000]
        )
        embed.add_field(
            name=tr("challenge.ui.log"),
            inline=False,
            value="\n".join(deck_render.log_lines(game.events[-LOG_LINES:], language))[-1024:],
        )
        if game.over or table.row.status == FINISHED:
            players = join_list([seat.name for seat in table.seats], tr.language)
            embed.add_field(
                name=tr("challenge.ui.now"),
                value=tr(f"challenge.ui.finished_{game.outcome}", players=players)[:1024],
            )
        elif game.pending is not None:
            owner = table.user_to_answer()
            question = (f"<@{owner}> " if owner else "") + deck_render.decision_text(
                game, game.pending, language
            )
            embed.add_field(name=tr("challenge.ui.now"), value=question[:1024], inline=False)
        else:
            embed.add_field(name=tr("challenge.ui.now"), value=tr("challenge.ui.your_turn"), inline=False)
        return embed

    @staticmethod
    def board_text(game: Any, language: str) -> str:
        return deck_render.board_text(game, language)

    @staticmethod
    def board_image(game: Any, language: str) -> Image.Image:
        return deck_render.board_image(game, language)

    def board_view(self, table: ChallengeTable) -> discord.ui.View:
        """The players' controls: the answers to the question of the moment, and while nothing is asked (or
        in a response window) the permanent pick, damage, destroy, the deck's own buttons and any command."""
        tr, gid, game, prefix = Translate(table.row.language), table.game_id, table.game, self.family.prefix
        assert game is not None
        view = discord.ui.View(timeout=None)
        decision = game.pending
        permanents = [
            discord.SelectOption(label=f"{game.number_of(p)}. {p.name}"[:100], value=str(game.number_of(p)))
            for p in game.battlefield
        ][:25]
        if decision is not None and decision.kind == "heads":
            allowed = set(game.allowed_numbers(decision))
            options = [o for o in permanents if int(o.value) in allowed]
            if options:
                view.add_item(
                    TableSelect(
                        prefix,
                        gid,
                        "pick",
                        decision.topic,
                        options,
                        low=max(1, decision.min_heads),
                        high=decision.max_heads,
                        row=0,
                        placeholder=tr("challenge.ui.pick_answer", count=decision.max_heads),
                    )
                )
            if decision.min_heads == 0:
                view.add_item(
                    TableButton(prefix, gid, "answer", "none", label=tr("challenge.ui.none"), row=1)
                )
        elif decision is not None:
            for option in decision.options:
                view.add_item(
                    TableButton(
                        prefix,
                        gid,
                        "answer",
                        option,
                        label=tr(option_key(decision.topic, option)),
                        row=1,
                        style=discord.ButtonStyle.primary
                        if option == decision.default
                        else discord.ButtonStyle.secondary,
                    )
                )
        if decision is None or decision.topic in game.window_topics:
            if permanents and decision is None:
                view.add_item(
                    TableSelect(
                        prefix,
                        gid,
                        "pick",
                        BOARD_PICK,
                        permanents,
                        placeholder=tr("challenge.ui.pick"),
                        row=0,
                    )
                )
            for action in ("damage", "destroy", *DECK_BUTTONS.get(table.row.deck, ()), "command"):
                view.add_item(
                    TableButton(
                        prefix, gid, action, label=tr(BUTTON_LABELS.get(action, f"hydra.ui.{action}")), row=2
                    )
                )
        if decision is None:
            view.add_item(
                TableButton(
                    prefix, gid, "end", label=tr("hydra.ui.end"), style=discord.ButtonStyle.success, row=3
                )
            )
            view.add_item(TableButton(prefix, gid, "undo", label=tr("hydra.ui.undo"), row=3))
        view.add_item(
            TableButton(
                prefix, gid, "concede", label=tr("hydra.ui.concede"), style=discord.ButtonStyle.danger, row=3
            )
        )
        return view

    async def reconcile_messages(self, table: ChallengeTable) -> None:
        """A recovery pass's work on a table's messages besides its board (the Hydra's turn messages)."""

    # -- the board -----------------------------------------------------------------------------------------
    async def board_payload(
        self, table: ChallengeTable
    ) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
        """The table's message: the lobby, or its board's embed, image and controls (none once the game is
        over or paused). Built in one of the work pool's image places (``WorkPool.image_slot``): the pixels
        wait there for their encoding, and the embed and the image show the same moment of the game."""
        game = table.game
        if table.row.status == LOBBY or game is None:
            embed, view = self.lobby_payload(table)
            return embed, None, view
        async with self.bot.workers.image_slot():
            embed = self.board_embed(table, game)
            controls = None if table.row.status in (FINISHED, IDLE) or game.over else self.board_view(table)
            return embed, await self.board_file(table, embed), controls

    async def board_file(self, table: ChallengeTable, embed: discord.Embed) -> discord.File | None:
        """The board image of a game in play, shown in ``embed``: drawn here from the live game (a few ms, and
        the game must not change under the brush), PNG-encoded in the work pool (the costly part: ~15 ms of
        zlib, which releases the GIL)."""
        if table.game is None:
            return None
        filename = f"{table.row.deck}-{table.game_id}.png"
        embed.set_image(url=f"attachment://{filename}")
        image = self.board_image(table.game, table.row.language)
        return discord.File(io.BytesIO(await self.bot.workers.run(png_bytes, image)), filename=filename)

    async def post_table(self, channel: Any, table: ChallengeTable) -> None:
        """Show a table that started elsewhere (an event's table, in its thread) and run its timers: its
        board lives in ``channel`` from now on."""
        embed, file, view = await self.board_payload(table)
        board = await self.boards.post(channel, BoardMessage.of(embed, file, view))
        await self.service.set_messages(table.game_id, channel_id=channel.id, message_id=board.id)
        self.arm(await self.service.load(table.game_id))

    async def refresh(self, table: ChallengeTable) -> None:
        """Show the table's stored state (its seats changed elsewhere: an event's late players; a redraw),
        then arm its timer unless it is still armed for the same action (a redraw must not restart a
        question's wait)."""
        async with self.display_lane(table.game_id):
            table = await self.service.load(table.game_id)
            try:
                await self.refresh_board(table)
            except discord.HTTPException:
                log.exception("could not update %s table %s", self.family.name, table.game_id)
        self.keep_or_arm(table)

    async def show_board(self, game_id: int) -> None:
        """Show the table's stored state on its board, in the table's display lane."""
        async with self.display_lane(game_id):
            await self.refresh_board(await self.service.load(game_id))

    async def refresh_board(self, table: ChallengeTable) -> None:
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
            await self.boards.show_or_later(
                table.game_id,
                BoardMessage.of(embed, file, view),
                where,
                moved,
                again=lambda: self.show_board(table.game_id),
            )
        except discord.NotFound:
            log.info("board message of %s table %s is gone", self.family.name, table.game_id)

    async def reconcile_tables(self) -> int:
        """Recovery hook: after a start every open table's messages show the stored state with the pending
        question's buttons, even when the bot died between storing an action and showing it, or between
        creating a table and posting it (then its board is posted). Idempotent: edits, or posts a missing
        message."""
        tables = await self.service.open_tables()
        for table in tables:
            async with self.display_lane(table.game_id):
                if table.row.message_id is None and table.row.channel_id is not None:
                    channel = await self._channel(table.row.channel_id)
                    embed, file, view = await self.board_payload(table)
                    board = await self.boards.post(channel, BoardMessage.of(embed, file, view))
                    await self.service.set_messages(table.game_id, message_id=board.id)
                else:
                    await self.reconcile_messages(table)
                    await self.refresh_board(table)
            self.keep_or_arm(await self.service.load(table.game_id))
        return len(tables)
