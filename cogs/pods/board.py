"""The live board of a game: its embed, image and buttons, edited as the game goes (by
``cogs._updater.BoardUpdater``, which coalesces a burst of presses into one edit, in the lane of the
board's channel) and posted afresh before Discord's cap on edits of hour-old messages (``cogs._boards``)."""

from __future__ import annotations

import io
import logging
from datetime import datetime, timedelta
from functools import partial

import discord

from bot.clock import clock_of
from bot.domain import pod
from bot.domain.pod import PodState
from bot.i18n import Translate
from bot.i18n.glossary import join_list, ruleset_name
from bot.render.board import header_text, render_snapshot, snapshot
from bot.render.deck_text import escape
from bot.services.pods import LoadedGame
from cogs._boards import BoardMessage, Where
from cogs.pods.base import PodsBase
from cogs.pods.components import PlayerSelect, PodButton
from cogs.pods.mulligan_panels import board_lines as mulligan_board_lines

log = logging.getLogger(__name__)

FIRST_POST_GRACE = timedelta(minutes=1)  # a game stored this recently may still be being posted elsewhere


def needs_first_board(loaded: LoadedGame) -> bool:
    """A game with a channel to show it in, not over, whose board was never posted."""
    return loaded.row.message_id is None and loaded.row.channel_id is not None and not loaded.state.finished


def seats_open(loaded: LoadedGame) -> bool:
    """Whether players may still join and shuffle the seats before turn 1: not at a tournament table
    (the pairing seats it) nor in a game of a match (its two players, in the order the match chose)."""
    return loaded.row.tournament_id is None and not loaded.state.match


def declared_bracket_lines(state: PodState, tr: Translate) -> list[str]:
    """The declared brackets (BR7), and a warning for each deck that checks above its player's."""
    declared = [p for p in state.players if p.bracket is not None]
    if not declared:
        return []
    lines = [
        tr(
            "brackets.embed.declared",
            players=join_list([f"{p.name} {p.bracket}" for p in declared], tr.language),
        )
    ]
    lines += [
        tr(
            "brackets.embed.above",
            name=p.name,
            declared=p.bracket,
            deck=escape(p.deck or ""),
            checked=p.deck_bracket,
        )
        for p in pod.brackets_above_declared(state)
    ]
    return lines


class PodBoard(PodsBase):
    """The cog's layer that draws, posts and edits boards (see ``cogs.pods.base`` for the layers)."""

    async def board_payload(self, loaded: LoadedGame) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        language = await self.board_language(loaded.row.guild_id)
        tr = Translate(language)
        state = loaded.state
        # Everything is read from the state on the loop, before the await (the state keeps changing);
        # the image is drawn in the work pool so a burst of renders never delays acknowledging other
        # presses past Discord's 3 s.
        board = snapshot(
            state, language, title=f"#{loaded.game_id}", commander_names=self.commander_names(state, language)
        )
        filename = f"pod-{loaded.game_id}.png"
        embed = discord.Embed(
            title=tr(
                "pod.embed.title", game=loaded.game_id, ruleset=ruleset_name(state.ruleset, tr.language)
            ),
            description=self.board_description(loaded, tr),
            colour=discord.Colour.dark_grey() if state.finished else discord.Colour.blurple(),
        )
        embed.set_image(url=f"attachment://{filename}")
        if loaded.row.tournament_id is not None:
            embed.set_footer(
                text=tr(
                    "pod.embed.tournament",
                    tournament=loaded.row.tournament_id,
                    round=loaded.row.round_number or "-",
                )
            )
        view = self.board_view(loaded, tr)
        await self.match_step.decorate(loaded, embed, view, tr)
        png = await self.bot.workers.run(render_snapshot, board)
        return embed, discord.File(fp=io.BytesIO(png), filename=filename), view

    def commander_names(self, state: PodState, language: str) -> dict[str, str]:
        """Commander names as printed in ``language`` when the card data has them (never translated by us)."""
        cards = self.bot.cards
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
        if not state.started and not state.finished:  # an ended board has nothing left to set up
            lines.append(
                tr(
                    "pod.embed.seats",
                    seats=" → ".join(f"{i + 1}. {p.name}" for i, p in enumerate(state.players)),
                )
            )
            lines += mulligan_board_lines(state, names, tr, seats_open=seats_open(loaded))
        lines += declared_bracket_lines(state, tr)
        if state.draw_votes and not state.finished:
            lines.append(tr("pod.embed.draw_votes", names=[names[u] for u in sorted(state.draw_votes)]))
        if state.finished:
            for place, users in state.standings():
                lines.append(f"{place}. " + join_list([names[u] for u in users], tr.language))
        if state.own_totals_only:
            lines.append(tr("pod.embed.own_totals_only"))
        return "\n".join(lines)[:4000]

    def board_view(self, loaded: LoadedGame, tr: Translate) -> discord.ui.View:
        state, gid = loaded.state, loaded.game_id
        view = discord.ui.View(timeout=None)
        if state.finished:
            view.add_item(PodButton(gid, "history", label=tr("pod.button.history"), row=0))
            return view
        options = [
            discord.SelectOption(label=f"{i + 1} {p.name} ({p.life})"[:100], value=str(p.user_id))
            for i, p in enumerate(state.players)
            if p.alive
        ]
        view.add_item(PlayerSelect(gid, options, tr("pod.button.pick_player")))
        for amount in (-5, -1, 1, 5):
            view.add_item(
                PodButton(
                    gid,
                    "life",
                    amount,
                    label=f"{amount:+d}",
                    row=1,
                    style=discord.ButtonStyle.danger if amount < 0 else discord.ButtonStyle.success,
                )
            )
        view.add_item(PodButton(gid, "amount", label=tr("pod.button.amount"), row=1))
        view.add_item(
            PodButton(
                gid, "commander", label=tr("pod.button.commander"), row=2, style=discord.ButtonStyle.primary
            )
        )
        for action, label in (
            ("poison", "pod.button.poison"),
            ("counter", "pod.button.counter"),
            ("monarch", "pod.board.monarch"),
            ("initiative", "pod.board.initiative"),
        ):
            view.add_item(PodButton(gid, action, label=tr(label), row=2))
        view.add_item(
            PodButton(
                gid,
                "next",
                label=tr("pod.button.next_turn" if state.started else "pod.button.start"),
                row=3,
                style=discord.ButtonStyle.primary,
            )
        )
        for action in ("undo", "history", "concede", "draw"):
            view.add_item(PodButton(gid, action, label=tr(f"pod.button.{action}"), row=3))
        if not state.started:
            if state.mulligan is None and seats_open(loaded):
                view.add_item(
                    PodButton(
                        gid, "join", label=tr("pod.button.join"), row=4, style=discord.ButtonStyle.success
                    )
                )
                view.add_item(PodButton(gid, "shuffle", label=tr("pod.button.shuffle"), row=4))
            view.add_item(PodButton(gid, "commanders", label=tr("pod.button.commanders"), row=4))
            view.add_item(PodButton(gid, "mulligan", label=tr("pod.button.mulligan"), row=4))
        return view

    async def post_board(self, channel: discord.abc.Messageable, loaded: LoadedGame) -> discord.Message:
        seq = loaded.events[-1].seq
        embed, file, view = await self.board_payload(loaded)
        message = await channel.send(embed=embed, file=file, view=view)
        await self.boards.record_post(message)
        await self.service.set_message(loaded.game_id, message.channel.id, message.id)
        await self.service.mark_shown(loaded.game_id, seq)
        return message

    async def _send_board(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        """The board as the answer to a deferred command; it becomes the game's live board."""
        seq = loaded.events[-1].seq  # read before rendering: a press during the render leaves it lagging
        embed, file, view = await self.board_payload(loaded)
        message = await interaction.followup.send(embed=embed, file=file, view=view, wait=True)
        if not loaded.state.finished:
            await self.boards.record_post(message)
            await self.service.set_message(loaded.game_id, message.channel.id, message.id)
            await self.service.mark_shown(loaded.game_id, seq)

    async def refresh_board(self, game_id: int) -> None:
        """Show the stored state on the game's board (no fetch: the ids suffice): an edit, or a fresh board
        when the message is too old to be edited for long (``cogs._boards``)."""
        loaded = await self.service.get(game_id)
        self.mulligan_step.request(game_id)  # panels and the ping line follow undo and /pod end too
        row = loaded.row
        if row.message_id is None or row.channel_id is None:
            return
        seq = loaded.events[-1].seq  # read before rendering: a press during the render leaves it lagging
        embed, file, view = await self.board_payload(loaded)
        where = Where(row.guild_id, row.channel_id, row.message_id, await self.board_language(row.guild_id))

        async def moved(channel_id: int, message_id: int) -> None:
            await self.service.set_message(game_id, channel_id, message_id)

        try:
            shown = await self.boards.show(game_id, BoardMessage.of(embed, file, view), where, moved)
        except discord.NotFound:  # the board was deleted: /pod show posts a new one
            log.info("board message of pod game %s is gone", game_id)
            shown = True
        if shown:
            await self.service.mark_shown(game_id, seq)

    async def reconcile_boards(self) -> int:
        """After a start: edit each board behind its log, and post the board of a game stored just
        before a crash but never posted (in the channel where it was started). A game this process
        started is left to the command posting its board, and so is a game stored moments ago, which
        another process sharing the database may still be posting: it is looked at again after
        ``FIRST_POST_GRACE``. A failed post is caught up at the next start."""
        count = 0
        for game_id in await self.service.lagging_boards():
            if await self.service.posting_here(game_id):
                continue
            loaded = await self.service.get(game_id)
            if loaded.row.message_id is not None:
                await self.updater.refresh_now(game_id)
            elif needs_first_board(loaded):
                if self._stored_moments_ago(loaded):
                    self.first_posts.after(
                        game_id, FIRST_POST_GRACE.total_seconds(), partial(self._post_if_nobody_did, game_id)
                    )
                    continue
                await self._post_first_board(loaded)
            count += 1
        return count

    def _stored_moments_ago(self, loaded: LoadedGame) -> bool:
        created = datetime.fromisoformat(loaded.row.created_at)
        return clock_of(self.bot).now() - created < FIRST_POST_GRACE

    async def _post_if_nobody_did(self, game_id: int) -> None:
        """The grace is over: post the board of a game that still has none (its starter died)."""
        loaded = await self.service.get(game_id)
        if needs_first_board(loaded) and not await self.service.posting_here(game_id):
            await self._post_first_board(loaded)

    async def _post_first_board(self, loaded: LoadedGame) -> None:
        """The board of a game that has none, in the channel where the game was started."""
        assert loaded.row.channel_id is not None
        await self.post_board(self.bot.get_partial_messageable(loaded.row.channel_id), loaded)
