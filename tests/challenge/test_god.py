"""Defeat a God against its printed rules and card texts (docs/rules/CHALLENGE_DECKS.md §5b)."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError, Event
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.decks import LEGACY_RULES
from bot.domain.challenge.god import PIPER, THRONG, XENAGOS, GodGame
from bot.domain.challenge.invariants import check_invariants

from .helpers import deck_turn, keys, names, play, rig

PHERES, OREAD = "Pheres-Band Revelers", "Maddened Oread"


def E(key: str, **values: object) -> Event:
    return Event(key, values)


def god(players: int = 1, throngs: int = 2, **rigging) -> GodGame:
    game = GodGame([Seat(f"P{i + 1}") for i in range(players)], seed=1, difficulty=throngs)
    return rig(game, **rigging)  # type: ignore[return-value]


def test_xenagos_and_two_throngs_start_one_more_per_extra_player_shared_20_life() -> None:
    assert names(god()) == [XENAGOS, THRONG, THRONG]
    assert names(god(throngs=1)) == [XENAGOS, THRONG]
    four = god(players=4)
    assert names(four) == [XENAGOS] + [THRONG] * 5 and four.life == 20
    with pytest.raises(ChallengeError, match="players_range"):
        GodGame([Seat(str(i)) for i in range(5)], seed=1)
    with pytest.raises(ChallengeError, match="throngs_range"):
        GodGame([Seat("a")], seed=1, difficulty=4)
    assert "challenge.log.enters" not in keys(four)  # the Throngs' triggers don't trigger as the game begins


def test_xenagos_reveals_two_and_casts_them_revelers_dont_attack_on_their_own() -> None:
    game = god(top=[PHERES, "Dance of Flame"])
    deck_turn(game)
    assert names(game)[-2:] == [PHERES, "Dance of Flame"] and game.life == 20
    assert "challenge.log.no_attack" in keys(game)


def test_a_throng_entering_casts_the_next_card() -> None:
    game = god(top=[THRONG, PHERES, "Xenagos's Strike"])
    deck_turn(game)
    assert names(game)[-2:] == [THRONG, PHERES] and game.life == 16  # the Strike was cast too


def test_ecstatic_piper_makes_xenagos_attack() -> None:
    game = god(top=[PIPER, PHERES])
    deck_turn(game)
    assert game.life == 20 - 6 and game.combat_steps[-1].attackers == ((XENAGOS, 6),)


def test_each_player_damage_with_a_shared_life_total_counts_per_player() -> None:
    game = god(players=2, top=["Xenagos's Strike", PHERES])
    deck_turn(game)
    assert game.life == 20 - 8


def test_impulsive_charge_gives_revelers_haste_and_they_attack_with_dance_of_flame() -> None:
    game = god(battlefield=[XENAGOS, THRONG, "Dance of Flame"], top=["Impulsive Charge", PIPER])
    deck_turn(game)
    # Throng (1) and the new Piper (2, haste) attack; Xenagos attacks too (the Piper); Flame 1 per Reveler
    assert game.combat_steps[-1].attackers == ((XENAGOS, 6), (THRONG, 1), (PIPER, 2))
    assert game.life == 20 - 9 - 2


def test_xenagos_cant_leave_while_a_reveler_remains_and_the_players_win_when_he_leaves() -> None:
    game = god(battlefield=[XENAGOS, PIPER])
    game.apply("destroy 1")
    assert names(game) == [XENAGOS, PIPER] and "god.log.cannot_leave" in keys(game)
    game.apply("destroy 2")
    assert game.life == 22 and not game.over  # the Piper's Hero's Reward
    game.apply("exile 1")
    assert game.outcome == "won"
    check_invariants(game)


def test_xenagos_with_lethal_damage_dies_as_soon_as_the_last_reveler_leaves() -> None:
    """The state-based check runs again once something left: Xenagos's 10 damage kills him the moment
    nothing holds him, on the players' turn (not at its end) and before another Reveler can come."""
    game = god(battlefield=[XENAGOS, PIPER])
    game.apply("damage 1 10")
    assert XENAGOS in names(game) and not game.over and keys(game).count("god.log.cannot_leave") == 1
    game.apply("damage 1 1")  # he is still held: said once, not at every check
    assert keys(game).count("god.log.cannot_leave") == 1
    game.apply("destroy 2")
    assert (game.outcome, game.turn, game.active, names(game)) == ("won", 1, "players", [])
    assert game.events[-3:] == [
        E("challenge.log.leaves_dies", card=XENAGOS),
        E("god.log.xenagos_leaves"),
        E("challenge.log.won"),
    ]
    check_invariants(game)


def test_the_last_reveler_leaving_in_xenagoss_turn_lets_his_lethal_damage_kill_him_before_a_throng_comes() -> (
    None
):
    game = god(battlefield=[XENAGOS, PIPER], top=[THRONG, PIPER])
    game.apply("end")
    assert (game.pending.topic, game.pending.card) == ("counter", THRONG)
    play(game, "damage 1 6", "destroy 2")  # in the window of the Throng Xenagos casts
    assert game.outcome == "won" and names(game) == [] and game.pending is None


def test_tables_of_the_first_rules_version_keep_xenagos_held_as_they_were_played() -> None:
    game = rig(GodGame([Seat("P1")], seed=1, rules=LEGACY_RULES), battlefield=[XENAGOS, PIPER])
    play(game, "damage 1 10", "destroy 2")
    assert not game.over and XENAGOS in names(game)


def test_impulsive_return_brings_back_two_pipers_and_deals_damage_at_combat() -> None:
    game = god(battlefield=[XENAGOS], graveyard=[PIPER, PIPER], top=["Impulsive Return", PHERES])
    deck_turn(game, "pass", "pass", "none")
    # 3 Revelers at the beginning of combat: 3 damage; Xenagos attacks (the Pipers entered) for 6
    assert names(game) == [XENAGOS, PIPER, PIPER, PHERES] and game.life == 20 - 3 - 6


def test_impulsive_destruction_hurts_each_player_who_sacrifices_nothing() -> None:
    game = god(players=2, top=["Impulsive Destruction", PHERES])
    deck_turn(game, "pass", "sacrifice", "decline")
    assert game.life == 17


def test_with_every_window_the_upkeep_and_each_trigger_ask_and_a_trigger_can_be_countered() -> None:
    game = GodGame([Seat("P1")], seed=1, all_windows=True)
    rig(game, top=[THRONG, PIPER, PHERES])
    game.apply("end")
    assert game.pending.topic == "upkeep"
    game.apply("choose pass")
    game.apply("choose pass")  # the Throng resolves and enters
    assert game.pending.topic == "trigger" and game.pending.detail == "enter" and game.pending.card == THRONG
    game.apply("choose counter")  # Stifle the Throng's trigger: it casts nothing
    game.apply("choose pass")  # the Piper resolves and enters
    assert game.pending.topic == "trigger" and game.pending.card == PIPER
    game.apply("choose counter")  # and the Piper's: Xenagos won't attack
    game.play_until_players()
    assert (
        game.life == 20
        and PHERES not in names(game)
        and keys(game).count("challenge.log.trigger_countered") == 2
    )
    check_invariants(game)


def test_with_every_window_open_xenagos_dies_before_the_revelers_rewards_go_on_the_stack() -> None:
    """State-based actions come before triggers: no window ever shows Xenagos with lethal damage and
    no Reveler to hold him (random game 969 did, while the Pipers' Hero's Rewards waited)."""
    game = rig(GodGame([Seat("P1")], seed=1, all_windows=True), battlefield=[XENAGOS, PIPER, PIPER])
    play(game, "damage 1 5", "sweep 2 all")
    assert (game.outcome, game.pending, names(game)) == ("won", None, [])
