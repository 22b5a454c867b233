"""Database connections a forked worker process must not keep open.

The work pool (``bot.workers``) forks worker processes from the bot, and a fork copies every open file
descriptor, PostgreSQL sockets included. If the bot is then killed, its workers still hold copies of
those sockets, so the server never sees the session end: the bot's advisory locks (``bot.leases``) and
the row locks of a transaction it was in stay held, and no other process can take its timers over or
write those rows. So each child closes its copies at once (closing, not a protocol goodbye: the
session belongs to the bot), as ``bot.storage.db.ProcessLock`` does for the SQLite lock file.
"""

from __future__ import annotations

import contextlib
import os
import weakref
from typing import Any

_CONNECTIONS: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def close_in_forked_children(connection: Any) -> None:
    """Have every process forked from now on close its copy of ``connection``'s socket (an asyncpg
    connection; anything without a socket is ignored)."""
    transport = getattr(connection, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        _CONNECTIONS[connection] = sock.fileno()


def _close_copies() -> None:
    for connection, fd in list(_CONNECTIONS.items()):
        if connection.is_closed():
            continue  # its number may belong to another file by now
        with contextlib.suppress(OSError):
            os.close(fd)
    _CONNECTIONS.clear()


os.register_at_fork(after_in_child=_close_copies)
