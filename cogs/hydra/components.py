"""The persistent buttons and menus of a Hydra table (``DynamicItem``s: the custom_id carries the
table, so they keep working after a restart)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs._common import cog_of, rebuilt
from cogs._errors import telling_refusals

if TYPE_CHECKING:
    from cogs.hydra.cog import HydraCog


def _cog(interaction: discord.Interaction) -> HydraCog:
    from cogs.hydra.cog import HydraCog  # the cog imports this module

    return cog_of(interaction, HydraCog.__cog_name__, HydraCog)


class HydraButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hydra:(?P<game>\d+):(?P<action>[a-z_]+)(?::(?P<arg>[a-z_0-9]+))?(?::(?P<arg2>[a-z_0-9]+))?"):
    """``hydra:<table>:<action>[:<arg>[:<arg2>]]``; survives restarts."""

    def __init__(self, game_id: int, action: str, arg: str | None = None, arg2: str | None = None, *,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        custom_id = ":".join(p for p in ("hydra", str(game_id), action, arg, arg2) if p is not None)
        super().__init__(discord.ui.Button(label=(label or action)[:80], style=style, row=row, custom_id=custom_id))
        self.game_id, self.action, self.arg, self.arg2 = game_id, action, arg, arg2

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HydraButton:
        button = rebuilt(item, discord.ui.Button)
        return cls(int(match["game"]), match["action"], match["arg"], match["arg2"], label=button.label or "",
                   style=button.style, row=button.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).table_here(interaction, self.game_id)
            await _cog(interaction).on_button(interaction, self.game_id, self.action, self.arg, self.arg2)


class HeadSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"hydra-(?P<kind>head|pick):(?P<game>\d+)(?::(?P<topic>[a-z_]+))?"):
    """``hydra-head:<table>`` picks the head the board's buttons act on (remembered per person);
    ``hydra-pick:<table>:<topic>`` answers a question that asks for heads (H9)."""

    def __init__(self, game_id: int, kind: str, topic: str | None, options: list[discord.SelectOption],
                 *, low: int = 1, high: int = 1, placeholder: str = "", row: int | None = None) -> None:
        custom_id = f"hydra-{kind}:{game_id}" + (f":{topic}" if topic else "")
        select: discord.ui.Select = discord.ui.Select(
            custom_id=custom_id, options=options or [discord.SelectOption(label="-", value="0")],
            min_values=low, max_values=max(low, min(high, len(options) or 1)), placeholder=placeholder or None,
            row=row)
        super().__init__(select)
        self.game_id, self.kind, self.topic = game_id, kind, topic

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HeadSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(int(match["game"]), match["kind"], match["topic"], list(select.options), low=select.min_values,
                   high=select.max_values, placeholder=select.placeholder or "", row=select.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [int(v) for v in self.item.values]
        async with telling_refusals(interaction):
            await _cog(interaction).table_here(interaction, self.game_id)
            await _cog(interaction).on_heads(interaction, self.game_id, self.kind, self.topic, values)


class MoreSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"hydra-more:(?P<game>\d+)"):
    """``hydra-more:<table>``: the players' less common effects, each opening a modal
    for its details (or acting at once when it has none)."""

    def __init__(self, game_id: int, options: list[discord.SelectOption], *, placeholder: str = "",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"hydra-more:{game_id}", options=options,
                                           placeholder=placeholder or None, row=row))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoreSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(int(match["game"]), list(select.options), placeholder=select.placeholder or "", row=select.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).table_here(interaction, self.game_id)
            await _cog(interaction).on_more(interaction, self.game_id, self.item.values[0])


HEAD_ACTIONS = ("destroy", "exile", "bounce", "tap")  # the board's buttons that act on the picked head

# The "More…" effects: verb -> (what the modal starts with, given the selected head; its placeholder).
MORE_ACTIONS: dict[str, tuple[str, str]] = {
    "sweep": ("3 all", "3 all | 3 1 2"),
    "weaken": ("1 {head}", "1 all | 2 1 3"),
    "counters": ("1 {head}", "2 1 | -1 all"),
    "sacrifice": ("{head}", "1 | 1 2 | all"),
    "freeze": ("all", "all | 1 2"),
    "copy": ("{head}", "1"),
    "prevent": ("1", "1 | 3 2 | 5 all from Snapping Fang Head"),
    "exilecards": ("graveyard all", "graveyard all | graveyard Hydra Head | library 2"),
    "extraturn": ("", ""),
}
