"""The tournament cog's Discord items and shared bits: the buttons and the ballot select (``DynamicItem``s
keyed by ids, so they work on old messages after a restart), the colour, mentions and names."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs._buttons import KeyedButton
from cogs._common import cog_of, rebuilt
from cogs._errors import telling_refusals

if TYPE_CHECKING:
    from cogs.tournaments.cog import TournamentCog

COLOUR = discord.Colour.gold()


@dataclass(frozen=True)
class SeatedPlayer:
    """What the pod tracker reads of a player (``id``, ``display_name``), without fetching members:
    the bot has no members intent, and a 256-player round should not cost 256 requests."""

    id: int
    display_name: str


def mention(user_id: object) -> str:
    """A user id as a mention; anything else (a pseudonym, a name) as it is."""
    return f"<@{user_id}>" if isinstance(user_id, int) else str(user_id)


def namer(names: Mapping[Any, str]) -> Callable[[object], str]:
    """Names players by their stored names (``StandingsView.names``), a player without one by id."""
    return lambda player: names.get(player, str(player))


def _cog(interaction: discord.Interaction) -> TournamentCog:
    from cogs.tournaments.cog import TournamentCog  # the cog module imports this one

    return cog_of(interaction, TournamentCog.__cog_name__, TournamentCog)


class VoteButton(KeyedButton, prefix="tournament:vote", style=discord.ButtonStyle.primary, emoji="🗳️"):
    """The public "Vote" button under a finished game (keyed by the game): opens the private ballot (T3)."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).open_ballot(interaction, self.key)


class ManaConfirmButton(KeyedButton, prefix="tournament:mana", style=discord.ButtonStyle.success):
    """Another player at the table confirms a mana pool report (T2; keyed by the report)."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).confirm_mana(interaction, self.key)


class EndConfirmButton(KeyedButton, prefix="tournament:end", style=discord.ButtonStyle.danger):
    """Ending a tournament while games are unfinished ends them without points: asked once more (keyed by
    the tournament, so a stale button ends nothing else)."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).end_tournament(interaction, self.key)


class BallotSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tournament:ballot:(?P<game>\d+)"
):
    """The private select of the other players at the table; choosing again changes the vote."""

    def __init__(
        self, game_id: int, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tournament:ballot:{game_id}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BallotSelect:
        select = rebuilt(item, discord.ui.Select)
        return cls(int(match["game"]), list(select.options), select.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with telling_refusals(interaction):
            await _cog(interaction).cast_vote(interaction, self.game_id, int(self.item.values[0]))
