"""The one error path of the cogs for the domain's refusals.

The domain refuses with ``bot.domain.errors.DomainError`` (a message key and its values); a cog raises
or lets it through instead of catching it by hand. Slash commands reach ``answer_refusal`` through each
cog's ``cog_app_command_error`` (see ``RefusingCog``), buttons, menus and forms through the View and
Modal ``on_error`` hooks of ``bot/client.py``, and persistent ``DynamicItem`` buttons (whose errors
discord.py only logs, never passing them to ``View.on_error``) through ``telling_refusals``. The member is told privately, in their language, and the
interaction is marked so the command tree's own ``on_error`` does not answer (or log) it a second time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord
from discord import app_commands

from bot.domain.errors import DomainError
from bot.i18n import t
from bot.storage.db import DatabaseBusy

ANSWERED = "podkeeper.refusal_answered"  # interaction.extras key: the refusal was already told


def refusal_of(error: BaseException) -> DomainError | None:
    """The domain refusal behind ``error`` (discord.py wraps a command's exception in ``original``).
    A database another program keeps locked is told like one: nothing changed, try again - not
    "something went wrong" with a traceback in the log."""
    original = getattr(error, "original", error)
    if isinstance(original, DatabaseBusy):
        return DomainError("core.error.database_busy")
    return original if isinstance(original, DomainError) else None


def was_answered(interaction: discord.Interaction) -> bool:
    return bool(interaction.extras.get(ANSWERED))


async def answer_refusal(interaction: discord.Interaction, error: BaseException) -> bool:
    """Tell the member why nothing changed when ``error`` is a domain refusal; True when it was one.

    Answered once per interaction however many handlers see the error (a command's group, its cog,
    the tree)."""
    refusal = refusal_of(error)
    if refusal is None:
        return False
    if was_answered(interaction):
        return True
    interaction.extras[ANSWERED] = True
    from bot.client import send_ephemeral  # the client imports the cogs package: import late
    from cogs._common import bot_of

    language = await bot_of(interaction).language_for(interaction)
    await send_ephemeral(interaction, refusal_text(refusal, language))
    return True


def refusal_text(refusal: DomainError, language: str) -> str:
    """The refusal in ``language``, member ids among its values (``member_values``) shown as mentions."""
    values = {
        key: f"<@{value}>" if key in refusal.member_values and isinstance(value, int) else value
        for key, value in refusal.values.items()
    }
    return t(refusal.key, language, **values)


@asynccontextmanager
async def telling_refusals(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Around a ``DynamicItem`` callback: a domain refusal is told to the member, anything else
    goes on to discord.py (which logs it)."""
    try:
        yield
    except (DomainError, DatabaseBusy) as error:
        await answer_refusal(interaction, error)


class RefusingCog:
    """Mixed into a cog (before ``commands.Cog``): its slash commands' domain refusals are answered."""

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_refusal(interaction, error)
