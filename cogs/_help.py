"""``/help`` in pages: every command in every language, each page within Discord's embed limits.

One embed cannot hold the whole list (an embed description stops at 4,096 characters; the English list
of every command is longer), and cutting it hid the last commands. So the lines are packed, in command
order, into pages that each fit, and a select under the message (one option per page, labelled with its
first and last command) switches the page in place. The select's custom id carries nothing but its
purpose: the page list is rebuilt from the command tree on each choice, in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

import bot as podkeeper
from bot.i18n import Translate, catalogue
from bot.i18n.translator import app_key
from cogs._common import bot_of, command_text, rebuilt

_T = command_text()

# An embed's description holds at most 4,096 characters and all of a message's embeds 6,000; a page keeps
# under both with room for its title and footer.
PAGE_CHARS = 4000
MAX_PAGES = 25  # a select shows at most 25 options
OPTION_CHARS = 100  # a select option's label


def localized_description(command: app_commands.Command | app_commands.Group, language: str) -> str:
    """A command's description in ``language`` from the same ``app.*`` key the translator uses."""
    described = command._locale_description or _T(command.description)
    key = described.extras.get("key") or app_key(described.message)
    return catalogue().get(key, {}).get(language) or command.description


def leaf_commands(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    """Every invocable slash command (subcommands rather than their groups), sorted by name."""
    found: list[app_commands.Command] = []

    def walk(item: Any) -> None:
        if isinstance(item, app_commands.Group):
            for child in item.commands:
                walk(child)
        elif isinstance(item, app_commands.Command):
            found.append(item)

    for command in tree.get_commands():
        walk(command)
    return sorted(found, key=lambda c: c.qualified_name)


@dataclass(frozen=True)
class HelpPage:
    """Consecutive command lines that fit one embed, and the names of its first and last command."""

    lines: tuple[str, ...]
    first: str
    last: str

    @property
    def label(self) -> str:
        text = f"/{self.first}" if self.first == self.last else f"/{self.first} … /{self.last}"
        return text[:OPTION_CHARS]


def help_pages(tree: app_commands.CommandTree, language: str, limit: int = PAGE_CHARS) -> list[HelpPage]:
    """The command list in ``language``, packed in order into pages of at most ``limit`` characters."""
    pages: list[HelpPage] = []
    lines: list[str] = []
    names: list[str] = []
    size = 0
    for command in leaf_commands(tree):
        line = f"`/{command.qualified_name}` — {localized_description(command, language)}"[:limit]
        if lines and size + 1 + len(line) > limit:
            pages.append(HelpPage(tuple(lines), names[0], names[-1]))
            lines, names, size = [], [], 0
        size += len(line) + (1 if lines else 0)
        lines.append(line)
        names.append(command.qualified_name)
    if lines:
        pages.append(HelpPage(tuple(lines), names[0], names[-1]))
    return pages[:MAX_PAGES]


def help_message(
    pages: Sequence[HelpPage], index: int, tr: Translate
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``index`` as an embed, with the page select when there is more than one page."""
    index = max(0, min(index, len(pages) - 1))
    embed = discord.Embed(
        title=tr("admin.help.title"),
        description="\n".join(pages[index].lines),
        colour=discord.Colour.blurple(),
    )
    footer = tr("admin.help.footer", version=podkeeper.__version__)
    if len(pages) > 1:
        footer = f"{tr('admin.help.page', page=index + 1, pages=len(pages))} · {footer}"
    embed.set_footer(text=footer)
    if len(pages) < 2:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(HelpPageSelect(pages, index, tr))
    return embed, view


class HelpPageSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"help:page"):
    """Chooses the page of ``/help`` shown in the (private) message it sits under."""

    def __init__(self, pages: Sequence[HelpPage] = (), index: int = 0, tr: Translate | None = None) -> None:
        options = [
            discord.SelectOption(label=page.label, value=str(number), default=number == index)
            for number, page in enumerate(pages)
        ] or [discord.SelectOption(label="-", value="0")]
        placeholder = tr("admin.help.choose_page")[:150] if tr is not None else None
        super().__init__(discord.ui.Select(custom_id="help:page", options=options, placeholder=placeholder))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpPageSelect:
        rebuilt(item, discord.ui.Select)
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        tr = Translate(await bot.language_for(interaction))
        chosen = int(self.item.values[0]) if self.item.values else 0
        embed, view = help_message(help_pages(bot.tree, tr.language), chosen, tr)
        await interaction.response.edit_message(embed=embed, view=view)
