"""The persistent buttons and menus of every challenge table (``DynamicItem``s: the custom_id carries the
table, so they keep working after a restart), one family for the Hydra, the Horde and the God.

A custom_id starts with the prefix of the table's family (``hydra`` for the Hydra's tables, ``chal``
for the others'): the two families number their games apart (``bot.services.challenge.TableKind``), so
the prefix says which table a number names and which cog answers the press. The formats are those of
the messages already posted, kept as they were:

- ``<prefix>:<table>:<action>[:<arg>[:<arg2>]]``: a button (``TableButton``);
- ``<prefix>-head:<table>`` and ``chal-pick:<table>:perm``: the board's pick of the permanent its buttons
  act on; ``<prefix>-pick:<table>:<topic>``: the answer to a question that asks for permanents
  (``TableSelect``);
- ``<prefix>-more:<table>``: the less common effects (``MoreSelect``);
- ``<prefix>-heroes:<table>``: a player's Hero cards in the lobby (``HeroSelect``).

Each press is checked first to name a table of the server it is pressed in (``table_here``), and a
refusal is told privately (``cogs._errors.telling_refusals``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import discord

from bot.domain.hydra.cards import HEROES
from cogs._common import bot_of, rebuilt
from cogs._errors import telling_refusals

if TYPE_CHECKING:
    from cogs.challenge.play import TablePlay

PREFIXES = ("hydra", "chal")  # the families' custom_id prefixes (each names one ``TableKind``)
_PREFIX = "(?P<prefix>" + "|".join(PREFIXES) + ")"
BOARD_PICK = "perm"  # the topic of the Horde's and the God's board pick (``chal-pick:<table>:perm``)

# Which cog answers each prefix's presses, per bot (a test harness runs several bots in one process).
_ANSWERING: WeakKeyDictionary[Any, dict[str, str]] = WeakKeyDictionary()


def _cog(interaction: discord.Interaction, prefix: str) -> TablePlay:
    from cogs.challenge.play import TablePlay  # the cogs import this module

    bot = bot_of(interaction)
    name = _ANSWERING.get(bot, {}).get(prefix, "")
    cog = bot.get_cog(name)
    assert isinstance(cog, TablePlay), f"no loaded cog answers {prefix}: presses"
    return cog


def attach(bot: Any, prefix: str, cog_name: str) -> None:
    """The cog ``cog_name`` answers presses of ``prefix``; the family's items are registered once, whichever
    cog loads first (both families share the item classes)."""
    answering = _ANSWERING.setdefault(bot, {})
    if not answering:
        bot.add_dynamic_items(*ITEMS)
    answering[prefix] = cog_name


def detach(bot: Any, prefix: str) -> None:
    """The cog of ``prefix`` unloads; the items go when no family is left (the other cog keeps them)."""
    answering = _ANSWERING.get(bot, {})
    answering.pop(prefix, None)
    if not answering:
        bot.remove_dynamic_items(*ITEMS)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=_PREFIX + r":(?P<game>\d+):(?P<action>[a-z_]+)(?::(?P<arg>[a-z_0-9]+))?"
    r"(?::(?P<arg2>[a-z_0-9]+))?",
):
    """``<prefix>:<table>:<action>[:<arg>[:<arg2>]]``; survives restarts."""

    def __init__(
        self,
        prefix: str,
        game_id: int,
        action: str,
        arg: str | None = None,
        arg2: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = ":".join(p for p in (prefix, str(game_id), action, arg, arg2) if p is not None)
        super().__init__(
            discord.ui.Button(label=(label or action)[:80], style=style, row=row, custom_id=custom_id)
        )
        self.prefix, self.game_id, self.action, self.arg, self.arg2 = prefix, game_id, action, arg, arg2

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        button = rebuilt(item, discord.ui.Button)
        return cls(
            match["prefix"],
            int(match["game"]),
            match["action"],
            match["arg"],
            match["arg2"],
            label=button.label or "",
            style=button.style,
            row=button.row,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            cog = _cog(interaction, self.prefix)
            await cog.table_here(interaction, self.game_id)
            await cog.on_button(interaction, self.game_id, self.action, self.arg, self.arg2)


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=_PREFIX + r"-(?P<kind>head|pick):(?P<game>\d+)(?::(?P<topic>[a-z_]+))?",
):
    """The board's pick of the permanent its buttons act on (remembered per person), or the answer to a
    question that asks for permanents (H9: heads; blocks, Altar of Mogis)."""

    def __init__(
        self,
        prefix: str,
        game_id: int,
        kind: str,
        topic: str | None,
        options: list[discord.SelectOption],
        *,
        low: int = 1,
        high: int = 1,
        placeholder: str = "",
        row: int | None = None,
    ) -> None:
        custom_id = f"{prefix}-{kind}:{game_id}" + (f":{topic}" if topic else "")
        select: discord.ui.Select = discord.ui.Select(
            custom_id=custom_id,
            options=options or [discord.SelectOption(label="-", value="0")],
            min_values=low,
            max_values=max(low, min(high, len(options) or 1)),
            placeholder=placeholder or None,
            row=row,
        )
        super().__init__(select)
        self.prefix, self.game_id, self.kind, self.topic = prefix, game_id, kind, topic

    @property
    def board_pick(self) -> bool:
        """Whether this is the board's pick (both families' formats) rather than an answer."""
        return self.kind == "head" or self.topic == BOARD_PICK

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(
            match["prefix"],
            int(match["game"]),
            match["kind"],
            match["topic"],
            list(select.options),
            low=select.min_values,
            high=select.max_values,
            placeholder=select.placeholder or "",
            row=select.row,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [int(v) for v in self.item.values]
        async with telling_refusals(interaction):
            cog = _cog(interaction, self.prefix)
            await cog.table_here(interaction, self.game_id)
            await cog.on_pick(interaction, self.game_id, None if self.board_pick else self.topic, values)


class MoreSelect(discord.ui.DynamicItem[discord.ui.Select], template=_PREFIX + r"-more:(?P<game>\d+)"):
    """``<prefix>-more:<table>``: the players' less common effects, each opening a form for its details
    (or acting at once when it has none)."""

    def __init__(
        self,
        prefix: str,
        game_id: int,
        options: list[discord.SelectOption],
        *,
        placeholder: str = "",
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{prefix}-more:{game_id}",
                options=options,
                placeholder=placeholder or None,
                row=row,
            )
        )
        self.prefix, self.game_id = prefix, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoreSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(
            match["prefix"],
            int(match["game"]),
            list(select.options),
            placeholder=select.placeholder or "",
            row=select.row,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            cog = _cog(interaction, self.prefix)
            await cog.table_here(interaction, self.game_id)
            await cog.on_more(interaction, self.game_id, self.item.values[0])


class HeroSelect(discord.ui.DynamicItem[discord.ui.Select], template=_PREFIX + r"-heroes:(?P<game>\d+)"):
    """``<prefix>-heroes:<table>``: a seated player picks their Hero cards in the lobby, up to the deck's
    limit (the service checks the deck's rules: repeats, how many)."""

    def __init__(
        self, prefix: str, game_id: int, *, high: int, placeholder: str = "", row: int | None = None
    ) -> None:
        options = [
            discord.SelectOption(label=hero.name, value=hero.name, description=hero.text[:100])
            for hero in HEROES.values()
        ][:25]
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"{prefix}-heroes:{game_id}",
            options=options,
            min_values=0,
            max_values=high,
            placeholder=placeholder or None,
            row=row,
        )
        super().__init__(select)
        self.prefix, self.game_id = prefix, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HeroSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(
            match["prefix"],
            int(match["game"]),
            high=select.max_values,
            placeholder=select.placeholder or "",
            row=select.row,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            cog = _cog(interaction, self.prefix)
            await cog.table_here(interaction, self.game_id)
            await cog.on_heroes(interaction, self.game_id, list(self.item.values))


ITEMS = (TableButton, TableSelect, MoreSelect, HeroSelect)
