"""Sideboard swaps as plain Python (D7, T1): parsing pasted lines, every refusal, the window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.domain import pod
from bot.domain.decklist import Section, parse_decklist
from bot.domain.rules import resolve_decklist
from bot.domain.sideboard import (
    Swap,
    SwapError,
    apply_swaps,
    check_swaps,
    check_wish,
    is_wish,
    parse_swaps,
    swap_window,
    wish_cards,
    wishable,
)
from tests.matches.conftest import WISH_DECK


def _names(deck, section):
    return {c.name: c.count for c in deck.in_section(section)}


def test_parse_swaps_reads_arrows_and_counts():
    assert parse_swaps("Anger -> Lightning Bolt\n\n2 Mountain => 2 Badlands\nVow of Duty → Duress") == [
        Swap("Anger", "Lightning Bolt"),
        Swap("Mountain", "Badlands", 2),
        Swap("Vow of Duty", "Duress"),
    ]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Anger Lightning Bolt", "bad_line"),
        ("", "no_swaps"),
        ("-> Duress", "bad_line"),
        ("2 Mountain -> 1 Badlands", "size_change"),
        ("\n".join(["a -> b"] * 11), "too_many"),
    ],
)
def test_parse_swaps_refuses(text, key):
    with pytest.raises(SwapError) as error:
        parse_swaps(text)
    assert error.value.key == f"sideboard.error.{key}"


@given(st.text(max_size=300))
def test_parse_swaps_never_crashes(text):
    try:
        swaps = parse_swaps(text)
    except SwapError as error:
        assert error.key.startswith("sideboard.error.")
    else:
        assert 1 <= len(swaps) <= 10 and all(s.count >= 1 and s.out and s.into for s in swaps)


def test_a_swap_moves_one_card_each_way_and_keeps_the_size(deck):
    swapped = apply_swaps(deck, [Swap("anger", "Lightning Bolt")])
    assert "Lightning Bolt" in _names(swapped, Section.MAIN) and "Anger" not in _names(swapped, Section.MAIN)
    assert _names(swapped, Section.SIDEBOARD)["Anger"] == 1 and "Lightning Bolt" not in _names(
        swapped, Section.SIDEBOARD
    )
    assert swapped.main_count == deck.main_count == 100
    assert sum(c.count for c in swapped.in_section(Section.SIDEBOARD)) == 10


def test_a_later_swap_may_take_back_an_earlier_one(deck):
    back = apply_swaps(deck, [Swap("Anger", "Lightning Bolt"), Swap("Lightning Bolt", "Anger")])
    assert _names(back, Section.MAIN) == _names(deck, Section.MAIN)


def test_basic_lands_swap_several_at_once(deck):
    swapped = apply_swaps(deck, [Swap("Mountain", "Badlands")])
    assert _names(swapped, Section.MAIN)["Mountain"] == 7
    with pytest.raises(SwapError, match="not_in_sideboard"):  # one Badlands only
        apply_swaps(deck, [Swap("Mountain", "Badlands", 2)])


@pytest.mark.parametrize(
    ("swap", "key"),
    [
        (Swap("Kaalia of the Vast", "Lightning Bolt"), "commander"),
        (Swap("Anger", "Kaalia of the Vast"), "commander"),
        (Swap("Lightning Bolt", "Duress"), "not_in_main"),  # in the sideboard, not the main deck
        (Swap("Anger", "Akoum Refuge"), "not_in_sideboard"),  # in the main deck, not the sideboard
        (Swap("Anger", "Black Lotus"), "not_in_sideboard"),  # in neither
        (Swap("Anger", "Lightning Bolt", 0), "size_change"),
    ],
)
def test_refused_swaps(deck, swap, key):
    with pytest.raises(SwapError) as error:
        apply_swaps(deck, [swap])
    assert error.value.key == f"sideboard.error.{key}"


def test_a_swap_making_the_deck_illegal_is_refused(index):
    """Under the commander ruleset a sideboard is no part of the deck: an off-colour card may sit
    there, but swapping it in breaks colour identity (CR 903.5c), so the re-check refuses it."""
    from bot.domain.decklist import parse_decklist
    from bot.domain.rules import resolve_decklist
    from tests.matches.conftest import BLUE_SIDEBOARD_DECK

    blue = resolve_decklist(parse_decklist(BLUE_SIDEBOARD_DECK.read_text(encoding="utf-8")), index)
    assert check_swaps(blue, "commander", [], [Swap("Anger", "Duress")]).verdict.legal
    with pytest.raises(SwapError) as error:
        check_swaps(blue, "commander", [], [Swap("Anger", "Counterspell")])
    assert error.value.key == "sideboard.error.illegal" and error.value.values["card"] == "Counterspell"
    assert error.value.values["rule"] == "CR 903.5c"


def test_earlier_swaps_count(deck):
    """Between games the deck as last played is the starting point (000 §3.2)."""
    with pytest.raises(SwapError, match="not_in_main"):
        check_swaps(deck, "duel-zh", [Swap("Anger", "Lightning Bolt")], [Swap("Anger", "Duress")])
    played = check_swaps(
        deck, "duel-zh", [Swap("Anger", "Lightning Bolt")], [Swap("Lightning Bolt", "Anger")]
    )
    assert played.verdict.legal and "Anger" in _names(played.deck, Section.MAIN)


NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_window_of_the_optional_rule_is_three_minutes_from_the_declaration():
    declared = NOON.isoformat()
    window = swap_window(started=False, between_games=False, rule_on=True, declared_at=declared, now=NOON)
    assert window.open and window.seconds_left(NOON) == 180
    late = NOON + timedelta(minutes=3)
    closed = swap_window(started=False, between_games=False, rule_on=True, declared_at=declared, now=late)
    assert not closed.open and closed.reason == "window_closed"
    assert swap_window(
        started=False,
        between_games=False,
        rule_on=True,
        declared_at=declared,
        now=late - timedelta(seconds=1),
    ).open


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"started": True, "between_games": True, "rule_on": True}, "window_closed"),
        ({"started": False, "between_games": False, "rule_on": False}, "not_allowed"),
        ({"started": False, "between_games": False, "rule_on": True, "declared_at": None}, "not_declared"),
    ],
)
def test_closed_windows(kwargs, reason):
    kwargs.setdefault("declared_at", NOON.isoformat())
    window = swap_window(now=NOON, **kwargs)
    assert not window.open and window.reason == reason


def test_between_games_the_window_lasts_the_whole_pre_game_step():
    window = swap_window(
        started=False, between_games=True, rule_on=False, declared_at=None, now=NOON + timedelta(days=1)
    )
    assert window.open and window.closes_at is None


def test_a_refusal_crosses_the_work_pool_with_its_values():
    """Checks run in a worker process; the refusal comes back pickled and must keep its key and values."""
    import pickle

    error = pickle.loads(pickle.dumps(SwapError("commander", card="Kaalia of the Vast")))
    assert error.key == "sideboard.error.commander" and error.values == {"card": "Kaalia of the Vast"}


# -- wishes (D7) -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wish_deck(index):
    return resolve_decklist(parse_decklist(WISH_DECK.read_text(encoding="utf-8")), index)


def test_wish_cards_are_known_by_their_oracle_text(wish_deck, deck):
    assert wish_cards(wish_deck) == ["Burning Wish"]  # "a sorcery card you own from outside the game"
    assert wish_cards(deck) == []
    assert not any(is_wish(card) for card in deck.cards)


def test_a_wish_fetches_a_sideboard_card_as_played_once_per_game(wish_deck):
    assert check_wish(wish_deck, [], "gamble") == "Gamble"  # any case; the name as played back
    with pytest.raises(SwapError, match="wish_already"):
        check_wish(wish_deck, ["Gamble"], "Gamble")
    with pytest.raises(SwapError, match="wish_not_in_sideboard"):  # a main-deck card
        check_wish(wish_deck, [], "Anger")
    swapped = apply_swaps(wish_deck, [Swap("Anger", "Gamble")])
    with pytest.raises(SwapError, match="wish_not_in_sideboard"):  # swapped into the main deck
        check_wish(swapped, [], "Gamble")
    assert check_wish(swapped, [], "Anger") == "Anger"  # swapped out: in the sideboard now
    assert "Gamble" not in wishable(swapped, []) and wishable(wish_deck, ["Gamble"]) == [
        n for n in wishable(wish_deck, []) if n != "Gamble"
    ]


def test_the_fold_keeps_wishes_during_the_game_only():
    events = [
        pod.Event(
            1,
            pod.CREATE,
            1,
            "t",
            {"ruleset": "duel-zh", "players": [{"user_id": 1, "name": "a"}, {"user_id": 2, "name": "b"}]},
        ),
        pod.Event(2, pod.COMMANDERS, 1, "t", {"player": 1, "names": ["Kaalia of the Vast"], "deck": "K"}),
    ]
    wish = pod.Event(3, pod.WISH, 1, "t", {"player": 1, "card": "Gamble"})
    with pytest.raises(pod.PodError, match="not_started"):
        pod.apply(pod.replay(events), wish)
    state = pod.replay(
        [
            *events,
            pod.Event(3, pod.NEXT_TURN, 1, "t", {}),
            pod.Event(4, pod.WISH, 1, "t", {"player": 1, "card": "Gamble"}),
        ]
    )
    assert state.wishes == [{"player": 1, "card": "Gamble", "turn": 1}]
    assert pod.fetched_by_wishes(state) == {1: ["Gamble"]}
    with pytest.raises(pod.PodError, match="wish_already"):
        pod.apply(state, pod.Event(5, pod.WISH, 1, "t", {"player": 1, "card": "gamble"}))
    with pytest.raises(pod.PodError, match="no_deck"):  # player 2 plays no registered deck
        pod.apply(state, pod.Event(5, pod.WISH, 2, "t", {"player": 2, "card": "Gamble"}))
