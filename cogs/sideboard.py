"""``/sideboard``: swap cards between your main deck and sideboard before a game (docs/rules/RULES.md D7, T1).

Thin: it finds the caller's game in this channel and hands over to the pod cog's match step
(``cogs/pods/match.py``), where the board's Sideboard button leads too. Autocomplete offers the cards of
the caller's own deck as it will be played: main-deck cards for ``out``, sideboard cards for ``in``.
``/sideboard wish`` records, during a game with sideboards, a sideboard card fetched by a "wish" card (D7).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.domain.decklist import Section
from bot.domain.pod import PodError
from bot.domain.sideboard import MAX_LINE, Swap
from bot.services.pods import LoadedGame

AUTOCOMPLETE_LIMIT = 25


def _T(text: str) -> locale_str:
    return locale_str(text, key=f"app.sideboard.{text}")


class SideboardCog(
    commands.GroupCog,
    name="Sideboard",
    group_name="sideboard",
    group_description=_T("Swap cards between your deck and sideboard before a game"),
):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def pods(self):
        return self.bot.get_cog("Pods")

    async def _my_game(self, interaction: discord.Interaction) -> LoadedGame | None:
        """The newest running game in this channel that the caller plays in."""
        for row in await self.pods.service.open_in_channel(interaction.channel_id or 0):
            game = await self.pods.service.get(row.game_id)
            if game.state.is_player(interaction.user.id):
                return game
        return None

    @app_commands.command(
        name="swap", description=_T("Swap one card of your main deck for one of your sideboard")
    )
    @app_commands.describe(
        out=_T("The main-deck card that goes to the sideboard"), into=_T("The sideboard card that comes in")
    )
    @app_commands.rename(
        into=locale_str("in", key="app.sideboard.in"), out=locale_str("out", key="app.sideboard.out")
    )
    @app_commands.guild_only()
    async def swap(
        self,
        interaction: discord.Interaction,
        out: app_commands.Range[str, 1, MAX_LINE],
        into: app_commands.Range[str, 1, MAX_LINE],
    ) -> None:
        game = await self._my_game(interaction)
        if game is None:
            await self.pods.send_error(interaction, PodError("no_open_game"))
            return
        await self.pods.match_step.swap(interaction, game.game_id, [Swap(out.strip(), into.strip())])

    @app_commands.command(
        name="panel", description=_T("Open your private swap panel (several swaps at once)")
    )
    @app_commands.guild_only()
    async def panel(self, interaction: discord.Interaction) -> None:
        game = await self._my_game(interaction)
        if game is None:
            await self.pods.send_error(interaction, PodError("no_open_game"))
            return
        await self.pods.match_step.on_button(interaction, game.game_id, "swap", None)

    @app_commands.command(
        name="wish", description=_T("A wish card fetched a card from your sideboard (during a game)")
    )
    @app_commands.describe(card=_T("The sideboard card the wish fetched"))
    @app_commands.rename(card=locale_str("card", key="app.sideboard.card"))
    @app_commands.guild_only()
    async def wish(
        self, interaction: discord.Interaction, card: app_commands.Range[str, 1, MAX_LINE]
    ) -> None:
        game = await self._my_game(interaction)
        if game is None:
            await self.pods.send_error(interaction, PodError("no_open_game"))
            return
        await self.pods.match_step.wish(interaction, game.game_id, card)

    @wish.autocomplete("card")
    async def wish_autocomplete(self, interaction: discord.Interaction, current: str):
        game = await self._my_game(interaction)
        if game is None:
            return []
        return self._choices(await self.pods.match_step.wishable_for(game, interaction.user.id), current)

    @staticmethod
    def _choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
        wanted = current.casefold()
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names if wanted in n.casefold()][
            :AUTOCOMPLETE_LIMIT
        ]

    async def _names(
        self, interaction: discord.Interaction, current: str, section: Section
    ) -> list[app_commands.Choice[str]]:
        game = await self._my_game(interaction)
        if game is None:
            return []
        return self._choices(
            await self.pods.match_step.names_for(game, interaction.user.id, section), current
        )

    @swap.autocomplete("out")
    async def out_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._names(interaction, current, Section.MAIN)

    @swap.autocomplete("into")
    async def into_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._names(interaction, current, Section.SIDEBOARD)


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(SideboardCog(bot))
