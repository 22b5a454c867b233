"""A persistent button keyed by one number (a game, a report, a tournament, a member): one class for the
confirmations and the single-action buttons of several features (no copy per feature).

A subclass names its custom_id prefix and look once, and says what a press does (``pressed``); the
``DynamicItem`` machinery (a template matching ``<prefix>:<number>``, rebuilding the button from a
message posted before a restart) lives here. A domain refusal raised by ``pressed`` is told to the member
(``telling_refusals``): discord.py only logs a ``DynamicItem``'s errors.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from cogs._common import rebuilt
from cogs._errors import telling_refusals


class KeyedButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"
):  # never registered itself
    """``<prefix>:<key>``: a button whose press acts on the thing numbered ``key``."""

    prefix: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]
    emoji: ClassVar[str | None]

    def __init_subclass__(
        cls,
        *,
        prefix: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        super().__init_subclass__(template=rf"{re.escape(prefix)}:(?P<key>\d+)")
        cls.prefix, cls.style, cls.emoji = prefix, style, emoji

    def __init__(self, key: int, *, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=self.style, emoji=self.emoji, custom_id=f"{self.prefix}:{key}"
            )
        )
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["key"]), label=rebuilt(item, discord.ui.Button).label or "")

    def alone(self) -> discord.ui.View:
        """A view holding just this button, to send under a message (persistent: no timeout)."""
        view = discord.ui.View(timeout=None)
        view.add_item(self)
        return view

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await self.pressed(interaction)

    async def pressed(self, interaction: discord.Interaction) -> None:
        """What a press does (the subclass's)."""
        raise NotImplementedError
