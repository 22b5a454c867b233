"""``/tournament ...``: Commander tournaments with democratic victory (T3), T2 prizes, pods and standings,
or 1-vs-1 tournaments of best-of-three matches (G9).

Thin by design: parse options, check who may act, call ``TournamentService``, render. Organisers are
members with Manage Server or the server's organiser role (``cogs._common.is_organiser``).

The democratic vote (T3): when a pod game linked to a tournament ends (``on_pod_game_finished``),
the table gets one public message with a Vote button and a count of votes cast (votes are secret).
Each player presses it and picks one OTHER player of that table in a private select; votes can be
changed until the vote closes, which happens when all have voted or at the stored deadline. Both
components are ``DynamicItem``s keyed by the game id, so they work on old messages after a restart,
and ``cog_load`` reschedules every open deadline (closing overdue ones at once).

The package: ``cog`` (the commands), ``votes`` (the democratic vote), ``standings`` (standings messages),
``matches`` (tournaments of 1-vs-1 matches), ``base`` (shared helpers), ``components`` (Discord items).
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.tournaments.cog import TournamentCog

__all__ = ["TournamentCog", "setup"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(TournamentCog(bot))
