"""PodService's exact promises on a real database: one lock per game (other games go on, a change waits
for its own game's lock), who may change what (self-only changes, tournament seats and stops, undo and
seat shuffles with Manage Server), what each stored event says (actor, the next seq, the board press),
a finished game's row and statistics, a second writer's change judged on the fresh log, and a failed
write that leaves the cached game as it was."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator

import pytest

from bot.domain import pod
from bot.domain.pod import PodError
from bot.services.pods import PodService, pod_topic
from bot.storage.db import Database

ALICE, BOB, CAROL, STRANGER = 11, 22, 33, 99
PLAYERS = [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")]
GUILD, CHANNEL = 5, 6


def ticking() -> Iterator[str]:
    """One minute later at each read: events, the finish and the statistics get told-apart times."""
    minute = 0
    while True:
        yield f"2026-12-01T10:{minute:02d}:00+00:00"
        minute += 1


def service_on(db, **options) -> PodService:
    times = ticking()
    return PodService(db, clock=lambda: next(times), **options)


async def start(service: PodService, *, channel_id: int = CHANNEL, created_by: int | None = ALICE, **options):
    return await service.start_game(
        guild_id=options.pop("guild_id", GUILD),
        channel_id=channel_id,
        created_by=created_by,
        players=options.pop("players", PLAYERS),
        ruleset="commander",
        **options,
    )


async def stored(db, game_id: int) -> list[tuple[int, str, int | None]]:
    rows = await db.fetchall(
        "SELECT seq, kind, actor_id FROM pod_events WHERE game_id = ? ORDER BY seq", (game_id,)
    )
    return [(int(r[0]), r[1], r[2]) for r in rows]


async def refused(change, key: str) -> None:
    with pytest.raises(PodError) as excinfo:
        await change
    assert excinfo.value.key == f"pod.error.{key}"


# -- locks and the cache -------------------------------------------------------------------------------


async def test_a_change_waits_for_its_games_lock_and_other_games_do_not(db) -> None:
    service = service_on(db)
    first, second = await start(service), await start(service)
    async with service.lock(first.game_id):
        # Another game is neither read nor changed behind this game's lock.
        await asyncio.wait_for(service.change(second.game_id, BOB, pod.LIFE, player=BOB, amount=-1), 5)
        assert (await asyncio.wait_for(PodService(db).get(second.game_id), 5)).state.player(BOB).life == 39
        fresh = PodService(db)
        async with fresh.lock(first.game_id):
            assert (await asyncio.wait_for(fresh.get(second.game_id), 5)).game_id == second.game_id
        # A cached game is read without waiting for the writer.
        assert (await asyncio.wait_for(service.get(first.game_id), 5)).game_id == first.game_id
        waiting = asyncio.ensure_future(service.change(first.game_id, BOB, pod.LIFE, player=BOB, amount=-2))
        posting = asyncio.ensure_future(service.set_message(first.game_id, CHANNEL, 777))
        await asyncio.sleep(0.2)
        assert not waiting.done() and not posting.done()  # both wait for the game's lock
    assert (await waiting).state.player(BOB).life == 38
    await posting
    assert (await service.get(first.game_id)).row.message_id == 777


async def test_a_game_not_yet_cached_is_read_after_the_change_in_progress_on_it(db) -> None:
    """A process that has not read a game yet folds its log under the game's lock, so it never folds a log
    while a change of that game is being committed."""
    writer = service_on(db)
    game = await start(writer)
    reader = PodService(db)
    async with reader.lock(game.game_id):
        reading = asyncio.ensure_future(reader.get(game.game_id))
        await asyncio.sleep(0.2)
        assert not reading.done()
    assert (await reading).game_id == game.game_id


async def test_an_unknown_game_is_refused_by_name_and_forgetting_an_uncached_game_is_harmless(db) -> None:
    service = service_on(db)
    await refused(service.get(404), "no_game")
    service.forget(404)  # a game this process never read
    game = await start(service)
    service.forget(game.game_id)
    assert (await service.get(game.game_id)).state.player(ALICE).life == 40


async def test_a_finished_game_read_after_a_restart_has_its_record(db) -> None:
    service = service_on(db)
    game = await start(service, players=PLAYERS[:2])
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    await service.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
    loaded = await PodService(db).get(game.game_id)
    assert (
        loaded.record is not None and loaded.record.winner == ALICE and loaded.record.game_id == game.game_id
    )


# -- starting -------------------------------------------------------------------------------------------


async def test_a_member_opens_at_most_ten_games_in_a_server_and_tournament_tables_do_not_count(db) -> None:
    service = service_on(db)
    opened = [await start(service) for _ in range(10)]
    with pytest.raises(PodError) as excinfo:
        await start(service)
    assert excinfo.value.key == "pod.error.too_many_open_games" and excinfo.value.values == {"limit": 10}
    assert await db.scalar("SELECT COUNT(*) FROM pod_games") == 10
    await start(service, guild_id=GUILD + 1)  # another server has its own count
    await start(service, created_by=BOB)  # and so does every other member
    await start(service, created_by=None)  # a game the bot opened itself has no starter to count
    await start(service, tournament_id=3, round_number=1)  # the pairing seats tournament tables
    await service.change(opened[0].game_id, ALICE, pod.STOP)  # a finished game frees its place
    await start(service)
    await refused(start(service), "too_many_open_games")


async def test_a_game_keeps_the_chosen_mulligan_style_and_names_a_nameless_player_by_id(db) -> None:
    service = service_on(db)
    game = await start(service, mulligan_style="vancouver", players=[(ALICE, "Alice"), (123456789, "\u200b")])
    assert game.state.mulligan_style.value == "vancouver"
    assert [p.name for p in game.state.players] == ["Alice", "#6789"]
    reread = await PodService(db).get(game.game_id)
    assert reread.state.mulligan_style.value == "vancouver" and reread.state.player(123456789).name == "#6789"


async def test_seats_are_shuffled_without_a_seeded_generator(db) -> None:
    service = PodService(db)  # the system's generator, as in the bot
    game = await start(service)
    shuffled = await service.shuffle_seats(game.game_id, ALICE)
    assert sorted(p.user_id for p in shuffled.state.players) == [ALICE, BOB, CAROL]


# -- reading ----------------------------------------------------------------------------------------------


async def test_recent_lists_the_newest_ten_or_the_asked_number_and_a_channel_its_open_games(db) -> None:
    service = service_on(db)
    ids = [(await start(service, created_by=None, channel_id=CHANNEL + i % 2)).game_id for i in range(12)]
    assert [row.game_id for row in await service.recent(GUILD)] == ids[::-1][:10]
    assert [row.game_id for row in await service.recent(GUILD, 3)] == ids[::-1][:3]
    assert [row.game_id for row in await service.open_in_channel(CHANNEL + 1)] == ids[1::2][::-1]


async def test_the_board_poster_is_only_the_process_that_started_the_game(db) -> None:
    service = service_on(db)
    game = await start(service)
    assert await service.posting_here(game.game_id)
    assert not await PodService(db).posting_here(game.game_id)
    await service.set_message(game.game_id, CHANNEL + 1, 4242)
    assert not await service.posting_here(game.game_id)
    row = (await service.get(game.game_id)).row
    assert (row.channel_id, row.message_id) == (CHANNEL + 1, 4242)
    assert (await PodService(db).get(game.game_id)).row.message_id == 4242


async def test_a_board_behind_its_log_is_lagging_until_marked_shown(db) -> None:
    service = service_on(db)
    game = await start(service)
    other = await start(service)
    await service.mark_shown(other.game_id, 1)
    assert await service.lagging_boards() == [game.game_id]
    await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-1)
    await service.mark_shown(game.game_id, 1)
    assert await service.lagging_boards() == [game.game_id]
    await service.mark_shown(game.game_id, 2)
    assert await service.lagging_boards() == []


# -- what each stored event says ---------------------------------------------------------------------


async def test_every_change_is_stored_at_the_next_seq_by_its_actor(db) -> None:
    service = service_on(db, rng=random.Random(1))
    game = await start(service)
    await service.shuffle_seats(game.game_id, BOB)
    await service.change(game.game_id, CAROL, pod.LIFE, player=CAROL, amount=-3)
    await service.undo(game.game_id, CAROL)
    assert await stored(db, game.game_id) == [
        (1, pod.CREATE, ALICE),
        (2, pod.SEATS, BOB),
        (3, pod.LIFE, CAROL),
        (4, pod.UNDO, CAROL),
    ]
    assert [e.seq for e in (await service.get(game.game_id)).events] == [1, 2, 3, 4]


async def test_a_board_press_is_stored_with_its_change_on_either_try(tmp_path) -> None:
    path = tmp_path / "pods.sqlite3"
    db, other = await Database.open(path), await Database.open(path)
    try:
        service = service_on(db)
        game = await start(service)
        await service.change(game.game_id, BOB, pod.LIFE, press_id=501, player=BOB, amount=-1)
        # A second writer takes the next seq: the cached log is stale, the retry reads it fresh.
        await PodService(other).change(game.game_id, CAROL, pod.LIFE, player=CAROL, amount=-4)
        loaded = await service.change(game.game_id, BOB, pod.LIFE, press_id=502, player=BOB, amount=-2)
        assert (loaded.state.player(BOB).life, loaded.state.player(CAROL).life) == (37, 36)
        assert [e.seq for e in loaded.events] == [1, 2, 3, 4]
        assert await service.stored_presses([501, 502, 503]) == {501, 502}
        await service.forget_presses_before("2026-12-01T10:02:00+00:00")  # 501 was at 10:01
        assert await service.stored_presses([501, 502]) == {502}
    finally:
        await other.close()
        await db.close()


async def test_a_finished_game_stores_when_it_ended_and_its_statistics(db) -> None:
    service = service_on(db)  # 10:00 creation, one minute per change
    game = await start(service, players=PLAYERS[:2])
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    loaded = await service.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
    row = (await service.recent(GUILD))[0]
    assert (row.status, row.ended_at, row.survivors) == ("finished", "2026-12-01T10:02:00+00:00", [ALICE])
    assert loaded.row.status == "finished" and loaded.record is not None
    stats = await db.fetchone(
        "SELECT winner_id, duration_seconds, turns FROM stats_games WHERE game_id = ?", (game.game_id,)
    )
    assert tuple(stats) == (ALICE, 120, 1)


async def test_each_change_is_published_on_its_games_topic(db) -> None:
    service = service_on(db)
    game = await start(service)
    before = db.changes.version(pod_topic(game.game_id))
    await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-1)
    assert db.changes.version(pod_topic(game.game_id)) == before + 1


# -- who may change what -----------------------------------------------------------------------------


async def test_self_only_changes_name_the_refusal(db) -> None:
    service = service_on(db)
    game = await start(service)
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    await refused(service.change(game.game_id, BOB, pod.DRAW_VOTE, player=ALICE), "only_yourself")
    await refused(service.change(game.game_id, ALICE, pod.CONCEDE, player=BOB), "only_yourself")
    await refused(service.change(game.game_id, STRANGER, pod.CONCEDE, player=BOB), "not_your_game")


async def test_a_casual_game_takes_a_join_and_a_tournament_game_refuses_it(db) -> None:
    service = service_on(db)
    casual = await start(service, players=PLAYERS[:2])
    joined = await service.change(casual.game_id, CAROL, pod.JOIN, player=CAROL, name="Carol")
    assert joined.state.is_player(CAROL)
    table = await start(service, players=PLAYERS[:2], tournament_id=3, round_number=1)
    await refused(
        service.change(table.game_id, CAROL, pod.JOIN, player=CAROL, name="Carol"), "tournament_seats"
    )
    duel = await start(service, players=PLAYERS[:2], match={"id": 1, "game": 1, "swaps": {}})
    await refused(service.change(duel.game_id, CAROL, pod.JOIN, player=CAROL, name="Carol"), "match_seats")


async def test_only_an_organiser_stops_a_tournament_game_and_a_player_stops_a_casual_one(db) -> None:
    service = service_on(db)
    table = await start(service, tournament_id=3, round_number=1)
    await refused(service.change(table.game_id, ALICE, pod.STOP), "tournament_end_organisers")
    stopped = await service.change(table.game_id, STRANGER, pod.STOP, manager=True)
    assert stopped.state.finished
    casual = await start(service)
    assert (await service.change(casual.game_id, BOB, pod.STOP)).state.finished


async def test_undo_with_own_totals_only_drops_only_the_callers_changes_unless_a_manager(db) -> None:
    service = service_on(db)
    game = await start(service, own_totals_only=True)
    await service.change(game.game_id, ALICE, pod.LIFE, player=ALICE, amount=-5)
    await refused(service.undo(game.game_id, BOB), "undo_not_yours")
    assert (await service.undo(game.game_id, ALICE)).state.player(ALICE).life == 40
    await service.change(game.game_id, ALICE, pod.LIFE, player=ALICE, amount=-5)
    undone = await service.undo(game.game_id, STRANGER, manager=True)
    assert undone.state.player(ALICE).life == 40
    casual = await start(service)  # without the option any player undoes the table's last change
    await service.change(casual.game_id, ALICE, pod.LIFE, player=ALICE, amount=-5)
    assert (await service.undo(casual.game_id, BOB)).state.player(ALICE).life == 40


async def test_a_stranger_shuffles_seats_only_with_manage_server(db) -> None:
    service = service_on(db, rng=random.Random(2))
    game = await start(service)
    await refused(service.shuffle_seats(game.game_id, STRANGER), "not_your_game")
    shuffled = await service.shuffle_seats(game.game_id, STRANGER, manager=True)
    assert shuffled.events[-1].kind == pod.SEATS


async def test_an_abandoned_match_game_takes_no_change(db) -> None:
    service = service_on(db)
    game = await start(service, players=PLAYERS[:2])
    await db.execute("UPDATE pod_games SET status = 'abandoned' WHERE game_id = ?", (game.game_id,))
    service.forget(game.game_id)
    await refused(service.change(game.game_id, ALICE, pod.NEXT_TURN), "game_abandoned")


# -- failed writes -------------------------------------------------------------------------------------


async def test_a_write_the_database_keeps_refusing_is_a_conflict_and_changes_nothing(tmp_path) -> None:
    db = await Database.open(tmp_path / "pods.sqlite3")
    try:
        service = service_on(db)
        game = await start(service)
        await db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON pod_events BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
        await refused(service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-9), "conflict")
        assert (await service.get(game.game_id)).state.player(BOB).life == 40
        assert len((await service.get(game.game_id)).events) == 1
    finally:
        await db.close()


async def test_a_write_that_fails_otherwise_leaves_the_cached_game_as_it_was(tmp_path) -> None:
    db = await Database.open(tmp_path / "pods.sqlite3")
    try:
        service = service_on(db)
        game = await start(service, players=PLAYERS[:2])
        await service.change(game.game_id, ALICE, pod.NEXT_TURN)
        # The finish's statistics cannot be written: the whole change fails, with no integrity conflict.
        await db.execute("DROP TABLE stats_players")
        with pytest.raises(Exception) as excinfo:
            await service.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
        assert not isinstance(excinfo.value, PodError)
        loaded = await service.get(game.game_id)
        assert not loaded.state.finished and loaded.state.player(BOB).alive
        assert [e.kind for e in loaded.events] == [pod.CREATE, pod.NEXT_TURN]
        assert json.loads(json.dumps(await stored(db, game.game_id))) == [
            [1, "create", ALICE],
            [2, "next_turn", ALICE],
        ]
    finally:
        await db.close()
