"""Server administration and basics: ``/ping``, ``/config ...`` and ``/help``.

Settings live in ``bot.guild_settings`` (one row per server). Changing a setting needs Manage
Server (checked here, not only hidden by Discord, because ``default_permissions`` is advisory
and server admins can override it); everyone may look at the settings and at ``/help``.
A ruleset change is announced with ``bot.dispatch("ruleset_changed", guild_id, ruleset)`` so the
deck feature can re-check registered decks against the new rules.
"""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot as podkeeper
from bot.client import PodkeeperBot
from bot.config import LOCALES, RULESETS
from bot.domain.errors import DomainError
from bot.i18n import Translate
from bot.i18n.phrase import Phrase
from bot.storage.matches import MatchRepository
from cogs._common import command_text, managers_only
from cogs._errors import RefusingCog
from cogs._help import HelpPageSelect, help_message, help_pages
from cogs._permissions import role_grant_problem

RULESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in RULESETS]
LOCALE_NAMES = {"en": "English", "ja": "日本語", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}
LOCALE_CHOICES = [app_commands.Choice(name=LOCALE_NAMES[code], value=code) for code in LOCALES]
DISCORD_LANGUAGE = "auto"  # the /config my-language choice that clears a member's own language
MY_LANGUAGE_CHOICES = [*LOCALE_CHOICES, app_commands.Choice(name="Discord language", value=DISCORD_LANGUAGE)]
_T = command_text()  # command texts under ``app.<text>`` (the first cog's keys, before areas)


class AdminCog(RefusingCog, commands.Cog):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HelpPageSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpPageSelect)

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    # -- /ping ------------------------------------------------------------------------------------

    @app_commands.command(name="ping", description=_T("Check that the bot is alive"))
    async def ping(self, interaction: discord.Interaction) -> None:
        tr = await self._tr(interaction)
        latency = self.bot.latency_for(interaction.guild)
        shown = "–" if not math.isfinite(latency) else f"{latency * 1000:.0f}"
        await interaction.response.send_message(
            tr("admin.ping", latency=shown, version=podkeeper.__version__), ephemeral=True
        )

    # -- /help ------------------------------------------------------------------------------------

    @app_commands.command(name="help", description=_T("List Podkeeper's commands"))
    async def help(self, interaction: discord.Interaction) -> None:
        """Every command, in pages that each fit an embed (``cogs._help``); a select turns the page."""
        tr = await self._tr(interaction)
        embed, view = help_message(help_pages(self.bot.tree, tr.language), 0, tr)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    # -- /config ----------------------------------------------------------------------------------

    config = app_commands.Group(
        name="config", description=_T("Show or change this server's Podkeeper settings"), guild_only=True
    )

    async def _settings_embed(self, interaction: discord.Interaction, tr: Translate) -> discord.Embed:
        assert interaction.guild_id is not None
        settings = await self.bot.guild_settings.get(interaction.guild_id)
        ruleset = await self.bot.ruleset_for(interaction.guild_id)
        none = tr("admin.config.none")
        embed = discord.Embed(title=tr("admin.config.title"), colour=discord.Colour.blurple())
        ruleset_text = ruleset if settings.ruleset else tr("admin.config.default_value", value=ruleset)
        embed.add_field(name=tr("admin.config.ruleset"), value=ruleset_text, inline=True)
        locale = LOCALE_NAMES.get(settings.locale or "", "") or tr("admin.config.locale_auto")
        embed.add_field(name=tr("admin.config.locale"), value=locale, inline=True)
        choice = await self.bot.language_choice(interaction)
        embed.add_field(
            name=tr("admin.config.my_language"),
            inline=False,
            value=tr(f"admin.config.why.{choice.source}", language=LOCALE_NAMES[choice.language]),
        )
        embed.add_field(
            name=tr("admin.config.pod_threads"),
            value=tr("admin.config.on") if settings.pod_threads else tr("admin.config.off"),
            inline=True,
        )
        for label, role_id in (
            ("admin.config.organiser_role", settings.organiser_role_id),
            ("admin.config.winner_role", settings.winner_role_id),
        ):
            embed.add_field(name=tr(label), value=f"<@&{role_id}>" if role_id else none, inline=True)
        return embed

    @config.command(name="show", description=_T("Show this server's settings"))
    async def config_show(self, interaction: discord.Interaction) -> None:
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            embed=await self._settings_embed(interaction, tr), ephemeral=True
        )

    async def _update(self, interaction: discord.Interaction, message_key: str, **changes: Any) -> None:
        """Store the change, then confirm in the (possibly new) language with the full settings."""
        assert interaction.guild_id is not None
        await self.bot.guild_settings.update(interaction.guild_id, **changes)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr(message_key, **{k: v for k, v in _display(changes, tr).items()}),
            embed=await self._settings_embed(interaction, tr),
            ephemeral=True,
        )

    @config.command(name="ruleset", description=_T("Choose the ruleset for deck checks and games"))
    @app_commands.describe(
        ruleset=_T("commander (current), edh-2010 or duel-zh", key="app.config.ruleset.describe")
    )
    @app_commands.rename(ruleset=_T("ruleset", key="app.config.ruleset"))
    @app_commands.choices(ruleset=RULESET_CHOICES)
    @managers_only
    async def config_ruleset(
        self, interaction: discord.Interaction, ruleset: app_commands.Choice[str]
    ) -> None:
        await self._update(interaction, "admin.config.ruleset_set", ruleset=ruleset.value)
        self.bot.dispatch("ruleset_changed", interaction.guild_id, ruleset.value)

    @config.command(name="locale", description=_T("Choose the language of the bot's replies in this server"))
    @app_commands.describe(
        locale=_T(
            "The server's language; each user's own Discord language still comes first",
            key="app.config.locale.describe",
        )
    )
    @app_commands.rename(locale=_T("locale", key="app.config.locale"))
    @app_commands.choices(locale=LOCALE_CHOICES)
    @managers_only
    async def config_locale(self, interaction: discord.Interaction, locale: app_commands.Choice[str]) -> None:
        await self._update(interaction, "admin.config.locale_set", locale=locale.value)

    @config.command(
        name="my-language", description=_T("Choose the language of the bot's replies to you, in every server")
    )
    @app_commands.describe(
        language=_T(
            "Your language; 'Discord language' goes back to your Discord setting",
            key="app.config.my-language.describe",
        )
    )
    @app_commands.rename(language=_T("language", key="app.config.locale"))
    @app_commands.choices(language=MY_LANGUAGE_CHOICES)
    async def config_my_language(
        self, interaction: discord.Interaction, language: app_commands.Choice[str]
    ) -> None:
        """Anyone may choose their own language; it is stored per member, not per server."""
        chosen = None if language.value == DISCORD_LANGUAGE else language.value
        await self.bot.user_settings.set_language(interaction.user.id, chosen)
        tr = await self._tr(interaction)
        key = "admin.config.my_language_set" if chosen else "admin.config.my_language_cleared"
        await interaction.response.send_message(
            tr(key, language=LOCALE_NAMES[tr.language]),
            embed=await self._settings_embed(interaction, tr),
            ephemeral=True,
        )

    @config.command(name="pod-threads", description=_T("Open a thread for each new pod game"))
    @app_commands.describe(
        enabled=_T("Whether pod games get their own thread", key="app.config.enabled.describe")
    )
    @app_commands.rename(enabled=_T("enabled", key="app.config.enabled"))
    @managers_only
    async def config_pod_threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self._update(interaction, "admin.config.pod_threads_set", pod_threads=enabled)

    @config.command(
        name="sideboard-rule",
        description=_T("Optional rule T1: 3 minutes of sideboard swaps after commanders are declared"),
    )
    @app_commands.describe(
        enabled=_T("Whether the optional sideboard rule is on", key="app.config.sideboard_rule.describe")
    )
    @app_commands.rename(enabled=_T("enabled", key="app.config.enabled"))
    @managers_only
    async def config_sideboard_rule(self, interaction: discord.Interaction, enabled: bool) -> None:
        """Stored beside the match logs (bot/storage/matches.py), read when a game's swap window is asked."""
        assert interaction.guild_id is not None
        await MatchRepository(self.bot.db).set_sideboard_rule(interaction.guild_id, enabled)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr("match.config.sideboard_rule_on" if enabled else "match.config.sideboard_rule_off"),
            ephemeral=True,
        )

    @config.command(name="organiser-role", description=_T("Role that may organise events and tournaments"))
    @app_commands.describe(role=_T("Leave empty to clear", key="app.config.role.describe"))
    @app_commands.rename(role=_T("role", key="app.config.role"))
    @managers_only
    async def config_organiser_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        await self._update(
            interaction, "admin.config.organiser_role_set", organiser_role_id=role.id if role else None
        )

    @config.command(name="winner-role", description=_T("Role given to Hydra event winners"))
    @app_commands.describe(role=_T("Leave empty to clear", key="app.config.role.describe"))
    @app_commands.rename(role=_T("role", key="app.config.role"))
    @managers_only
    async def config_winner_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        if role is not None:
            problem = winner_role_problem(role, interaction.user, interaction.guild)
            if problem is not None:  # the bot hands this role to whoever wins: it must not be a way up
                key, values = problem
                raise DomainError(key, **values)
            refusal = self._cannot_give(role)
            if refusal is not None:
                raise DomainError(refusal, role=role.mention)
        await self._update(
            interaction, "admin.config.winner_role_set", winner_role_id=role.id if role else None
        )

    @staticmethod
    def _cannot_give(role: discord.Role) -> str | None:
        """Why Discord would refuse the bot giving ``role`` (message key), checked when the role is
        chosen rather than when an event ends: Manage Roles, and a role below the bot's highest."""
        problem = role_grant_problem(role)
        return f"core.error.{problem}" if problem else None


# Permissions a winner must never get from the bot: each lets its holder moderate or take over the server.
DANGEROUS_PERMISSIONS = (
    "administrator",
    "manage_guild",
    "manage_roles",
    "manage_channels",
    "manage_webhooks",
    "manage_messages",
    "manage_threads",
    "manage_nicknames",
    "manage_expressions",
    "manage_events",
    "ban_members",
    "kick_members",
    "moderate_members",
    "mention_everyone",
)


def winner_role_problem(
    role: discord.Role, setter: Any, guild: discord.Guild | None
) -> tuple[str, dict] | None:
    """Why ``role`` can't be the Hydra winner role (an i18n key and values), or None.

    Without this, a member with Manage Server but not Manage Roles could have the bot give out an
    Administrator role. Refused: roles with a dangerous permission, @everyone and integration roles,
    and roles not below the setter's top role (the owner excepted). Whether the bot itself can give
    the role (Manage Roles, a role below its own) is ``AdminCog._cannot_give``'s question."""
    mention = role.mention
    if role.is_default() or role.managed:
        return "admin.config.winner_role_managed", {"role": mention}
    granted = [name for name in DANGEROUS_PERMISSIONS if getattr(role.permissions, name, False)]
    if granted:
        shown = tuple(Phrase(f"core.permission.{name}") for name in granted)  # in Discord's words for them
        return "admin.config.winner_role_dangerous", {"role": mention, "permissions": shown}
    owner = guild is not None and getattr(setter, "id", None) == guild.owner_id
    top = getattr(setter, "top_role", None)
    if not owner and top is not None and role >= top:
        return "admin.config.winner_role_above_you", {"role": mention}
    return None


def _display(changes: dict[str, Any], tr: Translate) -> dict[str, str]:
    """Values of a settings change as the confirmation message shows them."""
    shown: dict[str, str] = {}
    for name, value in changes.items():
        if name == "locale":
            shown[name] = LOCALE_NAMES[value]
        elif name == "pod_threads":
            shown[name] = tr("admin.config.on") if value else tr("admin.config.off")
        elif name.endswith("_role_id"):
            shown["role"] = f"<@&{value}>" if value else tr("admin.config.none")
        else:
            shown[name] = str(value)
    return shown


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(AdminCog(bot))
