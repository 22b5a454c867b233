"""Did this interaction already commit a change? — so an error message never says "nothing was changed"
when something was.

A failure after the commit (the reply, the board refresh) must tell the member their change was saved, or
they press again and the change is applied twice. discord.py runs each interaction — a slash command, a
button, a menu, a form — in its own asyncio task, and runs the error handler in that same task, so the
commits are counted per task: the database notes each commit against the task that made it, and the error
handler asks about its own task. Work the interaction hands to another task (a board refresh, a timer)
is not the interaction's reply, and its commits are that task's own.
"""

from __future__ import annotations

import asyncio
import weakref

# The tasks that committed at least once. Only "did it commit" is ever asked, so a set, not a count; weak,
# so a finished interaction's task is let go with it.
_COMMITTED: weakref.WeakSet[asyncio.Task[object]] = weakref.WeakSet()


def note_commit() -> None:
    """Called by the database right after a transaction committed."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop (a synchronous caller): no interaction to tell
        return
    if task is not None:
        _COMMITTED.add(task)


def committed_in_this_task() -> bool:
    """True when the running task (the interaction being answered) committed a change."""
    task = asyncio.current_task()
    return task is not None and task in _COMMITTED
