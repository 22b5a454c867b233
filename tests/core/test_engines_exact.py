"""The engines' edges that the broad both-engines tests (test_engines.py) let through.

An INSERT that made no row must be refused on both engines (SQLite's driver gives the previous INSERT's id
instead, PostgreSQL nothing); a statement that changes no rows counts none; the placeholders' shape errors
say what to pass; and a pooled connection's socket is closed in a forked worker, so a killed bot's write
locks end with it although the worker lives on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage.db import Database, IntegrityError

_TABLE = "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)"


async def _things(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute(db.dialect.ddl(_TABLE))


async def test_an_insert_that_made_no_row_is_refused_not_given_another_rows_id(db: Database) -> None:
    """``INSERT ... ON CONFLICT DO NOTHING`` meeting its conflict: SQLite's lastrowid is still the id of
    the INSERT before it, so the caller would take another row for its own."""
    await _things(db)
    assert await db.insert("INSERT INTO things (name) VALUES (?)", ("taken",), returning="id") == 1
    with pytest.raises(IntegrityError, match="^the INSERT made no row$"):
        await db.insert(
            "INSERT INTO things (name) VALUES (?) ON CONFLICT DO NOTHING", ("taken",), returning="id"
        )
    fresh = await db.insert("INSERT INTO things (name) VALUES (?)", ("fresh",), returning="id")
    # (PostgreSQL's identity spent a number on the refused row: only the ids' owners are the same)
    assert [tuple(r) for r in await db.fetchall("SELECT id, name FROM things ORDER BY id")] == [
        (1, "taken"),
        (fresh, "fresh"),
    ]


async def test_a_statement_that_changes_no_rows_counts_none(db: Database) -> None:
    """DDL changes no rows: no positive count on either engine (PostgreSQL's status is "CREATE TABLE",
    SQLite's driver says -1)."""
    async with db.transaction() as conn:
        assert await conn.execute(db.dialect.ddl(_TABLE)) <= 0
        assert await conn.execute("CREATE INDEX things_by_name ON things (name)") <= 0
        assert await conn.execute("INSERT INTO things (name) VALUES (?)", ("a",)) == 1
        assert await conn.execute("UPDATE things SET name = ? WHERE name = ?", ("b", "nobody")) == 0


@pytest.mark.postgresql_only
async def test_a_placeholder_shape_mismatch_says_what_to_pass(db: Database) -> None:
    """SQLite's driver binds either shape; PostgreSQL's numbered parameters need the one the SQL names."""
    await _things(db)
    with pytest.raises(TypeError, match="^named placeholders need a mapping of parameters$"):
        await db.fetchall("SELECT name FROM things WHERE name = :name", ("taken",))
    with pytest.raises(TypeError, match=r"^\? placeholders need a sequence of parameters$"):
        await db.fetchall("SELECT name FROM things WHERE name = ?", {"name": "taken"})


_HOLDER = textwrap.dedent("""
    import asyncio, os, sys, time
    from bot.storage.db import Database

    async def main(url):
        db = await Database.open(url, migrate=False, pool_size=1)
        async with db.transaction("game:1"):
            child = os.fork()  # a work-pool worker, forked while the bot is inside a write
            if child == 0:
                os.close(1)  # not the test's pipe
                time.sleep(60)
                os._exit(0)
            print(child, flush=True)
            await asyncio.sleep(60)

    asyncio.run(main(sys.argv[1]))
""")


@pytest.mark.postgresql_only
async def test_a_killed_bots_write_lock_ends_although_its_forked_worker_lives(db_url: str) -> None:
    """The pool's connections are closed in forked children (``init_postgres_connection``): otherwise the
    worker's copy of the socket keeps the killed bot's session, and its transaction's locks, alive."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _HOLDER,
        db_url,
        stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).parents[2],
    )
    assert holder.stdout is not None
    worker = int((await asyncio.wait_for(holder.stdout.readline(), 60)).strip())
    db = await Database.open(db_url, migrate=False)
    try:
        with pytest.raises(TimeoutError):  # the bot is inside its write: the game's writers wait
            await asyncio.wait_for(db.execute("SELECT 1", scope="game:1"), 0.5)
        holder.send_signal(signal.SIGKILL)
        await holder.wait()
        await asyncio.wait_for(db.execute("SELECT 1", scope="game:1"), 10)
    finally:
        await db.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)


async def test_sums_and_averages_are_python_ints_and_floats_on_both_engines(db: Database) -> None:
    """PostgreSQL's SUM of BIGINTs and its AVG are NUMERIC: a Decimal compares equal to the int, but a
    caller that formats or serialises it (JSON, "%d") breaks; the pool's codec reads them as SQLite does."""
    await _things(db)
    async with db.transaction() as conn:
        await conn.executemany("INSERT INTO things (name) VALUES (?)", [("a",), ("b",)])
    total, average = tuple(await db.fetchone("SELECT SUM(id), AVG(id) FROM things"))
    assert (type(total), total, type(average), average) == (int, 3, float, 1.5)


async def test_a_parameter_compared_with_a_sum_is_bound_on_both_engines(db: Database) -> None:
    """``HAVING SUM(...) >= ?``: PostgreSQL types the parameter NUMERIC, which the pool's codec writes."""
    await _things(db)
    async with db.transaction() as conn:
        await conn.executemany("INSERT INTO things (name) VALUES (?)", [("a",), ("b",)])
    assert await db.scalar("SELECT COUNT(*) FROM things HAVING SUM(id) >= ?", (3,)) == 2
    assert await db.scalar("SELECT COUNT(*) FROM things HAVING SUM(id) >= ?", (4,)) is None
