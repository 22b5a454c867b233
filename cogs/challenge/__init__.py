"""The challenge tables on Discord, one family of panels for every deck (Face the Hydra, Battle the Horde,
Defeat a God): the lobby, the board, its buttons, menus and forms, the timers, and ``/challenge start``.

Messages of a table: the **lobby** (seats, Hero cards, Join and Start), then the **board**, edited as the
game goes: embed, board image and the players' controls. A deck with no look of its own (the Horde, the
God, a new deck kept with theirs) shows the latest log lines and the question of the moment on its board;
the Hydra adds one message per Hydra turn and its own board (``cogs.hydra``, the Hydra's small part).

Every component is a ``DynamicItem`` whose custom_id carries the table's family and id
(``cogs.challenge.components``), registered at load, so buttons of messages posted before a restart (or
before these panels were one family) keep working; open tables' timers are re-armed at load. A response
window takes its default after the table's window (default 20 s), any other question after three
windows. Refusals take the one path of ``cogs._errors``.

The package: ``base`` (state, and a family's data), ``panels`` (lobby and board), ``play`` (acting,
buttons' handlers, timers), ``components``, ``modals`` and ``lobby`` (the Discord items), ``cog`` (the
``/challenge`` commands).
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.challenge.cog import ChallengeCog
from cogs.challenge.components import HeroSelect, MoreSelect, TableButton, TableSelect
from cogs.challenge.modals import LineModal

__all__ = ["ChallengeCog", "HeroSelect", "LineModal", "MoreSelect", "TableButton", "TableSelect", "setup"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(ChallengeCog(bot))
