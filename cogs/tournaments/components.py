"""The tournament cog's Discord items and shared bits: the buttons and the ballot select (``DynamicItem``s
keyed by ids, so they work on old messages after a restart), the colour, mentions and refusal texts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.domain.pod import PodError
from bot.domain.tournament import TournamentError
from bot.i18n import t

if TYPE_CHECKING:
    from cogs.tournaments.cog import TournamentCog

COLOUR = discord.Colour.gold()
_PLAYER_VALUES = ("voter", "votee", "player")



@dataclass(frozen=True)
class SeatedPlayer:
    """What the pod tracker reads of a player (``id``, ``display_name``), without fetching members:
    the bot has no members intent, and a 256-player round should not cost 256 requests."""

    id: int
    display_name: str


def mention(user_id: Any) -> str:
    return f"<@{user_id}>" if isinstance(user_id, int) else str(user_id)


def error_text(error: TournamentError | PodError, language: str) -> str:
    """The refused action in the user's language, with player ids shown as mentions."""
    if isinstance(error, PodError):
        return t(error.key, language, **error.values)
    values = {k: mention(v) if k in _PLAYER_VALUES else v for k, v in error.values.items()}
    return t(error.key, language, **values)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tournament:vote:(?P<game>\d+)"):
    """The public "Vote" button under a finished game: opens the private ballot (T3)."""

    def __init__(self, game_id: int, label: str = "Vote") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, emoji="🗳️",
                                           custom_id=f"tournament:vote:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> VoteButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).open_ballot(interaction, self.game_id)


class BallotSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tournament:ballot:(?P<game>\d+)"):
    """The private select of the other players at the table; choosing again changes the vote."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tournament:ballot:{game_id}", placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="-")]))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> BallotSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        await _cog(interaction).cast_vote(interaction, self.game_id, int(values[0]))


class ManaConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tournament:mana:(?P<report>\d+)"):
    """Another player at the table confirms a mana pool report (T2)."""

    def __init__(self, report_id: int, label: str = "Confirm") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"tournament:mana:{report_id}"))
        self.report_id = report_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> ManaConfirmButton:
        return cls(int(match["report"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).confirm_mana(interaction, self.report_id)


class EndConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tournament:end:(?P<tournament>\d+)"):
    """Ending a tournament while games are unfinished ends them without points: asked once more."""

    def __init__(self, tournament_id: int, label: str = "End") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"tournament:end:{tournament_id}"))
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> EndConfirmButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).end_tournament(interaction, self.tournament_id)




def _cog(interaction: discord.Interaction) -> TournamentCog:
    from cogs.tournaments.cog import TournamentCog  # the cog module imports this one

    cog = interaction.client.get_cog(TournamentCog.__cog_name__)  # type: ignore[attr-defined]
    assert isinstance(cog, TournamentCog)
    return cog
