"""Face the Hydra at the table: ``/hydra start|heroes|resume|profile``, and the Hydra's own look over the
panels every challenge deck shares (``cogs.challenge``: the lobby, the board, its buttons, menus and forms,
acting and the timers).

What only the Hydra shows (``panels``): its lobby (Join, Leave, Start; Hero cards with ``/hydra
heroes``), its board (the numbered heads, the head pick that follows a head, the More… menu), and one
**turn message** per Hydra turn, edited as the turn goes: what was revealed (with its text), what it did,
the damage, and the question the Hydra's cards ask (H9) with answer components. A players' turn with no
action for the table's idle time pauses the table (``/hydra resume``).

The package: ``cog`` (the slash commands), ``panels`` (the Hydra's look and turn messages); the turn and
report texts are in ``bot.render.hydra_turns``.
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.hydra.cog import HydraCog

__all__ = ["HydraCog", "setup"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(HydraCog(bot))
