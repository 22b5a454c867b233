"""Practice hands and the automatic play of the odds, value for value: the exact state after each step,
the exact refusals, and the exact result of the "mulligan until keepable" policy on libraries built so
the outcome can be worked out by hand (M1 partial Paris, London CR 103.5, Vancouver)."""

from __future__ import annotations

import random
import secrets

import pytest

from bot.domain.mulligan import Instruction, MulliganError, MulliganStyle
from bot.domain.mulligan.odds import ParisChoice
from bot.domain.mulligan.practice import Phase, PracticeHand, PracticeSummary, make_rng, play_to_keep


@pytest.fixture(scope="module")
def seven(cards):
    """Seven different cards, three of them lands."""
    return [
        cards[name] for name in ("Mountain", "Plains", "Swamp", "Sol Ring", "Anger", "Terminate", "Mortify")
    ]


def names(cards) -> list[str]:
    return [card.name for card in cards]


def test_no_seed_or_an_empty_one_shuffles_with_the_system_and_a_seed_reproduces():
    assert isinstance(make_rng(None), secrets.SystemRandom)
    assert isinstance(make_rng(""), secrets.SystemRandom)
    seeded, reference = make_rng(5), random.Random("5")
    assert type(seeded) is random.Random
    assert [seeded.random() for _ in range(3)] == [reference.random() for _ in range(3)]


def test_a_library_of_exactly_seven_cards_deals_all_of_it(seven):
    practice = PracticeHand.deal(seven, "london", seed="s")
    assert sorted(names(practice.hand)) == sorted(names(seven)) and practice.library == []
    assert practice.top_card is None
    assert (
        practice.phase,
        practice.set_aside_pile,
        practice.bottomed,
        practice.scried_to_bottom,
        practice.log,
    ) == (Phase.DECIDING, [], [], None, [])
    assert practice.summary() == PracticeSummary(
        style=MulliganStyle.LONDON,
        hand=tuple(practice.hand),
        mulligans=0,
        set_aside=0,
        bottomed=0,
        scried_to_bottom=None,
        free_first=True,
    )
    with pytest.raises(MulliganError) as refused:
        PracticeHand.deal(seven[:6], "london")
    assert (refused.value.key, refused.value.values) == ("mulligan.error.too_few_cards", {"count": 6})


def test_london_bottom_needs_exactly_the_count_and_goes_under_the_library(inferno_library):
    practice = PracticeHand.deal(inferno_library, "london", seed=11, player_count=2)
    assert practice.mulligan() == (Instruction("new_hand", 7),)
    assert practice.keep() == (Instruction("bottom", 1),) and practice.phase is Phase.BOTTOM
    library = list(practice.library)
    with pytest.raises(MulliganError) as refused:
        practice.bottom([])
    assert (refused.value.key, refused.value.values) == ("mulligan.error.choose_count", {"count": 1})
    hand = list(practice.hand)
    assert practice.bottom([2]) == ()
    assert practice.library == library + [hand[2]] and practice.hand == hand[:2] + hand[3:]
    assert practice.log == [Instruction("new_hand", 7), Instruction("bottom", 1)]
    assert practice.summary() == PracticeSummary(
        style=MulliganStyle.LONDON,
        hand=tuple(hand[:2] + hand[3:]),
        mulligans=1,
        set_aside=0,
        bottomed=1,
        scried_to_bottom=None,
        free_first=False,
    )


def test_london_down_to_nothing_puts_the_whole_new_hand_on_the_bottom(inferno_library):
    practice = PracticeHand.deal(inferno_library, "london", seed=3, player_count=2)
    for _ in range(6):
        assert practice.mulligan() == (Instruction("new_hand", 7),)
    assert practice.mulligan() == (Instruction("new_hand", 7), Instruction("bottom", 7))
    assert practice.phase is Phase.BOTTOM and len(practice.hand) == 7
    hand = list(practice.hand)
    practice.bottom(range(7))
    assert practice.finished and practice.hand == [] and practice.library[-7:] == hand
    assert len(practice.library) == 99 and practice.summary().bottomed == 7


def test_vancouver_scry_on_top_leaves_the_library_as_it_was(inferno_library):
    practice = PracticeHand.deal(inferno_library, "vancouver", seed=3, player_count=2)
    assert practice.mulligan() == (Instruction("new_hand", 6),)
    assert practice.keep() == (Instruction("keep", 6),) and practice.phase is Phase.SCRY
    library = list(practice.library)
    assert practice.scry(to_bottom=False) == ()
    assert practice.library == library and practice.summary().scried_to_bottom is False
    assert practice.log == [Instruction("new_hand", 6), Instruction("keep", 6)]


def test_partial_paris_log_collects_every_instruction(seven, cards):
    library = seven + [cards["Forest"]] * 5
    practice = PracticeHand.deal(library, "partial_paris", seed=1)
    practice.set_aside([0, 1])
    practice.set_aside([0])
    practice.keep()
    assert practice.log == [
        Instruction("draw", 1),
        Instruction("draw", 0),
        Instruction("keep", 5),
        Instruction("shuffle_back", 3),
    ]
    assert len(practice.library) == 7 and practice.summary().set_aside == 3


# -- the automatic play -----------------------------------------------------------------------------------


def test_partial_paris_without_a_policy_is_refused(cards):
    with pytest.raises(ValueError) as refused:
        play_to_keep("partial_paris", [cards["Mountain"]] * 10, 1, (2, 4))
    assert str(refused.value) == "partial Paris needs the policy of bot.domain.mulligan.odds.paris_policy"


def recording(answer):
    """A policy that gives ``answer(hand, lands, library, library_lands)`` and remembers what it was asked."""
    asked: list[tuple[int, int, int, int]] = []

    def policy(hand: int, lands: int, library: int, library_lands: int) -> ParisChoice | None:
        asked.append((hand, lands, library, library_lands))
        return answer(hand, lands, library, library_lands)

    return policy, asked


def everything(hand: int, lands: int, library: int, library_lands: int) -> ParisChoice:
    return ParisChoice(lands, hand - lands)


def test_partial_paris_sets_everything_aside_until_the_hand_is_gone(cards):
    """All lands and a keep range of (0, 0): seven rounds, each drawing one fewer, end with no hand: kept 0."""
    policy, asked = recording(everything)
    assert play_to_keep("partial_paris", [cards["Mountain"]] * 40, 1, (0, 0), paris_policy=policy) == [0]
    assert asked == [
        (7, 7, 33, 33),
        (6, 6, 27, 27),
        (5, 5, 22, 22),
        (4, 4, 18, 18),
        (3, 3, 15, 15),
        (2, 2, 13, 13),
        (1, 1, 12, 12),
    ]
    policy, asked = recording(everything)
    assert play_to_keep("partial_paris", [cards["Sol Ring"]] * 40, 1, (1, 7), paris_policy=policy) == [None]
    assert len(asked) == 7


def test_partial_paris_keeps_as_soon_as_the_lands_fit(cards):
    policy, asked = recording(everything)
    assert play_to_keep("partial_paris", [cards["Mountain"]] * 40, 2, (2, 4), paris_policy=policy) == [4, 4]
    assert asked == [(7, 7, 33, 33), (6, 6, 27, 27), (5, 5, 22, 22)] * 2


def test_partial_paris_sets_aside_exactly_what_the_policy_says(cards):
    policy, asked = recording(lambda hand, lands, library, library_lands: ParisChoice(0, 1))
    assert play_to_keep("partial_paris", [cards["Sol Ring"]] * 40, 1, (1, 7), paris_policy=policy) == [None]
    assert asked == [(size, 0, 33, 0) for size in range(7, 0, -1)]


@pytest.mark.parametrize("answer", [lambda *state: None, lambda *state: ParisChoice(0, 0)])
def test_partial_paris_keeping_an_unkeepable_hand_counts_as_none(cards, answer):
    policy, asked = recording(answer)
    assert play_to_keep("partial_paris", [cards["Sol Ring"]] * 40, 1, (1, 7), paris_policy=policy) == [None]
    assert asked == [(7, 0, 33, 0)]


@pytest.mark.parametrize(
    ("style", "library", "keep", "kept"),
    [
        # Seven lands every time: London cuts 7 down to the largest hand with a keepable land count;
        # Vancouver draws one fewer each time until the land count fits.
        ("london", "lands", (2, 4), 4),
        ("vancouver", "lands", (2, 4), 4),
        ("london", "lands", (4, 4), 4),
        ("vancouver", "lands", (4, 4), 4),
        # Keepable only when empty: down to nothing (London: the last 7 go to the bottom).
        ("london", "lands", (0, 0), 0),
        ("vancouver", "lands", (0, 0), 0),
        # Never a land: no keepable hand, whether it stops early (size below the range) or at nothing.
        ("london", "spells", (2, 4), None),
        ("vancouver", "spells", (2, 4), None),
        ("london", "spells", (1, 1), None),
        ("vancouver", "spells", (1, 1), None),
        ("london", "spells", (0, 0), 7),
        ("vancouver", "spells", (0, 0), 7),
    ],
)
def test_keep_or_mulligan_results_worked_out_by_hand(cards, style, library, keep, kept):
    card = cards["Mountain"] if library == "lands" else cards["Sol Ring"]
    assert play_to_keep(style, [card] * 30, 2, keep, player_count=2, seed=1) == [kept, kept]


def test_london_down_to_nothing_with_a_different_new_hand_bottoms_it_all(cards):
    """One land in 41 cards, keep exactly one land: this seed misses the land seven times, then the eighth
    hand has it. Kept at nothing, all seven cards of that hand go to the bottom (the land count of the
    hand before must not be used to pick them)."""
    library = [cards["Mountain"]] + [cards["Sol Ring"]] * 40
    assert play_to_keep("london", library, 1, (1, 1), player_count=2, seed=47) == [None]


@pytest.mark.parametrize(
    ("style", "player_count", "kept"),
    [
        ("london", 2, [7, 5, 6, 5, 7, 6, 6, 6, 6, 6, 7, 7]),
        ("london", 4, [7, 6, 4, 7, 7, 7, 5, 5, 6, 5, 7, 7]),
        ("vancouver", 2, [7, None, None, 5, 6, 6, 7, 7, 4, None, 7, 6]),
        ("vancouver", 4, [7, 6, 5, 7, 7, 7, 4, 7, 7, 7, 6, 5]),
    ],
)
def test_a_seeded_run_is_reproduced_hand_for_hand(cards, style, player_count, kept):
    """Half lands, keep exactly 3: the seed fixes every shuffle; the free multiplayer mulligan changes the run."""
    library = [cards["Mountain"]] * 7 + [cards["Sol Ring"]] * 7
    assert play_to_keep(style, library, 12, (3, 3), player_count=player_count, seed=5) == kept
