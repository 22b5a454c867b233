"""One action language for the three decks: what the players' cards do that the bot must be told
(one attack on several creatures, control changes, tucks, "can't attack"/"can't block", extra turns,
exiling the deck's cards), each verb refused — with the deck's reason — where its rules forbid it."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError, Event
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.decks import LEGACY_RULES, RULES
from bot.domain.challenge.god import PIPER, THRONG, XENAGOS, GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.invariants import check_invariants
from bot.domain.hydra import cards as C
from bot.domain.hydra.actions import VERBS
from bot.i18n import LANGUAGES, t

from ..hydra.hydra_helpers import lives, new_game
from ..hydra.hydra_helpers import names as head_names
from .helpers import deck_turn, keys, names, play, rig

GORE, YOUNG, ALTAR, ELIXIR = (
    "Minotaur Goreseeker",
    "Minotaur Younghorn",
    "Altar of Mogis",
    "Refreshing Elixir",
)
PHERES, RETURN, FLAME = "Pheres-Band Revelers", "Impulsive Return", "Dance of Flame"


def E(key: str, **values: object) -> Event:
    return Event(key, values)


def horde(turns: int = 2, **rigging) -> HordeGame:
    return rig(HordeGame([Seat("P1")], seed=1, difficulty=turns), **rigging)  # type: ignore[return-value]


def god(players: int = 1, **rigging) -> GodGame:
    return rig(GodGame([Seat(f"P{i + 1}") for i in range(players)], seed=1), **rigging)  # type: ignore[return-value]


def refused(game, line: str) -> str:
    """The refusal's key; the game is unchanged."""
    before, events = game.snapshot(), list(game.events)
    with pytest.raises(ChallengeError) as caught:
        game.apply(line)
    assert (game.snapshot(), game.events) == (before, events)
    return caught.value.key


# ------------------------------------------------------------------ one language, refused where forbidden
def test_every_deck_parses_every_verb_and_refuses_with_its_reason() -> None:
    hydra, horde_game, god_game = new_game(), horde(), god()
    assert hydra.verbs == horde_game.verbs == god_game.verbs == VERBS
    assert refused(hydra, "steal 1") == "challenge.refuse.hydra.steal"  # players can't gain control of heads
    assert refused(hydra, "giveback 1") == "challenge.refuse.hydra.giveback"
    assert refused(hydra, "cantattack 1") == "challenge.refuse.hydra.cantattack"
    assert refused(hydra, "cantblock 1") == "challenge.refuse.hydra.cantblock"
    assert refused(hydra, "hit 2") == "challenge.refuse.hydra.hit"
    assert refused(horde_game, "loselife 1 2") == "challenge.refuse.horde.loselife"
    assert refused(horde_game, "copy 1") == "challenge.refuse.horde.copy"
    for line in ("hit 2", "loselife 1 2", "copy 1", "cantblock 1"):
        assert refused(god_game, line) == f"challenge.refuse.god.{line.split()[0]}"
    for rules in RULES.values():
        for key in rules.refused.values():
            assert all(t(key, language) != key for language in LANGUAGES)


# ------------------------------------------------------------------ damage is for creatures
def test_damage_and_toughness_changes_on_an_artifact_are_refused_and_all_means_every_creature() -> None:
    game = horde(battlefield=[GORE, ALTAR])
    for line in ("damage 2 3", "weaken 1 2", "counters -1 2", "sweep 2 1 2", "attack 2 3"):
        assert refused(game, line) == "challenge.error.not_a_creature"
    game.apply("sweep 3 all")
    assert names(game) == [ALTAR] and "[3 damage]" not in " ".join(game.board_lines())
    old = rig(HordeGame([Seat("P1")], seed=1, rules=LEGACY_RULES), battlefield=[ALTAR])
    old.apply("damage 1 3")  # a table stored before: its log replays as it was played
    assert old.battlefield[0].damage == 3


# ------------------------------------------------------------------ one attack, several targets
def test_one_attack_deals_its_damage_to_several_of_xenagoss_creatures_at_once() -> None:
    game = god(battlefield=[XENAGOS, THRONG, PIPER])
    game.apply("attack 2 3 3 2 1 4")
    assert names(game) == [XENAGOS] and game.battlefield[0].damage == 4  # one check: both Revelers died
    assert keys(game)[-6:-4] == ["challenge.log.combat_damage_to"] * 2
    check_invariants(game)


def test_the_hordes_creatures_take_the_players_combat_damage_only_as_blockers() -> None:
    game = horde(battlefield=[GORE, YOUNG, "Phoberos Reaver"])
    play(game, "tap 2", "cantblock 3")
    assert refused(game, "attack 2 3") == "horde.error.cannot_block"  # tapped
    assert refused(game, "attack 3 3") == "horde.error.cannot_block"  # can't block this turn
    game.apply("attack 1 3")
    assert names(game) == [YOUNG, "Phoberos Reaver"]
    assert refused(game, "attack") == "hydra.error.usage"


# ------------------------------------------------------------------ control
def test_a_stolen_reveler_still_protects_xenagos_and_never_attacks_for_him() -> None:
    game = god(battlefield=[XENAGOS, PIPER], top=["Impulsive Charge", THRONG])
    game.apply("steal 2")
    assert game.board_lines()[1].endswith("[yours]")
    game.apply("damage 1 5")
    assert XENAGOS in names(game) and not game.over  # a Reveler is on the battlefield: Xenagos stays
    game.apply("end")
    game.play_until_players()  # Impulsive Charge: every Reveler attacks — not the one the players control
    assert all(name != PIPER for name, _ in game.combat_steps[-1].attackers)
    check_invariants(game)


def test_the_horde_is_beaten_when_its_library_is_empty_and_the_only_creature_left_is_the_players() -> None:
    game = horde(battlefield=[GORE], library_size=0)
    game.apply("steal 1")
    assert game.outcome == "won"


def test_giving_back_a_creature_makes_it_the_decks_again_and_only_a_stolen_one() -> None:
    game = horde(battlefield=[GORE, YOUNG])
    assert refused(game, "giveback 1") == "challenge.error.not_stolen"
    play(game, "steal 1", "giveback all")
    assert not game.battlefield[0].stolen and game.events[-1] == E("challenge.log.given_back", card=GORE)


def test_rip_to_pieces_hurts_a_reveler_the_players_took_it_is_their_creature() -> None:
    game = god(battlefield=[XENAGOS, THRONG, PIPER], top=["Rip to Pieces", PHERES])
    game.apply("steal 3")
    deck_turn(game)
    assert PIPER not in names(game)  # 3 Revelers: 3 damage to the players' 2/2 Piper


# ------------------------------------------------------------------ into the library
def test_a_tucked_artifact_goes_into_the_library_without_its_heros_reward() -> None:
    game = horde(battlefield=[ELIXIR, GORE])
    game.apply("tuck top 1")
    assert names(game) == [GORE] and game.name_of(game.library[-1]) == ELIXIR and game.life == 20
    game.apply("tuck bottom 2")
    assert game.name_of(game.library[0]) == GORE and game.undo_refusal() == "challenge.error.undo_revealed"
    assert game.events[-1] == E("challenge.log.leaves_library", card=GORE)
    check_invariants(game)


def test_a_tucked_piper_still_gives_its_heros_reward_it_left_the_battlefield() -> None:
    game = god(battlefield=[XENAGOS, PIPER, PIPER])
    game.apply("tuck shuffle 2 3")
    assert names(game) == [XENAGOS] and game.life == 24 and len(game.library) == 59 - 2 + 2
    again = god(battlefield=[XENAGOS, PIPER, PIPER])
    again.apply("tuck shuffle 2 3")
    assert again.library == game.library  # the shuffle comes from the seed and the log: replays agree
    check_invariants(game)


def test_a_head_put_into_the_library_goes_to_the_hydras_graveyard_instead() -> None:
    game = new_game(battlefield=[C.HYDRA_HEAD, C.HYDRA_HEAD], top=[C.UNIFIED_LUNGE, C.NECK_TANGLE])
    game.apply("tuck top 1")
    assert head_names(game) == [C.HYDRA_HEAD] and lives(game) == [22]  # it left: Hero's Reward
    assert "hydra.log.leaves_library" in [e.key for e in game.events]
    assert game.name_of(game.graveyard[0]) == C.HYDRA_HEAD


# ------------------------------------------------------------------ can't attack, extra turns, exile
def test_a_minotaur_that_cant_attack_stays_home_during_the_hordes_next_turn_only() -> None:
    game = horde(turns=2, battlefield=[GORE], top=[ALTAR, "Plundered Statue"])
    game.apply("end")  # the player's second turn
    game.apply("cantattack 1")
    assert game.board_lines()[0].endswith("[can't attack]")
    deck_turn(game)
    assert "challenge.log.no_attack" in keys(game)
    assert not game.board_lines()[0].endswith("[can't attack]")


def test_an_extra_turn_against_the_horde_is_not_one_of_the_turns_before_its_first() -> None:
    game = horde(turns=2)
    play(game, "extraturn", "end")
    assert (game.turn, game.active, game.extra_turns_taken) == (2, "players", 1)
    game.apply("end")
    assert game.turn == 3 and game.active == "players"  # the second of the two turns before the Horde's
    game.apply("end")
    assert game.deck_turns == 1


def test_exiling_pipers_from_xenagoss_graveyard_leaves_impulsive_return_nothing_to_return() -> None:
    game = god(battlefield=[XENAGOS], graveyard=[PIPER, PIPER], top=[RETURN, PHERES])
    game.apply(f"exilecards graveyard {PIPER}")
    game.apply(f"exilecards graveyard {PIPER.lower()}")
    assert refused(game, f"exilecards graveyard {PIPER}") == "challenge.error.not_in_graveyard"
    deck_turn(game)
    assert PIPER not in names(game) and game.exile and len(game.exile) == 2
    game.apply("exilecards library 2")
    assert len(game.exile) == 4 and game.events[-1].key == "challenge.log.exiled_from_library"
    check_invariants(game)


def test_no_combat_damage_to_prevent_is_said_in_words() -> None:
    game = horde(turns=2, battlefield=[YOUNG], top=[ALTAR, "Plundered Statue"])
    play(game, "end", "end")
    play(game, "choose pass", "choose pass", "choose 1", "choose prevent")  # the Younghorn is blocked
    assert E("challenge.log.combat_nothing_to_prevent", amount=0) in game.events
    assert "challenge.log.combat_prevented" not in keys(game)
    assert t("challenge.log.combat_nothing_to_prevent", "en", amount=0) == (
        "No combat damage to prevent: the attackers left unblocked have no power."
    )


def test_the_altar_makes_the_horde_sacrifice_only_minotaurs_it_controls() -> None:
    game = horde(battlefield=[ALTAR, GORE, YOUNG, "Phoberos Reaver"])
    play(game, "steal 3", "destroy 1")
    assert game.pending.topic == "altar_sacrifice" and game.allowed_numbers(game.pending) == [2, 4]
    game.apply("choose 2 4")
    assert names(game) == [YOUNG] and game.battlefield[0].stolen
