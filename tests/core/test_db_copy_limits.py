"""`podkeeper db copy` at its edges: a table longer than one insert batch, a target that is not a
Podkeeper database of this version, and the side a refusal names (the member must know which database to
migrate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.copy import copy_database
from bot.storage.db import Database, DatabaseError, available_migrations

pytestmark = pytest.mark.postgresql_only

ROWS = 2345  # two whole batches of 1000 and a part of one


async def test_a_table_longer_than_one_batch_arrives_whole_and_in_order_of_its_ids(
    db: Database, tmp_path: Path
) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        async with source.transaction() as conn:
            await conn.executemany(
                "INSERT INTO board_posts (message_id, channel_id, posted_at) VALUES (?, ?, ?)",
                [(n, n % 7, f"2026-03-01T20:{n % 60:02}:00+00:00") for n in range(1, ROWS + 1)],
            )
        copied = {t.name: t.rows for t in await copy_database(source, db)}
        assert copied["board_posts"] == ROWS
        rows = await db.fetchall(
            "SELECT message_id, channel_id, posted_at FROM board_posts ORDER BY message_id"
        )
        assert [tuple(r) for r in rows] == [
            (n, n % 7, f"2026-03-01T20:{n % 60:02}:00+00:00") for n in range(1, ROWS + 1)
        ]
    finally:
        await source.close()


async def test_a_target_that_lacks_a_table_is_refused_naming_it_and_keeps_what_it_had(
    db: Database, tmp_path: Path
) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        await source.execute("INSERT INTO board_posts (message_id, channel_id, posted_at) VALUES (1, 2, 't')")
        await db.execute("DROP TABLE board_posts")
        with pytest.raises(
            DatabaseError, match=r"^the target .* lacks the tables board_posts; not a Podkeeper"
        ):
            await copy_database(source, db)
        assert await db.scalar("SELECT COUNT(*) FROM pod_games") == 0
    finally:
        await source.close()


async def test_a_target_of_an_older_schema_is_refused_as_the_target(db: Database, tmp_path: Path) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        previous, latest = sorted(m.version for m in available_migrations())[-2:]
        await db.execute("DELETE FROM schema_version WHERE version = ?", (latest,))
        with pytest.raises(
            DatabaseError,
            match=rf"^the target .* has schema version {previous}, this Podkeeper {latest}: run",
        ):
            await copy_database(source, db)
        await source.execute("DELETE FROM schema_version WHERE version = ?", (latest,))
        with pytest.raises(
            DatabaseError, match=rf"^the source .* has schema version {previous}, this Podkeeper"
        ):
            await copy_database(source, db)  # the source is told first
    finally:
        await source.close()


async def test_a_fresh_target_counts_as_empty_and_one_that_made_a_table_holds_data(
    db: Database, tmp_path: Path
) -> None:
    """A new database's table counter (seeded by its migration) is no playgroup's data; once a table was
    made it is, and the copy would mix two playgroups."""
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        await copy_database(source, db)  # both fresh: nothing to refuse
        await db.execute("UPDATE challenge_table_ids SET next_id = 2")
        with pytest.raises(DatabaseError, match=r"already holds data \(challenge_table_ids\)"):
            await copy_database(source, db)
        assert await db.scalar("SELECT next_id FROM challenge_table_ids") == 2
    finally:
        await source.close()


async def test_a_source_holding_tables_no_migration_made_is_refused_naming_every_one(
    db: Database, tmp_path: Path
) -> None:
    """Tables someone added to the source by hand have no place in the order the migrations give: the
    copy names them all (the target lacks them) instead of failing on them."""
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        for table in ("zz_notes", "aa_notes"):
            await source.execute(f"CREATE TABLE {table} (note TEXT)")
        with pytest.raises(
            DatabaseError,
            match=r"^the target .* lacks the tables aa_notes, zz_notes; not a Podkeeper database of this version$",
        ):
            await copy_database(source, db)
    finally:
        await source.close()


async def test_a_target_holding_data_in_several_tables_is_refused_naming_each(
    db: Database, tmp_path: Path
) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        await db.execute("INSERT INTO board_posts (message_id, channel_id, posted_at) VALUES (1, 2, 't')")
        await db.execute("UPDATE challenge_table_ids SET next_id = 2")
        with pytest.raises(
            DatabaseError, match=r" already holds data \(board_posts, challenge_table_ids\); refusing to mix "
        ):
            await copy_database(source, db)
    finally:
        await source.close()


async def test_a_target_that_loses_rows_in_the_copy_is_reported_incomplete_by_table_and_counts(
    db: Database, tmp_path: Path
) -> None:
    """The counts read back after the copy are its proof: a target whose own trigger drops the rows of one
    table is told apart from a whole copy."""
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        await source.execute("INSERT INTO board_posts (message_id, channel_id, posted_at) VALUES (1, 2, 't')")
        await db.execute(
            "CREATE FUNCTION drop_board_posts() RETURNS trigger AS $$ BEGIN RETURN NULL; END $$ LANGUAGE plpgsql"
        )
        await db.execute(
            "CREATE TRIGGER drop_board_posts BEFORE INSERT ON board_posts "
            "FOR EACH ROW EXECUTE FUNCTION drop_board_posts()"
        )
        with pytest.raises(
            DatabaseError, match=r"^copy of board_posts has 0 rows, the source 1; the target is incomplete$"
        ):
            await copy_database(source, db)
    finally:
        await source.close()
