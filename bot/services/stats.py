"""Statistics of a server's pod games: what ``/stats``, the leaderboard page and ``podkeeper stats`` ask.

A game's summary is written with its finish (bot/services/pods.py passes the record to the storage);
:meth:`StatsService.backfill` summarises the games finished before the statistics existed, from their
stored events. Replaying a game's events is CPU work, so the backfill hands it to the work pool
(``offload``, the bot's ``workers.run``) and never folds games on the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.domain import pod
from bot.domain.pod import Event, PodGameRecord
from bot.domain.stats.figures import CommanderStats, LeaderboardLine, MemberStats, ServerStats
from bot.storage.db import Database
from bot.storage.pods import PodGameRow, PodRepository
from bot.storage.stats import StatsRepository

log = logging.getLogger(__name__)
Offload = Callable[..., Awaitable[Any]]
BACKFILL_BATCH = 50


def stats_topic(guild_id: int | None) -> str:
    """The change-hub topic of a server's statistics (see bot.changes): published after a game finishes."""
    return f"stats:{guild_id}"


def record_of_stored_game(row: PodGameRow, events: list[Event]) -> PodGameRecord | None:
    """The record of a stored finished game, folded from its events (run in a worker by the backfill)."""
    state = pod.replay(events)
    if not state.finished:
        return None
    return pod.game_record(
        state,
        game_id=row.game_id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        tournament_id=row.tournament_id,
        round_number=row.round_number,
    )


async def _inline(fn: Callable[..., Any], /, *args: Any) -> Any:
    return fn(*args)


class StatsService:
    def __init__(self, db: Database, *, offload: Offload = _inline) -> None:
        self.repo = StatsRepository(db)
        self.pods = PodRepository(db)
        self.offload = offload

    async def backfill(self) -> int:
        """Summarise every finished game the statistics have not seen; returns how many were written.
        Safe to run again, or in two processes at once: a summary is written once per game."""
        written = 0
        while batch := await self.repo.unsummarised_games(BACKFILL_BATCH):
            for game_id in batch:
                await self._summarise_stored(game_id)
                written += 1
        if written:
            log.info("statistics: summarised %d games finished before they were kept", written)
        return written

    async def _summarise_stored(self, game_id: int) -> None:
        row = await self.pods.game(game_id)
        events = await self.pods.events(game_id)
        assert row is not None and events
        record = await self.offload(record_of_stored_game, row, events)
        if record is None:  # marked finished, yet its log does not end it: count it as not played
            record = pod.game_record(
                pod.replay(events[:1]), game_id=game_id, guild_id=row.guild_id, channel_id=row.channel_id
            )
        await self.repo.store(record, events[0].at)

    async def has_games(
        self, guild_id: int, *, user_id: int | None = None, commander: str | None = None
    ) -> bool:
        return await self.repo.has_games(guild_id, user_id=user_id, commander=commander)

    async def member(self, guild_id: int, user_id: int) -> MemberStats:
        return await self.repo.member(guild_id, user_id)

    async def commander(self, guild_id: int, name: str) -> CommanderStats:
        return await self.repo.commander(guild_id, name)

    async def commander_names(self, guild_id: int, text: str) -> list[str]:
        return await self.repo.commander_names(guild_id, text)

    async def server(self, guild_id: int) -> ServerStats:
        return await self.repo.server(guild_id)

    async def leaderboard(self, guild_id: int, limit: int = 50) -> list[LeaderboardLine]:
        return await self.repo.leaderboard(guild_id, limit=limit)
