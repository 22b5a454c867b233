"""The Horde's and the God's invariants flag each kind of broken state with its own complaint, and let
every legal state through (the fuzz run and the benchmark trust them). Each broken state is built on a
real game; each legal one is reached by real play where the engine can reach it."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import Decision
from bot.domain.challenge.creatures import CombatStep, CreatureDeckGame, Permanent, Seat
from bot.domain.challenge.god import PIPER, THRONG, XENAGOS, GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.invariants import check_invariants

from .helpers import rig

GORE = "Minotaur Goreseeker"


def horde(**rigging) -> HordeGame:
    return rig(HordeGame([Seat("P1")], seed=1), **rigging)  # type: ignore[return-value]


def complaint(game: CreatureDeckGame) -> str:
    with pytest.raises(AssertionError) as broken:
        check_invariants(game)
    return str(broken.value)


def test_a_card_in_two_zones_is_named_with_its_count() -> None:
    game = horde()
    twice = game.library[-1]
    game.graveyard.append(twice)
    message = complaint(game)
    assert message.startswith("cards not all accounted for: Counter({") and f"{twice}: 2" in message


def test_a_card_that_is_not_the_printed_deck_is_refused() -> None:
    game = horde()
    game.card_names[0] = "Plundered Statue"
    assert complaint(game) == "not the deck"


def test_a_sorcery_on_the_battlefield_and_negative_damage_are_named() -> None:
    game = horde(top=["Consuming Rage"])
    card_id = game.library.pop()
    game.battlefield.append(Permanent(card_id, game.cards["Consuming Rage"], entered_turn=0))
    assert complaint(game) == "Consuming Rage on the battlefield is not a permanent"
    game = horde(battlefield=[GORE])
    game.battlefield[0].damage = -1
    assert complaint(game) == f"negative damage on {GORE}"


@pytest.mark.parametrize("entry, life", [("gained", -1), ("damage", 1), ("lost", 1)])
def test_a_negative_ledger_entry_is_refused_even_when_life_agrees(entry: str, life: int) -> None:
    game = horde()
    game.ledger[entry] = -1
    game.life += life
    assert complaint(game) == str(game.ledger)


def test_life_is_20_plus_gains_and_own_changes_minus_damage_and_life_loss() -> None:
    game = rig(
        GodGame([Seat("P1"), Seat("P2")], seed=1),
        top=["Xenagos's Strike", "Pheres-Band Revelers"],
        battlefield=[XENAGOS, THRONG, PIPER],
    )
    game.apply("life 1 -2")  # adjusted -2
    game.apply("destroy 3")  # the Piper's reward: 2 life for each of the two players, gained 4
    game.apply("end")
    game.play_until_players()  # the Strike: 4 damage to each of the two players, damage 8
    assert game.ledger == {"gained": 4, "adjusted": -2, "damage": 8, "lost": 0} and game.life == 14
    check_invariants(game)
    game.ledger["lost"], game.life = 3, 11  # a life loss, counted in the ledger
    check_invariants(game)
    game.life += 1
    assert complaint(game) == (
        "life from nowhere: 12 != 11 {'gained': 4, 'adjusted': -2, 'damage': 8, 'lost': 3}"
    )


def test_combat_dealt_its_attackers_power_or_nothing() -> None:
    game = horde()
    game.combat_steps.append(CombatStep(((GORE, 3), ("Minotaur Younghorn", 2)), 5))
    game.combat_steps.append(CombatStep(((GORE, 3),), 0))  # prevented (Fog)
    check_invariants(game)
    game.combat_steps.append(CombatStep(((GORE, 3),), 1))
    assert complaint(game) == f"stale combat damage: CombatStep(attackers=(('{GORE}', 3),), dealt=1)"


def test_won_needs_the_decks_win_condition() -> None:
    game = horde()
    game.outcome = "won"
    assert complaint(game) == "won without the deck's win condition"
    won = horde(battlefield=[GORE], library_size=0)
    won.apply("destroy 1")
    assert won.outcome == "won"
    check_invariants(won)


def test_lost_needs_no_life_left_or_a_concession() -> None:
    game = horde()
    game.apply("life 1 -19")
    assert game.life == 1 and not game.over
    check_invariants(game)  # 1 life and going on
    game.outcome = "lost"
    assert complaint(game) == "lost with life left"
    dead = horde()
    dead.apply("life 1 -20")
    assert dead.outcome == "lost" and dead.life == 0
    check_invariants(dead)
    conceded = horde()
    conceded.apply("concede")
    assert conceded.outcome == "lost" and conceded.life == 20
    check_invariants(conceded)


def test_an_ended_game_asks_nothing_and_a_game_without_life_has_ended() -> None:
    game = horde()
    game.apply("concede")
    game.pending = Decision("blocks", "heads", "none")
    assert complaint(game) == ""
    game = horde()
    game.life, game.ledger["adjusted"] = 0, -20
    assert complaint(game) == "no life left and not lost"


def test_xenagos_never_leaves_while_the_god_game_goes_on() -> None:
    game = rig(GodGame([Seat("P1")], seed=1), battlefield=[XENAGOS, THRONG])
    xenagos = game.battlefield.pop(0)
    game.graveyard.append(xenagos.card_id)
    assert complaint(game) == "Xenagos left while the game goes on"
    won = rig(GodGame([Seat("P1")], seed=1), battlefield=[XENAGOS])
    won.apply("exile 1")
    assert won.outcome == "won" and won.battlefield == []
    check_invariants(won)


def test_xenagos_never_stays_with_lethal_damage_once_no_reveler_holds_him() -> None:
    game = rig(GodGame([Seat("P1")], seed=1), battlefield=[XENAGOS, THRONG])
    game.battlefield[0].damage = 5
    check_invariants(game)  # the Throng holds him
    throng = game.battlefield.pop(1)
    game.graveyard.append(throng.card_id)
    assert complaint(game) == "Xenagos has lethal damage, no Revelers hold him, and the game goes on"
    game.battlefield[0].damage = 4
    check_invariants(game)
    old = rig(GodGame([Seat("P1")], seed=1, rules=1), battlefield=[XENAGOS])
    old.battlefield[0].damage = 5
    check_invariants(old)  # a table of the first rules version played on like that
