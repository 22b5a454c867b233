"""One test per mistake of the existing web implementation (docs/rules/CHALLENGE_DECKS.md §6), proving we
don't repeat it. (The invented Hero texts are covered in test_cards.py.)"""

from __future__ import annotations

from bot.domain.hydra import HydraGame
from bot.domain.hydra import cards as C

from .hydra_helpers import BRUTE, HH, LUNGE, TITAN, hydra_turn, keys, lives, names, new_game


def test_shrieking_titan_makes_each_player_discard_one_card_not_two() -> None:
    game = new_game(battlefield=[TITAN], top=[C.DISORIENTING_GLOWER])
    hydra_turn(game)
    assert keys(game).count("hydra.log.each_discards") == 1
    assert "discards a card." in C.CARDS[TITAN].oracle_text


def test_impenetrable_hide_does_not_protect_heads_that_enter_later() -> None:
    game = new_game(battlefield=[HH], top=[C.IMPENETRABLE_HIDE, LUNGE, BRUTE, LUNGE])
    hydra_turn(game)
    game.apply("exile 1")  # exile is not destruction: the indestructible head still goes (H9)
    assert names(game) == [BRUTE]
    game.apply("destroy 2")  # the Brute (head 2) entered after Hide resolved: not indestructible
    assert BRUTE not in names(game)


def test_bounced_heads_go_to_the_graveyard_not_the_top_of_the_library() -> None:
    game = new_game(battlefield=[HH, HH], top=[LUNGE, LUNGE])
    library_before = list(game.library)
    game.apply("bounce 1")
    assert game.name_of(game.graveyard[0]) == HH
    assert game.library == library_before[:-2]  # only the two revealed cards left the library


def test_more_than_four_starting_heads_are_allowed() -> None:
    assert len(HydraGame.new(11).battlefield) == 11


def test_torn_between_heads_and_neck_tangle_let_the_players_choose_the_heads() -> None:
    game = new_game(battlefield=[HH, BRUTE, HH], top=[C.TORN_BETWEEN_HEADS])
    hydra_turn(game, "pass", "2 3")
    assert [h.tapped for h in game.battlefield] == [False, True, True]
    tangle = new_game(battlefield=[HH] * 6, top=[C.NECK_TANGLE])
    hydra_turn(tangle, "pass", "4 6")
    assert [h.tapped for h in tangle.battlefield] == [False, False, False, True, False, True]


def test_strike_on_an_indestructible_elite_head_still_gives_the_extra_turn() -> None:
    """ "If that Head was elite" does not ask whether it left the battlefield."""
    game = new_game(battlefield=[BRUTE], top=[C.IMPENETRABLE_HIDE, C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE])
    hydra_turn(game)
    hydra_turn(game, "1")
    assert names(game) == [BRUTE] and "hydra.log.extra_turn" in keys(game)


def test_hide_ending_does_not_kill_a_head_with_old_lethal_damage() -> None:
    """Damage wears off as "until end of turn" effects end (CR 514.2), in the same cleanup."""
    game = new_game(battlefield=[HH], top=[C.IMPENETRABLE_HIDE, LUNGE, LUNGE])
    hydra_turn(game)
    game.apply("end")
    game.apply("damage 1 5")  # in the counter window of the Hydra's next turn
    game.play_until_players()
    assert names(game) == [HH] and game.battlefield[0].damage == 0
    assert not game.is_indestructible(game.battlefield[0])


def test_damage_dealt_in_the_hydras_turn_wears_off_at_its_end() -> None:
    game = new_game(battlefield=[BRUTE], top=[LUNGE])
    game.apply("end")
    game.apply("damage 1 4")  # the web app kept it until the start of the next Hydra turn
    game.play_until_players()
    assert game.battlefield[0].damage == 0 and lives(game) == [20 - 1 - 2]
