"""``/mulligan practice``, ``/mulligan odds`` and ``/odds``.

Thin: options are parsed here, the work is ``PracticeHand`` (bot.domain.mulligan.practice), the odds
of ``bot.domain.mulligan.odds`` and the registered decks of ``DeckService``; images come from
``bot.render.hand`` and ``bot.render.odds``.

Practice runs are ephemeral and live in memory (``PracticeSessions``, 30 minutes). Their components
are ``DynamicItem``s registered at load, so a click after a restart or after expiry gets a clear
"expired" answer instead of Discord's "interaction failed".
"""

from __future__ import annotations

import io
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.domain.mulligan import Instruction, MulliganStyle, style_for_ruleset
from bot.domain.mulligan.odds import DEFAULT_KEEP, DEFAULT_PLAYERS, hypergeometric
from bot.domain.mulligan.practice import Phase, PracticeHand
from bot.i18n import Translate, t
from bot.i18n.glossary import join_list
from bot.render.fonts import png_bytes
from bot.render.hand import render_hand
from bot.render.odds import calculator_text, odds_chart, odds_lines
from bot.services.decks import DeckService
from bot.services.mulligan import DeckLibrary, instruction_text, library_from_registered, odds_for
from bot.text import ECHO, fit
from cogs._common import cog_of, command_text, rebuilt
from cogs._errors import RefusingCog, telling_refusals

log = logging.getLogger(__name__)

SESSION_SECONDS = 30 * 60
MAX_SESSIONS = 500
EMBED_COLOUR = 0x4F96E6


_T = command_text("mulligan")  # command texts under ``app.mulligan.<text>``


def _N(name: str) -> locale_str:
    """A command or option name, localised through ``app.mulligan.name.<name>`` (lower case, no spaces)."""
    return locale_str(name, key=f"app.mulligan.name.{name}")


STYLE_CHOICES = [
    app_commands.Choice(name=_T(name), value=style.value)
    for style, name in (
        (MulliganStyle.PARTIAL_PARIS, "partial Paris"),
        (MulliganStyle.LONDON, "London"),
        (MulliganStyle.VANCOUVER, "Vancouver"),
    )
]


# -- practice sessions -------------------------------------------------------------------------------


@dataclass
class PracticeSession:
    """One user's practice run: the live hand plus what the messages show."""

    user_id: int
    deck_name: str
    practice: PracticeHand
    seed: str | None
    told: tuple[Instruction, ...] = ()
    started: float = field(default_factory=time.monotonic)


class PracticeSessions:
    """Practice runs by id, in memory, forgotten after ``SESSION_SECONDS`` (oldest first beyond a cap)."""

    def __init__(self) -> None:
        self._runs: dict[str, PracticeSession] = {}

    def add(self, run: PracticeSession) -> str:
        self._forget_old()
        session_id = secrets.token_hex(6)
        self._runs[session_id] = run
        return session_id

    def get(self, session_id: str) -> PracticeSession | None:
        self._forget_old()
        return self._runs.get(session_id)

    def drop(self, session_id: str) -> None:
        self._runs.pop(session_id, None)

    def _forget_old(self) -> None:
        now = time.monotonic()
        for key in [k for k, run in self._runs.items() if now - run.started > SESSION_SECONDS]:
            del self._runs[key]
        while len(self._runs) >= MAX_SESSIONS:
            del self._runs[next(iter(self._runs))]


class PracticeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mull:p:(?P<session>[0-9a-f]+):(?P<action>keep|mull|top|under)",
):
    def __init__(
        self,
        session_id: str,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or action, style=style, custom_id=f"mull:p:{session_id}:{action}")
        )
        self.session_id, self.action = session_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PracticeButton:
        button = rebuilt(item, discord.ui.Button)
        return cls(match["session"], match["action"], button.label or "", button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).on_practice(interaction, self.session_id, self.action, [])


class PracticeSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mull:p:(?P<session>[0-9a-f]+):(?P<action>aside|bottom)",
):
    def __init__(
        self,
        session_id: str,
        action: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mull:p:{session_id}:{action}",
                placeholder=placeholder or None,
                options=options or [discord.SelectOption(label="-", value="0")],
                min_values=min_values,
                max_values=max_values,
            )
        )
        self.session_id, self.action = session_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PracticeSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(
            match["session"],
            match["action"],
            select.options,
            select.placeholder or "",
            select.min_values,
            select.max_values,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        positions = [int(value) for value in self.item.values]
        async with telling_refusals(interaction):
            await _cog(interaction).on_practice(interaction, self.session_id, self.action, positions)


def _cog(interaction: discord.Interaction) -> MulliganCog:
    return cog_of(interaction, MulliganCog.__cog_name__, MulliganCog)


# -- the cog ---------------------------------------------------------------------------------------


class MulliganCog(RefusingCog, commands.Cog, name="Mulligan"):
    mulligan = app_commands.Group(
        name=_N("mulligan"), description=_T("Practice opening hands and see their odds"), guild_only=True
    )

    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.sessions = PracticeSessions()

    @property
    def decks(self) -> DeckService:
        return DeckService(self.bot.db, self.bot.cards)

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def _deck(self, interaction: discord.Interaction, name: str, tr: Translate) -> DeckLibrary | None:
        """The user's registered deck, or None after telling them it is not registered."""
        deck = await self.decks.deck_cards(interaction.guild_id or 0, interaction.user.id, name)
        if deck is None:
            await interaction.response.send_message(
                tr("mulligan.error.no_deck", name=fit(name, ECHO)), ephemeral=True
            )
            return None
        return library_from_registered(deck)

    # -- /mulligan practice ------------------------------------------------------------------------

    @mulligan.command(name=_N("practice"), description=_T("Deal a practice opening hand from your deck"))
    @app_commands.rename(deck=_N("deck"), style=_N("style"), seed=_N("seed"), players=_N("players"))
    @app_commands.describe(
        deck=_T("One of your registered decks"),
        style=_T("Mulligan style (default: the server's ruleset)"),
        seed=_T("Any text: the same seed deals the same cards"),
        players=_T("Players in the imagined game (3+ gives a free first mulligan)"),
    )
    @app_commands.choices(style=STYLE_CHOICES)
    async def practice(
        self,
        interaction: discord.Interaction,
        deck: str,
        style: str | None = None,
        seed: str | None = None,
        players: app_commands.Range[int, 2, 8] = DEFAULT_PLAYERS,
    ) -> None:
        tr = await self._tr(interaction)
        library = await self._deck(interaction, deck, tr)
        if library is None:
            return
        chosen = (
            MulliganStyle(style)
            if style
            else style_for_ruleset(await self.bot.ruleset_for(interaction.guild_id))
        )
        hand = PracticeHand.deal(library.library, chosen, seed=seed, player_count=players)  # may refuse
        run = PracticeSession(interaction.user.id, deck, hand, seed)
        session_id = self.sessions.add(run)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the hand is drawn in the work pool
        embed, file, view = await self._practice_message(session_id, run, tr)
        await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=True)  # type: ignore[arg-type]

    async def on_practice(
        self, interaction: discord.Interaction, session_id: str, action: str, positions: list[int]
    ) -> None:
        tr = await self._tr(interaction)
        run = self.sessions.get(session_id)
        if run is None:
            await interaction.response.send_message(tr("core.error.expired"), ephemeral=True)
            return
        if run.user_id != interaction.user.id:
            await interaction.response.send_message(tr("core.error.not_yours"), ephemeral=True)
            return
        practice = run.practice
        run.told = {  # a refused decision (MulliganError) changes nothing and is told by cogs._errors
            "keep": practice.keep,
            "mull": practice.mulligan,
            "aside": lambda: practice.set_aside(positions),
            "bottom": lambda: practice.bottom(positions),
            "top": lambda: practice.scry(to_bottom=False),
            "under": lambda: practice.scry(to_bottom=True),
        }[action]()
        if practice.finished:
            self.sessions.drop(session_id)
        await interaction.response.defer()  # acknowledged before the hand is drawn (in the work pool)
        embed, file, view = await self._practice_message(session_id, run, tr)
        await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

    async def _practice_message(
        self, session_id: str, run: PracticeSession, tr: Translate
    ) -> tuple[discord.Embed, discord.File, discord.ui.View | None]:
        practice = run.practice
        style = t(f"mulligan.style.{practice.style.value}", tr.language)
        title = tr("mulligan.practice.title", deck=run.deck_name, style=style)
        lands = sum(card.is_land for card in practice.hand)
        status = tr(
            "mulligan.practice.hand_status",
            cards=len(practice.hand),
            lands=lands,
            mulligans=practice.procedure.mulligans,
        )
        lines = [instruction_text(run.told, tr.language)] if run.told else []
        lines.append(self._next_step(practice, tr) if not practice.finished else self._summary(practice, tr))
        embed = discord.Embed(title=title, description="\n".join(lines), colour=EMBED_COLOUR)
        embed.add_field(name=tr("mulligan.practice.hand"), value=status, inline=False)
        footer = [tr("mulligan.free_first")] if practice.procedure.free_first else []
        if run.seed:
            footer.append(tr("mulligan.practice.seed", seed=run.seed))
        if footer:
            embed.set_footer(text=" · ".join(footer))
        # Drawn in the work pool from a copy of the hand (the session may change meanwhile).
        image = await self.bot.workers.run(
            render_hand, tuple(practice.hand), tr.language, title=title, subtitle=status
        )
        embed.set_image(url="attachment://hand.png")
        file = discord.File(io.BytesIO(image), filename="hand.png")
        return embed, file, None if practice.finished else self._practice_view(session_id, practice, tr)

    def _next_step(self, practice: PracticeHand, tr: Translate) -> str:
        if practice.phase is Phase.BOTTOM:
            return tr("mulligan.practice.bottom_help", count=practice.procedure.to_bottom)
        if practice.phase is Phase.SCRY:
            top = practice.top_card
            return tr("mulligan.practice.scry_help", card=top.printed_name(tr.language) if top else "-")
        if practice.style is MulliganStyle.PARTIAL_PARIS:
            return tr("mulligan.practice.paris_help")
        next_size = (
            7
            if practice.style is MulliganStyle.LONDON
            else max(0, 7 - max(0, practice.procedure.mulligans + 1 - int(practice.procedure.free_first)))
        )
        return tr("mulligan.practice.keep_or_mulligan_help", count=next_size)

    def _summary(self, practice: PracticeHand, tr: Translate) -> str:
        summary = practice.summary()
        lines = [
            tr(
                "mulligan.practice.summary",
                cards=len(summary.hand),
                lands=summary.lands,
                mulligans=summary.mulligans,
            )
        ]
        if summary.set_aside:
            lines.append(tr("mulligan.practice.summary_set_aside", count=summary.set_aside))
        if summary.bottomed:
            lines.append(tr("mulligan.practice.summary_bottomed", count=summary.bottomed))
        if summary.scried_to_bottom is not None:
            lines.append(
                tr(
                    "mulligan.practice.summary_scry_bottom"
                    if summary.scried_to_bottom
                    else "mulligan.practice.summary_scry_top"
                )
            )
        return "\n".join(lines)

    def _practice_view(self, session_id: str, practice: PracticeHand, tr: Translate) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        options = [
            discord.SelectOption(label=f"{i + 1}. {card.printed_name(tr.language)}"[:100], value=str(i))
            for i, card in enumerate(practice.hand)
        ]
        if practice.phase is Phase.BOTTOM:
            need = practice.procedure.to_bottom
            view.add_item(
                PracticeSelect(
                    session_id,
                    "bottom",
                    options,
                    tr("mulligan.select.bottom", count=need),
                    min_values=need,
                    max_values=need,
                )
            )
        elif practice.phase is Phase.SCRY:
            view.add_item(PracticeButton(session_id, "top", tr("mulligan.button.scry_top")))
            view.add_item(PracticeButton(session_id, "under", tr("mulligan.button.scry_bottom")))
        elif practice.style is MulliganStyle.PARTIAL_PARIS:
            if options:
                view.add_item(
                    PracticeSelect(
                        session_id,
                        "aside",
                        options,
                        tr("mulligan.select.set_aside"),
                        min_values=1,
                        max_values=len(options),
                    )
                )
            view.add_item(
                PracticeButton(session_id, "keep", tr("mulligan.button.keep"), discord.ButtonStyle.success)
            )
        else:
            view.add_item(
                PracticeButton(session_id, "keep", tr("mulligan.button.keep"), discord.ButtonStyle.success)
            )
            if practice.procedure.can_mulligan:
                view.add_item(
                    PracticeButton(
                        session_id, "mull", tr("mulligan.button.mulligan"), discord.ButtonStyle.danger
                    )
                )
        return view

    # -- /mulligan odds ------------------------------------------------------------------------------

    @mulligan.command(name=_N("odds"), description=_T("Opening-hand odds of your deck, per mulligan style"))
    @app_commands.rename(deck=_N("deck"), fewest=_N("fewest"), most=_N("most"), players=_N("players"))
    @app_commands.describe(
        deck=_T("One of your registered decks"),
        fewest=_T("Fewest lands in a keepable hand (default 2)"),
        most=_T("Most lands in a keepable hand (default 5)"),
        players=_T("Players in the game (3+ gives a free first mulligan)"),
    )
    async def odds(
        self,
        interaction: discord.Interaction,
        deck: str,
        fewest: app_commands.Range[int, 0, 7] = DEFAULT_KEEP[0],
        most: app_commands.Range[int, 0, 7] = DEFAULT_KEEP[1],
        players: app_commands.Range[int, 2, 8] = DEFAULT_PLAYERS,
    ) -> None:
        tr = await self._tr(interaction)
        library = await self._deck(interaction, deck, tr)
        if library is None:
            return
        figures = odds_for(library, (fewest, most), player_count=players)  # may refuse (MulliganError)
        await interaction.response.defer()
        chart = await self.bot.workers.run(_chart_png, figures, tr.language)
        embed = discord.Embed(
            title=tr("mulligan.odds.title", deck=deck),
            description="\n".join(odds_lines(figures, tr.language))[:4000],
            colour=EMBED_COLOUR,
        )
        if library.unknown:
            embed.add_field(
                name="⚠",
                value=tr(
                    "mulligan.odds.unknown_cards", names=fit(join_list(library.unknown, tr.language), 900)
                ),
            )
        embed.set_image(url="attachment://odds.png")
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(chart), filename="odds.png")
        )

    @practice.autocomplete("deck")
    @odds.autocomplete("deck")
    async def deck_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        records = await self.decks.list_decks(interaction.guild_id or 0, interaction.user.id)
        wanted = current.casefold().strip()
        return [
            app_commands.Choice(name=r.name[:100], value=r.name[:100])
            for r in records
            if wanted in r.name.casefold()
        ][:25]

    # -- /odds ---------------------------------------------------------------------------------------

    @app_commands.command(
        name=_N("odds"), description=_T("Hypergeometric calculator: chance to draw copies of a card")
    )
    @app_commands.rename(deck_size=_N("deck_size"), copies=_N("copies"), drawn=_N("drawn"), want=_N("want"))
    @app_commands.describe(
        deck_size=_T("Cards in the library"),
        copies=_T("Copies of the card in it"),
        drawn=_T("Cards seen"),
        want=_T("Copies you want"),
    )
    async def odds_calculator(
        self,
        interaction: discord.Interaction,
        deck_size: app_commands.Range[int, 1, 1000],
        copies: app_commands.Range[int, 0, 1000],
        drawn: app_commands.Range[int, 0, 1000],
        want: app_commands.Range[int, 0, 1000],
    ) -> None:
        tr = await self._tr(interaction)
        result = hypergeometric(deck_size, copies, drawn, want)  # may refuse (MulliganError)
        await interaction.response.send_message(calculator_text(result, tr.language))


def _chart_png(figures: Any, language: str) -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop."""
    return png_bytes(odds_chart(figures, language))


async def setup(bot: PodkeeperBot) -> None:
    bot.add_dynamic_items(PracticeButton, PracticeSelect)
    await bot.add_cog(MulliganCog(bot))
