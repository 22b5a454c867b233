"""The lists a repository reads keep their order on PostgreSQL, where no engine habit hides a missing
``ORDER BY``.

tests/core/test_storage_read_order.py turns SQLite's unordered results around with a pragma. PostgreSQL
returns an unordered scan in the order its rows lie in the table's pages, and an UPDATE writes a row's new
version after the others: a game whose first event was corrected, a tournament entrant renamed, reads its
rows in another order than they were written. Here every row of every table is updated once, newest first,
so each table's pages hold it in reverse; index and bitmap scans are off (an index scan returns key order,
and a bitmap scan follows an updated row from where it first lay, each hiding the missing ``ORDER BY``
again), so every read that left its order to the engine comes back reversed.
"""

from __future__ import annotations

import os

import pytest

from bot.storage.db import PostgresDatabase
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA
from tests.core.test_storage_read_order import _a_night_of_play, _reads

pytestmark = pytest.mark.postgresql_only

# asyncpg passes a URL's unknown query parameters to the server as settings of every pooled connection.
_TABLE_SCANS_ONLY = "enable_indexscan=off&enable_indexonlyscan=off&enable_bitmapscan=off"


async def _reverse_every_table(db: PostgresDatabase) -> int:
    """Rewrite every row of every table, last-stored first, so the pages hold each table back to front;
    returns how many tables had two rows or more."""
    reversed_tables = 0
    async with db.raw_connection() as raw:
        for table in await db.tables():
            column = await raw.fetchval(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = $1 ORDER BY ordinal_position LIMIT 1",
                table,
            )
            places = [r[0] for r in await raw.fetch(f"SELECT ctid FROM {table} ORDER BY ctid DESC")]
            for place in places:
                await raw.execute(f"UPDATE {table} SET {column} = {column} WHERE ctid = $1", place)
            reversed_tables += len(places) >= 2
    return reversed_tables


async def test_every_list_read_has_its_own_order_on_postgresql(tmp_path, monkeypatch) -> None:
    url = os.environ["PODKEEPER_DATABASE_URL"]
    monkeypatch.setenv("PODKEEPER_DATABASE_URL", f"{url}&{_TABLE_SCANS_ONLY}")
    async with DiscordHarness.start(tmp_path, cards_path=TEST_DATA / "pods_cards.jsonl") as h:
        db = h.bot.db
        assert isinstance(db, PostgresDatabase)
        assert await db.scalar("SELECT current_setting('enable_bitmapscan')") == "off"
        h.bot.get_cog("Pods").updater.delay = 0
        await _a_night_of_play(h)
        reads = _reads(h)
        kept = {name: await read() for name, read in reads.items()}
        assert await _reverse_every_table(db) >= 12
        unordered = [r[0] for r in await db.fetchall("SELECT seq FROM pod_events WHERE game_id = 1")]
        # what a read without ORDER BY sees now:
        assert unordered == sorted(unordered, reverse=True) and len(unordered) >= 5
        turned = {name: await read() for name, read in reads.items()}
        several = {name for name, rows in kept.items() if len(rows) >= 2}
        assert len(several) >= 12, f"too few reads with two rows or more to tell an order: {sorted(several)}"
        assert {name for name in kept if kept[name] != turned[name]} == set()
