"""Two bot processes on one PostgreSQL database (two ``Database`` objects with their own connections and
``leases_for`` each, as ``PodkeeperBot.open_resources`` does): a live page served by one follows a change
committed by the other, and new card tables are announced to the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.changes import CARDS_TOPIC
from bot.domain import pod
from bot.leases import PostgresLeases, leases_for
from bot.services.pods import PodService, pod_topic
from bot.storage import db as storage
from tests.scale._wait import until

pytestmark = pytest.mark.postgresql_only

ALICE, BOB = 11, 12


async def test_a_page_in_one_process_follows_a_press_in_another(pg_schema_url: str) -> None:
    first = await storage.Database.open(pg_schema_url)
    second = await storage.Database.open(pg_schema_url)
    leases = [await leases_for(first, poll_seconds=0.2), await leases_for(second, poll_seconds=0.2)]
    try:
        assert all(isinstance(lease, PostgresLeases) for lease in leases)
        service = PodService(first)
        game = await service.start_game(
            guild_id=1,
            channel_id=2,
            created_by=ALICE,
            players=[(ALICE, "Alice"), (BOB, "Bob")],
            ruleset="commander",
        )
        with second.changes.subscribe([pod_topic(game.game_id)]) as page:
            await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-3)
            assert await page.wait(2.0), "the other process's page woke up"
        reader = await PodService(second).get(game.game_id)
        assert reader.state.player(BOB).life == 37  # and reads the committed state

        reloads: list[int] = []
        second.changes.follow(CARDS_TOPIC, lambda: reloads.append(1))
        first.changes.publish(CARDS_TOPIC)  # what CardDatabase.store does after swapping the tables
        await until(lambda: reloads == [1], timeout=5)
    finally:
        for lease in leases:
            await lease.close()
        await first.close()
        await second.close()


async def test_sqlite_keeps_one_process_leases(tmp_path: Path) -> None:
    db = await storage.Database.open(tmp_path / "one.sqlite3")
    try:
        leases = await leases_for(db)
        assert not isinstance(leases, PostgresLeases) and db.changes.relay is None
        await leases.close()
    finally:
        await db.close()
