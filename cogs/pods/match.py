"""Matches and sideboard swaps on the pod board (docs/rules/RULES.md G9, D7, T1).

Part of the pod cog's package (``cogs.pods``). The board of a game that
belongs to a match shows the score; once a game ends, **Next game** lets the player who chooses (the loser
of that game: ``bot.domain.match``) pick who plays first, in buttons only they see. While the swap window
is open the board shows a countdown (a Discord relative timestamp, which ticks in every client without an
edit) and a **Sideboard** button opening a private panel; swaps are typed as lines ``out -> in`` in a modal
or one at a time with ``/sideboard swap`` (autocomplete from the player's own lists, ``cogs/sideboard.py``).
During a game with sideboards, ``/sideboard wish`` records a sideboard card fetched by a "wish" card (D7);
the board lists what wishes fetched this game.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.clock import clock_of
from bot.domain import match as m
from bot.domain import pod
from bot.domain.decklist import Section
from bot.domain.pod import PodError
from bot.domain.sideboard import Swap, SwapError, names_in, parse_swaps
from bot.i18n import Translate
from bot.i18n.glossary import join_list
from bot.services.decks import DeckService
from bot.services.matches import MatchService, is_match
from bot.services.pods import LoadedGame
from bot.text import ECHO, fit
from cogs.pods.components import pods_cog

if TYPE_CHECKING:
    from cogs.pods.cog import PodsCog

log = logging.getLogger(__name__)

MATCH_CHOICE = "best-of-3"
Refusal = (PodError, SwapError, m.MatchError)  # the refusals a match or swap action may raise


class MatchButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pod-match:(?P<key>\d+):(?P<action>[a-z]+)(?::(?P<arg>\d+))?",
):
    """``next``, ``first`` and ``undo`` carry a match id; ``swap`` and ``paste`` a game id."""

    def __init__(
        self,
        key: int,
        action: str,
        arg: int | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"pod-match:{key}:{action}" + ("" if arg is None else f":{arg}")
        super().__init__(
            discord.ui.Button(label=(label or action)[:80], style=style, row=row, custom_id=custom_id)
        )
        self.key, self.action, self.arg = key, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MatchButton:
        arg = match["arg"]
        return cls(int(match["key"]), match["action"], None if arg is None else int(arg))

    async def callback(self, interaction: discord.Interaction) -> None:
        await pods_cog(interaction).match_step.on_button(interaction, self.key, self.action, self.arg)


class SwapModal(discord.ui.Modal):
    """Several swaps at once: one ``out -> in`` per line."""

    def __init__(self, step: MatchStep, game_id: int, tr: Translate) -> None:
        super().__init__(title=tr("match.swap.modal_title")[:45])
        self.step, self.game_id = step, game_id
        self.lines: discord.ui.TextInput[SwapModal] = discord.ui.TextInput(
            label=tr("match.swap.modal_label")[:45],
            style=discord.TextStyle.paragraph,
            placeholder=tr("match.swap.modal_hint")[:100],
            max_length=2000,
            custom_id="swaps",
        )
        self.add_item(self.lines)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            swaps = parse_swaps(self.lines.value)
        except SwapError as error:
            await refuse(self.step.cog, interaction, error)
            return
        await self.step.swap(interaction, self.game_id, swaps)


async def refuse(
    cog: PodsCog, interaction: discord.Interaction, error: PodError | SwapError | m.MatchError
) -> None:
    """A refusal in the reader's language; typed card names are echoed escaped and cut (``bot.text.fit``)."""
    tr = await cog._tr(interaction)
    values = {k: fit(v, ECHO) if isinstance(v, str) else v for k, v in error.values.items()}
    message = tr(error.key, **values)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


class MatchStep:
    """The match and sideboard parts of the pod cog: board lines, buttons, the swap panel."""

    def __init__(self, cog: PodsCog) -> None:
        self.cog = cog
        self._service: MatchService | None = None
        self._closing: dict[
            int, tuple[datetime, asyncio.Task[None]]
        ] = {}  # game -> (closes at, board refresh)

    @property
    def service(self) -> MatchService:
        if self._service is None:
            bot = self.cog.bot
            decks = DeckService(bot.db, bot.cards, offload=bot.workers.run)
            self._service = MatchService(bot.db, self.cog.service, decks)
        return self._service

    # -- starting --------------------------------------------------------------------------------------

    async def start_game(
        self, *, players: Sequence[tuple[int, str]], ruleset: str, match: str | None, **options: Any
    ) -> LoadedGame:
        """``/pod start``: a match when the pod is one (duel-zh with two players, or ``match: best-of-3``)."""
        if match == MATCH_CHOICE and len(players) != 2:
            raise m.MatchError("two_players")
        if not is_match(ruleset, len(players), match == MATCH_CHOICE):
            return await self.cog.service.start_game(players=players, ruleset=ruleset, **options)
        _, game = await self.service.start_match(players=players, ruleset=ruleset, **options)
        return game

    # -- the board -------------------------------------------------------------------------------------

    async def decorate(
        self, loaded: LoadedGame, embed: discord.Embed, view: discord.ui.View | None, tr: Translate
    ) -> None:
        """Add the match score, the swap countdown and their buttons to a board being built.

        ``state`` is read before any await: the view was laid out for that state (a finished game's board
        has room for Next game, a running one's rows are full), and a press meanwhile replaces it."""
        state = loaded.state
        if state.match:
            await self._decorate_match(loaded, state.finished, embed, view, tr)
        if state.wishes:  # sideboard cards fetched by wishes this game (D7), public like the wish itself
            names = {p.user_id: fit(p.name, ECHO) for p in state.players}
            cards = "; ".join(
                f"{names.get(user, '?')}: {join_list([fit(c, ECHO) for c in listed], tr.language)}"
                for user, listed in pod.fetched_by_wishes(state).items()
            )
            embed.add_field(
                name=tr("match.board.sideboard"),
                value=tr("sideboard.wish.board", cards=cards)[:1024],
                inline=False,
            )
        if state.finished or state.started or state.mulligan is not None:
            return
        window = await self.service.window(loaded)
        if not window.open:
            return
        if window.closes_at is None:
            text = tr("match.board.swaps_open")
        else:
            text = tr("match.board.swaps_until", when=f"<t:{int(window.closes_at.timestamp())}:R>")
            self._refresh_when_closed(loaded.game_id, window.closes_at)
        embed.add_field(name=tr("match.board.sideboard"), value=text, inline=False)
        if view is not None:
            view.add_item(
                MatchButton(
                    loaded.game_id,
                    "swap",
                    label=tr("match.button.sideboard"),
                    row=4,
                    style=discord.ButtonStyle.primary,
                )
            )

    def _refresh_when_closed(self, game_id: int, closes_at: datetime) -> None:
        """Edit the board once the window has closed, so its Sideboard button goes away. Only cosmetic:
        a press after the deadline is refused anyway (the window is computed from stored times).
        The wait is on the bot's clock (``bot.clock``), so tests move time instead of sleeping."""
        known = self._closing.get(game_id)
        if known is not None and known[0] == closes_at:
            return
        if known is not None:
            known[1].cancel()
        task = asyncio.create_task(self._close_later(game_id, closes_at))
        self._closing[game_id] = (closes_at, task)

    async def _close_later(self, game_id: int, closes_at: datetime) -> None:
        await clock_of(self.cog.bot).sleep_until(closes_at + timedelta(seconds=1))
        self._closing.pop(game_id, None)
        self.cog.updater.request(game_id)

    def cancel(self) -> None:
        for _, task in self._closing.values():
            task.cancel()
        self._closing.clear()

    async def _decorate_match(
        self,
        loaded: LoadedGame,
        finished: bool,
        embed: discord.Embed,
        view: discord.ui.View | None,
        tr: Translate,
    ) -> None:
        match = await self.service.for_game(loaded)
        if match is None:
            return
        state, names = match.state, {p.user_id: fit(p.name, ECHO) for p in loaded.state.players}
        number = state.game_number(loaded.game_id) or len(state.games)
        (a, b), draws = state.score, state.draws
        lines = [
            tr(
                "match.board.score",
                first=names.get(state.players[0], "?"),
                second=names.get(state.players[1], "?"),
                a=a,
                b=b,
                draws=draws,
            )
        ]
        if state.finished:
            lines.append(
                tr("match.board.drawn")
                if state.drawn
                else tr("match.board.won", name=names.get(state.winner or 0, "?"))
            )
        elif state.chooser is not None and state.current and state.current.game_id == loaded.game_id:
            lines.append(tr("match.board.chooses", name=names.get(state.chooser, "?")))
            if view is not None and finished:  # the view of a finished game (see decorate)
                view.add_item(
                    MatchButton(
                        match.match_id,
                        "next",
                        label=tr("match.button.next"),
                        row=1,
                        style=discord.ButtonStyle.success,
                    )
                )
        game = next((g for g in state.games if g.game_id == loaded.game_id), None)
        if game is not None and game.number >= 2:
            lines.append(
                tr(
                    "match.board.first",
                    name=names.get(game.first, "?"),
                    chooser=names.get(game.chosen_by, "?"),
                )
            )
        embed.add_field(
            name=tr("match.board.title", number=number, games=m.BEST_OF), value="\n".join(lines), inline=False
        )

    # -- buttons ---------------------------------------------------------------------------------------

    async def on_button(
        self, interaction: discord.Interaction, key: int, action: str, arg: int | None
    ) -> None:
        try:
            await self._in_this_server(interaction, key, action)
            if action == "next":
                await self._offer_first(interaction, key)
            elif action == "first" and arg is not None:
                await self._next_game(interaction, key, arg)
            elif action == "undo":
                await self._undo_next(interaction, key)
            elif action == "swap":
                await self.open_panel(interaction, key)
            elif action == "paste":
                tr = await self.cog._tr(interaction)
                await interaction.response.send_modal(SwapModal(self, key, tr))
        except (m.MatchError, SwapError, PodError) as error:
            await refuse(self.cog, interaction, error)

    async def _in_this_server(self, interaction: discord.Interaction, key: int, action: str) -> None:
        """Refuse a button whose custom id, copied from a message of another server, names a match or game
        of this one: it is no game there, as for every pod button (``game_in_this_server``)."""
        game_id = (
            key if action in ("swap", "paste") else (await self.service.get(key)).state.games[-1].game_id
        )
        await self.cog.game_in_this_server(interaction, game_id)

    async def _offer_first(self, interaction: discord.Interaction, match_id: int) -> None:
        """Next game: the chooser (loser of the last game) gets two buttons only they can see."""
        loaded = await self.service.get(match_id)
        state, user = loaded.state, interaction.user.id
        m.check_next(state, user, user if user in state.players else state.players[0])
        tr = await self.cog._tr(interaction)
        game = await self.cog.service.get(state.games[-1].game_id)
        other = state.opponent(user)
        view = discord.ui.View(timeout=None)
        view.add_item(
            MatchButton(
                match_id, "first", user, label=tr("match.button.me_first"), style=discord.ButtonStyle.primary
            )
        )
        view.add_item(
            MatchButton(
                match_id,
                "first",
                other,
                label=tr("match.button.other_first", name=game.state.player(other).name),
            )
        )
        await interaction.response.send_message(tr("match.choose_first"), view=view, ephemeral=True)

    async def _next_game(self, interaction: discord.Interaction, match_id: int, first: int) -> None:
        """Start the next game; the chooser's private message then offers to take the choice back (the
        board has no room for one more button, and only the chooser may press it)."""
        loaded, game = await self.service.next_game(match_id, interaction.user.id, first)
        tr = await self.cog._tr(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(MatchButton(match_id, "undo", label=tr("match.button.undo_first")))
        await interaction.response.edit_message(
            content=tr("match.started", number=len(loaded.state.games), name=game.state.players[0].name),
            view=view,
        )
        if len(loaded.state.games) >= 2:
            self.cog.updater.request(loaded.state.games[-2].game_id)  # its Next game button goes away
        channel = interaction.channel
        if channel is not None:
            await self.cog.post_board(channel, game)  # type: ignore[arg-type]

    async def _undo_next(self, interaction: discord.Interaction, match_id: int) -> None:
        """Take back the start of the latest game (until anybody changes it): its board is closed, the
        previous board offers Next game again, and the chooser chooses again."""
        loaded, abandoned = await self.service.undo_next(match_id, interaction.user.id)
        tr = await self.cog._tr(interaction)
        text = tr("match.undone", number=len(loaded.state.games) + 1, name=interaction.user.mention)
        await interaction.response.edit_message(content=text, view=None)
        row = (await self.cog.service.get(abandoned)).row
        if row.channel_id is not None and row.message_id is not None:
            board = self.cog.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
            try:
                await board.edit(
                    content=text,
                    embeds=[],
                    attachments=[],
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException:
                log.info("could not close the board of abandoned game %s", abandoned)
        self.cog.updater.request(loaded.state.games[-1].game_id)  # its Next game button comes back

    # -- swaps -----------------------------------------------------------------------------------------

    async def open_panel(self, interaction: discord.Interaction, game_id: int) -> None:
        """The private swap panel: the deck as it will be played (sideboard, swaps so far) and a modal."""
        tr = await self.cog._tr(interaction)
        game = await self.cog.service.get(game_id)
        window = await self.service.window(game)
        if not window.open:
            raise SwapError(window.reason)
        played = await self.service.played_deck(game, interaction.user.id)
        side = join_list(names_in(played.deck, Section.SIDEBOARD), tr.language) or "-"
        text = tr(
            "match.swap.panel", sideboard=side[:1500], count=len(names_in(played.deck, Section.SIDEBOARD))
        )
        view = discord.ui.View(timeout=None)
        view.add_item(
            MatchButton(game_id, "paste", label=tr("match.button.paste"), style=discord.ButtonStyle.primary)
        )
        await interaction.response.send_message(text, view=view, ephemeral=True)

    async def swap(self, interaction: discord.Interaction, game_id: int, swaps: Sequence[Swap]) -> None:
        """Check and store swaps for the person interacting; say what the deck now is."""
        tr = await self.cog._tr(interaction)
        try:
            _, verdict = await self.service.swap(game_id, interaction.user.id, swaps)
        except (SwapError, PodError) as error:
            await refuse(self.cog, interaction, error)
            return
        done = "\n".join(
            tr("match.swap.line", out=fit(s.out, ECHO), into=fit(s.into, ECHO), count=s.count) for s in swaps
        )
        status = tr(f"match.swap.status.{verdict.verdict.status}")
        await interaction.response.send_message(
            tr("match.swap.done", swaps=done, status=status, count=len(swaps)), ephemeral=True
        )
        self.cog.updater.request(game_id)

    async def wish(self, interaction: discord.Interaction, game_id: int, card: str) -> None:
        """A wish fetched a sideboard card: said in the channel (the wish reveals it), shown on the board."""
        try:
            _, name = await self.service.wish(game_id, interaction.user.id, card)
        except Refusal as error:
            await refuse(self.cog, interaction, error)
            return
        tr = await self.cog._tr(interaction)
        await interaction.response.send_message(
            tr("sideboard.wish.done", player=interaction.user.mention, card=fit(name, ECHO)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.cog.updater.request(game_id)

    async def wishable_for(self, game: LoadedGame, user_id: int) -> list[str]:
        """Autocomplete: sideboard cards a wish may still fetch (empty without a deck or sideboards)."""
        try:
            if not await self.service.sideboard_in_play(game):
                return []
            return await self.service.wishable(game, user_id)
        except Refusal:
            return []

    async def names_for(self, game: LoadedGame, user_id: int, section: Section) -> list[str]:
        """Autocomplete: a section of the player's deck as it will be played (empty without a deck)."""
        try:
            played = await self.service.played_deck(game, user_id)
        except (SwapError, PodError):
            return []
        return names_in(played.deck, section)
