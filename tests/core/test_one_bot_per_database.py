"""Two bots on one database double-applied changes (50 presses became 77 events).

A second bot on the same SQLite file now refuses to start with a clear message (an exclusive lock
held for the process lifetime, freed by the kernel even after ``kill -9``), and a pod change that
races another writer is judged again on the fresh log: applied once or refused, never twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.domain import pod
from bot.services.pods import PodService
from bot.storage.db import Database, DatabaseError, IntegrityError
from bot.storage.hydra import HydraRepository

HOLD = textwrap.dedent("""
    import asyncio, sys, time
    from bot.storage.db import Database
    async def main():
        db = await Database.open(sys.argv[1], exclusive=True)
        print("holding", flush=True)
        time.sleep(60)
    asyncio.run(main())
""")


async def test_a_second_database_object_of_a_bot_is_refused_until_the_first_closes(db_path: Path):
    first = await Database.open(db_path, exclusive=True)
    with pytest.raises(
        DatabaseError, match=f"another Podkeeper bot \\(pid {os.getpid()}\\) is already running"
    ):
        await Database.open(db_path, exclusive=True)
    tool = await Database.open(db_path)  # command-line tools (backup, card import) still open it
    await tool.close()
    await first.close()
    second = await Database.open(db_path, exclusive=True)
    await second.close()


def _env(tmp_path: Path, db_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PODKEEPER_DISCORD_TOKEN="fake-token",
        PODKEEPER_DATABASE_PATH=str(db_path),
        PODKEEPER_CONFIG=str(tmp_path / "none.toml"),
    )
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    return env


@pytest.mark.slow  # bot processes
def test_a_second_bot_process_refuses_to_start_and_a_killed_one_frees_the_file(tmp_path: Path, db_path: Path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        second = subprocess.run(
            [sys.executable, "-m", "bot", "run", "--no-sync"],
            env=_env(tmp_path, db_path),
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).parents[2],
        )
        assert second.returncode == 2, second.stderr
        assert f"another Podkeeper bot (pid {holder.pid}) is already running" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    reopened = asyncio.run(Database.open(db_path, exclusive=True))  # kill -9 left no stale lock
    asyncio.run(reopened.close())


async def test_a_change_racing_another_writer_is_applied_once_on_the_fresh_log(db_path: Path):
    """Two services with their own caches on one file: B's cache is stale when it writes."""
    db_a, db_b = await Database.open(db_path), await Database.open(db_path)
    try:
        a, b = PodService(db_a), PodService(db_b)
        game = await a.start_game(
            guild_id=1, channel_id=2, created_by=10, players=[(10, "x"), (20, "y")], ruleset="commander"
        )
        await b.get(game.game_id)  # B caches seq 1
        await a.change(game.game_id, 10, pod.LIFE, player=20, amount=-3)  # seq 2, unseen by B
        changed = await b.change(game.game_id, 20, pod.LIFE, player=10, amount=-1)  # B's seq 2 conflicts
        assert changed.events[-1].seq == 3
        rows = await db_a.fetchall(
            "SELECT seq, kind FROM pod_events WHERE game_id = ? ORDER BY seq", (game.game_id,)
        )
        assert [r[0] for r in rows] == [1, 2, 3]
        state = (await PodService(db_a).get(game.game_id)).state
        assert (state.player(10).life, state.player(20).life) == (39, 37)  # each press applied exactly once
        undo = await b.undo(game.game_id, 20)
        assert undo.events[-1].data == {"seqs": [3]}
    finally:
        await db_a.close()
        await db_b.close()


async def test_event_seqs_are_unique_per_game_in_the_schema(db: Database):
    game = await PodService(db).start_game(
        guild_id=1, channel_id=2, created_by=10, players=[(10, "x"), (20, "y")], ruleset="commander"
    )
    for table, extra in (("pod_events", "kind, actor_id, at, data) VALUES (?, 1, 'life', 1, 't', '{}')"),):
        with pytest.raises(IntegrityError):
            await db.execute(f"INSERT INTO {table} (game_id, seq, {extra}", (game.game_id,))
    indexes = {
        r[0]
        for r in await db.fetchall(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
            if db.engine == "postgresql"
            else "SELECT name FROM sqlite_master WHERE type = 'index'"
        )
    }
    assert {"pod_events_game_seq", "hydra_actions_game_seq"} <= indexes
    # every challenge deck's log (migration 0065): its primary key is (kind, game_id, seq)
    table = await HydraRepository(db).create(
        guild_id=1,
        channel_id=2,
        created_by=10,
        creator_name="x",
        deck="hydra",
        difficulty=3,
        seed=1,
        language="en",
    )
    await HydraRepository(db).append(table, 1, "end", 10)
    with pytest.raises(IntegrityError):
        await HydraRepository(db).append(table, 1, "end", 10)


async def _reopen_within(db_path: Path, seconds: float) -> None:
    """The child closes its copy right after the fork; on a busy machine that may take a moment."""
    for _ in range(int(seconds * 10)):
        try:
            db = await Database.open(db_path, exclusive=True)
        except DatabaseError:
            await asyncio.sleep(0.1)
            continue
        await db.close()
        return
    raise AssertionError(f"the lock was still held {seconds} s after the bot was killed")


@pytest.mark.slow  # bot processes
def test_a_forked_worker_does_not_keep_the_lock_after_the_bot_dies(tmp_path: Path, db_path: Path):
    """The bot forks its worker processes; when the bot is killed, a worker still alive must not hold it."""
    script = textwrap.dedent("""
        import asyncio, os, sys, time
        from bot.storage.db import Database
        async def main():
            await Database.open(sys.argv[1], exclusive=True)
            if os.fork() == 0:   # a worker, as bot/workers.py forks them
                time.sleep(30)
                os._exit(0)
            print("holding", flush=True)
            time.sleep(60)
        asyncio.run(main())
    """)
    bot = subprocess.Popen(
        [sys.executable, "-c", script, str(db_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
        start_new_session=True,
    )
    try:
        assert bot.stdout is not None and bot.stdout.readline().strip() == "holding"
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        asyncio.run(_reopen_within(db_path, seconds=5))  # the orphaned worker (alive 30 s) holds nothing
    finally:
        os.killpg(bot.pid, signal.SIGKILL)
