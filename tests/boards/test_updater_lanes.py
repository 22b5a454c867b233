"""The boards' edit queue (cogs/_updater.py) without Discord: a burst of presses is one edit of the final
state, edits of one channel take turns in its lane while other channels go on, every feature of a bot
shares its lanes, a failed edit is logged and the next press edits again, and a long ``retry_after`` asks
again later on the bot's clock, once, with the lane free meanwhile."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import pytest

from bot.clock import FakeClock
from bot.i18n import name_commands_as_client, t
from cogs._updater import BoardUpdater, ChannelLanes, EditLater, lanes_of

CHANNELS = {1: 100, 2: 100, 3: 200}  # boards 1 and 2 share a channel, board 3 is elsewhere


async def channel_of(key: int) -> int | None:
    return CHANNELS[key]


class Board:
    """The refresh of a board kind: records each edit, and can be held (a throttled request) or fail."""

    def __init__(self) -> None:
        self.edits: list[int] = []
        self.held: dict[int, asyncio.Event] = {}
        self.failures: dict[int, BaseException] = {}

    async def refresh(self, key: int) -> None:
        if key in self.held:
            await self.held[key].wait()
        failure = self.failures.pop(key, None)
        if failure is not None:
            raise failure
        self.edits.append(key)


def updater(board: Board, **kwargs: object) -> BoardUpdater:
    return BoardUpdater(board.refresh, 0, channel_of=channel_of, **kwargs)  # type: ignore[arg-type]


def task_named(name: str) -> asyncio.Task[object]:
    """The running task of that name, as a task dump (``asyncio.all_tasks()``) lists it."""
    [task] = [task for task in asyncio.all_tasks() if task.get_name() == name]
    return task


async def test_a_burst_of_presses_is_one_edit() -> None:
    board = Board()
    boards = updater(board)
    for _ in range(5):
        boards.request(1)
    assert boards.pending()
    await boards.flush()
    assert board.edits == [1] and boards.edits == 1 and not boards.pending()
    boards.request(1)  # a later press: a new edit
    await boards.flush()
    assert board.edits == [1, 1] and boards.edits == 2


async def test_one_channel_takes_turns_and_another_channel_never_waits() -> None:
    board = Board()
    board.held[1] = asyncio.Event()  # board 1's edit waits inside its request
    boards = updater(board)
    boards.request(1)
    await asyncio.sleep(0.01)
    boards.request(2)  # same channel: waits for board 1's edit
    boards.request(3)  # another channel: goes ahead
    await asyncio.sleep(0.05)
    assert board.edits == [3]
    board.held[1].set()
    await boards.flush()
    assert board.edits == [3, 1, 2]


async def test_presses_while_a_board_waits_for_its_lane_are_one_edit() -> None:
    board = Board()
    boards = updater(board)
    lanes = boards.lanes
    async with lanes.lane(100):  # the channel is busy
        for _ in range(3):
            boards.request(2)
            await asyncio.sleep(0.01)
        assert board.edits == []
    await boards.flush()
    assert board.edits == [2]


async def test_every_updater_of_a_bot_shares_its_channels_lanes() -> None:
    class Bot:
        pass

    bot = Bot()
    lanes = lanes_of(bot)
    assert lanes_of(bot) is lanes and isinstance(lanes, ChannelLanes)
    assert lanes.lane(100) is lanes.lane(100) and lanes.lane(100) is not lanes.lane(200)
    pods, events = Board(), Board()
    pod_boards, event_boards = updater(pods, lanes=lanes), updater(events, lanes=lanes_of(bot))
    async with lanes.lane(100):  # a pod board's edit in #general ...
        event_boards.request(1)  # ... holds the event announcement in #general
        await asyncio.sleep(0.05)
        assert events.edits == []
    await event_boards.flush()
    await pod_boards.flush()
    assert events.edits == [1]
    assert isinstance(lanes_of(object()), ChannelLanes)  # an owner taking no attributes still gets lanes


async def test_a_failed_edit_is_logged_and_the_next_press_edits_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    board = Board()
    board.failures[3] = RuntimeError("Discord said no")
    boards = BoardUpdater(board.refresh, 0, what="event announcement", channel_of=channel_of)
    with caplog.at_level(logging.ERROR, logger="cogs._updater"):
        boards.request(3)
        await boards.flush()
    [failed] = caplog.records
    assert failed.getMessage() == "could not update event announcement 3" and failed.exc_info is not None
    assert board.edits == [] and boards.edits == 0
    boards.request(3)
    await boards.flush()
    assert board.edits == [3] and boards.edits == 1


async def test_an_unknown_board_gets_a_lane_of_its_own() -> None:
    board = Board()
    boards = updater(board)
    async with boards.lanes.lane(100):
        await boards.refresh_now(99)  # channel_of fails for it: it waits behind no channel
        await asyncio.sleep(0)
    assert board.edits == [99]


async def test_a_long_retry_after_asks_once_more_later_on_the_bots_clock() -> None:
    clock = FakeClock()
    board = Board()
    board.failures[1] = EditLater(45.0)
    boards = updater(board, clock=clock)
    boards.request(1)
    await boards.flush()
    assert board.edits == [] and not boards.pending(), "the wait holds neither the key nor its lane"
    board.failures[1] = EditLater(45.0)  # a press meanwhile is refused again: still one later ask
    await boards.refresh_now(1)
    assert not task_named("board-1-later").done(), "one later ask, not one per refusal"
    assert str(EditLater(45.0)) == "edit again in 45.0 s"
    await clock.advance(seconds=44)
    await asyncio.sleep(0)
    assert board.edits == []
    await clock.advance(seconds=1)
    await asyncio.sleep(0)
    await boards.flush()
    assert board.edits == [1]
    await clock.advance(seconds=60)
    await asyncio.sleep(0)
    await boards.flush()
    assert board.edits == [1], "one later edit per refusal, not one per press"


async def test_cancel_stops_queued_and_later_edits() -> None:
    clock = FakeClock()
    board = Board()
    board.failures[1] = EditLater(10.0)
    boards = updater(board, clock=clock)
    boards.request(1)
    await boards.flush()
    boards.delay = 5  # the next press waits its debounce ...
    boards.request(2)
    boards.cancel()  # ... when the cog is unloaded
    await asyncio.sleep(0)
    await clock.advance(seconds=10)
    await asyncio.sleep(0.01)
    assert board.edits == [] and not boards.pending()


async def test_a_catch_up_refresh_waits_for_its_channels_lane() -> None:
    """A start-up catch-up edit shares Discord's bucket with the channel's other boards: it takes turns."""
    board = Board()
    boards = updater(board)
    lane = boards.lanes.lane(100)
    await lane.acquire()  # board 2's edit in the same channel is under way
    catch_up = asyncio.get_running_loop().create_task(boards.refresh_now(1))
    await asyncio.sleep(0.05)
    assert board.edits == []
    lane.release()
    await catch_up
    assert board.edits == [1]


async def let_go(task: asyncio.Task[object]) -> bool:
    """Whether ``task``, once finished and the loop moved on, is held by no one (the updater included)."""
    await asyncio.wait({task})
    gone = weakref.ref(task)
    del task
    await asyncio.sleep(0)
    gc.collect()
    return gone() is None


async def test_a_task_dump_names_each_edit_and_later_ask_by_its_board() -> None:
    """A board stuck in its edit is found in a task dump by its kind and key, its later ask too."""
    clock = FakeClock()
    board = Board()
    board.failures[3] = EditLater(45.0)
    boards = BoardUpdater(board.refresh, 0, what="event announcement", channel_of=channel_of, clock=clock)
    boards.request(3)
    assert not task_named("event announcement-3").done()
    await boards.flush()
    assert not task_named("event announcement-3-later").done()
    boards.cancel()


async def test_a_finished_edit_is_let_go() -> None:
    """A bot edits its boards for months: a finished edit's task must not stay held, one per board."""
    board = Board()
    boards = updater(board)
    boards.request(1)
    assert await let_go(task_named("board-1")) and board.edits == [1]


async def test_a_later_ask_is_let_go_once_it_asked() -> None:
    clock = FakeClock()
    board = Board()
    board.failures[1] = EditLater(45.0)
    boards = updater(board, clock=clock)
    boards.request(1)
    await boards.flush()
    later = asyncio.get_running_loop().create_task(let_go(task_named("board-1-later")))
    await clock.advance(seconds=45)
    assert await later
    await boards.flush()
    assert board.edits == [1]


SHARED = "/ハイドラ 再開"  # how a Japanese message names /hydra resume, whatever client reads it


async def test_edits_and_later_edits_name_commands_for_everyone_not_as_the_presser() -> None:
    """A board is shown to everyone: its redraw after a press, or after a refusal, must not name commands
    as the pressing member's Discord client lists them (an English client here)."""
    clock = FakeClock()
    shown: list[str] = []
    later = asyncio.Event()

    async def redraw(key: int) -> None:
        if key == 2 and not later.is_set():
            later.set()
            raise EditLater(45.0)
        shown.append(t("hydra.ui.paused", "ja", minutes=30))

    boards = BoardUpdater(redraw, 0, channel_of=channel_of, clock=clock)
    name_commands_as_client("en-US")
    boards.request(1)
    await boards.flush()
    await boards.refresh_now(2)  # refused: asked again later, from a task of its own
    await asyncio.sleep(0)  # the later ask parks on the clock
    await clock.advance(seconds=45)
    await asyncio.sleep(0)
    await boards.flush()
    assert len(shown) == 2 and all(SHARED in text for text in shown), shown


async def test_waiting_for_edits_just_cancelled_returns() -> None:
    """Shutdown cancels the queued edits and may then wait for them: a cancelled edit counts as done."""
    board = Board()
    boards = updater(board)
    boards.delay = 5
    boards.request(1)
    boards.request(3)
    boards.cancel()
    await boards.flush()
    assert board.edits == [] and not boards.pending()
