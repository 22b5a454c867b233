"""The one-line form of every challenge table (attack, damage, life, hit, any script command): what is
typed becomes one line of the action language, acted on by the table's cog (anything with
``act(interaction, game_id, line)``)."""

from __future__ import annotations

from typing import Any, Protocol

import discord


class Acting(Protocol):
    async def act(self, interaction: discord.Interaction, game_id: int, line: str) -> Any: ...


class LineModal(discord.ui.Modal):
    """One text field turned into one script-language line (``prefix`` + what was typed)."""

    def __init__(
        self,
        cog: Acting,
        game_id: int,
        title: str,
        label: str,
        prefix: str,
        placeholder: str = "",
        default: str = "",
    ) -> None:
        super().__init__(title=title[:45])
        self.cog, self.game_id, self.prefix = cog, game_id, prefix
        self.text: discord.ui.TextInput[LineModal] = discord.ui.TextInput(
            label=label[:45],
            placeholder=placeholder[:100] or None,
            default=default or None,
            max_length=200,
            custom_id="text",
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.act(interaction, self.game_id, f"{self.prefix}{self.text.value}".strip())
