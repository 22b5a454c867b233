"""The persistent buttons of ``/deck`` replies (``DynamicItem``s: they survive restarts)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs._common import cog_of, rebuilt
from cogs._errors import telling_refusals

if TYPE_CHECKING:
    from cogs.decks.cog import DeckCog


def _cog(interaction: discord.Interaction) -> DeckCog:
    from cogs.decks.cog import DeckCog  # the cog imports this module

    return cog_of(interaction, DeckCog.__cog_name__, DeckCog)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"deck:page:(?P<token>[0-9a-f]+):(?P<page>\d+)"
):
    """``deck:page:<token>:<page>`` shows another page of a verdict kept in memory."""

    def __init__(self, token: str, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"deck:page:{token}:{page}",
            )
        )
        self.token, self.page = token, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(match["token"], int(match["page"]), label=rebuilt(item, discord.ui.Button).label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).turn_page(interaction, self.token, self.page)


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"deck:(?P<action>delete|overwrite|cancel):(?P<who>\d+):(?P<target>[0-9a-f]+)",
):
    """``deck:delete:<asker>:<deck id>``, ``deck:overwrite:<asker>:<token>``, ``deck:cancel:<asker>:0``."""

    def __init__(
        self,
        action: str,
        who: int,
        target: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"deck:{action}:{who}:{target}")
        )
        self.action, self.who, self.target = action, who, target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        button = rebuilt(item, discord.ui.Button)
        return cls(
            match["action"], int(match["who"]), match["target"], label=button.label or "", style=button.style
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).confirm(interaction, self.action, self.who, self.target)
