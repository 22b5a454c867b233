"""`podkeeper db copy`: a playgroup's data moves between SQLite and PostgreSQL unchanged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.domain import pod
from bot.services.pods import PodService
from bot.storage.challenge import ChallengeRepository
from bot.storage.copy import copy_database, table_order
from bot.storage.db import Database, DatabaseError, available_migrations
from bot.storage.hydra import HydraRepository
from bot.storage.settings import GuildSettingsRepository

# Every PostgreSQL test here gets the `db` fixture's fresh schema as the other side of the copy.
pytestmark = pytest.mark.postgresql_only

SNAPSHOT = bytes(range(256)) * 3  # every byte value, NUL included


async def _fill(db: Database) -> None:
    """Rows in tables of every kind: ids made by the database, JSON text, bytes, booleans, non-ASCII."""
    pods = PodService(db)
    for channel in (2, 3):
        game = await pods.start_game(
            guild_id=1,
            channel_id=channel,
            created_by=10,
            players=[(10, "Ålice"), (20, "ボブ")],
            ruleset="commander",
        )
        await pods.change(game.game_id, 20, pod.LIFE, player=20, amount=-3)
    await GuildSettingsRepository(db).update(1, ruleset="edh-2010", locale="zh-Hant", pod_threads=True)
    game_id = await HydraRepository(db).create(
        guild_id=1,
        channel_id=2,
        created_by=10,
        creator_name="九头蛇",
        deck="hydra",
        difficulty=5,
        seed=2**62 + 7,
        language="ja",
        all_windows=True,
    )
    await HydraRepository(db).append(game_id, 1, "start", 10)
    horde = await ChallengeRepository(db).create(
        guild_id=1,
        channel_id=3,
        created_by=20,
        creator_name="ボブ",
        deck="horde",
        difficulty=3,
        seed=11,
        language="zh-Hant",
    )
    await ChallengeRepository(db).append(horde, 1, "end", 20)
    await db.execute(
        "INSERT INTO card_snapshots (sequence, format, data) VALUES (?, ?, ?)", (1, "index-1", SNAPSHOT)
    )


async def _contents(db: Database) -> dict[str, list[tuple[object, ...]]]:
    return {
        table: sorted((tuple(row) for row in await db.fetchall(f"SELECT * FROM {table}")), key=repr)
        for table in await db.tables()
        if table != "schema_version"
    }


async def test_sqlite_to_postgresql_and_back_keeps_every_row(db: Database, tmp_path: Path) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    back = await Database.open(tmp_path / "back.sqlite3")
    try:
        await _fill(source)
        copied = await copy_database(source, db)
        assert {t.name: t.rows for t in copied}["pod_events"] == 4
        assert await _contents(db) == await _contents(source)
        assert await db.scalar("SELECT data FROM card_snapshots") == SNAPSHOT
        # The copy's ids continue after the copied ones, as they would have in the source.
        game = await PodService(db).start_game(
            guild_id=1, channel_id=4, created_by=10, players=[(10, "x"), (20, "y")], ruleset="commander"
        )
        assert game.game_id == 3
        await copy_database(db, back)
        assert await _contents(back) == await _contents(db)
    finally:
        await source.close()
        await back.close()


async def test_a_target_holding_data_is_refused_unless_replace(db: Database, tmp_path: Path) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        await _fill(source)
        await GuildSettingsRepository(db).update(99, locale="en")
        with pytest.raises(DatabaseError, match="already holds data.*--replace"):
            await copy_database(source, db)
        assert await db.scalar("SELECT COUNT(*) FROM pod_games") == 0
        await copy_database(source, db, replace=True)
        assert await _contents(db) == await _contents(source)
    finally:
        await source.close()


async def test_a_source_of_another_schema_version_is_refused(db: Database, tmp_path: Path) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    try:
        # the newest migration, whichever it is, and the one before it (numbers have gaps: branches take
        # numbers of their own)
        previous, latest = sorted(m.version for m in available_migrations())[-2:]
        await source.execute("DELETE FROM schema_version WHERE version = ?", (latest,))
        with pytest.raises(DatabaseError, match=f"schema version {previous}.*podkeeper db migrate"):
            await copy_database(source, db)
    finally:
        await source.close()


async def test_both_kinds_of_challenge_table_keep_their_ids_and_the_counter(
    db: Database, tmp_path: Path
) -> None:
    """A database migrated from the two families (a Hydra table and a Horde table both numbered 1):
    the copy keeps both under their ids, and the copy's next table takes the source's next id."""
    from tests.challenge.test_stored_games_replay import GAMES, stored_by_old_schema

    first = [
        next(g for g in GAMES if g["deck"] == deck and g["stored"][f"{g['family']}_games"][0]["game_id"] == 1)
        for deck in ("hydra", "horde")
    ]
    source = await stored_by_old_schema(tmp_path / "source.sqlite3", first)
    try:
        copied = {t.name: t.rows for t in await copy_database(source, db)}
        assert (copied["challenge_tables"], copied["challenge_table_ids"]) == (2, 1)
        assert await _contents(db) == await _contents(source)
        for repo, deck in ((HydraRepository(db), "hydra"), (ChallengeRepository(db), "horde")):
            row = await repo.game(1)
            assert row is not None and row.deck == deck and len(await repo.actions(1)) > 0
        new = await ChallengeRepository(db).create(
            guild_id=1,
            channel_id=3,
            created_by=20,
            creator_name="x",
            deck="god",
            difficulty=2,
            seed=1,
            language="en",
        )
        assert new == 2  # one above every id either family gave out (both 1)
    finally:
        await source.close()


def test_parents_are_copied_before_the_tables_that_reference_them() -> None:
    order = table_order(
        [
            "pod_events",
            "tournament_votes",
            "pod_games",
            "tournament_games",
            "tournaments",
            "challenge_table_actions",
            "challenge_table_seats",
            "challenge_tables",
        ]
    )
    assert order.index("pod_games") < order.index("pod_events")
    assert order.index("challenge_tables") < min(
        order.index("challenge_table_actions"), order.index("challenge_table_seats")
    )
    assert order.index("tournaments") < order.index("tournament_games") < order.index("tournament_votes")


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


async def test_the_command_copies_and_says_clearly_when_the_server_is_unreachable(
    db: Database, tmp_path: Path
):
    source = await Database.open(tmp_path / "source.sqlite3")
    await _fill(source)
    await source.close()
    done = _cli("db", "copy", "--from", f"sqlite:///{tmp_path}/source.sqlite3", "--to", db.url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pod_events" in done.stdout and "every table's count verified" in done.stdout
    assert await db.scalar("SELECT COUNT(*) FROM pod_events") == 4
    refused = _cli(
        "db",
        "copy",
        "--from",
        str(tmp_path / "source.sqlite3"),
        "--to",
        "postgresql://postgres@127.0.0.1:1/test",
        cwd=tmp_path,
    )
    assert refused.returncode == 2
    assert "cannot connect to PostgreSQL at postgresql://postgres@127.0.0.1:1/test" in refused.stderr
