"""A best-of-three match as plain Python (G9): the fold of its log, who chooses who plays first, when it ends,
its result and every refusal, with exact values (each comparison and boundary is pinned)."""

from __future__ import annotations

import pytest

from bot.domain import match as m
from bot.domain.events import Event

A, B = 10, 20  # the two players' member ids; A sits in seat 1


def _create(seq: int = 1, players: list[object] | None = None) -> Event:
    return Event(seq, m.CREATE, A, "t", {"players": [A, B] if players is None else players})


def _game(seq: int, number: int, game_id: int, first: int = A, chosen_by: int = A) -> Event:
    return Event(
        seq,
        m.GAME,
        chosen_by,
        "t",
        {"game_id": game_id, "number": number, "first": first, "chosen_by": chosen_by},
    )


def _undo(seq: int, *seqs: object) -> Event:
    return Event(seq, m.UNDO, A, "t", {"seqs": list(seqs)})


def _state(*winners: int | None, running: bool = False) -> m.MatchState:
    """A match whose finished games were won by ``winners`` in order (None: a drawn game), and with
    ``running`` one more game under way; game n has id 100 + n."""
    games = len(winners) + running
    events = [_create(), *(_game(n + 1, n, 100 + n) for n in range(1, games + 1))]
    outcomes = {100 + n: m.Outcome(w) for n, w in enumerate(winners, start=1)}
    return m.replay(7, events, outcomes)


def test_the_fold_reads_players_games_and_outcomes() -> None:
    events = [
        _create(players=[str(A), str(B)]),
        Event(2, "note", A, "t", {"text": "not a match change"}),  # other kinds are not games
        _game(3, 1, 101, first=B, chosen_by=A),
        _game(4, 2, 102, first=A, chosen_by=B),
    ]
    state = m.replay(7, events, {101: m.Outcome(A), 999: m.Outcome(B)})
    assert (state.match_id, state.players, state.last_seq) == (7, (A, B), 4)
    assert state.games == [
        m.MatchGame(number=1, game_id=101, first=B, chosen_by=A, outcome=m.Outcome(A)),
        m.MatchGame(number=2, game_id=102, first=A, chosen_by=B, outcome=None),
    ]
    assert state.game_number(102) == 2 and state.game_number(101) == 1 and state.game_number(103) is None
    assert state.current is state.games[1] and state.game_running


def test_undone_games_are_left_out_and_the_last_seq_is_the_undo_itself() -> None:
    events = [_create(), _game(2, 1, 101), _game(3, 2, 102), _undo(4, "3")]  # a seq as text is read too
    state = m.replay(7, events, {})
    assert [g.game_id for g in state.games] == [101]
    assert state.last_seq == 4


def test_a_game_event_before_the_creation_is_ignored() -> None:
    state = m.replay(7, [_game(1, 1, 101), _create(2), _game(3, 1, 102)], {})
    assert [g.game_id for g in state.games] == [102]


@pytest.mark.parametrize("players", [[A], [A, A], [A, B, 30], []])
def test_a_match_has_exactly_two_different_players(players: list[object]) -> None:
    with pytest.raises(m.MatchError) as error:
        m.replay(7, [_create(players=players)], {})
    assert error.value.key == "match.error.two_players"
    assert error.value.values == {}


@pytest.mark.parametrize("events", [[], [_game(1, 1, 101)], [_create(), _undo(2, 1)]])
def test_a_log_without_its_creation_is_no_match(events: list[Event]) -> None:
    with pytest.raises(m.MatchError) as error:
        m.replay(7, events, {})
    assert error.value.key == "match.error.no_match"


def test_a_fresh_match_has_no_game_and_nobody_chooses() -> None:
    state = m.replay(7, [_create()], {})
    assert state.current is None and not state.game_running and not state.finished
    assert state.chooser is None and state.winner is None and not state.drawn
    assert state.score == (0, 0) and state.draws == 0


# (winners of the finished games, finished?, winner, drawn?, score, draws)
@pytest.mark.parametrize(
    ("winners", "finished", "winner", "drawn", "score", "draws"),
    [
        ((A,), False, None, False, (1, 0), 0),
        ((B,), False, None, False, (0, 1), 0),
        ((A, A), True, A, False, (2, 0), 0),  # two wins end it after two games (G9)
        ((B, B), True, B, False, (0, 2), 0),
        ((A, B), False, None, False, (1, 1), 0),
        ((None, None), False, None, False, (0, 0), 2),  # two drawn games: a third is played
        ((A, None), False, None, False, (1, 0), 1),
        ((A, B, A), True, A, False, (2, 1), 0),
        ((B, A, B), True, B, False, (1, 2), 0),
        ((A, None, None), True, A, False, (1, 0), 2),  # three games end it: one win is enough then
        ((None, None, B), True, B, False, (0, 1), 2),
        ((A, B, None), True, None, True, (1, 1), 1),  # equal wins after three games: a drawn match
        ((None, None, None), True, None, True, (0, 0), 3),
    ],
)
def test_when_a_match_ends_and_who_won(
    winners: tuple[int | None, ...],
    finished: bool,
    winner: int | None,
    drawn: bool,
    score: tuple[int, int],
    draws: int,
) -> None:
    state = _state(*winners)
    assert (state.finished, state.winner, state.drawn, state.score, state.draws) == (
        finished,
        winner,
        drawn,
        score,
        draws,
    )
    assert (state.wins(A), state.wins(B), state.wins(99)) == (*score, 0)


def test_a_running_game_is_never_the_end_nor_a_result() -> None:
    state = _state(A, running=True)
    assert state.game_running and not state.finished and state.winner is None and not state.drawn
    assert state.chooser is None
    won_twice = _state(A, A, running=True)  # cannot happen through the service; the fold still says "running"
    assert not won_twice.finished and won_twice.winner is None and won_twice.score == (2, 0)
    with pytest.raises(m.MatchError) as error:
        m.result(state)
    assert error.value.key == "match.error.match_running"


def test_the_loser_chooses_and_after_a_draw_the_same_player_again() -> None:
    assert _state(A).chooser == B
    assert _state(B).chooser == A
    assert _state(A, B).chooser == A
    drawn = m.replay(7, [_create(), _game(2, 1, 101, first=B, chosen_by=B)], {101: m.Outcome(None)})
    assert drawn.chooser == B  # chose for the drawn game, chooses again (MTR 2.2)
    assert _state(A, A).chooser is None  # over
    assert _state(A, B, None).chooser is None


def test_opponents() -> None:
    state = _state()
    assert (state.opponent(A), state.opponent(B)) == (B, A)


def test_outcome_drawn() -> None:
    assert m.Outcome(None).drawn and not m.Outcome(A).drawn and not m.Outcome(0).drawn


def test_the_next_game_number_and_its_refusals_in_order() -> None:
    assert m.check_next(_state(A), B, A) == 2
    assert m.check_next(_state(A), B, B) == 2
    assert m.check_next(_state(A, B), A, B) == 3
    refusals = [
        (_state(A, running=True), A, A, "game_running"),
        (_state(A, A), B, A, "match_over"),
        (_state(A), B, 99, "not_a_player"),  # the chooser, but a stranger to play first
        (_state(A), A, A, "not_chooser"),  # the winner does not choose
        (_state(A), 99, A, "not_chooser"),
    ]
    for state, actor, first, key in refusals:
        with pytest.raises(m.MatchError) as error:
            m.check_next(state, actor, first)
        assert error.value.key == f"match.error.{key}"


def test_an_undo_drops_the_last_game_start_but_never_game_one() -> None:
    assert m.undoable([_create(), _game(2, 1, 101), _game(5, 2, 102)]) == 5
    assert m.undoable([_create(), _game(2, 1, 101), _game(3, 2, 102), _game(4, 3, 103)]) == 4
    assert m.undoable([_create(), _game(2, 1, 101), _game(3, 2, 102), _game(4, 3, 103), _undo(6, 4)]) == 3
    for events in (
        [_create(), _game(2, 1, 101)],
        [_create()],
        [_create(), _game(2, 1, 101), _game(3, 2, 102), _undo(4, 3)],
    ):
        with pytest.raises(m.MatchError) as error:
            m.undoable(events)
        assert error.value.key == "match.error.nothing_to_undo"


@pytest.mark.parametrize(
    ("winners", "result"),
    [
        ((A, A), m.MatchResult(7, (A, B), (2, 0), 0, A)),
        ((B, None, B), m.MatchResult(7, (A, B), (0, 2), 1, B)),
        ((A, None, B), m.MatchResult(7, (A, B), (1, 1), 1, None)),
    ],
)
def test_results_for_standings(winners: tuple[int | None, ...], result: m.MatchResult) -> None:
    assert m.result(_state(*winners)) == result


def test_refusals_word_themselves() -> None:
    assert m.MatchError("not_chooser").localized("en") == (
        "The loser of the last game chooses who plays first (after a drawn game, the player who chose for it)."
    )
    assert (
        m.MatchError("match.error.not_a_player").localized("ja") == "マッチの2人のプレイヤーだけが行えます。"
    )
