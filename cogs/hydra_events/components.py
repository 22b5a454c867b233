"""The persistent buttons of a Hydra event (announcement, table threads, confirmations)."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs._common import cog_of, rebuilt
from cogs._errors import telling_refusals


class EventButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"hevent:(?P<event>\d+):(?P<action>[a-z_]+)"
):
    """``hevent:<event>:<join|leave|checkin|confirm_cancel|confirm_end>``; survives restarts."""

    def __init__(
        self,
        event_id: int,
        action: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or action)[:80], style=style, custom_id=f"hevent:{event_id}:{action}"
            )
        )
        self.event_id, self.action = event_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EventButton:
        button = rebuilt(item, discord.ui.Button)
        return cls(int(match["event"]), match["action"], label=button.label or "", style=button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.hydra_events.cog import HydraEventsCog  # the cog imports this module

        cog = cog_of(interaction, HydraEventsCog.__cog_name__, HydraEventsCog)
        async with telling_refusals(interaction):
            await cog.on_button(interaction, self.event_id, self.action)
