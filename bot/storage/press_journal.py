"""The write-ahead record of board presses: a press is written here before Discord is told it arrived.

A press must be acknowledged within Discord's 3 s, but in a burst it waits longer than that for the
game's lock and the database's one writer; so it is acknowledged first and stored after. A crash in
between lost a quarter of the acknowledged presses at ~20 presses/s, silently. Now the press is first
appended to this journal and synced to the disk (``fdatasync``) before it is acknowledged, and when its
change is stored (or refused) a second line says so. The sync runs in a thread (the event loop never
waits on the disk) and is shared: every press that arrives while one sync runs waits for the next, so a
burst costs one sync per disk round trip, not one per press (benchmarks/bench_press_journal.py). Without
it a killed process lost nothing, but a power cut or kernel crash could lose the last acknowledged
presses. The "done" lines are not synced: one lost to a power cut only means the press is looked up in
``pod_presses`` at the next start, and found there.

On start, the presses recorded but never finished are applied then (the pod cog does it, in order),
unless the database already holds them: the event and its press id are stored in one transaction
(``pod_presses``), so a crash between the commit and the journal's second line applies nothing twice.
The journal is then emptied. One file per bot process (per set of shards), next to the database file,
held with an exclusive ``flock`` while the process runs: a second process configured with the same
shards in the same place must not replay (or empty) the journal of one that is alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import fcntl
import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

COMPACT_AFTER_LINES = 10_000  # an idle journal this long is emptied (nothing in it is still needed)


@dataclass(frozen=True)
class RecordedPress:
    """What a board press was, as it arrived: enough to make the same change again after a restart and
    to tell the presser (through the interaction's token, valid 15 minutes) if it cannot be made."""

    press_id: int  # the interaction's id: unique, so a press is applied at most once
    game_id: int
    action: str
    arg: int | None
    user_id: int
    user_name: str
    manager: bool
    selected: int | None  # the player the presser had picked for their presses, if any
    guild_id: int | None
    application_id: int
    token: str
    at: float  # seconds since the epoch when it arrived (the token's age)


@dataclass
class Arrival:
    """The interaction a handler task is answering, as Discord sent it (``CURRENT_ARRIVAL``): what the shared
    journal (cogs/_acknowledged.py) writes down when the handler acknowledges it before storing its change,
    and how the database knows which journaled press a commit belongs to (``applied_presses``)."""

    press_id: int
    payload: dict[str, Any]
    at: float  # seconds since the epoch, on the bot's clock
    journaled: bool = False
    replayed: bool = False  # handed to discord.py again after a crash: it was acknowledged before it

    def stored_by(self, task: asyncio.Task[Any] | None) -> bool:
        """Whether a commit in ``task`` is this press's change: a journaled press's own handler (the tasks
        discord.py names, bot/shutdown.py), not work it started in the background."""
        from bot.shutdown import HANDLER_TASKS  # the gate imports this module

        return self.journaled and task is not None and task.get_name().startswith(HANDLER_TASKS)


# Set by the interaction gate (bot/shutdown.py) while discord.py parses an interaction, so every task it
# starts for it - its handlers, its late deferral - carries the arrival in its context.
CURRENT_ARRIVAL: contextvars.ContextVar[Arrival | None] = contextvars.ContextVar(
    "podkeeper_arrival", default=None
)


@dataclass(frozen=True)
class RecordedInteraction:
    """A press acknowledged before its change was stored, recorded by the shared journal: replayed after a
    crash by handing its payload to discord.py again, as if Discord had sent it once more."""

    press_id: int
    payload: dict[str, Any]
    at: float


async def applied_presses(db: Any, press_ids: list[int]) -> set[int]:
    """Which of ``press_ids`` the database holds as applied (``applied_presses``, bot/storage/db.py)."""
    if not press_ids:
        return set()
    marks = ", ".join("?" for _ in press_ids)
    rows = await db.fetchall(
        f"SELECT press_id FROM applied_presses WHERE press_id IN ({marks})", tuple(press_ids)
    )
    return {int(row[0]) for row in rows}


async def forget_applied_presses(db: Any, before: str) -> None:
    """Drop the marks older than ``before`` (ISO time): no journal still needs them."""
    await db.execute("DELETE FROM applied_presses WHERE at < ?", (before,))


class PressJournal:
    """An append-only file of press records and their outcomes (JSON lines)."""

    def __init__(self, path: Path, *, sync: bool = True) -> None:
        """``sync``: a recorded press is on the disk before ``record`` returns (off only to measure it)."""
        self.path = path
        self.sync = sync
        self._fd: int | None = None
        self._open: set[int] = set()  # recorded here, outcome not yet written
        self._lines = 0  # since the file was last emptied
        self._written = 0  # lines written since opened, and how many of them a sync has finished with
        self._synced = 0
        self._syncing: asyncio.Task[None] | None = None

    def acquire(self) -> bool:
        """Take the journal for this process (before ``pending``); False while another process holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        # Forked workers (bot/workers.py) must not keep the lock after the bot is killed: the next start
        # would find its journal held and replay nothing. A child closes its copy at once.
        os.register_at_fork(after_in_child=self._forget_in_child)
        return True

    def _forget_in_child(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def pending(self) -> list[RecordedPress]:
        """The presses recorded and never finished (by a process that died), in arrival order."""
        if not self.path.exists():
            return []
        return [entry for entry in self._unfinished() if isinstance(entry, RecordedPress)]

    def pending_interactions(self) -> list[RecordedInteraction]:
        """The interactions recorded by the shared journal and never finished, in arrival order."""
        return [entry for entry in self._unfinished() if isinstance(entry, RecordedInteraction)]

    def _unfinished(self) -> list[RecordedPress | RecordedInteraction]:
        if not self.path.exists():
            return []
        recorded: dict[int, RecordedPress | RecordedInteraction] = {}
        for number, line in enumerate(self.path.read_bytes().splitlines(), 1):
            entry = _entry(line)
            if entry is None:
                log.warning(
                    "press journal %s: line %d is unreadable (cut off by a crash?); skipped",
                    self.path,
                    number,
                )
            elif "done" in entry:
                recorded.pop(int(entry["done"]), None)
            elif "press" in entry:
                press = _press(entry["press"])
                if press is not None:
                    recorded[press.press_id] = press
            elif "interaction" in entry:
                arrival = _interaction(entry["interaction"])
                if arrival is not None:
                    recorded[arrival.press_id] = arrival
        return list(recorded.values())

    def open(self) -> None:
        """Start appending, emptied (after ``pending`` was dealt with: the old records are dropped)."""
        if self._fd is None and not self.acquire():
            raise RuntimeError(f"press journal {self.path} is held by another process")
        assert self._fd is not None
        os.ftruncate(self._fd, 0)
        self._lines = 0

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    async def record(self, press: RecordedPress) -> None:
        """Write the press down, on the disk, before it is acknowledged (a failed write is logged: the
        press then goes on as before, acknowledged and stored, only not protected against a crash)."""
        if self._write({"press": asdict(press)}):
            self._open.add(press.press_id)
            if self.sync:
                await self._on_disk()

    async def record_interaction(self, arrival: RecordedInteraction) -> bool:
        """The shared journal's record (cogs/_acknowledged.py), on the disk before the acknowledgement."""
        if not self._write({"interaction": asdict(arrival)}):
            return False
        self._open.add(arrival.press_id)
        if self.sync:
            await self._on_disk()
        return True

    async def _on_disk(self) -> None:
        """Until every line written so far is synced: one ``fdatasync`` serves every press waiting for it."""
        wanted = self._written
        while self._synced < wanted and self._fd is not None:
            if self._syncing is None:
                self._syncing = asyncio.get_running_loop().create_task(
                    self._sync_now(self._fd, self._written)
                )
            await asyncio.shield(self._syncing)

    async def _sync_now(self, fd: int, upto: int) -> None:
        try:
            await asyncio.to_thread(os.fdatasync, fd)
        except OSError as error:  # closed meanwhile, or the disk refuses: the presses go on unprotected
            log.error("press journal %s: cannot sync (%s)", self.path, error.strerror or error)
        finally:
            self._synced = max(self._synced, upto)
            self._syncing = None

    def done(self, press_id: int) -> None:
        """The press's change was stored, or refused and the presser told: nothing to do after a crash."""
        if press_id not in self._open:
            return
        self._open.discard(press_id)
        self._write({"done": press_id})
        if not self._open and self._lines >= COMPACT_AFTER_LINES and self._fd is not None:
            os.ftruncate(self._fd, 0)
            self._lines = 0

    def _write(self, entry: dict[str, Any]) -> bool:
        if self._fd is None:
            return False
        try:
            os.write(self._fd, json.dumps(entry, separators=(",", ":")).encode() + b"\n")
        except OSError as error:
            log.error(
                "press journal %s: cannot write (%s); presses are not protected against a crash",
                self.path,
                error.strerror or error,
            )
            return False
        self._lines += 1
        self._written += 1
        return True


def _entry(line: bytes) -> dict[str, Any] | None:
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    return entry if isinstance(entry, dict) else None


def _interaction(values: Any) -> RecordedInteraction | None:
    try:
        arrival = RecordedInteraction(**values)
    except TypeError:
        return None
    return arrival if isinstance(arrival.payload, dict) else None


def _press(values: Any) -> RecordedPress | None:
    try:
        return RecordedPress(**values)
    except TypeError:
        return None
