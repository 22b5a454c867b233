"""The table step of a pod game: M1 partial Paris, London (free first mulligan in multiplayer), Vancouver."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.domain.mulligan import (
    Choice,
    Instruction,
    MulliganError,
    MulliganStyle,
    PlayerMulligan,
    SeatState,
    TableMulligan,
    parse_decision,
    style_for_ruleset,
)

ALICE, BOB, CAROL = 101, 202, 303


def states(table: TableMulligan) -> list[tuple[object, str, int]]:
    return [(s.player, s.state.value, s.keeps) for s in table.status()]


def test_rulesets_pick_their_mulligan():
    """docs/rules/RULES.md rulesets table: edh-2010 and duel-zh use M1, commander uses London."""
    assert style_for_ruleset("edh-2010") is MulliganStyle.PARTIAL_PARIS
    assert style_for_ruleset("duel-zh") is MulliganStyle.PARTIAL_PARIS
    assert style_for_ruleset("commander") is MulliganStyle.LONDON


def test_partial_paris_walkthrough_m1():
    """M1: set aside N, draw N-1; repeat only after setting aside; shuffle back once all kept."""
    table = TableMulligan.start("partial_paris", [ALICE, BOB, CAROL])
    assert table.whose_turn == ALICE
    assert states(table) == [(ALICE, "deciding", 7), (BOB, "waiting", 7), (CAROL, "waiting", 7)]

    table, told = table.decide(ALICE, 3)
    assert told == (Instruction("draw", 2),)
    table, told = table.decide(BOB, 0)
    assert told == (Instruction("keep", 7),)
    table, told = table.decide(CAROL, 7)  # all of it: draws 6
    assert told == (Instruction("draw", 6),)
    assert table.round == 2 and table.whose_turn == ALICE
    assert states(table) == [(ALICE, "deciding", 6), (BOB, "kept", 7), (CAROL, "waiting", 6)]

    table, told = table.decide(ALICE, 1)  # 6 in hand, sets aside 1, draws 0: hand of 5
    assert told == (Instruction("draw", 0),)
    table, _ = table.decide(CAROL, Choice.KEEP)
    assert table.whose_turn == ALICE and not table.finished
    table, told = table.decide(ALICE, 0)
    assert told == (Instruction("keep", 5),)
    assert table.finished and table.whose_turn is None
    assert states(table) == [(ALICE, "kept", 5), (BOB, "kept", 7), (CAROL, "kept", 6)]
    assert table.closing_instructions() == {
        ALICE: (Instruction("shuffle_back", 4),),
        CAROL: (Instruction("shuffle_back", 7),),
    }
    record = table.result()
    assert json.loads(json.dumps(record)) == record  # stored as JSON in the game record
    assert record["style"] == "partial_paris" and record["free_first_mulligan"] is False
    assert [(p["player"], p["mulligans"], p["kept"], p["set_aside"]) for p in record["players"]] == [
        (ALICE, 2, 5, 4),
        (BOB, 0, 7, 0),
        (CAROL, 1, 6, 7),
    ]
    assert record["decisions"] == [[ALICE, 3], [BOB, 0], [CAROL, 7], [ALICE, 1], [CAROL, "keep"], [ALICE, 0]]


def test_partial_paris_rejects_bad_answers_and_changes_nothing():
    table = TableMulligan.start(MulliganStyle.PARTIAL_PARIS, [ALICE, BOB])
    for bad, key in [
        (8, "mulligan.error.set_aside_range"),
        (-1, "mulligan.error.set_aside_range"),
        (Choice.MULLIGAN, "mulligan.error.how_many"),
    ]:
        with pytest.raises(MulliganError) as caught:
            table.decide(ALICE, bad)
        assert caught.value.key == key
    with pytest.raises(MulliganError) as caught:
        table.decide(BOB, 0)
    assert caught.value.key == "mulligan.error.not_your_turn" and caught.value.values == {"expected": ALICE}
    with pytest.raises(MulliganError) as caught:
        table.decide(CAROL, 0)
    assert caught.value.key == "mulligan.error.not_playing"
    assert table.whose_turn == ALICE and table.decisions == ()


def test_partial_paris_hand_runs_out_at_zero():
    """The hand shrinks by one each time (M1): after seven repeats nothing is left and the player is done."""
    table = TableMulligan.start("partial_paris", [ALICE])
    for expected_hand in range(7, 0, -1):
        assert table.player(ALICE).hand_size == expected_hand
        table, _ = table.decide(ALICE, 1)
    assert table.finished and table.player(ALICE).keeps == 0
    assert table.closing_instructions() == {ALICE: (Instruction("shuffle_back", 7),)}
    with pytest.raises(MulliganError) as caught:
        table.decide(ALICE, 0)
    assert caught.value.key == "mulligan.error.finished"


def test_london_first_mulligan_free_with_three_players():
    """London: draw 7 each time; bottom N = mulligans - 1 in a game of 3+ (CR 103.5c)."""
    table = TableMulligan.start("london", [ALICE, BOB, CAROL])
    table, told = table.decide(ALICE, Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 7),)
    table, _ = table.decide(BOB, Choice.MULLIGAN)
    table, _ = table.decide(CAROL, Choice.KEEP)
    table, told = table.decide(ALICE, Choice.KEEP)  # the free one: nothing on the bottom
    assert told == (Instruction("keep", 7),)
    table, told = table.decide(BOB, Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 7),)
    assert table.status()[1].keeps == 6
    table, told = table.decide(BOB, Choice.KEEP)
    assert told == (Instruction("bottom", 1),)
    assert table.finished and table.closing_instructions() == {}
    assert [(p["mulligans"], p["kept"], p["bottomed"]) for p in table.result()["players"]] == [
        (1, 7, 0),
        (2, 6, 1),
        (0, 7, 0),
    ]


def test_london_in_a_duel_has_no_free_mulligan():
    table = TableMulligan.start("london", [ALICE, BOB])
    table, _ = table.decide(ALICE, Choice.MULLIGAN)
    table, _ = table.decide(BOB, Choice.KEEP)
    table, told = table.decide(ALICE, Choice.KEEP)
    assert told == (Instruction("bottom", 1),)
    assert table.result()["free_first_mulligan"] is False


def test_player_count_overrides_seats():
    """A pod tracked with fewer seats on the board still gets the multiplayer free mulligan if told so."""
    table = TableMulligan.start("london", [ALICE, BOB], player_count=4)
    assert table.result()["free_first_mulligan"] is True


def test_london_down_to_zero_then_no_more():
    table = TableMulligan.start("london", [ALICE], player_count=2)
    for _ in range(6):
        table, _ = table.decide(ALICE, Choice.MULLIGAN)
    assert table.player(ALICE).keeps == 1
    table, told = table.decide(
        ALICE, Choice.MULLIGAN
    )  # would keep 0: kept automatically, all 7 to the bottom
    assert told == (Instruction("new_hand", 7), Instruction("bottom", 7))
    assert table.finished and table.player(ALICE).keeps == 0


def test_london_rejects_a_card_count():
    table = TableMulligan.start("london", [ALICE, BOB, CAROL])
    with pytest.raises(MulliganError) as caught:
        table.decide(ALICE, 2)
    assert caught.value.key == "mulligan.error.keep_or_mulligan"


def test_vancouver_shrinks_and_scries():
    """Vancouver: one fewer card per mulligan after the free multiplayer one; scry 1 when below 7."""
    table = TableMulligan.start("vancouver", [ALICE, BOB, CAROL])
    table, told = table.decide(ALICE, Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 7),)
    table, _ = table.decide(BOB, Choice.KEEP)
    table, _ = table.decide(CAROL, Choice.KEEP)
    table, told = table.decide(ALICE, Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 6),)
    table, told = table.decide(ALICE, Choice.KEEP)
    assert told == (Instruction("keep", 6),)
    assert table.closing_instructions() == {ALICE: (Instruction("scry", 1),)}


def test_replay_rebuilds_and_undo_drops_the_last_decision():
    table = TableMulligan.start("partial_paris", [ALICE, BOB])
    table, _ = table.decide(ALICE, 2)
    table, _ = table.decide(BOB, 0)
    table, _ = table.decide(ALICE, 0)
    stored = table.result()["decisions"]
    again = TableMulligan.replay("partial_paris", [ALICE, BOB], None, stored)
    assert again == table
    undone = TableMulligan.replay("partial_paris", [ALICE, BOB], None, stored[:-1])
    assert not undone.finished and undone.whose_turn == ALICE
    assert undone.status()[0].state is SeatState.DECIDING and undone.status()[0].keeps == 6


def test_start_rejects_empty_or_repeated_seats():
    for seats, key in [
        ([], "mulligan.error.no_players"),
        ([ALICE, ALICE], "mulligan.error.duplicate_player"),
    ]:
        with pytest.raises(MulliganError) as caught:
            TableMulligan.start("london", seats)
        assert caught.value.key == key


@pytest.mark.parametrize(
    ("typed", "decision"),
    [
        ("keep", Choice.KEEP),
        ("  MULLIGAN ", Choice.MULLIGAN),
        (Choice.KEEP, Choice.KEEP),
        ("3", 3),
        (" 0 ", 0),
        (2, 2),
    ],
)
def test_decisions_are_read_from_what_is_typed_or_stored(typed, decision) -> None:
    parsed = parse_decision(typed)
    assert parsed == decision and type(parsed) is type(decision)


@pytest.mark.parametrize("typed", ["", "keeps", "-1", "2.5", True, "three"])
def test_anything_else_is_not_a_decision(typed) -> None:
    with pytest.raises(MulliganError) as refused:
        parse_decision(typed)
    assert refused.value.key == "mulligan.error.bad_decision" and refused.value.values == {
        "value": str(typed)
    }


def test_an_unknown_ruleset_mulligans_the_london_way() -> None:
    assert style_for_ruleset("someone's house rules") is MulliganStyle.LONDON


def test_status_and_result_mid_step_say_everything_about_each_seat():
    table = TableMulligan.start("london", [ALICE, BOB, CAROL])
    table, _ = table.decide(ALICE, Choice.MULLIGAN)  # the free one
    table, _ = table.decide(BOB, Choice.MULLIGAN)
    table, _ = table.decide(CAROL, Choice.KEEP)
    table, _ = table.decide(ALICE, Choice.MULLIGAN)  # now it costs a card
    assert [dataclasses.asdict(s) for s in table.status()] == [
        {
            "player": ALICE,
            "seat": 0,
            "state": SeatState.WAITING,
            "hand_size": 7,
            "keeps": 6,
            "mulligans": 2,
            "set_aside": 0,
            "to_bottom": 1,
        },
        {
            "player": BOB,
            "seat": 1,
            "state": SeatState.DECIDING,
            "hand_size": 7,
            "keeps": 7,
            "mulligans": 1,
            "set_aside": 0,
            "to_bottom": 0,
        },  # his first mulligan was free
        {
            "player": CAROL,
            "seat": 2,
            "state": SeatState.KEPT,
            "hand_size": 7,
            "keeps": 7,
            "mulligans": 0,
            "set_aside": 0,
            "to_bottom": 0,
        },
    ]
    assert table.result() == {
        "style": "london",
        "player_count": 3,
        "free_first_mulligan": True,
        "finished": False,
        "players": [
            {"player": ALICE, "seat": 0, "mulligans": 2, "kept": 6, "set_aside": 0, "bottomed": 0},
            {"player": BOB, "seat": 1, "mulligans": 1, "kept": 7, "set_aside": 0, "bottomed": 0},
            {"player": CAROL, "seat": 2, "mulligans": 0, "kept": 7, "set_aside": 0, "bottomed": 0},
        ],
        "decisions": [[ALICE, "mulligan"], [BOB, "mulligan"], [CAROL, "keep"], [ALICE, "mulligan"]],
    }


def test_one_players_procedure_refuses_with_the_reason_and_its_numbers():
    paris = PlayerMulligan.start(MulliganStyle.PARTIAL_PARIS, 4)
    with pytest.raises(MulliganError) as too_many:
        paris.decide(8)
    assert (too_many.value.key, too_many.value.values) == ("mulligan.error.set_aside_range", {"hand": 7})
    kept, _ = paris.decide(Choice.KEEP)
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.already_kept$"):
        kept.decide(Choice.KEEP)
    london = PlayerMulligan.start(MulliganStyle.LONDON, 2)
    for _ in range(7):
        london, _ = london.decide(Choice.MULLIGAN)
    assert london.kept and london.keeps == 0  # down to nothing: kept by itself (CR 103.5)
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.already_kept$"):
        london.decide(Choice.MULLIGAN)


def test_replay_keeps_the_player_count_of_the_table():
    """Two seats tracked at a four-player table: the first London mulligan is still free."""
    table = TableMulligan.replay(
        "london", [ALICE, BOB], 4, [(ALICE, "mulligan"), (BOB, "keep"), (ALICE, "keep")]
    )
    assert table.result()["player_count"] == 4 and table.result()["free_first_mulligan"] is True
    assert [s.keeps for s in table.status()] == [7, 7]
