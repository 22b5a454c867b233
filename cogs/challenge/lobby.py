"""The lobby of a challenge table: who sits with which Hero cards, a shared-life rule said plainly, and
the select where each player picks their Hero cards (``<prefix>-heroes:<table>``), then Join and Start.
The Horde's and the God's lobby, and any deck's that has no lobby of its own."""

from __future__ import annotations

import discord

from bot.i18n import Translate
from bot.i18n.glossary import join_list
from bot.services.challenge import ChallengeTable
from cogs.challenge.components import HeroSelect, TableButton


def lobby(
    table: ChallengeTable, title: str, players: str, prefix: str
) -> tuple[discord.Embed, discord.ui.View]:
    """The lobby message: its embed, the Hero cards select, and Join and Start (the components of the
    table's family, ``prefix``)."""
    tr, gid, rules = Translate(table.row.language), table.game_id, table.rules
    view = discord.ui.View(timeout=None)
    view.add_item(
        HeroSelect(
            prefix,
            gid,
            high=rules.max_heroes,
            row=0,
            placeholder=tr("challenge.ui.pick_heroes", max=rules.max_heroes),
        )
    )
    view.add_item(
        TableButton(prefix, gid, "join", label=tr("hydra.ui.join"), style=discord.ButtonStyle.primary, row=1)
    )
    view.add_item(
        TableButton(
            prefix, gid, "start", label=tr("hydra.ui.start"), style=discord.ButtonStyle.success, row=1
        )
    )
    return lobby_embed(table, title, players), view


def lobby_embed(table: ChallengeTable, title: str, players: str) -> discord.Embed:
    """Who sits (each seat with its Hero cards) and, at a table for several players, the shared-life
    rule it will play: the printed 20, or the house rule, labelled as one."""
    tr, rules = Translate(table.row.language), table.rules
    description = tr("challenge.ui.lobby", max=rules.max_players, players=players)
    if rules.max_players > 1:
        key = (
            "challenge.ui.lobby_house_rule_life"
            if table.row.life_per_player
            else "challenge.ui.lobby_printed_life"
        )
        description += "\n" + tr(key)
    embed = discord.Embed(title=title, description=description[:4000])
    for seat in table.seats[:25]:
        heroes = join_list(seat.heroes, tr.language) or tr("hydra.ui.no_heroes")
        embed.add_field(name=seat.name[:256], value=heroes[:1024], inline=False)
    return embed
