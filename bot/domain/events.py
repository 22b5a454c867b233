"""The append-only event log that pod games and matches share.

A change is one :class:`Event` saying who did what and when; an undo is itself an event naming the seqs it
drops, so a log is never rewritten (restart-safe, auditable) while its fold behaves as if the dropped
events never happened. ``bot.domain.pod`` folds a game's log, ``bot.domain.match`` a match's.

Plain Python: no Discord, SQL or clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

UNDO = "undo"  # {"seqs": [the seqs it drops]}


@dataclass(frozen=True)
class Event:
    """One change: ``seq`` orders a log's events, ``actor`` is the Discord user id who made it."""

    seq: int
    kind: str
    actor: int | None
    at: str
    data: dict[str, Any] = field(default_factory=dict)


def dropped_seqs(events: Iterable[Event]) -> set[int]:
    """The seqs that undo events of the log dropped."""
    return {int(seq) for e in events if e.kind == UNDO for seq in e.data["seqs"]}


def effective(events: Iterable[Event]) -> list[Event]:
    """The events still in force: neither an undo nor dropped by one, in log order."""
    events = list(events)
    dropped = dropped_seqs(events)
    return [e for e in events if e.kind != UNDO and e.seq not in dropped]
