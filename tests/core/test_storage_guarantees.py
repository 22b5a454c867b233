"""What storage guarantees on both engines, not what one engine happens to do: migrations that change
existing rows change them on SQLite and PostgreSQL alike (each is applied to rows written by the schema
before it; a data step skipped or misread on one engine passes every test that starts from an empty
database), and guards written into a statement hold however calls interleave.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import Database, available_migrations


async def _before(url: str | Path, version: int) -> Database:
    """The database with every migration below ``version`` applied, and nothing of it or after (the test
    suite hands PostgreSQL tests a schema it migrated already: its tables go first)."""
    db = await Database.open(url, migrate=False)
    for table in await db.tables():
        await db.execute(
            f"DROP TABLE {table} CASCADE" if db.engine == "postgresql" else f"DROP TABLE {table}"
        )
    await db.migrate([m for m in available_migrations() if m.version < version])
    return db


async def _pod_game(db: Database, status: str, seqs: int) -> int:
    game_id = await db.insert(
        "INSERT INTO pod_games (created_at, ruleset, status) VALUES ('t', 'commander', ?)",
        (status,),
        returning="game_id",
    )
    for seq in range(1, seqs + 1):
        await db.execute(
            "INSERT INTO pod_events (game_id, seq, kind, at, data) VALUES (?, ?, 'life', 't', '{}')",
            (game_id, seq),
        )
    return game_id


async def test_shown_boards_and_announced_votes_are_set_for_what_was_finished(db_url) -> None:
    db = await _before(db_url, 9)
    try:
        finished, running = await _pod_game(db, "finished", 5), await _pod_game(db, "open", 3)
        tournament = await db.insert(
            "INSERT INTO tournaments (guild_id, name, scoring, win_points, draw_points, survival_points, "
            "vote_points, elimination_points, rounds, seed, status, created_at) "
            "VALUES (1, 'Cup', 'democratic', 0, 0, 2, 1, 0, 3, 7, 'running', 't')",
            returning="tournament_id",
        )
        for game_id, closed in ((finished, "2026-01-01"), (running, None)):
            await db.execute(
                "INSERT INTO tournament_games (game_id, tournament_id, round_number, finished_at, "
                "vote_closed_at) VALUES (?, ?, 1, 't', ?)",
                (game_id, tournament, closed),
            )
        await db.migrate()
        shown = dict(await db.fetchall("SELECT game_id, shown_seq FROM pod_games ORDER BY game_id"))
        assert shown == {finished: 5, running: None}  # a running game's board is brought up to date on start
        announced = dict(
            await db.fetchall("SELECT game_id, announced_at FROM tournament_games ORDER BY game_id")
        )
        assert announced == {finished: "2026-01-01", running: None}
    finally:
        await db.close()


async def test_tables_and_events_stored_before_stable_numbers_keep_their_old_meaning(db_url) -> None:
    db = await _before(db_url, 16)
    try:
        await db.execute(
            "INSERT INTO hydra_games (created_by, created_at, updated_at, heads, seed) VALUES (1, 't', 't', 3, 7)"
        )
        await db.execute(
            "INSERT INTO challenge_games (channel_id, deck, difficulty, seed, created_by, created_at, "
            "updated_at) VALUES (1, 'horde', 1, 7, 1, 't', 't')"
        )
        await db.execute(
            "INSERT INTO hydra_events (guild_id, channel_id, name, starts_at, heads, table_size, "
            "grace_minutes, language, status, created_by, created_at, updated_at) "
            "VALUES (1, 1, 'Night', 't', 3, 4, 10, 'en', 'scheduled', 1, 't', 't')"
        )
        await db.migrate()
        stored = await db.fetchall(
            "SELECT kind, stable_ids FROM challenge_tables ORDER BY kind"
        )  # moved by 0065
        assert [tuple(r) for r in stored] == [("challenge", 0), ("hydra", 0)]
        assert [tuple(r) for r in await db.fetchall("SELECT deck FROM hydra_events")] == [("hydra",)]
    finally:
        await db.close()


async def test_a_slower_older_board_edit_never_lowers_what_the_board_shows(db) -> None:
    """Two board edits of one game finish out of order (the older one was slower to render): what the
    board shows stays at the newer one, so the reconcile pass after a restart does not redraw it."""
    from bot.storage.pods import PodRepository

    game_id = await _pod_game(db, "open", 6)
    repo = PodRepository(db)
    await repo.set_message(game_id, channel_id=10, message_id=20)
    await repo.set_shown(game_id, 5)
    await repo.set_shown(game_id, 3)
    assert await db.scalar("SELECT shown_seq FROM pod_games WHERE game_id = ?", (game_id,)) == 5
    assert game_id in await repo.lagging_boards()  # 6 events, 5 shown
    await repo.set_shown(game_id, 6)
    assert game_id not in await repo.lagging_boards()
