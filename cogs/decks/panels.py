"""How ``/deck`` replies look: the verdict and list embeds, their pages and Previous / Next buttons.
The texts come from ``bot.render.deck`` and ``bot.render.deck_text``."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.domain.rules.brackets import BracketReport
from bot.i18n import Translate
from bot.render.brackets import bracket_headline, finding_message, source_message
from bot.render.deck import colour_names, verdict_headline
from bot.render.deck_text import escape, printed_names, verdict_parts
from bot.services.decks import DeckCheck
from bot.text import fit, fit_lines
from cogs.decks.base import DeckBase
from cogs.decks.components import PageButton

STATUS_COLOUR = {
    "legal": discord.Colour.green(),
    "illegal": discord.Colour.red(),
    "unverifiable": discord.Colour.orange(),
}
# The bracket field's share of the embed: the description's page (3,500) and the other fields stay well
# inside the 6,000 characters Discord allows for one embed.
BRACKET_FIELD = 800
BRACKET_LINE = 400  # one finding (a deck of twenty Game Changers names them all)
STATUS_MARK = {"legal": "✅", "illegal": "❌", "unverifiable": "❔"}


@dataclass
class PagedReply:
    """A long reply cut into pages (every line is on some page: nothing is cut off). ``embed(tr, self, n)``
    draws page ``n``: a verdict (``check`` set) or the deck list."""

    owner_id: int
    title: str
    pages: list[str]
    embed: Callable[[Translate, PagedReply, int], discord.Embed]
    check: DeckCheck | None = None


@dataclass
class PendingOverwrite:
    owner_id: int
    guild_id: int
    name: str
    data: bytes | str
    filename: str | None
    commanders: tuple[str, ...]
    ruleset: str


class DeckPanels(DeckBase):
    """The cog's layer that sends and draws paged replies (see ``cogs.decks.base`` for the layers)."""

    async def _send_paged(
        self,
        interaction: discord.Interaction,
        tr: Translate,
        pages: PagedReply,
        *,
        ephemeral: bool,
        **extra: Any,
    ) -> None:
        """Page 1 of ``pages``, with Previous/Next when there is more than one page."""
        token = self._keep(pages)
        kwargs: dict[str, Any] = {
            "embed": pages.embed(tr, pages, 0),
            "ephemeral": ephemeral,
            "allowed_mentions": discord.AllowedMentions.none(),
            **extra,
        }
        if len(pages.pages) > 1:
            kwargs["view"] = self._page_view(tr, token, pages, 0)
        await self._reply(interaction, **kwargs)

    def _name_for(self, language: str) -> Callable[[str], str]:
        return printed_names(self.bot.cards, language)

    async def _send_verdict(
        self,
        interaction: discord.Interaction,
        tr: Translate,
        result: DeckCheck,
        *,
        title: str,
        ephemeral: bool,
    ) -> None:
        pages_text, image = await self.workers.run(verdict_parts, result, tr.language, self.bot.cards)
        pages = PagedReply(interaction.user.id, title, pages_text, self._verdict_embed, result)
        await self._send_paged(
            interaction,
            tr,
            pages,
            ephemeral=ephemeral,
            file=discord.File(io.BytesIO(image), filename="deck.png"),
        )

    def _verdict_embed(self, tr: Translate, pages: PagedReply, page: int) -> discord.Embed:
        assert pages.check is not None
        verdict, summary = pages.check.verdict, pages.check.summary
        name_for = self._name_for(tr.language)
        embed = discord.Embed(
            title=pages.title[:256],
            colour=STATUS_COLOUR[verdict.status],
            description=f"**{verdict_headline(verdict, tr.language)}**\n{pages.pages[page]}"[:4096],
        )
        commanders = " + ".join(escape(name_for(c)) for c in verdict.commanders) or tr("deck.summary.none")
        embed.add_field(name=tr("deck.summary.commanders"), value=commanders[:1024], inline=False)
        identity = f"{verdict.colour_identity or 'C'} ({colour_names(verdict.colour_identity, tr.language)})"
        embed.add_field(name=tr("deck.summary.identity"), value=identity, inline=True)
        embed.add_field(name=tr("deck.summary.cards"), value=str(verdict.card_count), inline=True)
        types = "\n".join(
            tr("core.label_value", label=tr(f"deck.type.{kind}"), value=count)
            for kind, count in summary.types.items()
        )
        embed.add_field(name=tr("deck.summary.types"), value=types or tr("deck.summary.none"), inline=True)
        embed.add_field(
            name=tr("brackets.label"), value=bracket_field(pages.check.bracket, tr, name_for), inline=False
        )
        embed.set_image(url="attachment://deck.png")
        _page_footer(embed, tr, pages, page)
        return embed

    def _list_embed(self, tr: Translate, pages: PagedReply, page: int) -> discord.Embed:
        embed = discord.Embed(
            title=pages.title, description=pages.pages[page], colour=discord.Colour.blurple()
        )
        _page_footer(embed, tr, pages, page)
        return embed

    def _page_view(self, tr: Translate, token: str, pages: PagedReply, page: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(PageButton(token, max(page - 1, 0), label=tr("core.previous"), disabled=page == 0))
        view.add_item(
            PageButton(
                token,
                min(page + 1, len(pages.pages) - 1),
                label=tr("core.next"),
                disabled=page >= len(pages.pages) - 1,
            )
        )
        return view


def bracket_field(report: BracketReport, tr: Translate, name_for: Callable[[str], str]) -> str:
    """The verdict's bracket field: the headline, then as many findings (tagged with their rule, as
    problems are) as fit, then the Game Changers list used."""
    language = tr.language
    findings = [
        f"`{f.rule}` {fit(finding_message(f, language, name_for), BRACKET_LINE)}" for f in report.findings
    ]
    source = source_message(report, language)
    body = fit_lines(
        findings or [tr("brackets.nothing_found")],
        BRACKET_FIELD - len(source) - 120,
        lambda count: tr("core.and_more", count=count),
    )
    return f"**{bracket_headline(report, language)}**\n{body}\n{source}"


def _page_footer(embed: discord.Embed, tr: Translate, pages: PagedReply, page: int) -> None:
    if len(pages.pages) > 1:
        embed.set_footer(text=tr("core.page", page=page + 1, pages=len(pages.pages)))
