"""One channel's trouble never delays another channel's boards.

Discord's rate limits are per channel, and discord.py waits them out inside the edit request. The bot once
had one render slot for every board of the process, held across that request: a burst or a 429 in one
channel held every other server's boards (2.7 s instead of 0.44 s; 7.7 s behind an 8 s retry_after).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.client import MAX_RATELIMIT_WAIT
from bot.testing import DiscordHarness
from tests.boards.helpers import CARDS, MEMBERS, life_on_board, pods, start_pod


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=MEMBERS) as harness:
        pods(harness).updater.delay = 0
        harness.add_channel("games")
        yield harness


async def test_a_channel_stuck_in_its_edit_does_not_hold_another_channels_board(h):
    stuck_board = await start_pod(h, "general")
    quiet_board = await start_pod(h, "games", "carol", "dave")
    await h.settle()
    cog = pods(h)
    refresh, stuck, release = cog.refresh_board, asyncio.Event(), asyncio.Event()
    stuck_channel = stuck_board.message.channel_id

    async def refresh_waiting_in_general(game_id: int) -> None:
        """The edit of the board in #general waits as discord.py does inside a throttled request."""
        if await cog.board_channel(game_id) == stuck_channel:
            stuck.set()
            await release.wait()
        await refresh(game_id)

    cog.updater.refresh = refresh_waiting_in_general
    await h.click(stuck_board, label="-1", user="bob")
    await asyncio.wait_for(stuck.wait(), timeout=10)  # a safety net only: the edit starts at once
    await h.click(quiet_board, label="-5", user="dave")
    await h.settle()  # returns while the #general edit still waits (a task parked on an event)
    assert life_on_board(quiet_board.message)[1] == "2 dave (35)"  # the quiet channel's board followed
    assert life_on_board(stuck_board.message)[1] == "2 bob (40)"  # the stuck one has not yet
    release.set()
    await cog.updater.flush()
    assert life_on_board(stuck_board.message)[1] == "2 bob (39)"


async def test_boards_of_one_channel_take_turns(h):
    """Two boards in one channel share Discord's bucket: the second waits for the first's edit."""
    first = await start_pod(h, "general")
    second = await start_pod(h, "general", "carol", "dave")
    await h.settle()
    cog = pods(h)
    async with cog.updater.lanes.lane(first.message.channel_id):  # the channel's lane is taken
        await h.click(second, label="-5", user="dave")
        await h.settle()
        assert life_on_board(second.message)[1] == "2 dave (40)"
    await cog.updater.flush()
    assert life_on_board(second.message)[1] == "2 dave (35)"


async def test_a_long_retry_after_is_raised_not_slept_inside_the_request(h):
    """discord.py sleeps out a 429 inside the request unless told a limit: past 30 s it raises
    ``RateLimited`` instead, and the board asks for a later edit (or a fresh post) holding nothing."""
    assert h.bot.http.max_ratelimit_timeout == MAX_RATELIMIT_WAIT == 30.0


async def test_a_long_retry_after_leads_to_a_later_edit_with_the_lane_free_meanwhile(h):
    throttled = await start_pod(h, "general")
    neighbour = await start_pod(h, "general", "carol", "dave")
    await h.settle()
    h.fake.rate_limiter.throttle_next(throttled.message.channel_id, 45.0)
    await h.click(throttled, label="-1", user="bob")
    await h.settle()
    assert life_on_board(throttled.message)[1] == "2 bob (40)"  # Discord said: not for 45 s
    await h.click(neighbour, label="-5", user="dave")  # the channel's lane is not held meanwhile
    await h.settle()
    await pods(h).updater.flush()
    assert life_on_board(neighbour.message)[1] == "2 dave (35)"
    await h.advance(46)  # on the bot's clock: the board is asked for again
    await pods(h).updater.flush()
    assert life_on_board(throttled.message)[1] == "2 bob (39)"
