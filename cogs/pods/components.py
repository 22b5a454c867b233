"""The persistent items of a pod board (``DynamicItem``s whose custom_id carries the game id, registered
at load, so the buttons of a board posted before a restart keep working)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs._common import cog_of, rebuilt

if TYPE_CHECKING:
    from cogs.pods.cog import PodsCog


def pods_cog(interaction: discord.Interaction) -> PodsCog:
    """The loaded pod cog (imported here, late: the cog module imports this one)."""
    from cogs.pods.cog import PodsCog

    return cog_of(interaction, PodsCog.__cog_name__, PodsCog)


class PodButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pod:(?P<game>\d+):(?P<action>[a-z_]+)(?::(?P<arg>-?\d+))?",
):
    """A board button; ``pod:<game>:<action>[:<number>]`` survives restarts."""

    def __init__(
        self,
        game_id: int,
        action: str,
        arg: int | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"pod:{game_id}:{action}" + ("" if arg is None else f":{arg}")
        super().__init__(discord.ui.Button(label=label or action, style=style, row=row, custom_id=custom_id))
        self.game_id, self.action, self.arg = game_id, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PodButton:
        button, arg = rebuilt(item, discord.ui.Button), match["arg"]
        return cls(
            int(match["game"]),
            match["action"],
            None if arg is None else int(arg),
            label=button.label or "",
            style=button.style,
            row=button.row,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await pods_cog(interaction).on_button(interaction, self.game_id, self.action, self.arg)


class PlayerSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pod-pick:(?P<game>\d+)"):
    """Chooses whose totals the life buttons change (remembered per person pressing)."""

    def __init__(
        self, game_id: int, options: Sequence[discord.SelectOption] = (), placeholder: str = ""
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"pod-pick:{game_id}",
            options=list(options) or [discord.SelectOption(label="-", value="0")],
            placeholder=placeholder or None,
            row=0,
        )
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlayerSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(int(match["game"]), select.options, select.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await pods_cog(interaction).on_pick(interaction, self.game_id, [int(v) for v in self.item.values])
