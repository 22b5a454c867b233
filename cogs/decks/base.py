"""What every part of the deck cog stands on: its state, answering, keeping results, running checks.

The cog is one class assembled from layers, each a subclass of the one below (``DeckBase`` →
``DeckPanels`` → ``DeckButtons`` → ``DeckCog``), so every method a layer calls is defined below it and
the type checker sees it (no ``self: DeckCog`` annotations on unrelated mixins).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.client import PodkeeperBot
from bot.domain.decklist import DecklistRefused
from bot.domain.errors import DomainError
from bot.i18n import Translate
from bot.render.deck import refusal_message
from bot.services.deck_urls import DeckUrlFetcher
from bot.services.decks import DeckService
from bot.workers import JobTimeout, WorkPool

if TYPE_CHECKING:
    from cogs.decks.panels import PagedReply, PendingOverwrite

log = logging.getLogger(__name__)
T = TypeVar("T")

KEPT_RESULTS = 500  # page sets and pending overwrites kept in memory


class DeckBase:
    """The deck cog's state (set in ``DeckCog.__init__``) and what every layer uses."""

    bot: PodkeeperBot
    kept: OrderedDict[str, PagedReply | PendingOverwrite]
    service: DeckService
    fetcher: DeckUrlFetcher
    rechecking: asyncio.Lock  # the card-data poll and a sync's event must not re-check twice

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    def _keep(self, value: PagedReply | PendingOverwrite) -> str:
        token = secrets.token_hex(8)
        self.kept[token] = value
        while len(self.kept) > KEPT_RESULTS:
            self.kept.popitem(last=False)
        return token

    async def _error(self, interaction: discord.Interaction, message: str) -> None:
        await self._reply(interaction, content=message, ephemeral=True)

    @staticmethod
    async def _reply(interaction: discord.Interaction, **kwargs: Any) -> None:
        """The response, or a followup once the interaction was deferred."""
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    @property
    def workers(self) -> WorkPool:
        return self.bot.workers

    async def _may_start_heavy(self, interaction: discord.Interaction, tr: Translate) -> bool:
        """False (after saying so: refused, not queued) when this user's heavy-job slots are all taken."""
        if self.workers.heavy_jobs(interaction.user.id) < self.workers.per_user:
            return True
        await self._error(interaction, tr("deck.busy", limit=self.workers.per_user))
        return False

    async def _checked(self, interaction: discord.Interaction, tr: Translate, job: Awaitable[T]) -> T | None:
        """The result of a check or registration, or None after telling the user why there is none:
        the list was refused, or the check failed or timed out (then nothing was
        saved, and the user is told so: a deck is never stored as if it had been checked)."""
        try:
            return await job
        except DecklistRefused as refusal:
            await self._error(interaction, refusal_message(refusal, tr.language))
        except DomainError:  # a bad name: told by the one error path (cogs._errors)
            raise
        except JobTimeout:
            await self._error(interaction, tr("deck.error.check_timeout"))
        except Exception:
            log.exception("deck check failed")
            await self._error(interaction, tr("deck.error.check_failed"))
        return None
