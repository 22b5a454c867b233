"""TournamentRepository on a real SQLite file: upserted votes, close-once, idempotent games, atomic rounds."""

from __future__ import annotations

import pytest

from bot.storage.db import Database, IntegrityError
from bot.storage.tournaments import GamePlayer, TournamentGame, TournamentRepository


async def tournament(repo: TournamentRepository):
    return await repo.create(
        guild_id=1,
        channel_id=2,
        name="T",
        scoring="democratic",
        win_points=0,
        draw_points=0,
        survival_points=2,
        vote_points=1,
        elimination_points=0,
        rounds=3,
        seed=99,
    )


def finished(tournament_id: int, game_id: int = 7) -> TournamentGame:
    return TournamentGame(
        game_id,
        tournament_id,
        1,
        2,
        False,
        False,
        "2026-11-29T18:00:00+00:00",
        "2026-11-29T18:10:00+00:00",
        None,
        players=[GamePlayer(10, 1, True), GamePlayer(20, 2, False, combat_damage=9)],
    )


async def test_schema_version_and_round_trip(db):
    assert await db.scalar("SELECT MAX(version) FROM schema_version") >= 7
    repo = TournamentRepository(db)
    created = await tournament(repo)
    assert (created.scoring, created.remainder_size, created.vote_minutes, created.status) == (
        "democratic",
        3,
        10,
        "open",
    )
    assert await repo.active(1) == created and await repo.active(2) is None


async def test_a_changed_vote_replaces_the_row(db):
    repo = TournamentRepository(db)
    t = await tournament(repo)
    await repo.add_game(finished(t.tournament_id))
    await repo.cast_vote(7, 10, 20)
    await repo.cast_vote(7, 10, 30)
    assert await repo.votes(7) == {10: 30}
    assert await db.scalar("SELECT COUNT(*) FROM tournament_votes") == 1


async def test_game_stored_once_and_vote_closes_once(db):
    repo = TournamentRepository(db)
    t = await tournament(repo)
    assert await repo.add_game(finished(t.tournament_id))
    assert not await repo.add_game(finished(t.tournament_id))
    stored = await repo.game(7)
    assert stored.vote_open and [p.combat_damage for p in stored.players] == [0, 9]
    assert [g.game_id for g in await repo.games_with_open_votes()] == [7]
    assert await repo.close_vote(7, "2026-11-29T18:05:00+00:00")
    assert not await repo.close_vote(7, "2026-11-29T18:06:00+00:00")
    assert (await repo.game(7)).vote_closed_at == "2026-11-29T18:05:00+00:00"
    assert await repo.games_with_open_votes() == []


async def test_a_round_is_stored_all_or_nothing(db_url):
    db = await Database.open(db_url)
    repo = TournamentRepository(db)
    t = await tournament(repo)
    with pytest.raises(IntegrityError):
        await repo.store_round(t.tournament_id, 1, [[1, 2, 3], [4, 5, 5]])  # a seat twice: refused
    assert await repo.pods(t.tournament_id) == []
    assert (await repo.get(t.tournament_id)).current_round == 0
    await repo.store_round(t.tournament_id, 1, [[1, 2, 3], [4, 5, 6]])
    await db.close()
    db = await Database.open(db_url)
    try:
        pods = await TournamentRepository(db).pods(t.tournament_id, 1)
        assert [p.seats for p in pods] == [[1, 2, 3], [4, 5, 6]]
    finally:
        await db.close()
