"""Which task committed: an interaction's error message says "your change was saved" only when its own
task committed, never because another interaction (or a board refresh it started) did."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.storage import commits
from bot.storage.commits import committed_in_this_task, note_commit


async def test_a_task_that_committed_knows_it_and_one_that_did_not_does_not() -> None:
    async def commits_once() -> bool:
        before = committed_in_this_task()
        note_commit()
        return not before and committed_in_this_task()

    assert await asyncio.create_task(commits_once())
    assert await asyncio.create_task(asyncio.sleep(0, committed_in_this_task())) is False


async def test_a_commit_of_a_task_started_by_the_interaction_is_not_the_interactions() -> None:
    async def refresh() -> None:
        note_commit()

    async def interaction() -> tuple[bool, bool]:
        await asyncio.create_task(refresh())
        own_before = committed_in_this_task()
        note_commit()
        return own_before, committed_in_this_task()

    assert await asyncio.create_task(interaction()) == (False, True)


async def test_committing_twice_still_counts_as_committed() -> None:
    async def twice() -> bool:
        note_commit()
        note_commit()
        return committed_in_this_task()

    assert await asyncio.create_task(twice())


def test_a_commit_outside_any_event_loop_is_ignored() -> None:
    """A synchronous caller (a script's migration) commits with no task to tell: nothing breaks."""
    note_commit()


async def test_a_finished_tasks_record_is_let_go() -> None:
    """A bot answering interactions for months must not keep one entry per task it ever ran."""

    async def commit() -> None:
        note_commit()

    task = asyncio.create_task(commit())
    await task
    assert task in commits._COMMITTED
    gone = weakref.ref(task)
    del task
    await asyncio.sleep(0)  # the loop's own handle of the finished step goes with this turn
    gc.collect()
    assert gone() is None
