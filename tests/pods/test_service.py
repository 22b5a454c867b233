"""PodService on a real SQLite file: commit before result, locks, restart, finish notification."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.domain import pod
from bot.domain.pod import PodError, commander_key
from bot.services.pods import PodService
from bot.storage.db import Database

ALICE, BOB, CAROL, STRANGER = 11, 22, 33, 99
PLAYERS = [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")]


async def _start(service: PodService, **options):
    return await service.start_game(
        guild_id=5,
        channel_id=6,
        created_by=ALICE,
        players=PLAYERS,
        ruleset=options.pop("ruleset", "commander"),
        **options,
    )


async def test_each_change_is_stored_and_survives_a_restart(db_url):
    db = await Database.open(db_url)
    service = PodService(db)
    game = await _start(service)
    await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-7)
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    await db.close()

    reopened = await Database.open(db_url)
    try:
        fresh = PodService(reopened)  # a new process: nothing cached
        loaded = await fresh.get(game.game_id)
        assert loaded.state.player(BOB).life == 33 and loaded.state.turn == 1
        assert [e.kind for e in loaded.events] == [pod.CREATE, pod.LIFE, pod.NEXT_TURN]
    finally:
        await reopened.close()


async def test_refused_changes_store_nothing(db):
    service = PodService(db)
    game = await _start(service)
    with pytest.raises(PodError) as excinfo:
        await service.change(game.game_id, STRANGER, pod.LIFE, player=BOB, amount=-1)
    assert excinfo.value.key == "pod.error.not_your_game"
    with pytest.raises(PodError, match="bad_amount"):
        await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount="lots")
    with pytest.raises(PodError, match="only_yourself"):
        await service.change(game.game_id, BOB, pod.DRAW_VOTE, player=ALICE)
    assert await db.scalar("SELECT COUNT(*) FROM pod_events WHERE game_id = ?", (game.game_id,)) == 1
    # A manager (Manage Server) may change any game.
    await service.change(game.game_id, STRANGER, pod.LIFE, player=BOB, amount=-1, manager=True)


async def test_own_totals_only(db):
    service = PodService(db)
    game = await _start(service, own_totals_only=True)
    with pytest.raises(PodError, match="own_totals_only"):
        await service.change(game.game_id, BOB, pod.LIFE, player=ALICE, amount=-1)
    await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-1)


async def test_simultaneous_presses_are_all_applied(db_url):
    db = await Database.open(db_url)
    service = PodService(db)
    game = await _start(service)
    presses = [
        service.change(game.game_id, user, pod.LIFE, player=user, amount=-1)
        for user, _ in PLAYERS
        for _ in range(10)
    ]
    await asyncio.gather(*presses)
    assert [p.life for p in (await service.get(game.game_id)).state.players] == [30, 30, 30]
    await db.close()
    reopened = await Database.open(db_url)
    try:
        state = (await PodService(reopened).get(game.game_id)).state
        assert [p.life for p in state.players] == [30, 30, 30]
    finally:
        await reopened.close()


async def test_undo_is_stored_as_an_event(db):
    service = PodService(db)
    game = await _start(service)
    await service.change(game.game_id, BOB, pod.LIFE, player=BOB, amount=-7)
    loaded = await service.undo(game.game_id, BOB)
    assert loaded.state.player(BOB).life == 40
    assert (await PodService(db).get(game.game_id)).state.player(BOB).life == 40
    with pytest.raises(PodError, match="not_your_game"):
        await service.undo(game.game_id, STRANGER)


async def test_seat_shuffle_is_a_permutation(db):
    service = PodService(db, rng=random.Random(3))
    game = await _start(service)
    loaded = await service.shuffle_seats(game.game_id, ALICE)
    assert sorted(p.user_id for p in loaded.state.players) == [ALICE, BOB, CAROL]
    assert loaded.events[-1].kind == pod.SEATS


async def test_finish_notifies_once_with_a_tournament_record(db):
    heard = []
    service = PodService(db, notify=lambda name, payload: heard.append((name, payload)))
    game = await _start(service, tournament_id=4, round_number=2)
    await service.change(game.game_id, ALICE, pod.COMMANDERS, player=ALICE, names=["Atraxa, Praetors' Voice"])
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    atraxa = commander_key(ALICE, 0)
    await service.change(game.game_id, ALICE, pod.CAST, commander=atraxa)
    await service.change(game.game_id, ALICE, pod.COMMANDER_DAMAGE, commander=atraxa, target=BOB, amount=21)
    assert heard == []
    await service.change(game.game_id, CAROL, pod.CONCEDE, player=CAROL)
    assert [name for name, _ in heard] == ["pod_game_finished"]
    record = heard[0][1]
    assert (record.guild_id, record.channel_id, record.game_id) == (5, 6, game.game_id)
    assert (record.tournament_id, record.round_number) == (4, 2)
    assert record.survivors == [ALICE] and record.winner == ALICE and not record.draw
    assert [(p.user_id, p.name) for p in record.players] == PLAYERS
    assert record.combat_damage == {1: {ALICE: 21}}
    assert record.casts[0]["tax"] == 0
    assert [(e.player, e.reason) for e in record.eliminations] == [
        (BOB, pod.LOST_COMMANDER_DAMAGE),
        (CAROL, pod.LOST_CONCEDED),
    ]
    row = (await service.recent(5))[0]
    assert (row.status, row.ended, row.survivors) == ("finished", pod.END_LAST_STANDING, [ALICE])
    with pytest.raises(PodError, match="game_over"):
        await service.change(game.game_id, ALICE, pod.LIFE, player=ALICE, amount=1)


async def test_bad_start_stores_nothing(db):
    service = PodService(db)
    with pytest.raises(PodError, match="unknown_ruleset"):
        await _start(service, ruleset="modern")
    with pytest.raises(PodError, match="out_of_range"):
        await _start(service, starting_life=0)
    assert await db.scalar("SELECT COUNT(*) FROM pod_games") == 0


async def test_conceding_for_someone_else_needs_manage_server(db):
    service = PodService(db)
    game = await _start(service)
    await service.change(game.game_id, ALICE, pod.NEXT_TURN)
    with pytest.raises(PodError, match="own_totals_only|only_yourself|not_your_game") as excinfo:
        await service.change(game.game_id, STRANGER, pod.CONCEDE, player=BOB)
    assert excinfo.value.key == "pod.error.not_your_game"
    with pytest.raises(PodError, match="only_yourself"):
        await service.change(game.game_id, ALICE, pod.CONCEDE, player=BOB)
    loaded = await service.change(game.game_id, STRANGER, pod.CONCEDE, player=BOB, manager=True)
    assert loaded.state.player(BOB).eliminated.reason == pod.LOST_CONCEDED
