"""One player's procedure and the table step, value for value: the answers offered, the refusals and
their keys, the board lines and the stored record (M1 partial Paris, London CR 103.5, Vancouver)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.domain.mulligan import (
    Choice,
    Instruction,
    MulliganError,
    MulliganStyle,
    PlayerMulligan,
    SeatState,
    TableMulligan,
)

ALICE, BOB, CAROL = "alice", "bob", "carol"


def test_partial_paris_offers_every_count_from_keep_to_the_whole_hand():
    """M1: any number of cards may be set aside, 0 (keep) up to the whole hand; the hand shrinks by one."""
    player = PlayerMulligan.start(MulliganStyle.PARTIAL_PARIS, 2)
    assert player.choices() == (0, 1, 2, 3, 4, 5, 6, 7)
    player, _ = player.decide(4)
    assert player.choices() == (0, 1, 2, 3, 4, 5, 6)
    player, _ = player.decide(6)
    assert player.choices() == (0, 1, 2, 3, 4, 5)
    player, _ = player.decide(0)
    assert player.choices() == ()


@pytest.mark.parametrize("style", [MulliganStyle.LONDON, MulliganStyle.VANCOUVER])
def test_keep_or_mulligan_is_offered_keep_first_until_nothing_is_left(style):
    player = PlayerMulligan.start(style, 4)
    assert player.choices() == (Choice.KEEP, Choice.MULLIGAN)
    player, _ = player.decide(Choice.MULLIGAN)
    assert player.choices() == (Choice.KEEP, Choice.MULLIGAN)
    # A hand that would keep nothing can only be kept (a state rebuilt from a record can be like this).
    empty = PlayerMulligan(style=style, mulligans=7, hand_size=0 if style is MulliganStyle.VANCOUVER else 7)
    assert empty.keeps == 0 and empty.choices() == (Choice.KEEP,)
    kept, told = player.decide(Choice.KEEP)
    assert kept.choices() == () and told == (Instruction("keep", 7),)


@pytest.mark.parametrize("style", [MulliganStyle.LONDON, MulliganStyle.VANCOUVER])
def test_no_mulligan_once_the_hand_would_keep_nothing(style):
    empty = PlayerMulligan(style=style, mulligans=7, hand_size=0 if style is MulliganStyle.VANCOUVER else 7)
    with pytest.raises(MulliganError) as refused:
        empty.decide(Choice.MULLIGAN)
    assert (refused.value.key, refused.value.values) == ("mulligan.error.no_more", {})


def test_vancouver_mulligans_shrink_the_hand_by_one_after_the_free_one():
    duel = PlayerMulligan.start(MulliganStyle.VANCOUVER, 2)
    sizes = []
    while not duel.kept:
        duel, told = duel.decide(Choice.MULLIGAN)
        sizes.append(told)
    assert sizes == [(Instruction("new_hand", n),) for n in (6, 5, 4, 3, 2, 1)] + [
        (Instruction("new_hand", 0), Instruction("keep", 0))
    ]
    assert duel.closing_instructions() == (Instruction("scry", 1),)
    pod = PlayerMulligan.start(MulliganStyle.VANCOUVER, 3)
    pod, told = pod.decide(Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 7),) and pod.closing_instructions() == ()
    pod, told = pod.decide(Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 6),) and (
        pod.hand_size,
        pod.mulligans,
        pod.charged_mulligans,
    ) == (6, 2, 1)


def test_a_finished_table_has_no_status_to_decide_and_a_full_record():
    """Vancouver: Alice takes the free mulligan then one more (6 cards, scry 1); Bob and Carol keep."""
    table = TableMulligan.start("vancouver", [ALICE, BOB, CAROL])
    assert table.closing_instructions() == {}
    for player, decision in [
        (ALICE, Choice.MULLIGAN),
        (BOB, Choice.KEEP),
        (CAROL, Choice.KEEP),
        (ALICE, Choice.MULLIGAN),
    ]:
        table, _ = table.decide(player, decision)
    assert table.closing_instructions() == {}  # not finished yet: nobody scries
    assert [(s.player, s.state) for s in table.status()] == [
        (ALICE, SeatState.DECIDING),
        (BOB, SeatState.KEPT),
        (CAROL, SeatState.KEPT),
    ]
    table, _ = table.decide(ALICE, Choice.KEEP)
    assert table.closing_instructions() == {ALICE: (Instruction("scry", 1),)}
    assert [dataclasses.astuple(s) for s in table.status()] == [
        (ALICE, 0, SeatState.KEPT, 6, 6, 2, 0, 0),
        (BOB, 1, SeatState.KEPT, 7, 7, 0, 0, 0),
        (CAROL, 2, SeatState.KEPT, 7, 7, 0, 0, 0),
    ]
    assert table.result() == {
        "style": "vancouver",
        "player_count": 3,
        "free_first_mulligan": True,
        "finished": True,
        "players": [
            {"player": ALICE, "seat": 0, "mulligans": 2, "kept": 6, "set_aside": 0, "bottomed": 0},
            {"player": BOB, "seat": 1, "mulligans": 0, "kept": 7, "set_aside": 0, "bottomed": 0},
            {"player": CAROL, "seat": 2, "mulligans": 0, "kept": 7, "set_aside": 0, "bottomed": 0},
        ],
        "decisions": [
            [ALICE, "mulligan"],
            [BOB, "keep"],
            [CAROL, "keep"],
            [ALICE, "mulligan"],
            [ALICE, "keep"],
        ],
    }


def test_status_of_the_second_seat_deciding_and_a_london_record_with_bottom_cards():
    """London duel: Alice mulligans twice and keeps 5 (2 on the bottom); the waiting/deciding lines."""
    table = TableMulligan.start("london", [ALICE, BOB])
    table, _ = table.decide(ALICE, Choice.MULLIGAN)
    assert [(s.player, s.state, s.keeps, s.to_bottom) for s in table.status()] == [
        (ALICE, SeatState.WAITING, 6, 1),
        (BOB, SeatState.DECIDING, 7, 0),
    ]
    table, _ = table.decide(BOB, Choice.KEEP)
    table, _ = table.decide(ALICE, Choice.MULLIGAN)
    table, told = table.decide(ALICE, Choice.KEEP)
    assert told == (Instruction("bottom", 2),)
    assert table.result()["players"] == [
        {"player": ALICE, "seat": 0, "mulligans": 2, "kept": 5, "set_aside": 0, "bottomed": 2},
        {"player": BOB, "seat": 1, "mulligans": 0, "kept": 7, "set_aside": 0, "bottomed": 0},
    ]
    assert table.result()["decisions"] == [
        [ALICE, "mulligan"],
        [BOB, "keep"],
        [ALICE, "mulligan"],
        [ALICE, "keep"],
    ]
    assert all(type(d) is str for _, d in table.result()["decisions"])


def test_partial_paris_record_stores_counts_as_ints_and_the_closing_shuffles():
    table = TableMulligan.start("partial_paris", [ALICE, BOB])
    table, _ = table.decide(ALICE, 0)
    table, _ = table.decide(BOB, 2)
    table, _ = table.decide(BOB, 0)
    assert table.closing_instructions() == {BOB: (Instruction("shuffle_back", 2),)}
    decisions = table.result()["decisions"]
    assert decisions == [[ALICE, 0], [BOB, 2], [BOB, 0]] and all(type(d) is int for _, d in decisions)


def test_a_table_whose_seats_and_players_disagree_fails_loudly():
    """Seats and player states are paired one to one; a state built wrongly by hand must not silently lose
    a seat from the board, the closing step or the record."""
    one = PlayerMulligan.start(MulliganStyle.PARTIAL_PARIS, 2)
    broken = TableMulligan(
        style=MulliganStyle.PARTIAL_PARIS,
        seat_order=(ALICE, BOB),
        player_count=2,
        players=(dataclasses.replace(one, kept=True, set_aside=2),),
    )
    for read in (broken.status, broken.closing_instructions, broken.result):
        with pytest.raises(ValueError, match=r"^zip\(\) argument 2 is shorter than argument 1$"):
            read()


def test_a_single_seat_record_reads_the_free_mulligan_from_that_seat():
    table = TableMulligan.start("london", [ALICE], player_count=4)
    table, told = table.decide(ALICE, Choice.MULLIGAN)
    assert told == (Instruction("new_hand", 7),)
    table, told = table.decide(ALICE, Choice.KEEP)
    assert told == (Instruction("keep", 7),)
    assert table.result() == {
        "style": "london",
        "player_count": 4,
        "free_first_mulligan": True,
        "finished": True,
        "players": [{"player": ALICE, "seat": 0, "mulligans": 1, "kept": 7, "set_aside": 0, "bottomed": 0}],
        "decisions": [[ALICE, "mulligan"], [ALICE, "keep"]],
    }
