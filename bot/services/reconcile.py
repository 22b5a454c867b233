"""Bringing every message up to date with the stored state after a (re)start.

Every feature commits its change first and edits Discord afterwards, so a crash in between leaves
a message behind its state: a pod board one press behind, a vote result never shown, a Hydra turn
whose next question was never posted (nobody can answer it). Each feature registers a *pass* here —
an idempotent coroutine that finds what lags (by what it stored, e.g. ``pod_games.shown_seq``) and
edits or posts it — and the bot runs every pass once, in the background, when it is ready.
A failing pass is logged and does not stop the others. Plain Python: no Discord import.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Pass = Callable[[], Awaitable[int]]


class Reconciler:
    """Named reconcile passes; :meth:`run` returns how many items each brought up to date."""

    def __init__(self) -> None:
        self._passes: dict[str, Pass] = {}

    def register(self, name: str, reconcile: Pass) -> None:
        """Add (or replace, when a cog is reloaded) the pass called ``name``."""
        self._passes[name] = reconcile

    def unregister(self, name: str) -> None:
        self._passes.pop(name, None)

    @property
    def names(self) -> list[str]:
        return list(self._passes)

    async def run(self) -> dict[str, int]:
        done: dict[str, int] = {}
        for name, reconcile in list(self._passes.items()):
            try:
                done[name] = await reconcile()
            except Exception:
                log.exception("reconcile pass %s failed; the other passes still run", name)
                done[name] = -1
        if any(done.values()):
            log.info("brought up to date after start: %s", done)
        return done


def register_reconcile(bot: object, name: str, reconcile: Pass) -> None:
    """Register ``reconcile`` with the bot's reconciler (a no-op for a bot without one, e.g. a test stub)."""
    reconciler = getattr(bot, "reconciler", None)
    if isinstance(reconciler, Reconciler):
        reconciler.register(name, reconcile)
