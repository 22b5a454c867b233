"""What the ``/deck`` buttons do: confirm or cancel a delete or an overwrite, turn a page."""

from __future__ import annotations

import discord

from bot.i18n import Translate
from bot.render.deck_text import escape
from cogs._common import is_manager
from cogs.decks.panels import DeckPanels, PagedReply, PendingOverwrite


class DeckButtons(DeckPanels):
    """The cog's layer that answers the ``/deck`` buttons (see ``cogs.decks.base`` for the layers)."""

    async def confirm(self, interaction: discord.Interaction, action: str, who: int, target: str) -> None:
        tr = await self._tr(interaction)
        if interaction.user.id != who:
            await self._error(interaction, tr("core.error.not_yours"))
            return
        if action == "cancel":
            await interaction.response.edit_message(content=tr("core.cancelled"), view=None)
        elif action == "delete":
            await self._confirm_delete(interaction, tr, int(target, 16))
        else:
            pending = self.kept.get(target)
            if not isinstance(pending, PendingOverwrite):
                await interaction.response.edit_message(content=tr("core.error.expired"), view=None)
                return
            await self._overwrite(interaction, tr, target, pending)

    async def _overwrite(
        self, interaction: discord.Interaction, tr: Translate, token: str, pending: PendingOverwrite
    ) -> None:
        """The confirmed overwrite: acknowledged first (the button's message says so), then checked in the
        pool like any registration (a heavy job: when refused, the button stays usable; a failed check
        replaces nothing)."""
        if not await self._may_start_heavy(interaction, tr):
            return
        self.kept.pop(token, None)
        with self.workers.heavy(interaction.user.id):
            await interaction.response.edit_message(content=tr("deck.register.overwriting"), view=None)
            result = await self._checked(
                interaction,
                tr,
                self.service.register(
                    pending.guild_id,
                    pending.owner_id,
                    pending.name,
                    pending.data,
                    pending.ruleset,
                    filename=pending.filename,
                    commander_names=pending.commanders,
                    overwrite=True,
                ),
            )
            if result is None:
                return
            assert result.record is not None
            await self._send_verdict(
                interaction,
                tr,
                result.check,
                ephemeral=True,
                title=tr("deck.register.replaced", name=escape(result.record.name)),
            )

    async def _confirm_delete(self, interaction: discord.Interaction, tr: Translate, deck_id: int) -> None:
        record = await self.service.repository.get_by_id(deck_id)
        if record is None or record.guild_id != interaction.guild_id:
            await interaction.response.edit_message(content=tr("core.error.expired"), view=None)
            return
        mine = record.user_id == interaction.user.id
        if not mine and not is_manager(interaction):
            await interaction.response.edit_message(content=tr("core.error.missing_permission"), view=None)
            return
        await self.service.delete(record.guild_id, record.user_id, record.name)
        await interaction.response.edit_message(
            content=tr("deck.delete.done", name=escape(record.name)), view=None
        )

    async def turn_page(self, interaction: discord.Interaction, token: str, page: int) -> None:
        tr = await self._tr(interaction)
        pages = self.kept.get(token)
        if not isinstance(pages, PagedReply):
            await self._error(interaction, tr("core.error.expired"))
            return
        embed = pages.embed(tr, pages, page)
        await interaction.response.edit_message(embed=embed, view=self._page_view(tr, token, pages, page))
