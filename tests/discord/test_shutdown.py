"""Closing the bot stops its views, so no view timeout task is left pending when the loop goes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.testing import DiscordHarness


def _view_timeouts() -> list[asyncio.Task]:
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done() and "timeout_task_impl" in repr(task.get_coro())
    ]


async def test_close_stops_views_with_pending_timeouts(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.click(board, label="Commander")  # a panel with a 10-minute timeout
        assert _view_timeouts(), "the panel's timeout is running"
        await h.bot.close()
        await asyncio.sleep(0)  # let the cancellations land
        assert not _view_timeouts()
