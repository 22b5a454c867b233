"""Season storage on both engines: the standings summed in SQL rank exactly as the domain ranks the same
games line by line, counting only the games whose stored state counts; a game is scored once; the unique
indexes keep one open season per server and a name once."""

from __future__ import annotations

import random

import pytest

from bot.domain import season as rules
from bot.domain.season import PointsRule, SeatResult
from bot.services.seasons import SeasonService
from bot.storage.seasons import SeasonRepository, SeasonTaken

GUILD = 1000


async def pod_games(db, game_ids) -> None:
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO pod_games (game_id, guild_id, created_at, ruleset, status) "
            "VALUES (?, ?, ?, ?, 'finished')",
            [(g, GUILD, "2026-12-01T00:00:00+00:00", "commander") for g in game_ids],
        )


def random_table(rng: random.Random) -> list[SeatResult]:
    users = rng.sample(range(1, 9), rng.randint(2, 4))
    winner = rng.choice(users + [None])
    return [
        SeatResult(
            user_id=u,
            name=f"p{u}",
            seat=i,
            won=u == winner,
            survived=winner is None,
            eliminations=rng.randint(0, 2),
            points=rng.randint(-3, 9),
        )
        for i, u in enumerate(users, 1)
    ]


@pytest.mark.parametrize("seed", range(3))
async def test_sql_totals_rank_as_the_domain_ranks_the_counting_games(db, seed: int) -> None:
    rng = random.Random(seed)
    service = SeasonService(db)
    season = await service.open(GUILD, "Spring", PointsRule(min_games=2))
    await pod_games(db, range(1, 31))
    tables = {game_id: random_table(rng) for game_id in range(1, 31)}
    counting = []
    for game_id, seats in tables.items():
        assert await service.repo.add_game(
            season.season_id, game_id, seats, channel_id=None, finished_at=None
        )
        for seat in seats:
            if rng.random() < 0.8:
                await service.answer(
                    GUILD, game_id, seat.user_id, rng.choice([rules.CONFIRM, rules.CONFIRM, rules.DISPUTE])
                )
        if rng.random() < 0.2:
            await service.decide(GUILD, game_id, rng.choice(rules.DECISIONS), decided_by=99)
        _, stored = await service.game(GUILD, game_id)
        if stored.state.counts:
            counting.append((game_id, seats))
    standings = await service.standings(season)
    assert standings.lines == rules.standings(counting, season.rule)
    assert counting and standings.lines  # the draw gave something to rank


async def test_a_game_is_scored_once_and_the_indexes_hold(db) -> None:
    repo = SeasonRepository(db)
    season_id = await repo.create(
        GUILD, "Spring", PointsRule(), league_only=False, opened_by=1, opened_at="t"
    )
    with pytest.raises(SeasonTaken):
        await repo.create(GUILD, "Summer", PointsRule(), league_only=False, opened_by=1, opened_at="t")
    assert await repo.close(season_id, 1, "t2") and not await repo.close(season_id, 1, "t3")
    with pytest.raises(SeasonTaken):
        await repo.create(GUILD, "Spring", PointsRule(), league_only=False, opened_by=1, opened_at="t")
    other = await repo.create(
        GUILD + 1, "Spring", PointsRule(), league_only=False, opened_by=1, opened_at="t"
    )
    await pod_games(db, [1])
    seats = [
        SeatResult(user_id=5, name="five", seat=1, won=True, survived=False, eliminations=0, points=3),
        SeatResult(user_id=6, name="six", seat=2, won=False, survived=False, eliminations=0, points=0),
    ]
    assert await repo.add_game(other, 1, seats, channel_id=None, finished_at=None)
    assert not await repo.add_game(other, 1, seats, channel_id=None, finished_at=None)
    assert await db.scalar("SELECT COUNT(*) FROM season_game_players") == 2
