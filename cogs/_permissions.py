"""Can the bot keep a board alive where it is asked to post one? Checked before anything is stored.

An interaction's own response needs no channel permission, so without View Channel, Send Messages,
Embed Links or Attach Files a board would still appear — and every later edit (each press redraws
it) would be refused by Discord, the board frozen and nobody told. So before a board, a lobby, an
announcement or a tournament board is posted, the bot looks at its own permissions in that channel
(or thread) and, when one is missing, tells the member privately, in their language, what to grant
and where — and changes nothing. The leading ``_`` keeps ``cog_modules()`` from loading it as a cog.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.client import send_ephemeral
from bot.i18n import t
from cogs._common import bot_of

# What a live board needs in a text channel: to be seen there, to be (re)posted, its embed and image.
BOARD_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
# In a thread the sending permission is its own; the others come from the parent channel.
THREAD_BOARD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files")
# Starting a table in a new thread of the channel (the server's "threads" setting).
NEW_THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


def board_permissions(channel: object) -> tuple[str, ...]:
    """The permissions a live board needs in ``channel`` (a thread's differ from a channel's)."""
    return THREAD_BOARD_PERMISSIONS if isinstance(channel, discord.Thread) else BOARD_PERMISSIONS


def lacking(have: discord.Permissions, needed: Sequence[str]) -> list[str]:
    """The permissions of ``needed`` that ``have`` does not include, in ``needed``'s order."""
    return [name for name in dict.fromkeys(needed) if not getattr(have, name)]


def permissions_here(
    interaction: discord.Interaction, channel: discord.abc.GuildChannel | discord.Thread | None
) -> discord.Permissions:
    """The bot's permissions in ``channel``: Discord sends them with the interaction for its own channel
    (``app_permissions``); for another channel they are computed from the cached roles and overwrites."""
    if channel is None or channel.id == interaction.channel_id:
        return interaction.app_permissions
    guild = interaction.guild
    me = guild.me if guild is not None else None
    return channel.permissions_for(me) if me is not None else discord.Permissions.none()


async def refuse_unless_bot_can_post(
    interaction: discord.Interaction,
    needed: Sequence[str] | None = None,
    channel: discord.abc.GuildChannel | discord.Thread | None = None,
) -> bool:
    """True when the bot lacks one of ``needed`` (default: what a board needs there) in ``channel`` (default:
    the interaction's): the member has been told privately which permissions to grant and where. Direct
    messages need nothing."""
    if interaction.guild is None:
        return False
    where = channel if channel is not None else interaction.channel
    missing = lacking(permissions_here(interaction, channel), needed or board_permissions(where))
    if not missing:
        return False
    language = await bot_of(interaction).language_for(interaction)
    names = [t(f"core.permission.{name}", language) for name in missing]  # t() joins it
    channel_id = where.id if where is not None else interaction.channel_id
    await send_ephemeral(
        interaction, t("core.error.bot_cannot_post", language, permissions=names, channel=f"<#{channel_id}>")
    )
    return True


def role_grant_problem(role: discord.Role) -> str | None:
    """Why Discord would refuse the bot giving ``role`` (``no_manage_roles``, ``role_above_bot``), or None.

    Checked when the role is configured and again when it is awarded: an admin may move it above the
    bot's role, or take Manage Roles away, in between."""
    me = role.guild.me
    if me is None:
        return None
    if not me.guild_permissions.manage_roles:
        return "no_manage_roles"
    if role >= me.top_role or role.managed or role.is_default():
        return "role_above_bot"
    return None
