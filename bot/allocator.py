"""How the C allocator keeps the bot's memory (peak RSS of a 100-table Hydra event).

glibc's malloc keeps memory a process freed for reuse rather than handing it back, in two ways that
hurt a long-running bot with bursts of image work:

- an *arena* per thread that allocates concurrently (up to 8 per core): the loop, aiosqlite's
  connection thread, the executor's feeder threads each grow their own heap, and what one freed the
  others never reuse;
- a *dynamic mmap threshold*: once a large block (a board's pixels, ~2 MB) was freed, blocks of that
  size are no longer given their own mapping, which would be unmapped on free, but carved from a heap,
  where a burst of them leaves holes that stay resident.

``tune_allocator`` caps the arenas at two and fixes the mmap threshold at 256 KiB (image buffers and
uploads always get, and give back, their own mappings), as ``MALLOC_ARENA_MAX=2`` and
``MALLOC_MMAP_THRESHOLD_=262144`` would, but from inside the process, so ``podkeeper run`` needs no
wrapper script. Called before the bot starts any thread. Elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
from typing import Any

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter numbers (malloc.h)
M_ARENA_MAX = -8
ARENAS = 2
MMAP_THRESHOLD = 256 * 1024


def _libc() -> Any:
    """The process's own C library symbols (glibc's on Linux), or None."""
    try:
        return ctypes.CDLL(None)
    except OSError:  # pragma: no cover - no dynamic loader
        return None


def tune_allocator() -> bool:
    """Cap malloc's arenas and fix its mmap threshold (see the module doc); True when glibc took both."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(M_ARENA_MAX, ARENAS)) and bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def release_freed_memory() -> None:
    """Hand memory freed so far back to the system (``malloc_trim``): glibc keeps freed heap pages
    otherwise, and they stay in the process's RSS (~5 MB after reading the stored card index)."""
    libc = _libc()
    with contextlib.suppress(AttributeError):  # not glibc (musl, macOS): nothing to do
        libc.malloc_trim(0)
