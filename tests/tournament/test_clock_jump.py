"""A wrong wall clock at start (a Raspberry Pi before NTP answers): a vote with a 1-minute deadline was
re-armed from its stored deadline as the clock read it, a day late after a one-day jump back. Now the
re-arm notices that the deadline is further away than its whole length and waits that length, logging
the jump once. Through the real vote: a tournament game finishes, the bot restarts a day behind."""

from __future__ import annotations

import logging

from tests.tournament.test_cog import finish_linked_game, h, start_tournament, vote_message

__all__ = ["h"]  # the harness fixture of the tournament cog tests


async def test_a_vote_re_armed_after_the_clock_jumped_back_closes_within_its_length(h, caplog) -> None:
    tournament = await start_tournament(h, vote_minutes=1)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    h.clock.jump(days=-1)  # the machine restarts with its clock a day behind
    caplog.set_level(logging.WARNING)
    await h.restart()
    await h.advance(seconds=59)
    assert message.embeds[0]["title"] != f"Game {game_id}: result of the vote"  # still open
    await h.advance(seconds=1)
    await h.settle()
    assert message.embeds[0]["title"] == f"Game {game_id}: result of the vote"
    jumped = [r.getMessage() for r in caplog.records if "the clock jumped back?" in r.getMessage()]
    assert len(jumped) == 1 and f"the vote of game {game_id}" in jumped[0], jumped


async def test_a_clock_that_is_right_keeps_the_stored_deadline(h) -> None:
    tournament = await start_tournament(h, vote_minutes=5)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    await h.advance(minutes=3)
    await h.restart()
    await h.advance(minutes=1, seconds=59)
    assert message.embeds[0]["title"] != f"Game {game_id}: result of the vote"
    await h.advance(seconds=1)
    await h.settle()
    assert message.embeds[0]["title"] == f"Game {game_id}: result of the vote"
