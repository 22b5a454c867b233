"""Battle the Horde against its printed rules and card texts (docs/rules/CHALLENGE_DECKS.md §5a)."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError, Event
from bot.domain.challenge.creatures import Seat, replay
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.invariants import check_invariants

from .helpers import deck_turn, keys, names, play, rig

GORE, YOUNG, CHOSEN, REAVER, RECKLESS = (
    "Minotaur Goreseeker",
    "Minotaur Younghorn",
    "Mogis's Chosen",
    "Phoberos Reaver",
    "Reckless Minotaur",
)


def horde(turns: int = 3, **rigging) -> HordeGame:
    return rig(HordeGame([Seat("P1")], seed=1, difficulty=turns), **rigging)  # type: ignore[return-value]


def test_single_player_three_different_heroes_and_two_to_four_first_turns() -> None:
    with pytest.raises(ChallengeError, match="players_range"):
        HordeGame([Seat("a"), Seat("b")], seed=1)
    with pytest.raises(ChallengeError, match="heroes"):
        HordeGame([Seat("a", ("The Slayer", "The Slayer"))], seed=1)
    with pytest.raises(ChallengeError, match="turns_range"):
        HordeGame([Seat("a")], seed=1, difficulty=5)
    game = HordeGame([Seat("a", ("The Hunter", "The Warrior", "The General"))], seed=1)
    assert game.battlefield == [] and len(game.library) == 60 and game.life == 20


def test_the_slayer_gives_the_player_seven_more_starting_life() -> None:
    """ "You start the game with an additional 7 life": 27 against the Horde, said in the log."""
    game = HordeGame([Seat("a", ("The Slayer", "The Hunter", "The Warrior"))], seed=1)
    assert (game.life, game.starting_life) == (27, 27)
    assert game.events[1] == Event("challenge.log.starting_life", {"life": 27})


def test_the_player_takes_three_turns_before_the_hordes_first() -> None:
    game = horde(top=[GORE, YOUNG])
    for turn in (1, 2):
        game.apply("end")
        assert game.active == "players" and game.turn == turn + 1 and game.pending is None
    game.apply("end")
    assert game.active == "deck" and game.turn == 4 and game.pending.topic == "counter"


def test_damage_to_the_horde_mills_its_library() -> None:
    game = horde(top=[GORE, YOUNG, REAVER])
    game.apply("hit 2")
    assert len(game.library) == 58
    assert [game.name_of(i) for i in game.graveyard] == [GORE, YOUNG]


def test_the_horde_casts_two_cards_and_its_haste_minotaurs_attack() -> None:
    game = horde(turns=2, top=[GORE, CHOSEN])
    game.apply("end")
    deck_turn(game)
    assert names(game) == [GORE, CHOSEN]
    # the Goreseeker has haste and attacks; Mogis's Chosen entered tapped (and has no haste)
    assert "challenge.log.attack" in keys(game) and game.life == 20 - 3
    assert game.combat_steps[-1].attackers == ((GORE, 3),)


def test_a_blocked_attacker_deals_no_damage_to_the_player() -> None:
    game = horde(turns=2, top=[GORE, YOUNG])
    game.apply("end")
    deck_turn(game, "pass", "pass", "1")  # counter windows for both, then block the Goreseeker
    assert game.life == 20 - 2


def test_combat_damage_is_counted_when_dealt_not_when_attackers_were_declared() -> None:
    game = horde(turns=2, top=[GORE, YOUNG])
    play(game, "end", "end", "choose pass", "choose pass")
    assert game.pending.topic == "blocks"
    game.apply("choose none")
    game.apply("destroy 1")  # removal in the prevent window
    game.play_until_players()
    assert game.life == 20 - 2 and game.combat_steps[-1].attackers == ((YOUNG, 2),)
    check_invariants(game)


def test_artifacts_add_a_card_from_the_turn_after_they_enter() -> None:
    game = horde(
        turns=2,
        top=[
            "Refreshing Elixir",
            "Intervention of Keranos",
            GORE,
            YOUNG,
            REAVER,
            "Descend on the Prey",
            "Touch of the Horned God",
        ],
    )
    game.apply("end")
    deck_turn(game)
    assert names(game) == ["Refreshing Elixir"]
    deck_turn(game)
    assert "horde.log.main_phase" in keys(game)
    last = [e for e in game.events if e.key == "horde.log.main_phase"][-1]
    assert last.values["count"] == 3  # 2 + the Elixir's trigger


def test_an_artifact_milled_from_the_library_gives_its_heros_reward() -> None:
    game = horde(top=["Refreshing Elixir", GORE])
    game.apply("hit 1")
    assert game.life == 25 and "horde.log.reward" in keys(game)


def test_massacre_totem_mills_seven_more_and_altar_sacrifices_two_minotaurs() -> None:
    game = horde(battlefield=[GORE, YOUNG, REAVER], top=["Massacre Totem", "Altar of Mogis", GORE])
    game.apply("hit 1")
    assert len(game.library) == 60 - 3 - 1 - 7
    assert game.pending.topic == "altar_sacrifice"
    game.apply("choose 1 3")
    assert names(game) == [YOUNG]
    check_invariants(game)


def test_reckless_minotaur_is_destroyed_at_the_beginning_of_each_end_step() -> None:
    game = horde(battlefield=[RECKLESS, GORE])
    game.apply("end")  # the player's end step too
    assert names(game) == [GORE]


def test_intervention_of_keranos_deals_3_to_each_creature_at_the_beginning_of_combat() -> None:
    game = horde(turns=2, battlefield=[REAVER, CHOSEN], top=["Intervention of Keranos", YOUNG])
    game.apply("end")
    deck_turn(game)
    assert names(game) == [CHOSEN]  # Reaver (2/3) and Younghorn (2/2) died; Chosen (5/4) survived


def test_consuming_rage_pumps_attackers_and_destroys_them_at_end_of_combat() -> None:
    game = horde(turns=2, battlefield=[REAVER], top=["Consuming Rage", "Unquenchable Fury"])
    game.apply("end")
    deck_turn(game)
    assert game.life == 20 - 4 and names(game) == []


def test_the_player_wins_when_the_library_is_empty_and_the_horde_has_no_creatures() -> None:
    game = horde(battlefield=[GORE], library_size=2)
    game.apply("hit 2")
    assert not game.over  # a creature remains
    game.apply("destroy 1")
    assert game.outcome == "won"
    check_invariants(game)


def test_replay_and_undo_never_unreveal() -> None:
    game = horde(top=[GORE, YOUNG])
    game.apply("life 1 -2")
    assert game.undo_refusal() is None
    game.apply("hit 1")
    assert game.undo_refusal() == "challenge.error.undo_revealed"
    copy = replay(HordeGame, [Seat("P1")], 7, 3, ["hit 3", "end", "end", "end"])
    again = replay(HordeGame, [Seat("P1")], 7, 3, copy.actions)
    assert again.snapshot() == copy.snapshot() and again.events == copy.events
