"""Practice hands with real cards: each procedure applied exactly, reproducible with a seed."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.domain.mulligan import Instruction, MulliganError
from bot.domain.mulligan.practice import Phase, PracticeHand


def all_cards(practice: PracticeHand) -> Counter:
    piles = practice.hand + practice.library + practice.set_aside_pile
    return Counter(card.name for card in piles)


def test_seed_reproduces_the_hand_and_system_random_varies(inferno_library):
    first = PracticeHand.deal(inferno_library, "london", seed=42)
    again = PracticeHand.deal(inferno_library, "london", seed=42)
    assert [c.name for c in first.hand] == [c.name for c in again.hand]
    assert first.library == again.library
    hands = {tuple(c.name for c in PracticeHand.deal(inferno_library, "london").hand) for _ in range(5)}
    assert len(hands) > 1  # SystemRandom: five identical 7-card hands out of 99 cards would be absurd


def test_partial_paris_set_aside_draws_one_fewer_and_keeps_them_out(inferno_library):
    """M1: set aside 3, draw 2; the set-aside cards stay out until the player keeps, then go back."""
    practice = PracticeHand.deal(inferno_library, "partial_paris", seed="m1")
    before = all_cards(practice)
    out = [practice.hand[0], practice.hand[3], practice.hand[5]]
    next_in_library = practice.library[:2]
    told = practice.set_aside([0, 3, 5])
    assert told == (Instruction("draw", 2),)
    assert len(practice.hand) == 6 and practice.hand[-2:] == next_in_library
    assert practice.set_aside_pile == out
    assert len(practice.library) == 99 - 7 - 2
    told = practice.set_aside([1])  # a second round: 6 -> 5
    assert told == (Instruction("draw", 0),) and len(practice.hand) == 5
    told = practice.keep()
    assert told == (Instruction("keep", 5), Instruction("shuffle_back", 4))
    assert practice.finished and practice.set_aside_pile == [] and len(practice.library) == 94
    assert all_cards(practice) == before  # nothing lost or duplicated
    summary = practice.summary()
    assert (summary.mulligans, summary.set_aside, len(summary.hand)) == (2, 4, 5)
    assert summary.lands == sum(c.is_land for c in practice.hand)


def test_london_draws_seven_then_bottoms(inferno_library):
    """London in a practice pod of four: first mulligan free, the second costs one card (CR 103.5c)."""
    practice = PracticeHand.deal(inferno_library, "london", seed=7)
    assert practice.mulligan() == (Instruction("new_hand", 7),)
    assert practice.mulligan() == (Instruction("new_hand", 7),)
    assert len(practice.hand) == 7 and len(practice.library) == 92
    assert practice.keep() == (Instruction("bottom", 1),)
    assert practice.phase is Phase.BOTTOM
    with pytest.raises(MulliganError) as caught:
        practice.bottom([0, 1])
    assert caught.value.key == "mulligan.error.choose_count" and len(practice.hand) == 7
    chosen = practice.hand[4]
    practice.bottom([4])
    assert practice.finished and len(practice.hand) == 6 and practice.library[-1] == chosen
    assert practice.summary().bottomed == 1


def test_london_duel_has_no_free_mulligan(inferno_library):
    practice = PracticeHand.deal(inferno_library, "london", seed=7, player_count=2)
    practice.mulligan()
    assert practice.keep() == (Instruction("bottom", 1),)


def test_vancouver_scry_to_bottom(inferno_library):
    practice = PracticeHand.deal(inferno_library, "vancouver", seed=3)
    practice.mulligan()
    practice.mulligan()
    assert len(practice.hand) == 6
    assert practice.keep() == (Instruction("keep", 6),) and practice.phase is Phase.SCRY
    top = practice.top_card
    practice.scry(to_bottom=True)
    assert practice.library[-1] == top and practice.finished and practice.summary().scried_to_bottom is True


def test_wrong_steps_and_bad_positions_change_nothing(inferno_library):
    practice = PracticeHand.deal(inferno_library, "partial_paris", seed=1)
    hand = list(practice.hand)
    for action, key in [
        (lambda: practice.mulligan(), "mulligan.error.wrong_step"),
        (lambda: practice.set_aside([7]), "mulligan.error.bad_cards"),
        (lambda: practice.set_aside([1, 1]), "mulligan.error.bad_cards"),
        (lambda: practice.bottom([0]), "mulligan.error.wrong_step"),
    ]:
        with pytest.raises(MulliganError) as caught:
            action()
        assert caught.value.key == key
    assert practice.hand == hand and practice.procedure.mulligans == 0
    practice.keep()
    with pytest.raises(MulliganError, match=r"^mulligan\.error\.already_kept$"):
        practice.keep()


def test_too_few_cards(make_library):
    with pytest.raises(MulliganError) as caught:
        PracticeHand.deal(make_library(3, 3), "london")
    assert caught.value.key == "mulligan.error.too_few_cards" and caught.value.values == {"count": 6}
