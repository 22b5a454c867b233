"""StatsService's exact figures where an earlier test let a wrong one pass: the leaderboard page ranks the
top 50 members (not the storage's default of 10, nor 51), and a game marked finished whose log never
ended it is stored as it stood at its start, whatever was played after."""

from __future__ import annotations

from bot.domain import pod
from bot.services.pods import PodService
from bot.services.stats import StatsService

GUILD = 77
MEMBERS = 51  # one more than the page ranks


async def test_the_leaderboard_ranks_the_top_fifty_members(db) -> None:
    """51 members with three or more games each: the page lists 50, the one left out the last by win rate."""
    pods = PodService(db)
    members = list(range(1, MEMBERS + 1))
    for number in range(20):  # 20 games of 8: every member plays 3 or 4 games
        seats = [members[(number * 8 + seat) % MEMBERS] for seat in range(8)]
        game = await pods.start_game(
            guild_id=GUILD,
            channel_id=None,
            created_by=seats[0],
            ruleset="commander",
            players=[(user, f"p{user}") for user in seats],
        )
        await pods.change(game.game_id, seats[0], pod.NEXT_TURN)
        for user in seats[1:]:
            await pods.change(game.game_id, user, pod.CONCEDE, player=user)
    service = StatsService(db)
    lines = await service.leaderboard(GUILD)
    assert len(lines) == 50 and all(line.games >= 3 for line in lines)
    everyone = await service.leaderboard(GUILD, limit=MEMBERS)
    assert lines == everyone[:50] and len(everyone) == MEMBERS
    assert len(await service.leaderboard(GUILD, limit=3)) == 3


async def test_a_game_its_log_never_ended_is_stored_as_it_stood_at_its_start(db) -> None:
    """A crash mid-write left games marked finished before their log ended them: the backfill counts each
    as not played, as it stood at its start (no turn played, no winner), not the turns its log went on to."""
    pods = PodService(db)
    players = [(1, "Alice"), (2, "Bob")]
    games = []
    for passes in (0, 3):
        game = await pods.start_game(
            guild_id=GUILD, channel_id=9, created_by=1, ruleset="commander", players=players
        )
        for actor in (1, 2, 1)[:passes]:
            await pods.change(game.game_id, actor, pod.NEXT_TURN)
        await db.execute("UPDATE pod_games SET status = 'finished' WHERE game_id = ?", (game.game_id,))
        games.append(game.game_id)
    assert await StatsService(db).backfill() == 2
    rows = [
        await db.fetchone(
            "SELECT counted, turns, winner_id, player_count FROM stats_games WHERE game_id = ?", (game_id,)
        )
        for game_id in games
    ]
    assert [tuple(row) for row in rows if row is not None] == [(0, 0, None, 0), (0, 0, None, 0)]
