"""Face the Hydra tables: the one challenge service (:mod:`bot.services.challenge`) over the Hydra's
tables, with what only the Hydra keeps — its players' profiles (H13: beating it earns The Slayer).

Everything else — the lobby, seats, acting, undo, idle tables, the turn message, the change hub — is
the challenge service's, the same for every deck; the Hydra's own rules are its ``DeckRules`` (up to
four players, two Hero cards that may repeat, a life total per player).
"""

from __future__ import annotations

from typing import Any

from bot.domain.hydra.cards import THE_SLAYER
from bot.services.challenge import (
    DEFAULT_IDLE_MINUTES,
    DEFAULT_WINDOW_SECONDS,
    HYDRA_TABLES,
    MAX_OPEN_TABLES_PER_MEMBER,
    ActResult,
    ChallengeService,
    ChallengeTable,
    TableFinished,
    hydra_game_topic,
)
from bot.storage.hydra import HydraProfile, HydraRepository

HydraTable = ChallengeTable
HydraFinished = TableFinished


class HydraService(ChallengeService):
    """The Hydra's tables and profiles."""

    kind = HYDRA_TABLES
    repo: HydraRepository

    async def create(  # type: ignore[override]
        self,
        *,
        heads: int | None = None,
        idle_minutes: int = DEFAULT_IDLE_MINUTES,
        deck: str = "hydra",
        difficulty: int | None = None,
        **options: Any,
    ) -> ChallengeTable:
        """A new Hydra table; ``heads`` is its difficulty (the Hydra's name for it)."""
        level = heads if heads is not None else difficulty
        if level is None:
            raise TypeError("a Hydra table needs its heads")
        return await super().create(deck=deck, difficulty=level, idle_minutes=idle_minutes, **options)

    async def profile(self, user_id: int) -> HydraProfile:
        return await self.repo.profile(user_id)


__all__ = [
    "DEFAULT_WINDOW_SECONDS",
    "MAX_OPEN_TABLES_PER_MEMBER",
    "THE_SLAYER",
    "ActResult",
    "HydraFinished",
    "HydraService",
    "HydraTable",
    "hydra_game_topic",
]
