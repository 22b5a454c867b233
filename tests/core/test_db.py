"""Storage core: migrations, WAL, refusal of foreign or newer databases, online backup."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.storage.db import Database, DatabaseError, available_migrations
from bot.storage.settings import GuildSettingsRepository


@pytest.mark.sqlite_only
async def test_open_applies_migrations_and_uses_wal(db: Database, db_path: Path) -> None:
    assert await db.schema_version() == max(m.version for m in available_migrations())
    assert (await db.scalar("PRAGMA journal_mode")).lower() == "wal"
    assert await db.scalar("PRAGMA foreign_keys") == 1


async def test_guild_settings_roundtrip_survives_reopen(db: Database, db_path: Path) -> None:
    repo = GuildSettingsRepository(db)
    await repo.update(42, ruleset="edh-2010", locale="ja")
    await repo.update(42, pod_threads=True)
    await db.close()
    reopened = await Database.open(db.url)
    try:
        settings = await GuildSettingsRepository(reopened).get(42)
        assert (settings.ruleset, settings.locale, settings.pod_threads) == ("edh-2010", "ja", True)
    finally:
        await reopened.close()


async def test_stored_stamps_follow_the_database_clock(db: Database) -> None:
    """Rows written twice with the clock standing still are the same rows: what lets a test on the fake
    clock say "this press changed only the action log" however slowly the machine runs."""
    db.clock = FakeClock(datetime(2026, 3, 1, 20, 15, 7, 250000, tzinfo=UTC))
    repo = GuildSettingsRepository(db)
    await repo.update(7, locale="ja")
    first = await db.scalar("SELECT updated_at FROM guild_settings WHERE guild_id = 7")
    await repo.update(7, locale="ja")
    assert first == await db.scalar("SELECT updated_at FROM guild_settings WHERE guild_id = 7")
    assert str(first).startswith("2026-03-01") and "20:15:07" in str(first)


async def test_failed_transaction_changes_nothing(db: Database) -> None:
    repo = GuildSettingsRepository(db)
    with pytest.raises(RuntimeError, match="^boom$"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, updated_at) VALUES (1, 'x')")
            raise RuntimeError("boom")
    assert (await repo.get(1)).ruleset is None
    assert await db.scalar("SELECT COUNT(*) FROM guild_settings") == 0


async def test_refuses_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("my precious notes")
    with pytest.raises(DatabaseError, match="not an SQLite database"):
        await Database.open(path)
    assert path.read_text() == "my precious notes"


async def test_refuses_a_newer_schema_without_touching_it(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (9999, 'future', 'x')")
    await db.close()
    before = db_path.read_bytes()
    with pytest.raises(DatabaseError, match="newer than this Podkeeper"):
        await Database.open(db_path)
    assert db_path.read_bytes() == before


@pytest.mark.sqlite_only
async def test_backup_is_a_consistent_copy(db: Database, tmp_path: Path) -> None:
    await GuildSettingsRepository(db).update(7, ruleset="duel-zh")
    target = await db.backup(tmp_path / "backup" / "copy.sqlite3")
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT ruleset FROM guild_settings WHERE guild_id = 7").fetchone() == (
            "duel-zh",
        )
    with pytest.raises(DatabaseError, match="already exists"):
        await db.backup(target)


async def test_a_migration_merged_below_the_highest_applied_still_runs(tmp_path: Path) -> None:
    """Parallel work merges numbers out of order: a database at 0012 must still get 0009."""
    from bot.storage.db import available_migrations

    every = available_migrations()
    db = await Database.open(tmp_path / "a.sqlite3", migrate=False)
    await db.migrate([m for m in every if m.version != 9])
    assert await db.scalar("SELECT COUNT(*) FROM schema_version WHERE version = 9") == 0
    applied = await db.migrate(every)
    assert [m.version for m in applied] == [9]
    columns = {row[1] for row in await db.fetchall("PRAGMA table_info(pod_games)")}
    assert "shown_seq" in columns
    assert await db.migrate(every) == []  # and nothing runs twice
    await db.close()


async def test_refuses_a_newer_schema_on_either_engine(db: Database) -> None:
    await db.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (9999, 'future', 'x')")
    with pytest.raises(DatabaseError, match="newer than this Podkeeper"):
        await Database.open(db.url)
    assert await db.schema_version() == 9999


@pytest.mark.postgresql_only
async def test_backup_of_postgresql_points_to_pg_dump_and_db_copy(db: Database, tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="pg_dump.*podkeeper db copy"):
        await db.backup(tmp_path / "copy.sqlite3")
