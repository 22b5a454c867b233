"""The form of ``/deck check|register`` for a whole list (a slash-command option is one line)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Translate

if TYPE_CHECKING:
    from cogs.decks.cog import DeckCog

MODAL_MAX = 4000  # Discord's limit for one text input


class DeckListModal(discord.ui.Modal):
    """The long text field for a whole list (a slash-command option is one line)."""

    def __init__(self, cog: DeckCog, tr: Translate, action: str, **context: Any) -> None:
        super().__init__(title=tr("deck.modal.title")[:45], custom_id="deck:modal")
        self.cog, self.action, self.context = cog, action, context
        self.text: discord.ui.TextInput[DeckListModal] = discord.ui.TextInput(
            label=tr("deck.modal.label")[:45],
            style=discord.TextStyle.paragraph,
            placeholder=tr("deck.modal.placeholder")[:100],
            max_length=MODAL_MAX,
            custom_id="deck:modal:list",
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.run_action(interaction, self.action, self.text.value, None, **self.context)
