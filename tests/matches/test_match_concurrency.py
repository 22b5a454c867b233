"""Two presses of "next game" at once start one game: the match's lock makes the second see the first's
game in progress and refuse, where without it both would start a pod game and one of them would be left
outside the match (its record refused by the match log's key)."""

from __future__ import annotations

import asyncio

from bot.domain import match as m
from bot.services.matches import MatchService
from bot.services.pods import PodService
from tests.matches.test_match_service_exact import ALICE, BOB, _lose, _start


async def test_two_next_game_presses_at_once_start_one_game(db, clock) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await _start(matches)
    await _lose(pods, game.game_id, BOB)
    match_id = loaded.row.match_id
    outcomes = await asyncio.gather(
        matches.next_game(match_id, BOB, BOB), matches.next_game(match_id, BOB, ALICE), return_exceptions=True
    )
    started = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(started) == 1 and len(refused) == 1
    assert isinstance(refused[0], m.MatchError), refused[0]
    assert await db.scalar("SELECT COUNT(*) FROM pod_games") == 2  # game 1 and the one game 2
    assert [g.number for g in (await matches.get(match_id)).state.games] == [1, 2]
