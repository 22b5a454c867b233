"""One SQL text, two engines: what bot/storage/engines.py translates must mean the same on SQLite and on
PostgreSQL.

Repositories write ``?`` or ``:name`` placeholders, SQLite's column types and ``INSERT ... ON CONFLICT``;
PostgreSQL gets ``$n``, BIGINT identities and BYTEA. A placeholder inside a quoted literal or a comment, a
``::`` cast, a refused write, the count of changed rows and a SUM or AVG read back must come out alike.
"""

from __future__ import annotations

import pytest

from bot.storage.db import Database, IntegrityError
from bot.storage.engines import decode_numeric, numbered_placeholders

_TABLE = "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, big INTEGER, data BLOB)"


async def _things(db: Database) -> Database:
    async with db.transaction() as conn:
        await conn.execute(db.dialect.ddl(_TABLE))
    return db


def test_placeholders_are_numbered_outside_literals_comments_and_casts() -> None:
    sql = "SELECT '?', 'it''s :x', \"odd?\", a::text FROM t -- why? :y\nWHERE a = ? AND b = ?"
    assert numbered_placeholders(sql) == (
        "SELECT '?', 'it''s :x', \"odd?\", a::text FROM t -- why? :y\nWHERE a = $1 AND b = $2",
        2,
    )
    assert numbered_placeholders("UPDATE t SET a = :a, b = :b WHERE a <> :a") == (
        "UPDATE t SET a = $1, b = $2 WHERE a <> $1",
        ("a", "b"),
    )
    with pytest.raises(ValueError, match="mixes"):
        numbered_placeholders("SELECT ? WHERE a = :a")


def test_numeric_sums_and_averages_read_as_sqlite_gives_them() -> None:
    assert [decode_numeric(text) for text in ("12", "-3", "2.5", "1e3", "NaN")][:4] == [12, -3, 2.5, 1000.0]
    assert isinstance(decode_numeric("12"), int) and isinstance(decode_numeric("1E3"), float)


async def test_one_sql_text_means_the_same_on_both_engines(db: Database) -> None:
    await _things(db)
    first = await db.insert(
        "INSERT INTO things (name, big, data) VALUES (?, ?, ?)", ("a", 2**40, b"\x00\xff"), returning="id"
    )
    second = await db.insert(
        "INSERT INTO things (name, big) VALUES (:name, :big)", {"name": "b?", "big": 2}, returning="id"
    )
    assert (first, second) == (1, 2)  # an INTEGER PRIMARY KEY numbers itself, as SQLite's rowid does
    row = await db.fetchone("SELECT id, name, big, data FROM things WHERE name = ?", ("a",))
    assert row is not None and (row["id"], row[1], row["big"], bytes(row["data"])) == (
        1,
        "a",
        2**40,
        b"\x00\xff",
    )
    literal = await db.fetchall(
        "SELECT name, '?' AS mark, ':big' AS word FROM things WHERE big = :big", {"big": 2}
    )
    assert [tuple(r) for r in literal] == [("b?", "?", ":big")]
    assert tuple(await db.fetchone("SELECT SUM(big), AVG(id), COUNT(*) FROM things WHERE big < 10")) == (
        2,
        2.0,
        1,
    )
    assert await db.scalar("SELECT name FROM things WHERE id = ?", (9,)) is None
    async with db.transaction() as conn:
        await conn.executemany("INSERT INTO things (name, big) VALUES (?, ?)", [("c", 3), ("d", 4), ("e", 5)])
        assert await conn.execute("UPDATE things SET big = big + 1 WHERE big BETWEEN ? AND ?", (3, 9)) == 3
        assert await conn.execute("DELETE FROM things WHERE name = ?", ("nobody",)) == 0
        assert (
            await conn.execute("INSERT INTO things (name) VALUES (?)", ("f",)) == 1
        )  # PostgreSQL: "INSERT 0 1"
    assert [
        tuple(r)
        for r in await db.fetchall("SELECT name, big FROM things WHERE big BETWEEN 4 AND 9 ORDER BY id")
    ] == [("c", 4), ("d", 5), ("e", 6)]
    assert "things" in await db.tables() and await db.tables() == sorted(await db.tables())


async def test_a_refused_write_is_the_same_error_on_both_engines_and_changes_nothing(db: Database) -> None:
    await _things(db)
    await db.execute("INSERT INTO things (name) VALUES (?)", ("taken",))
    with pytest.raises(IntegrityError, match="things"):  # the log says which table refused it
        await db.execute("INSERT INTO things (name) VALUES (?)", ("taken",))
    with pytest.raises(IntegrityError, match="things"):
        await db.insert("INSERT INTO things (name) VALUES (?)", ("taken",), returning="id")
    with pytest.raises(IntegrityError, match="things"):
        async with db.transaction() as conn:
            await conn.executemany("INSERT INTO things (name) VALUES (?)", [("fresh",), ("taken",)])
    with pytest.raises(IntegrityError, match="things"):
        await db.insert("INSERT INTO things (name) VALUES (?)", (None,), returning="id")
    assert [tuple(r) for r in await db.fetchall("SELECT name FROM things ORDER BY id")] == [("taken",)]
    if db.engine == "postgresql":  # SQLite's own driver binds either shape
        with pytest.raises(TypeError, match="mapping"):
            await db.fetchall("SELECT name FROM things WHERE name = :name", ("taken",))
        with pytest.raises(TypeError, match="sequence"):
            await db.fetchall("SELECT name FROM things WHERE name = ?", {"name": "taken"})


@pytest.mark.postgresql_only
async def test_every_migrated_integer_column_holds_a_discord_id_on_postgresql(db: Database) -> None:
    """Discord ids and seeds pass 2**31: a column left 32-bit by the translation refuses them on PostgreSQL
    only (SQLite's INTEGER is 64-bit), and a key written INTEGER PRIMARY KEY must number itself there too."""
    narrow = await db.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND data_type IN ('integer', 'smallint') ORDER BY table_name, column_name"
    )
    assert [tuple(r) for r in narrow] == []
    numbered = {
        r[0]
        for r in await db.fetchall(
            "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND is_identity = 'YES'"
        )
    }
    assert {"pod_games", "tournaments", "decks"} <= numbered
    game = await db.insert(
        "INSERT INTO pod_games (guild_id, channel_id, created_by, created_at, ruleset, status) "
        "VALUES (?, ?, ?, 't', 'commander', 'open')",
        (2**62, 2**61, 2**60),
        returning="game_id",
    )
    assert tuple(
        await db.fetchone("SELECT guild_id, channel_id, created_by FROM pod_games WHERE game_id = ?", (game,))
    ) == (
        2**62,
        2**61,
        2**60,
    )
