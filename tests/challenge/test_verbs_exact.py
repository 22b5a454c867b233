"""The new verbs' exact effects and log lines, value by value (each number, each name): the words a
table shows and the state the next rule reads."""

from __future__ import annotations

import random

import pytest

from bot.domain.challenge.core import ChallengeError, Event, exile_cards
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.decks import GOD, HYDRA, LEGACY_RULES, check_heroes
from bot.domain.challenge.games import new_game
from bot.domain.challenge.god import PIPER, THRONG, XENAGOS, GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.hydra import HydraError
from bot.domain.hydra.actions import parse_action

from .helpers import play, rig

GORE, YOUNG, ALTAR, STATUE = "Minotaur Goreseeker", "Minotaur Younghorn", "Altar of Mogis", "Plundered Statue"


def E(key: str, **values: object) -> Event:
    return Event(key, values)


def horde(turns: int = 2, **rigging) -> HordeGame:
    return rig(HordeGame([Seat("P1")], seed=1, difficulty=turns), **rigging)  # type: ignore[return-value]


def god(**rigging) -> GodGame:
    return rig(GodGame([Seat("P1")], seed=1), **rigging)  # type: ignore[return-value]


def error(game, line: str) -> tuple[str, dict[str, object]]:
    with pytest.raises(ChallengeError) as caught:
        game.apply(line)
    return caught.value.key, caught.value.values


def test_attack_logs_each_target_and_skips_zero_damage() -> None:
    game = god(battlefield=[XENAGOS, THRONG, PIPER])
    events = game.apply("attack 1 2 3 0 2 1")
    assert events == [
        E("challenge.log.combat_damage_to", card=XENAGOS, amount=2),
        E("challenge.log.combat_damage_to", card=THRONG, amount=1),
    ]
    assert [p.damage for p in game.battlefield] == [2, 1, 0]
    game.apply("attack 2 2")
    assert [p.name for p in game.battlefield] == [XENAGOS, PIPER]  # 3 damage on the 1/3 Throng: it died
    assert error(god(battlefield=[XENAGOS, "Dance of Flame"]), "attack 2 1") == (
        "challenge.error.not_a_creature",
        {"number": 2, "card": "Dance of Flame"},
    )
    waiting = god(battlefield=[XENAGOS, THRONG], top=["Xenagos's Strike", PIPER])
    waiting.apply("end")
    assert error(waiting, "attack 1 1") == ("hydra.error.answer_first", {})  # not in a response window


def test_horde_blockers_refusal_names_the_permanent() -> None:
    game = horde(battlefield=[GORE, YOUNG])
    game.apply("tap 2")
    assert error(game, "attack 2 1") == ("horde.error.cannot_block", {"number": 2, "card": YOUNG})
    game.apply("steal 1")
    assert error(game, "attack 1 1") == ("horde.error.cannot_block", {"number": 1, "card": GORE})


def test_control_changes_exactly() -> None:
    game = horde(battlefield=[GORE, YOUNG])
    game.battlefield[0].attacking = True
    assert game.apply("steal 1") == [E("challenge.log.stolen", card=GORE)]
    assert (game.battlefield[0].stolen, game.battlefield[0].attacking, game.battlefield[1].stolen) == (
        True,
        False,
        False,
    )
    assert error(game, "giveback 2") == ("challenge.error.not_stolen", {"number": 2, "card": YOUNG})
    play(game, "end")
    assert game.apply("giveback 1") == [E("challenge.log.given_back", card=GORE)]
    assert (game.battlefield[0].stolen, game.battlefield[0].entered_turn) == (False, 2)
    play(game, "steal all")
    assert all(p.stolen for p in game.battlefield)
    game.apply("giveback all")
    assert not any(p.stolen for p in game.battlefield)


def test_cant_attack_and_cant_block_exactly() -> None:
    game = horde(battlefield=[GORE, YOUNG])
    assert game.apply("cantattack 1") == [E("challenge.log.cant_attack", card=GORE)]
    assert [p.no_attack_for for p in game.battlefield] == [1, 0]
    assert [game.cant_attack_now(p) for p in game.battlefield] == [True, False]
    assert game.apply("cantblock all") == [
        E("challenge.log.cant_block", card=GORE),
        E("challenge.log.cant_block", card=YOUNG),
    ]
    assert [p.no_block_turn for p in game.battlefield] == [1, 1]
    in_turn = horde(battlefield=[GORE], top=[ALTAR, STATUE])
    play(in_turn, "end", "end")
    assert in_turn.pending.topic == "counter" and in_turn.deck_turns == 1
    in_turn.apply("cantattack 1")  # during the Horde's turn: this very turn
    assert in_turn.battlefield[0].no_attack_for == 1 and in_turn.cant_attack_now(in_turn.battlefield[0])
    in_turn.play_until_players()
    assert in_turn.combat_steps == [] and not in_turn.cant_attack_now(in_turn.battlefield[0])


def test_extra_turns_exactly() -> None:
    game = horde(turns=2)
    assert game.apply("extraturn") == [E("hydra.log.players_extra_turn_earned")]
    game.apply("extraturn")
    assert game.players_extra_turns == 2
    events = game.apply("end")
    assert E("hydra.log.players_extra_turn") in events and (
        game.players_extra_turns,
        game.extra_turns_taken,
    ) == (1, 1)
    game.apply("end")
    assert (game.turn, game.players_extra_turns, game.extra_turns_taken, game.deck_turns) == (3, 0, 2, 0)


def test_exiling_cards_exactly() -> None:
    game = god(battlefield=[XENAGOS], graveyard=[PIPER, THRONG], top=["Impulsive Charge"])
    assert game.apply("exilecards graveyard all") == [
        E("challenge.log.exiled_from_graveyard", count=2, cards=(PIPER, THRONG))
    ]
    assert game.graveyard == [] and [game.name_of(i) for i in game.exile] == [PIPER, THRONG]
    assert game.apply("exilecards graveyard all") == [
        E("challenge.log.exiled_from_graveyard", count=0, cards=())
    ]
    assert game.apply("exilecards library 1") == [
        E("challenge.log.exiled_from_library", count=1, cards=("Impulsive Charge",))
    ]
    assert error(game, "exilecards graveyard Pipers") == (
        "challenge.error.not_in_graveyard",
        {"card": "Pipers"},
    )
    assert game.library_changed_by[-1] is True


def test_the_shared_exile_helper_refuses_in_the_decks_own_words() -> None:
    game = god(battlefield=[XENAGOS], graveyard=[PIPER, PIPER])
    with pytest.raises(HydraError) as caught:
        exile_cards(game, parse_action("exilecards graveyard Nothing"), "hydra", HydraError)
    assert (caught.value.key, caught.value.values) == ("hydra.error.not_in_graveyard", {"card": "Nothing"})
    assert exile_cards(game, parse_action("exilecards graveyard ecstatic PIPER")) == (
        "graveyard",
        [game.exile[0]],
    )
    assert len(game.graveyard) == 1  # one card of that name, not every one
    assert (
        exile_cards(game, parse_action("exilecards library 100"))[1] == game.exile[1:] and game.library == []
    )


def test_tucks_exactly() -> None:
    game = horde(battlefield=[GORE, YOUNG, ALTAR])
    gore, young, altar = (p.card_id for p in game.battlefield)
    top = game.library[-1]
    assert game.apply("tuck top 1") == [E("challenge.log.leaves_library", card=GORE)]
    assert game.library[-2:] == [top, gore] and game.defeated == 1
    game.apply("tuck bottom 2")
    assert game.library[0] == young
    library, actions = list(game.library), len(game.actions)
    game.apply("tuck shuffle 3")
    expected = [*library, altar]
    random.Random(f"{game.seed}:{actions}").shuffle(expected)
    assert game.library == expected and game.graveyard == []  # no Hero's Reward: not a graveyard


def test_set_up_exactly() -> None:
    game = GodGame([Seat("P1", ("The Slayer",)), Seat("P2")], seed=1, life_per_player=True)
    assert game.events[:3] == [
        E("god.log.setup", deck="god", players=2, difficulty=2),
        E("challenge.log.house_rule_life", life=47, players=2),
        E("challenge.log.players_turn", turn=1),
    ]
    assert (game.life, game.starting_life, game.players_extra_turns, game.extra_turns_taken) == (47, 47, 0, 0)
    plain = GodGame([Seat("P1")], seed=1)
    assert plain.events[1] == E("challenge.log.players_turn", turn=1) and plain.rules == 2
    copy = GodGame(
        [Seat("P1"), Seat("P2")],
        seed=3,
        difficulty=1,
        all_windows=True,
        stable_ids=False,
        life_per_player=True,
        rules=LEGACY_RULES,
    ).rebuild([])
    assert (
        copy.seed,
        copy.difficulty,
        copy.all_windows,
        copy.stable_ids,
        copy.life_per_player,
        copy.rules,
        copy.life,
    ) == (3, 1, True, False, True, 1, 40)
    with pytest.raises(ChallengeError) as caught:
        HordeGame([Seat("P1")], seed=1, life_per_player=True)
    assert (caught.value.key, caught.value.values) == ("challenge.error.house_rule_multiplayer", {})


def test_new_game_passes_every_part_of_the_set_up() -> None:
    hydra = new_game(
        "hydra",
        [Seat("P1", ("The Slayer", "The Slayer"))],
        9,
        4,
        all_windows=True,
        stable_ids=False,
        rules=LEGACY_RULES,
    )
    setup = hydra.setup  # type: ignore[attr-defined]
    assert (setup.heads, setup.seed, setup.all_windows, setup.stable_ids, setup.rules) == (
        4,
        9,
        True,
        False,
        1,
    )
    assert [(p.name, p.heroes, p.life) for p in hydra.players] == [("P1", ("The Slayer", "The Slayer"), 34)]  # type: ignore[attr-defined]
    horde_game = new_game("horde", [Seat("P1")], 9, 4, all_windows=True, stable_ids=False, rules=LEGACY_RULES)
    assert (
        type(horde_game),
        horde_game.difficulty,
        horde_game.all_windows,
        horde_game.stable_ids,  # type: ignore[attr-defined]
        horde_game.rules,
    ) == (HordeGame, 4, True, False, 1)  # type: ignore[attr-defined]


def test_hero_refusals_name_the_limit_and_the_card() -> None:
    with pytest.raises(ChallengeError) as caught:
        check_heroes(GOD, ("The Slayer", "The Hunter", "The Slayer"))
    assert (caught.value.key, caught.value.values) == ("challenge.error.heroes", {"max": 3})
    with pytest.raises(ChallengeError) as caught:
        check_heroes(HYDRA, ("The Slayer", "the slayer"))
    assert (caught.value.key, caught.value.values) == ("hydra.error.unknown_hero", {"hero": "the slayer"})
    check_heroes(GOD, ("The Slayer", "The Hunter", "The Warrior"))
    check_heroes(GOD, ())
