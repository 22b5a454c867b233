"""Face the Hydra at the table: ``/hydra start|heroes|resume|profile``, the lobby, the board and
one message per Hydra turn.

The cog parses, checks nothing the service checks, and renders. Messages of a table:

- the **board** (lobby first, then the live board): embed with the numbered heads, the board
  image, and the players' buttons (head select, attack/damage/destroy/exile/bounce/tap, life,
  any script command, end our turn, undo, concede);
- one **turn message** per Hydra turn, edited as the turn goes: what was revealed (with its text),
  what it did, the damage, and the question the Hydra's cards ask (H9) with answer components.

Every button is a ``DynamicItem`` whose custom_id carries the table id, registered at load, so
buttons of messages posted before a restart keep working; open tables' timers are re-armed at
load. A response window (counter / prevent) takes its default after the table's window (default
20 s); any other question after three windows; a players' turn with no action for the table's
idle time pauses the table (``/hydra resume``).

The package: ``cog`` (the slash commands), ``play`` (acting, buttons' handlers, timers), ``panels``
(board, lobby and turn messages), ``components`` and ``modals`` (the Discord items); the turn and report
texts are in ``bot.render.hydra_turns``. Refusals take the one path of ``cogs._errors``.
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.hydra.cog import HydraCog
from cogs.hydra.components import HeadSelect, HydraButton, MoreSelect
from cogs.hydra.modals import LineModal

__all__ = ["HeadSelect", "HydraButton", "HydraCog", "LineModal", "MoreSelect", "setup"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(HydraCog(bot))
