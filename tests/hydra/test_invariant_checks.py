"""The Hydra's invariant checks (bot/domain/hydra/invariants.py) flag each kind of broken state, with the exact
complaint, and pass every legal corner (tokens, exiled and stacked cards, the life ledger's four parts).

Each test builds a real game, breaks one thing by hand, and checks what is said about it."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.domain.challenge.core import Decision
from bot.domain.hydra import HydraGame
from bot.domain.hydra import cards as C
from bot.domain.hydra.engine import PREVENT, TOKEN_ID, DamageStep, Head
from bot.domain.hydra.invariants import check_damage_step, check_invariants
from tests.hydra.hydra_helpers import new_game


def complaint(game: HydraGame) -> str:
    with pytest.raises(AssertionError) as caught:
        check_invariants(game)
    return str(caught.value)


def player_repr(life: int, **ledger: int) -> str:
    """P1's repr: 20 starting life, not lost, the ledger entries given (0 otherwise)."""
    entries = {"reward_gain": 0, "adjusted": 0, "damage_taken": 0, "life_lost": 0} | ledger
    return (
        f"Player(name='P1', heroes=(), starting_life=20, life={life}, lost=False, "
        + ", ".join(f"{key}={value}" for key, value in entries.items())
        + ")"
    )


def game_after_one_hydra_turn() -> HydraGame:
    """Two Hydra Heads dealt their 2 damage; Disorienting Glower went to the graveyard."""
    game = new_game(heads=2, top=[C.DISORIENTING_GLOWER])
    game.apply("end")
    while game.pending is not None:
        game.apply("choose " + game.pending.default)
    return game


def test_a_legal_game_passes_in_every_zone() -> None:
    game = game_after_one_hydra_turn()
    assert game.graveyard and game.damage_steps == [DamageStep(1, (C.HYDRA_HEAD, C.HYDRA_HEAD), 2, 2)]
    check_invariants(game)
    game.exile.append(game.library.pop())  # a card the players exiled from the library
    game.stack.append(game.library.pop())  # a card being cast
    game.battlefield.append(Head(TOKEN_ID, C.CARDS[C.RAVENOUS_BRUTE_HEAD], serial=99))  # a token copy
    check_invariants(game)


@pytest.mark.parametrize("zone", ["library", "graveyard", "stack", "exile", "battlefield"])
def test_a_card_twice_or_missing_is_flagged_with_the_count(zone: str) -> None:
    game = game_after_one_hydra_turn()
    head_id = game.battlefield[0].card_id
    if zone == "battlefield":
        game.battlefield.append(Head(head_id, C.CARDS[C.HYDRA_HEAD]))  # the same card twice
    else:
        getattr(game, zone).append(head_id)
    ids = game.library + [h.card_id for h in game.battlefield] + game.graveyard + game.stack + game.exile
    assert Counter(ids)[head_id] == 2
    assert complaint(game) == f"cards not all accounted for: {Counter(ids)}"


def test_a_lost_card_is_flagged() -> None:
    game = new_game(heads=2)
    lost = game.library.pop(0)
    ids = game.library + [h.card_id for h in game.battlefield]
    assert lost not in ids
    assert complaint(game) == f"cards not all accounted for: {Counter(ids)}"


def test_a_deck_that_is_not_the_h1_deck_is_flagged() -> None:
    game = new_game(heads=2)
    spell = game.library[0]
    game.card_names[spell] = C.NECK_TANGLE if game.card_names[spell] != C.NECK_TANGLE else C.UNIFIED_LUNGE
    assert complaint(game) == "not the H1 deck"


def test_a_sorcery_on_the_battlefield_is_flagged() -> None:
    game = new_game(heads=2)
    card_id = next(i for i in game.library if game.name_of(i) == C.NECK_TANGLE)
    game.library.remove(card_id)
    game.battlefield.append(Head(card_id, C.CARDS[C.NECK_TANGLE]))
    assert complaint(game) == "Neck Tangle on the battlefield is not a Head"


def test_negative_damage_is_flagged_zero_is_fine() -> None:
    game = new_game(heads=2, battlefield=[C.HYDRA_HEAD, C.RAVENOUS_BRUTE_HEAD])
    game.battlefield[1].damage = 0
    check_invariants(game)
    game.battlefield[1].damage = -1
    assert complaint(game) == "negative damage on Ravenous Brute Head"


def test_a_head_showing_another_cards_name_is_flagged_a_token_may() -> None:
    game = new_game(heads=2)
    brute = C.CARDS[C.RAVENOUS_BRUTE_HEAD]
    game.battlefield.append(Head(TOKEN_ID, brute, serial=3))
    check_invariants(game)
    game.battlefield[0].card = brute  # card 0 is a Hydra Head
    assert complaint(game) == ""


@pytest.mark.parametrize("field", ["reward_gain", "damage_taken", "life_lost"])
def test_a_negative_ledger_entry_is_flagged(field: str) -> None:
    game = new_game(heads=2)
    player = game.players[0]
    setattr(player, field, 0)
    check_invariants(game)
    setattr(player, field, -1)
    player.life = 21 if field != "reward_gain" else 19  # the life still adds up
    assert complaint(game) == "negative ledger " + player_repr(player.life, **{field: -1})


def test_life_is_exactly_the_ledger() -> None:
    game = new_game(heads=2)
    player = game.players[0]
    player.reward_gain, player.adjusted, player.damage_taken, player.life_lost = 4, 2, 5, 3
    player.life = 20 + 4 + 2 - 5 - 3
    check_invariants(game)
    player.adjusted = -2
    player.life = 14
    check_invariants(game)
    player.life = 15
    assert complaint(game) == "life from nowhere: " + player_repr(
        15, reward_gain=4, adjusted=-2, damage_taken=5, life_lost=3
    )


def test_the_slayers_starting_life_counts() -> None:
    game = new_game(heads=2, heroes=[[C.THE_SLAYER]])
    assert game.players[0].starting_life == game.players[0].life == 27
    check_invariants(game)


def test_a_player_at_zero_life_must_have_lost() -> None:
    game = new_game(heads=2)
    player = game.players[0]
    player.damage_taken, player.life = 19, 1
    check_invariants(game)
    player.damage_taken, player.life = 20, 0
    assert complaint(game) == "P1 at 0 life has not lost"
    player.damage_taken, player.life = 22, -2
    assert complaint(game) == "P1 at -2 life has not lost"
    player.lost = True
    game.outcome = "lost"
    check_invariants(game)


def test_the_outcome_must_agree_with_the_board() -> None:
    game = new_game(heads=2)
    game.outcome = "won"
    assert complaint(game) == "won with heads on the battlefield"
    game.graveyard += [head.card_id for head in game.battlefield]
    game.battlefield.clear()
    check_invariants(game)

    game = new_game(heads=2, players=2)
    game.outcome = "lost"
    game.players[0].lost = True
    assert complaint(game) == "lost with a challenger standing"
    game.players[1].lost = True
    check_invariants(game)
    game.outcome = "ongoing"  # every player may have lost before the outcome is written
    check_invariants(game)


def test_a_finished_game_asks_nothing() -> None:
    game = new_game(heads=2)
    game.pending = Decision(PREVENT, "option", "pass", options=("pass", "prevent"))
    check_invariants(game)  # a game in progress may ask
    game.players[0].lost = True
    game.outcome = "lost"
    assert complaint(game) == ""
    game.pending = None
    check_invariants(game)


@pytest.mark.parametrize(
    ("untapped", "output"),
    [
        ((), 0),
        ((C.HYDRA_HEAD,), 1),
        ((C.RAVENOUS_BRUTE_HEAD,), 2),
        ((C.HYDRA_HEAD, C.SNAPPING_FANG_HEAD, C.HYDRA_HEAD, C.SAVAGE_VIGOR_HEAD), 6),
        ((C.NECK_TANGLE,), 0),  # not a head: adds nothing
    ],
)
def test_a_damage_step_adds_up_its_untapped_heads(untapped: tuple[str, ...], output: int) -> None:
    check_damage_step(DamageStep(1, untapped, output, output))
    check_damage_step(DamageStep(1, untapped, output, 0))  # all prevented
    wrong = DamageStep(1, untapped, output + 1, output + 1)
    with pytest.raises(AssertionError) as caught:
        check_damage_step(wrong)
    assert str(caught.value) == f"damage step miscounted: {wrong}"


def test_a_damage_step_that_dealt_a_stale_amount_is_flagged() -> None:
    stale = DamageStep(2, (C.HYDRA_HEAD, C.RAVENOUS_BRUTE_HEAD), 3, 1)
    with pytest.raises(AssertionError) as caught:
        check_damage_step(stale)
    assert str(caught.value) == (
        "damage step dealt a stale amount: DamageStep(hydra_turn=2, "
        "untapped=('Hydra Head', 'Ravenous Brute Head'), untapped_output=3, dealt=1, tokens=0)"
    )
    game = game_after_one_hydra_turn()
    game.damage_steps.append(stale)
    assert complaint(game) == f"damage step dealt a stale amount: {stale}"
