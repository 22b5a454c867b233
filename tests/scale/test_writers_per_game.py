"""Writers of different games do not wait on each other on PostgreSQL; writers of one game take turns.

Each ``Database.open`` below is its own pool, as a second bot process has. A transaction held open on one
game (a slow commit, a process paused mid-write) must not delay a press on another game in another
process; two processes pressing the same game at once both land, at different sequence numbers, the later
one retried on the state the first one left; and a rule that spans records (a transaction without a
scope) still waits for every writer, and every writer for it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import load_config
from bot.domain import pod
from bot.services.pods import PodService
from bot.storage.db import Database
from bot.storage.pods import game_scope

pytestmark = pytest.mark.postgresql_only

PLAYERS = [(101, "alice"), (102, "bob")]
PATIENCE = 20.0  # seconds: generous for a loaded machine; a blocked writer never finishes at all


async def _two_processes(url: str) -> tuple[Database, Database]:
    return await Database.open(url), await Database.open(url)


async def _game(service: PodService) -> int:
    loaded = await service.start_game(
        guild_id=1, channel_id=1, created_by=101, players=PLAYERS, ruleset="commander"
    )
    return loaded.game_id


async def _hold_open(db: Database, scope: str | None, holding: asyncio.Event, release: asyncio.Event) -> None:
    async with db.transaction(scope) as conn:
        await conn.execute("UPDATE pod_games SET status = status WHERE game_id = 0")
        holding.set()
        await release.wait()


async def test_a_write_held_open_on_one_game_does_not_delay_another_game(pg_dsn: str) -> None:
    first, second = await _two_processes(pg_dsn)
    try:
        here, there = PodService(first), PodService(second)
        busy, quiet = await _game(here), await _game(there)
        holding, release = asyncio.Event(), asyncio.Event()
        holder = asyncio.create_task(_hold_open(first, game_scope(busy), holding, release))
        await holding.wait()
        press = there.change(quiet, 101, pod.LIFE, player=102, amount=-3)
        loaded = await asyncio.wait_for(
            press, PATIENCE
        )  # with one lock for every writer: never, until release
        assert loaded.state.player(102).life == 37
        assert not holder.done()
        blocked = asyncio.create_task(PodService(second).change(busy, 101, pod.LIFE, player=102, amount=-1))
        await asyncio.sleep(0.3)
        assert not blocked.done()  # the held game's own writer waits its turn
        release.set()
        await holder
        assert (await asyncio.wait_for(blocked, PATIENCE)).state.player(102).life == 39
    finally:
        await first.close()
        await second.close()


async def test_two_processes_pressing_one_game_both_land_in_order(pg_dsn: str) -> None:
    first, second = await _two_processes(pg_dsn)
    try:
        here, there = PodService(first), PodService(second)
        game = await _game(here)
        await there.get(game)  # both processes have the game cached at the same sequence number
        presses = [here.change(game, 101, pod.LIFE, player=102, amount=-1) for _ in range(10)]
        presses += [there.change(game, 102, pod.LIFE, player=101, amount=-1) for _ in range(10)]
        await asyncio.gather(*presses)
        rows = await first.fetchall("SELECT seq FROM pod_events WHERE game_id = ? ORDER BY seq", (game,))
        seqs = [row[0] for row in rows]
        assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) == 1 + 20  # creation + 20 presses, no gap
        state = (await PodService(first).get(game)).state
        assert state.player(101).life == 30 and state.player(102).life == 30
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("held", ["a rule across records", "one game"])
async def test_a_rule_across_records_and_any_writer_exclude_each_other(pg_dsn: str, held: str) -> None:
    first, second = await _two_processes(pg_dsn)
    try:
        game = await _game(PodService(first))
        holding, release = asyncio.Event(), asyncio.Event()
        scope = None if held == "a rule across records" else game_scope(game)
        holder = asyncio.create_task(_hold_open(first, scope, holding, release))
        await holding.wait()
        other_scope = game_scope(game + 1) if scope is None else None
        waiting = asyncio.create_task(
            second.execute("UPDATE pod_games SET status = status WHERE game_id = 0", scope=other_scope)
        )
        await asyncio.sleep(0.3)
        assert not waiting.done()  # a scoped writer waits for an unscoped one, and the other way round
        release.set()
        await holder
        await asyncio.wait_for(waiting, PATIENCE)
    finally:
        await first.close()
        await second.close()


async def test_the_pool_size_and_statement_timeout_come_from_the_configuration(pg_dsn: str) -> None:
    config = load_config(
        None,
        {
            "PODKEEPER_DATABASE_URL": pg_dsn,
            "PODKEEPER_DATABASE_POOL_SIZE": "3",
            "PODKEEPER_DATABASE_STATEMENT_TIMEOUT_SECONDS": "1",
        },
    )
    db = await Database.open(
        config.database_url, pool_size=config.pool_size, statement_timeout=config.statement_timeout
    )
    try:
        assert db.pool.get_max_size() == 3  # type: ignore[attr-defined]
        assert await db.scalar("SHOW statement_timeout") == "1s"
        with pytest.raises(Exception, match="statement timeout"):
            await db.scalar("SELECT pg_sleep(3)")
    finally:
        await db.close()


async def test_migrations_are_not_cut_short_by_the_statement_timeout(pg_dsn: str, tmp_path: Path) -> None:
    """A migration of a large table may run for minutes; the timeout is for a member's change."""
    from bot.storage.db import Migration

    script = tmp_path / "9999_slow.sql"
    script.write_text("SELECT pg_sleep(1.5);\n", encoding="utf-8")
    slow = Migration(9999, "slow", script)
    db = await Database.open(pg_dsn, statement_timeout=1)
    try:
        await db.migrate([slow])
        assert await db.scalar("SELECT name FROM schema_version WHERE version = 9999") == "slow"
    finally:
        await db.execute("DELETE FROM schema_version WHERE version = 9999")
        await db.close()
