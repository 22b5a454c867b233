"""Bot processes the e2e tests kill with SIGKILL could leave processes behind: their forked work-pool
workers did, alive after the test and its CI run, until ``bot.workers`` made them die with the bot
(tests/core/test_workers.py). So each bot process starts in a process group of its own
(``start_new_session=True``) and, when the test is done, ``reap`` kills whatever is left of each group;
the kills the test makes still hit the bot alone, as a real crash would."""

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
