"""The lobby of a Horde or God table: who sits with which Hero cards, the God's life rule said
plainly, and the select where each player picks their Hero cards (``chal-heroes:<table>``, a
``DynamicItem``, so a lobby posted before a restart keeps working)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import discord

from bot.domain.challenge.decks import HORDE, RULES
from bot.domain.hydra.cards import HEROES
from bot.i18n import Translate
from bot.i18n.glossary import join_list
from bot.services.challenge import ChallengeTable
from cogs._common import cog_of, rebuilt


@runtime_checkable
class HeroPicker(Protocol):
    """The cog that stores a player's picked Hero cards (the Challenge cog)."""

    async def table_here(self, interaction: discord.Interaction, game_id: int) -> bool: ...

    async def on_heroes(self, interaction: discord.Interaction, game_id: int, names: list[str]) -> None: ...


def lobby(table: ChallengeTable, title: str, players: str,
          button: Callable[..., discord.ui.Item[Any]]) -> tuple[discord.Embed, discord.ui.View]:
    """The lobby message: its embed, the Hero cards select, and Join and Start (``button`` makes the
    cog's own buttons, whose custom_ids it reads)."""
    tr, gid, rules = Translate(table.row.language), table.game_id, RULES[table.row.deck]
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeHeroSelect(gid, high=rules.max_heroes, row=0,
                                      placeholder=tr("challenge.ui.pick_heroes", max=rules.max_heroes)))
    view.add_item(button(gid, "join", label=tr("hydra.ui.join"), style=discord.ButtonStyle.primary, row=1))
    view.add_item(button(gid, "start", label=tr("hydra.ui.start"), style=discord.ButtonStyle.success, row=1))
    return lobby_embed(table, title, players), view


def lobby_embed(table: ChallengeTable, title: str, players: str) -> discord.Embed:
    """Who sits (each seat with its Hero cards) and, at a table for several players, the shared-life
    rule it will play: the printed 20, or the house rule, labelled as one."""
    tr, rules = Translate(table.row.language), RULES[table.row.deck]
    description = tr("challenge.ui.lobby", max=rules.max_players, players=players)
    if rules.max_players > 1:
        key = "challenge.ui.lobby_house_rule_life" if table.row.life_per_player else "challenge.ui.lobby_printed_life"
        description += "\n" + tr(key)
    embed = discord.Embed(title=title, description=description[:4000])
    for seat in table.seats[:25]:
        heroes = join_list(seat.heroes, tr.language) or tr("hydra.ui.no_heroes")
        embed.add_field(name=seat.name[:256], value=heroes[:1024], inline=False)
    return embed


class ChallengeHeroSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"chal-heroes:(?P<game>\d+)"):
    """``chal-heroes:<table>``: a seated player picks their Hero cards in the lobby (the deck's limit:
    up to three, each different, against the Horde and the God)."""

    def __init__(self, game_id: int, *, high: int = HORDE.max_heroes, placeholder: str = "",
                 row: int | None = None) -> None:
        options = [discord.SelectOption(label=hero.name, value=hero.name, description=hero.text[:100])
                   for hero in HEROES.values()][:25]
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"chal-heroes:{game_id}", options=options, min_values=0, max_values=high,
            placeholder=placeholder or None, row=row)
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeHeroSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(int(match["game"]), high=select.max_values, placeholder=select.placeholder or "", row=select.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        picker = cog_of(interaction, "Challenge", HeroPicker)  # type: ignore[type-abstract]
        # A copy of the lobby pressed in another server is no table there, as for the table's other
        # components: the id alone must not reach this server's seat, even the presser's own.
        if await picker.table_here(interaction, self.game_id):
            await picker.on_heroes(interaction, self.game_id, list(self.item.values))
