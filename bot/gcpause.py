"""Garbage collection paused while ``podkeeper run`` starts.

Start-up allocates hundreds of thousands of objects (modules, classes, the card index) and almost no
garbage: with the collector on, that allocation triggers ~300 young and two full collections, each full
one walking everything built so far; ~0.1 s of a ~0.65 s start, a sixth of its CPU, for ~1,000 objects
of garbage. So the collector is paused from the start of ``podkeeper run`` until the bot has set up
(``bot.client.freeze_startup_objects``, which freezes what start-up built and resumes collection).

Only a pause this module made is resumed: a process that turned collection off itself keeps it off,
and a bot started in a test (``serve``, no pause) is not affected.
"""

from __future__ import annotations

import gc

_paused = False


def pause_collection() -> None:
    """Stop automatic collection until ``resume_collection`` (no-op if it is already off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collection() -> None:
    """Turn automatic collection back on if ``pause_collection`` turned it off."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
