"""Server-wide Hydra events: ``/hydra event create|join|leave|begin|status|end|cancel``.

An organiser (Manage Server, or the server's organiser role from ``/config``) creates an event: a
Discord scheduled event plus an announcement message with Join / Leave buttons and a live count.
At the start time (a timer re-armed from the stored start after a restart) or on ``/hydra event
begin``, everyone is seated (``bot.domain.hydra_events``: balanced, groups together, H10) and each
table gets a thread with an ordinary Hydra table of the Hydra cog, all playing at once. A live
leaderboard message in the announcement channel is refreshed every few seconds, only when
something changed (so edits are coalesced however busy the tables are). When every table has
finished, or the organiser ends the event, the results and the leaderboard image are posted, the
winners are recorded in one transaction, and the server's winner role is given.

The commands sit under the Hydra cog's ``/hydra`` group (added to its group object at load, so
``/hydra event create`` etc.); each table is a table of the Hydra cog, played with its buttons.

The package: ``cog`` (loading, create / join / leave, confirmations), ``running`` (start, tables,
grace, leaderboard, results), ``panels`` (announcement and leaderboard embeds), ``commands`` (the
slash commands), ``components`` (the persistent buttons). Refusals take the one path of ``cogs._errors``.
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.hydra_events.cog import HydraEventsCog
from cogs.hydra_events.components import EventButton
from cogs.hydra_events.panels import shown

__all__ = ["EventButton", "HydraEventsCog", "setup", "shown"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(HydraEventsCog(bot))
