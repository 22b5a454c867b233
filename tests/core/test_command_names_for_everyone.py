"""Work started by a member's interaction that shows something to everyone later (a board redrawn after a
press, a timer armed by it) names commands in the shared message's own language, not as the pressing
member's Discord client lists them: tasks inherit their creator's context, the client's names included."""

from __future__ import annotations

import asyncio

from bot.clock import FakeClock
from bot.i18n import name_commands_as_client, t
from cogs._timers import Timers
from cogs._updater import BoardUpdater

SHARED = "/ハイドラ 再開"  # how a Japanese message names /hydra resume
PRESSERS = "/hydra resume"  # how an English client lists it


def paused_notice() -> str:
    return t("hydra.ui.paused", "ja", minutes=30)


async def test_the_pressers_own_reply_follows_their_client() -> None:
    name_commands_as_client("en-US")
    assert PRESSERS in paused_notice()  # what the rule is for: the member's reply


async def test_a_timer_armed_by_a_press_names_commands_for_everyone() -> None:
    clock, shown = FakeClock(), []
    name_commands_as_client("en-US")  # the press that armed it came from an English client
    timers: Timers[int] = Timers(clock, "test")

    async def pause() -> None:
        shown.append(paused_notice())

    timers.after(1, 60, pause)
    await asyncio.sleep(0)  # the timer's task starts and parks on the clock
    await clock.advance(seconds=60)
    await asyncio.sleep(0)
    assert shown and SHARED in shown[0]


async def test_a_board_redrawn_after_a_press_names_commands_for_everyone() -> None:
    shown: list[str] = []

    async def redraw(key: int) -> None:
        shown.append(paused_notice())

    updater = BoardUpdater(redraw, delay=0)
    name_commands_as_client("en-US")
    updater.request(1)
    await updater.flush()
    assert shown and SHARED in shown[0]
