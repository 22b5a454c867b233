"""The append-only event log pod games and matches share: which seqs an undo drops and which
events stay in force, exactly and in log order."""

from __future__ import annotations

from bot.domain.events import UNDO, Event, dropped_seqs, effective


def _event(seq: int, kind: str = "life", **data: object) -> Event:
    return Event(seq, kind, 1, "2026-12-01T12:00:00+00:00", dict(data))


def test_undo_events_drop_the_seqs_they_name_even_as_text() -> None:
    events = [_event(1), _event(2), _event(3, UNDO, seqs=[2]), _event(4), _event(5, UNDO, seqs=["4", 1])]
    assert dropped_seqs(events) == {1, 2, 4}
    assert dropped_seqs(iter(events)) == {1, 2, 4}
    assert dropped_seqs([_event(1), _event(2, "note", seqs=[1])]) == set()  # only undo events drop


def test_the_effective_events_keep_log_order_without_undos_or_what_they_dropped() -> None:
    events = [
        _event(1, "create"),
        _event(2),
        _event(3, UNDO, seqs=[2]),
        _event(4),
        _event(5),
        _event(6, UNDO, seqs=[]),
    ]
    assert [e.seq for e in effective(events)] == [1, 4, 5]
    assert [e.seq for e in effective(iter(events))] == [1, 4, 5]  # a generator is read once, both ways
    assert effective([]) == []


def test_an_event_carries_its_fields() -> None:
    event = Event(3, "life", None, "t")
    assert (event.seq, event.kind, event.actor, event.at, event.data) == (3, "life", None, "t", {})
