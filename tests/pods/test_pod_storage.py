"""The pod games' storage (bot/storage/pods.py) on both engines, read back as the bot reads it after a
restart: a game and its log, the finish written with its last event, the board presses stored with their
change, the per-member cap's count, the boards the reconcile pass brings up to date, the lists of
recent and open games, and every write of a game joining a transaction of that game."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.clock import FakeClock
from bot.domain import pod
from bot.domain.events import Event
from bot.services.pods import PodService
from bot.storage.db import Database, DatabaseError, IntegrityError
from bot.storage.pods import GameFinish, PodRepository, game_scope

ALICE, BOB = 101, 102


def _event(seq: int, kind: str = "life", **data: object) -> Event:
    return Event(seq=seq, kind=kind, actor=ALICE, at=f"2026-03-01T20:{seq:02}:00+00:00", data=dict(data))


async def _game(
    pods: PodRepository, *, guild: int = 1, channel: int = 10, by: int = ALICE, tournament: int | None = None
) -> int:
    first = Event(
        seq=1, kind="start", actor=by, at="2026-03-01T20:00:00+00:00", data={"players": [ALICE, BOB]}
    )
    return await pods.create(
        guild_id=guild,
        channel_id=channel,
        ruleset="commander",
        first_event=first,
        tournament_id=tournament,
        round_number=None if tournament is None else 1,
    )


async def test_a_game_its_log_and_its_finish_read_back_as_written(db_url) -> None:
    db = await Database.open(db_url)
    try:
        pods = PodRepository(db)
        game = await _game(pods)
        await pods.append(game, _event(2, player=BOB, amount=-3), press_id=9001)
        await pods.append(
            game,
            _event(3, "eliminate", player=BOB),
            GameFinish(ended="last_standing", ended_at="2026-03-01T20:03:00+00:00", survivors=[ALICE]),
            press_id=9002,
        )
        with pytest.raises(IntegrityError):  # a second writer that took the same seq
            await pods.append(game, _event(3, player=ALICE, amount=-1), press_id=9003)
    finally:
        await db.close()
    db = await Database.open(db_url)
    try:
        pods = PodRepository(db)
        row = await pods.game(game)
        assert row is not None
        assert (row.guild_id, row.channel_id, row.created_by, row.ruleset, row.status) == (
            1,
            10,
            ALICE,
            "commander",
            "finished",
        )
        assert (row.ended, row.ended_at, row.survivors) == (
            "last_standing",
            "2026-03-01T20:03:00+00:00",
            [ALICE],
        )
        assert (row.tournament_id, row.round_number, row.message_id) == (None, None, None)
        assert [(e.seq, e.kind, e.actor, e.data) for e in await pods.events(game)] == [
            (1, "start", ALICE, {"players": [ALICE, BOB]}),
            (2, "life", ALICE, {"player": BOB, "amount": -3}),
            (3, "eliminate", ALICE, {"player": BOB}),
        ]
        assert await pods.stored_presses([9001, 9002, 9003, 9004]) == {9001, 9002}  # the refused one is not
        assert await pods.stored_presses([]) == set()
        assert await pods.game(game + 1) is None
        await pods.forget_presses_before("2026-03-01T20:02:30+00:00")
        assert await pods.stored_presses([9001, 9002]) == {9002}
    finally:
        await db.close()


async def test_the_cap_counts_a_members_open_games_of_the_server_outside_tournaments(db) -> None:
    pods = PodRepository(db)
    await _game(pods)
    await _game(pods)
    finished = await _game(pods)
    await pods.append(finished, _event(2, "draw"), GameFinish(ended="draw", ended_at=None, survivors=[]))
    await _game(pods, guild=2)
    await _game(pods, by=BOB)
    await _game(pods, tournament=7)
    assert await pods.open_games_started_by(1, ALICE) == 2
    assert await pods.open_games_started_by(2, ALICE) == 1
    assert await pods.open_games_started_by(1, BOB) == 1
    assert await pods.open_games_started_by(3, ALICE) == 0


async def test_boards_behind_their_log_are_found_and_the_lists_are_newest_first(db) -> None:
    pods = PodRepository(db)
    shown, behind, never_drawn, unposted = [await _game(pods) for _ in range(4)]
    for game in (shown, behind, never_drawn, unposted):
        await pods.append(game, _event(2, player=BOB, amount=-1))
    for game, channel, message in ((shown, 10, 500), (behind, 10, 501), (never_drawn, 11, 502)):
        await pods.set_message(game, channel_id=channel, message_id=message)
    await pods.set_shown(shown, 2)
    await pods.set_shown(behind, 1)
    await db.execute("UPDATE pod_games SET channel_id = NULL WHERE game_id = ?", (unposted,))
    abandoned = await _game(pods)
    await db.execute("UPDATE pod_games SET status = 'abandoned' WHERE game_id = ?", (abandoned,))
    # never_drawn was posted but no edit ever landed (a crash between storing and editing): behind too
    assert await pods.lagging_boards() == [behind, never_drawn]
    row = await pods.game(never_drawn)
    assert row is not None and (row.channel_id, row.message_id) == (11, 502)
    await pods.append(
        behind,
        _event(3, "eliminate", player=BOB),
        GameFinish(ended="last_standing", ended_at=None, survivors=[ALICE]),
    )
    assert [g.game_id for g in await pods.open_in_channel(10)] == [shown]
    assert [g.game_id for g in await pods.recent(1, 10)] == [abandoned, unposted, never_drawn, behind, shown]
    assert [g.game_id for g in await pods.recent(1, 2)] == [abandoned, unposted]
    assert await pods.recent(2) == []


async def test_an_events_data_is_stored_as_canonical_json_and_read_back_with_its_time(db) -> None:
    """The data's text is the same whatever order its keys were built in: the privacy delete compares a
    rewritten event's text with the stored one to count what it changed."""
    pods = PodRepository(db)
    game = await _game(pods)
    await pods.append(
        game,
        Event(
            seq=2, kind="life", actor=BOB, at="2026-03-01T20:02:00+00:00", data={"player": BOB, "amount": -3}
        ),
    )
    stored = await db.scalar("SELECT data FROM pod_events WHERE game_id = ? AND seq = 2", (game,))
    assert stored == '{"amount": -3, "player": 102}'
    assert [(e.seq, e.actor, e.at) for e in await pods.events(game)] == [
        (1, ALICE, "2026-03-01T20:00:00+00:00"),
        (2, BOB, "2026-03-01T20:02:00+00:00"),
    ]
    row = await pods.game(game)
    assert row is not None
    assert (row.created_at, row.status, row.ended, row.ended_at, row.survivors) == (
        "2026-03-01T20:00:00+00:00",
        "open",
        None,
        None,
        [],
    )


async def test_a_slower_older_edit_never_lowers_what_the_board_shows(db) -> None:
    """Two edits of one board can land out of order: the board shows the newer, so the older's report must
    not make the reconcile pass think the board is behind."""
    pods = PodRepository(db)
    game = await _game(pods)
    await pods.set_message(game, channel_id=10, message_id=500)
    for seq in (2, 3):
        await pods.append(game, _event(seq, player=BOB, amount=-1))
    await pods.set_shown(game, 3)
    await pods.set_shown(game, 2)
    assert await db.scalar("SELECT shown_seq FROM pod_games WHERE game_id = ?", (game,)) == 3
    assert await pods.lagging_boards() == []
    await pods.append(game, _event(4, player=BOB, amount=-1))
    assert await pods.lagging_boards() == [game]


async def test_the_recent_list_holds_ten_games_and_a_channels_open_games_are_newest_first(db) -> None:
    pods = PodRepository(db)
    games = [await _game(pods) for _ in range(11)]
    elsewhere = await _game(pods, channel=11)
    await pods.append(games[3], _event(2, "draw"), GameFinish(ended="draw", ended_at=None, survivors=[]))
    await pods.set_message(games[0], channel_id=10, message_id=900)  # an updated row moves on PostgreSQL
    assert [g.game_id for g in await pods.recent(1)] == [elsewhere, *reversed(games[2:])]
    open_here = [g for g in reversed(games) if g != games[3]]
    assert [g.game_id for g in await pods.open_in_channel(10)] == open_here
    assert [g.game_id for g in await pods.open_in_channel(11)] == [elsewhere]


async def test_a_finish_with_its_record_writes_the_games_statistics_in_the_same_append(db) -> None:
    """The statistics of a finished game are written with its last event, timed from when it was opened."""
    clock = FakeClock(datetime(2026, 3, 1, 20, 0, tzinfo=UTC))
    service = PodService(db, clock=lambda: clock.now().isoformat())
    game = await service.start_game(
        guild_id=1,
        channel_id=10,
        created_by=ALICE,
        players=[(ALICE, "Alice"), (BOB, "Bob")],
        ruleset="commander",
    )
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    clock.jump(minutes=25)
    await service.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
    row = await db.fetchone(
        "SELECT guild_id, counted, winner_id, player_count, duration_seconds FROM stats_games WHERE game_id = ?",
        (game.game_id,),
    )
    assert row is not None and tuple(row) == (1, 1, ALICE, 2, 25 * 60)
    players = await db.fetchall(
        "SELECT user_id, place, won FROM stats_players WHERE game_id = ? ORDER BY user_id", (game.game_id,)
    )
    assert [tuple(p) for p in players] == [(ALICE, 1, 1), (BOB, 2, 0)]


async def test_every_write_of_a_game_joins_a_transaction_of_that_game_and_rolls_back_with_it(db) -> None:
    """The service's retry after a conflict reads a game's log and appends to it inside one transaction of
    the game's scope: each write of that game must be of the same scope (a write of every record, or of
    another game, is refused there), and a failure undoes them all together."""
    pods = PodRepository(db)
    game = await _game(pods)
    with pytest.raises(RuntimeError, match="^undone$"):
        async with db.transaction(game_scope(game)):
            await pods.append(game, _event(2, player=BOB, amount=-1), press_id=7001)
            await pods.set_message(game, channel_id=10, message_id=700)
            await pods.set_shown(game, 2)
            await pods.append(
                game, _event(3, "draw"), GameFinish(ended="draw", ended_at=None, survivors=[]), press_id=7002
            )
            assert [e.seq for e in await pods.events(game)] == [1, 2, 3]  # inside: its own writes
            raise RuntimeError("undone")
    assert [e.seq for e in await pods.events(game)] == [1]
    row = await pods.game(game)
    assert row is not None and (row.status, row.message_id) == ("open", None)
    assert await pods.stored_presses([7001, 7002]) == set()
    assert await db.scalar("SELECT shown_seq FROM pod_games WHERE game_id = ?", (game,)) is None
    other = await _game(pods)
    with pytest.raises(DatabaseError, match=rf"^a write of pod:{game} inside a transaction of pod:{other}$"):
        async with db.transaction(game_scope(other)):
            await pods.set_shown(game, 1)
