"""Bot processes the e2e tests kill with SIGKILL leave their forked work-pool workers behind (``bot.workers``:
nothing tells them the bot died, and they ignore SIGTERM), alive after the test and its CI run. Each bot
process starts in a process group of its own (``start_new_session=True``), so when the test is done
``reap`` kills whatever is left of each group: the kills the test makes still hit the bot alone, so its
successor still meets the orphaned workers, as after a real crash."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterable


def reap(pids: Iterable[int]) -> None:
    """SIGKILL what is left of the process group each of ``pids`` started (their workers included)."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
