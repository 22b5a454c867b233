"""The persistent buttons of ``/deck`` replies (``DynamicItem``s: they survive restarts)."""

from __future__ import annotations

import re

import discord

from cogs._common import cog_of
from cogs._errors import telling_refusals


def _cog(interaction: discord.Interaction):  # noqa: ANN202 - the cog imports this module
    from cogs.decks.cog import DeckCog

    return cog_of(interaction, DeckCog.__cog_name__, DeckCog)



class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"deck:page:(?P<token>[0-9a-f]+):(?P<page>\d+)"):
    """``deck:page:<token>:<page>`` shows another page of a verdict kept in memory."""

    def __init__(self, token: str, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"deck:page:{token}:{page}"))
        self.token, self.page = token, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PageButton:
        return cls(match["token"], int(match["page"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).turn_page(interaction, self.token, self.page)


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"deck:(?P<action>delete|overwrite|cancel):(?P<who>\d+):(?P<target>[0-9a-f]+)"):
    """``deck:delete:<asker>:<deck id>``, ``deck:overwrite:<asker>:<token>``, ``deck:cancel:<asker>:0``."""

    def __init__(self, action: str, who: int, target: str, *, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"deck:{action}:{who}:{target}"))
        self.action, self.who, self.target = action, who, target

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ConfirmButton:
        return cls(match["action"], int(match["who"]), match["target"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).confirm(interaction, self.action, self.who, self.target)
