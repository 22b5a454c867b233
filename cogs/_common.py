"""What every cog needs the same way: command-text keys, finding a cog, "is this a manager?".

Kept out of the cogs so each is defined once; the module name starts with ``_`` so ``cog_modules()``
does not load it as a cog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.model import card_name_language

if TYPE_CHECKING:
    from bot.client import PodkeeperBot

CogT = TypeVar("CogT")


def command_text(area: str = "") -> Callable[..., locale_str]:
    """The ``_T`` of a cog: an English command text whose translations live under ``app.<area>.<text>``
    (``app.<text>`` without an area; ``key=`` names another key) — ``bot.i18n.translator`` looks them up
    when the commands are synced."""
    prefix = f"app.{area}." if area else "app."

    def _T(text: str, *, key: str | None = None) -> locale_str:
        return locale_str(text, key=key or f"{prefix}{text}")

    return _T


def bot_of(interaction: discord.Interaction) -> PodkeeperBot:
    """The bot behind an interaction, typed (discord.py types ``interaction.client`` as ``Client``)."""
    return interaction.client  # type: ignore[return-value]


def cog_of(interaction: discord.Interaction, name: str, kind: type[CogT]) -> CogT:
    """The loaded cog ``name`` of the bot an interaction came to (for buttons and forms, which live
    outside the cog and survive restarts)."""
    cog = bot_of(interaction).get_cog(name)
    assert isinstance(cog, kind), f"the {name} cog is not loaded"
    return cog


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the member who acted may manage the server's games, events and decks: Manage Server.

    The one rule: the permissions Discord resolved for this member *in this channel* and sent with the
    interaction (``interaction.permissions``). Manage Server is a server-wide permission (channel
    overwrites cannot grant it), so this is the server-level rule, and Administrator implies it; reading
    it from the interaction needs no member cache and no extra request, and works for every interaction
    (commands, buttons, forms) the same way. Organiser roles from ``/config`` are added by the features
    that have them, on top of this."""
    permissions = interaction.permissions
    return bool(permissions and permissions.manage_guild)


# A slash command only managers may use (``is_manager``); anyone else is told "missing permission" by the
# tree's handler (a failed check). Checked here, not only hidden by Discord: ``default_permissions`` is
# advisory (a server can grant the command to anyone).
managers_only = app_commands.check(is_manager)


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server an interaction came from, for what exists only in servers: guild-only commands and the
    buttons on their messages (Discord sends neither from a direct message)."""
    assert interaction.guild_id is not None, "a guild-only interaction came without a server"
    return interaction.guild_id


async def card_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of card names in the language the member reads card names in (``card_name_language``:
    their bot language, or their Discord locale's printed names), the card id as the value."""
    bot = bot_of(interaction)
    language = card_name_language(await bot.language_for(interaction), interaction.locale)
    return [
        app_commands.Choice(name=shown, value=card_id)
        for shown, card_id in bot.cards.choices(current, language, 25)
    ]


async def is_organiser(interaction: discord.Interaction) -> bool:
    """Whether the member who acted may organise events and tournaments: a manager (``is_manager``), or a
    member holding the server's organiser role (``/config organiser-role``). One rule for every feature
    that has organisers (pod games of a tournament, Hydra events, the live pages' links)."""
    if is_manager(interaction):
        return True
    member = interaction.user
    if not isinstance(member, discord.Member) or interaction.guild_id is None:
        return False
    role_id = (await bot_of(interaction).guild_settings.get(interaction.guild_id)).organiser_role_id
    return role_id is not None and any(role.id == role_id for role in member.roles)


ItemT = TypeVar("ItemT", bound="discord.ui.Item[Any]")


def rebuilt(item: discord.ui.Item[Any], kind: type[ItemT]) -> ItemT:
    """The component a ``DynamicItem.from_custom_id`` is rebuilt from, as the kind its template matches
    (discord.py passes it typed as any ``Item``; a template only ever matches its own kind)."""
    assert isinstance(item, kind), f"{type(item).__name__} where a {kind.__name__} was expected"
    return item
