"""The running bot keeps its card data current: ``cards sync`` on a schedule.

``CardAutoSync.run_if_due()`` is the whole job; the card-sync cog calls it from a background task. The
sync itself is ``bot.cards.sync.sync_cards`` — the same download, validation and atomic swap as
``podkeeper cards sync`` — so a failed or corrupt download never touches the current cards, and the
heavy reading runs in a thread while commands keep being answered.

Schedule (``[cards] auto_sync``, ``sync_interval_days``; kept in ``card_sync_state`` across restarts):

* a sync is due ``sync_interval_days`` (at least 1) after the last successful one, at once if there was
  none (the bundled data is old);
* after a failure (offline, an HTTP error, a bad file) it is retried after 1, 2, 4 … hours, at most a day
  apart; the first failure of a run of failures is logged as a warning, the others only at debug level,
  and the success that ends the run says so.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.cards.database import CardDatabase, ImportResult
from bot.cards.importers import CardImportError
from bot.cards.sync import CardSyncError, sync_cards
from bot.config import Config
from bot.storage.db import Database
from bot.storage.deck_changes import SyncState, SyncStateRepository

log = logging.getLogger(__name__)

MAX_RETRY = timedelta(days=1)
FIRST_RETRY = timedelta(hours=1)
Sync = Callable[[CardDatabase, Config], Awaitable[ImportResult]]


def _parse(stamp: str | None) -> datetime | None:
    return datetime.fromisoformat(stamp) if stamp else None


class CardAutoSync:
    """When to sync, and doing it. ``clock`` and ``sync`` are replaceable for tests."""

    def __init__(
        self,
        cards: CardDatabase,
        db: Database,
        config: Config,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        sync: Sync = sync_cards,
    ) -> None:
        self.cards, self.config, self.clock, self.sync = cards, config, clock, sync
        self.state = SyncStateRepository(db)

    @property
    def enabled(self) -> bool:
        return bool(self.config.auto_sync)

    async def ever_synced(self) -> bool:
        """Whether a sync ever succeeded here (else the cards are still the first import's)."""
        return (await self.state.get()).last_success is not None

    async def next_due(self, now: datetime | None = None) -> datetime:
        """When the next attempt is due: ``now`` (default: the clock) when it is due already."""
        now = now or self.clock()
        state = await self.state.get()
        interval = timedelta(days=max(1, self.config.sync_interval_days))
        last_success, last_attempt = _parse(state.last_success), _parse(state.last_attempt)
        due = last_success + interval if last_success else now
        if state.failures and last_attempt is not None:
            retry = min(FIRST_RETRY * 2 ** (state.failures - 1), MAX_RETRY)
            due = max(due, last_attempt + retry)
        return due

    async def run_if_due(self) -> ImportResult | None:
        """Sync when due; the new cards' ``ImportResult`` after a swap, None when nothing happened."""
        now = self.clock()
        if not self.enabled or now < await self.next_due(now):
            return None
        return await self.run()

    async def run(self) -> ImportResult | None:
        state = await self.state.get()
        now = self.clock().isoformat(timespec="seconds")
        try:
            result = await self.sync(self.cards, self.config)
        except (CardSyncError, CardImportError, OSError) as exc:
            failures = state.failures + 1
            if failures == 1:
                log.warning("automatic card sync failed, retrying later: %s", exc)
            else:
                log.debug("automatic card sync failed again (%d times): %s", failures, exc)
            await self.state.save(SyncState(now, state.last_success, str(exc)[:500], failures))
            return None
        if state.failures:
            log.info("automatic card sync succeeded after %d failed attempts", state.failures)
        log.info("card data synced: %d cards from %s", result.card_count, result.source)
        await self.state.save(SyncState(now, now, None, 0))
        return result
