"""When each live board was posted (bot/storage/boards.py), on both engines: the age a board is posted
afresh by (Discord refuses edits of messages older than an hour) survives a restart, and a message that is
no longer a board has no age, whether this process or an earlier one recorded it; a known age is read
from memory, not from the database on every refresh."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage.boards import BoardPostRepository
from bot.storage.db import Database

POSTED = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


async def test_a_boards_age_survives_a_restart_and_a_new_post_replaces_it(db_url) -> None:
    db = await Database.open(db_url)
    try:
        boards = BoardPostRepository(db)
        await boards.record(501, 10, POSTED)
        await boards.record(502, 10, POSTED + timedelta(minutes=5))
        await boards.record(501, 10, POSTED + timedelta(minutes=50))  # posted afresh under the same id
        assert await boards.posted_at(501) == POSTED + timedelta(minutes=50)
    finally:
        await db.close()
    db = await Database.open(db_url)  # a restart: nothing remembered but the database
    try:
        boards = BoardPostRepository(db)
        assert await boards.posted_at(501) == POSTED + timedelta(minutes=50)
        assert await boards.posted_at(502) == POSTED + timedelta(minutes=5)
        assert await boards.posted_at(503) is None  # posted before ages were recorded
    finally:
        await db.close()


async def test_a_message_that_is_no_longer_a_board_has_no_age(db_url) -> None:
    db = await Database.open(db_url)
    try:
        boards = BoardPostRepository(db)
        await boards.record(601, 10, POSTED)
        await boards.record(602, 10, POSTED)
        assert await boards.posted_at(601) == POSTED
        await boards.forget(601)  # replaced by a new board in this process
        assert await boards.posted_at(601) is None
    finally:
        await db.close()
    db = await Database.open(db_url)
    try:
        boards = BoardPostRepository(db)
        await boards.forget(602)  # recorded by the process before the restart
        assert await boards.posted_at(602) is None
        assert await db.scalar("SELECT COUNT(*) FROM board_posts") == 0
    finally:
        await db.close()


async def test_a_known_boards_age_is_answered_from_memory(db_url, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every refresh of a board asks its age (cogs/_boards.py): once recorded or read, the age comes from
    memory, not from another round trip to the database per edit."""
    db = await Database.open(db_url)
    try:
        reads = _count_reads(db, monkeypatch)
        boards = BoardPostRepository(db)
        await boards.record(701, 10, POSTED)
        assert [await boards.posted_at(701), await boards.posted_at(701)] == [POSTED, POSTED]
        assert reads == []  # recorded by this process: never read back
        boards = BoardPostRepository(db)  # a restart: the first ask reads the table, the next ones do not
        assert [await boards.posted_at(701), await boards.posted_at(701)] == [POSTED, POSTED]
        assert len(reads) == 1
    finally:
        await db.close()


def _count_reads(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements ``db.fetchone`` runs from now on (each still runs on the real database)."""
    reads: list[str] = []
    real = db.fetchone

    async def counted(sql: str, params: tuple = ()) -> object:
        reads.append(sql)
        return await real(sql, params)

    monkeypatch.setattr(db, "fetchone", counted)
    return reads
