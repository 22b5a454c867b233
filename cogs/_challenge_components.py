"""The Horde and God tables' persistent components: a button and a permanent picker keyed by the table.

A module of its own (the leading ``_`` keeps ``cog_modules()`` from loading it as a cog) so the cog stays a
readable size; a press asks the cog, which checks first that the table is this server's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs._common import cog_of, rebuilt

if TYPE_CHECKING:
    from cogs.challenge import ChallengeCog


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"chal:(?P<game>\d+):(?P<action>[a-z_]+)(?::(?P<arg>[a-z_0-9]+))?"):
    """``chal:<table>:<action>[:<arg>]``; survives restarts."""

    def __init__(self, game_id: int, action: str, arg: str | None = None, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        custom_id = ":".join(p for p in ("chal", str(game_id), action, arg) if p is not None)
        super().__init__(discord.ui.Button(label=(label or action)[:80], style=style, row=row, custom_id=custom_id))
        self.game_id, self.action, self.arg = game_id, action, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeButton:
        button = rebuilt(item, discord.ui.Button)
        return cls(int(match["game"]), match["action"], match["arg"], label=button.label or "", style=button.style,
                   row=button.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        if await _cog(interaction).table_here(interaction, self.game_id):
            await _cog(interaction).on_button(interaction, self.game_id, self.action, self.arg)


class ChallengeSelect(discord.ui.DynamicItem[discord.ui.Select],
                      template=r"chal-pick:(?P<game>\d+):(?P<topic>[a-z_]+)"):
    """``chal-pick:<table>:perm`` picks the permanent the buttons act on; ``chal-pick:<table>:<topic>``
    answers a question that asks for permanents (blocks, Altar of Mogis)."""

    def __init__(self, game_id: int, topic: str, options: list[discord.SelectOption], *, low: int = 1,
                 high: int = 1, placeholder: str = "", row: int | None = None) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"chal-pick:{game_id}:{topic}", options=options or [discord.SelectOption(label="-", value="0")],
            min_values=low, max_values=max(low, min(high, len(options) or 1)), placeholder=placeholder or None,
            row=row)
        super().__init__(select)
        self.game_id, self.topic = game_id, topic

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(int(match["game"]), match["topic"], list(select.options), low=select.min_values,
                   high=select.max_values, placeholder=select.placeholder or "", row=select.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        if await _cog(interaction).table_here(interaction, self.game_id):
            await _cog(interaction).on_pick(interaction, self.game_id, self.topic, [int(v) for v in self.item.values])


def _cog(interaction: discord.Interaction) -> ChallengeCog:
    from cogs.challenge import ChallengeCog  # the cog imports these components

    return cog_of(interaction, ChallengeCog.__cog_name__, ChallengeCog)
