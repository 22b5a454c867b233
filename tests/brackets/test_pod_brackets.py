"""The pod's declared brackets in the domain (BR7): a bracket event is checked, folded, undone, and
refused with nothing changed for any value that is not a bracket (Hypothesis over what a client could send)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.domain import pod
from bot.domain.pod import Event, PodError, replay


def game(*changes: tuple[str, dict]) -> pod.PodState:
    events = [
        Event(
            1,
            pod.CREATE,
            1,
            "t",
            {
                "ruleset": "commander",
                "players": [{"user_id": 1, "name": "Alice"}, {"user_id": 2, "name": "Bob"}],
            },
        )
    ]
    for kind, data in changes:
        events.append(Event(len(events) + 1, kind, 1, "t", data))
    return replay(events)


def test_a_declaration_folds_into_the_player_and_undo_takes_it_back() -> None:
    state = game((pod.BRACKET, {"player": 1, "level": 2, "deck_bracket": 3}))
    alice = state.player(1)
    assert (alice.bracket, alice.deck_bracket) == (2, 3)
    assert pod.brackets_above_declared(state) == [alice]
    undone = game((pod.BRACKET, {"player": 1, "level": 2, "deck_bracket": 3}), (pod.UNDO, {"seqs": [2]}))
    assert (undone.player(1).bracket, pod.brackets_above_declared(undone)) == (None, [])


def test_picking_a_deck_brings_its_bracket_and_a_later_declaration_keeps_it() -> None:
    state = game(
        (pod.COMMANDERS, {"player": 1, "names": ["Niv-Mizzet, Parun"], "deck": "Niv", "deck_bracket": 4}),
        (pod.BRACKET, {"player": 1, "level": 4}),
    )
    assert (state.player(1).bracket, state.player(1).deck_bracket) == (4, 4)
    assert pod.brackets_above_declared(state) == []


def test_declaring_may_change_during_the_game_but_not_after_it() -> None:
    state = game((pod.NEXT_TURN, {}), (pod.BRACKET, {"player": 2, "level": 5}))
    assert state.player(2).bracket == 5
    ended = game((pod.NEXT_TURN, {}), (pod.CONCEDE, {"player": 2}))
    with pytest.raises(PodError):
        pod.apply(ended, Event(ended.last_seq + 1, pod.BRACKET, 1, "t", {"player": 1, "level": 3}))


@given(level=st.one_of(st.integers(), st.booleans(), st.none(), st.text(max_size=3), st.floats()))
def test_anything_but_a_bracket_is_refused_and_changes_nothing(level) -> None:
    state = game()
    event = Event(state.last_seq + 1, pod.BRACKET, 1, "t", {"player": 1, "level": level})
    if isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= 5:
        assert pod.apply(state, event).player(1).bracket == level
        return
    with pytest.raises(PodError) as refused:
        pod.apply(state, event)
    assert refused.value.key == "pod.error.bracket_level"
    assert state.player(1).bracket is None
