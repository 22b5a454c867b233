"""Pod tracking at the table: ``/pod ...`` and the live board (embed + image + buttons).

The cog parses options, checks who acts, calls ``PodService`` and renders. Every change is committed by
the service before the board is touched; the board message is then edited by ``BoardUpdater``
(``cogs._updater``), which coalesces a burst of presses into one edit showing the final state (Discord
allows ~5 edits per 5 s per channel). Buttons are ``DynamicItem``s whose custom_id carries the game id,
registered at load, so the buttons of a board posted before a restart keep working.

For the tournament feature: ``cog.start_linked_game(channel, players, ruleset=..., tournament_id=...,
round_number=...)`` creates a linked game and posts its board; ``pod_game_finished`` is dispatched with
a ``PodGameRecord`` when any game ends.

The package, one layer on another (``base`` explains why): ``base`` (state, applying a change, refusals),
``board`` (the board's embed, image and buttons), ``commanders`` (naming commanders, the commander-damage
and cast panel), ``presses`` (what the board's buttons do, ending a game), ``cog`` (the slash commands);
beside them ``components`` and ``modals`` (the Discord items), ``mulligan`` (the mulligan step; what it
shows in ``mulligan_panels``) and ``match`` (best-of-three matches and sideboard swaps). History lines are built in ``bot.render.pod_history``.
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.pods.cog import PodsCog

__all__ = ["PodsCog", "setup"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(PodsCog(bot))
