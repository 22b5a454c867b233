"""Whose mulligan decision it is at a 3-player table (bot/domain/pod.py ``mulligan_prompt``): the question
the bot asks each player in turn, the answers offered, refusals, the end of the step, and a replay of the
stored events (what a restart does) asking the same question."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.domain.mulligan import Choice, Instruction, MulliganStyle
from bot.domain.pod import PodError, replay
from tests.pods.test_domain import ALICE, BOB, CAROL, Game

KEEP, MULLIGAN = Choice.KEEP, Choice.MULLIGAN


def answer(game: Game, player: int, decision) -> pod.PodState:
    """A press on the prompt currently shown, as the bot sends it (with the prompt's number)."""
    prompt = pod.mulligan_prompt(game.state)
    assert prompt is not None and prompt.player == player
    return game.add(pod.MULLIGAN, actor=player, player=player, decision=decision, prompt=prompt.number)


def asked(game: Game) -> tuple[int, int, tuple] | None:
    prompt = pod.mulligan_prompt(game.state)
    return None if prompt is None else (prompt.player, prompt.hand_size, prompt.choices)


def test_partial_paris_asks_each_player_in_turn_until_everyone_has_kept():
    game = Game("edh-2010")
    assert asked(game) == (ALICE, 7, tuple(range(8)))  # before any answer the first seat is asked
    answer(game, ALICE, 2)  # M1: sets 2 aside, draws 1; she answers again next round
    assert asked(game) == (BOB, 7, tuple(range(8)))
    answer(game, BOB, 0)
    answer(game, CAROL, 1)
    assert asked(game) == (ALICE, 6, tuple(range(7)))  # round 2: the hand shrank by one
    answer(game, ALICE, 0)
    assert asked(game) == (CAROL, 6, tuple(range(7)))  # Bob kept: he is not asked again
    state = answer(game, CAROL, 0)
    assert pod.mulligan_prompt(state) is None and state.mulligan.finished
    assert state.mulligan.closing_instructions() == {  # M1: set-aside cards go back once all have kept
        ALICE: (Instruction("shuffle_back", 2),),
        CAROL: (Instruction("shuffle_back", 1),),
    }


def test_london_at_three_players_offers_keep_or_mulligan_and_counts_the_bottom():
    game = Game("commander")
    prompt = pod.mulligan_prompt(game.state)
    assert (
        prompt.style is MulliganStyle.LONDON and prompt.choices == (KEEP, MULLIGAN) and prompt.to_bottom == 0
    )
    answer(game, ALICE, "mulligan")  # free first mulligan (CR 103.5c: 3 players)
    answer(game, BOB, "keep")
    answer(game, CAROL, "mulligan")
    prompt = pod.mulligan_prompt(game.state)
    assert (prompt.player, prompt.to_bottom) == (ALICE, 0)
    answer(game, ALICE, "mulligan")  # the second one costs a card
    assert pod.mulligan_prompt(game.state).player == CAROL
    answer(game, CAROL, "keep")
    prompt = pod.mulligan_prompt(game.state)
    assert (prompt.player, prompt.hand_size, prompt.to_bottom) == (ALICE, 7, 1)
    state = answer(game, ALICE, "keep")
    assert pod.mulligan_prompt(state) is None
    assert [s.keeps for s in state.mulligan.status()] == [6, 7, 7]


def test_the_wrong_player_an_outdated_prompt_and_a_double_press_are_refused():
    game = Game("edh-2010")
    with pytest.raises(PodError) as excinfo:
        game.add(pod.MULLIGAN, actor=BOB, player=BOB, decision=0, prompt=0)
    assert excinfo.value.key == "mulligan.error.not_your_turn" and excinfo.value.values == {"expected": ALICE}
    answer(game, ALICE, 1)
    for number in (0, 2):  # Alice's own press again (double press), or a prompt from the future
        with pytest.raises(PodError, match="mulligan_outdated"):
            game.add(pod.MULLIGAN, actor=BOB, player=BOB, decision=0, prompt=number)
    assert len(game.state.mulligan.decisions) == 1
    # Without a prompt number (typed answers, events stored before prompts existed) turn order still holds.
    game.add(pod.MULLIGAN, actor=BOB, player=BOB, decision=0)
    assert pod.mulligan_prompt(game.state).player == CAROL


def test_a_replay_of_the_stored_events_asks_the_same_question_and_undo_asks_again():
    game = Game("commander")
    answer(game, ALICE, "mulligan")
    answer(game, BOB, "mulligan")
    restarted = replay(list(game.events))
    assert pod.mulligan_prompt(restarted) == pod.mulligan_prompt(game.state)
    assert pod.mulligan_prompt(restarted).player == CAROL
    game.undo()
    prompt = pod.mulligan_prompt(game.state)
    assert (prompt.player, prompt.number) == (BOB, 1)
    answer(game, BOB, "keep")  # the undone answer's number is reused by the new one
    assert pod.mulligan_prompt(game.state).player == CAROL


def test_no_question_once_turn_1_started_or_the_game_ended_or_alone():
    game = Game("commander")
    game.start()  # the step may be skipped entirely
    assert pod.mulligan_prompt(game.state) is None
    stopped = Game("commander")
    stopped.add(pod.STOP)
    assert pod.mulligan_prompt(stopped.state) is None
    assert pod.mulligan_prompt(Game("commander", players=(ALICE,)).state) is None


def test_vancouver_as_configured_shrinks_the_hand_until_it_is_kept():
    game = Game("commander", players=(ALICE, BOB), mulligan_style="vancouver")  # 2 players: no free mulligan
    answer(game, ALICE, "mulligan")
    answer(game, BOB, "keep")
    for hand in (6, 5, 4, 3, 2, 1):
        prompt = pod.mulligan_prompt(game.state)
        assert (prompt.player, prompt.hand_size, prompt.choices) == (ALICE, hand, (KEEP, MULLIGAN))
        state = answer(game, ALICE, "mulligan")
    assert pod.mulligan_prompt(state) is None  # an empty hand cannot shrink: it is kept as it is
    assert state.mulligan.player(ALICE).keeps == 0 and state.mulligan.finished
