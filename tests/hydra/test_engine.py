"""The Hydra engine against the rules (H1–H13) and each card's oracle text, one behaviour per test."""

from __future__ import annotations

import pytest

from bot.domain.hydra import HydraError, HydraGame, PlayerSetup, replay, undoable
from bot.domain.hydra import cards as C
from bot.domain.hydra.invariants import check_invariants

from .hydra_helpers import BRUTE, FANG, HH, LUNGE, VIGOR, hydra_turn, keys, lives, names, new_game


# ------------------------------------------------------------------ set-up (H2, H3)
def test_setup_puts_n_hydra_heads_out_and_shuffles_the_rest_by_seed() -> None:
    game = HydraGame.new(4, 2, seed=7)
    assert names(game) == [HH] * 4
    assert len(game.library) == 56 and game.graveyard == [] and lives(game) == [20, 20]
    again = HydraGame.new(4, 2, seed=7)
    other = HydraGame.new(4, 2, seed=8)
    assert game.library == again.library and game.library != other.library
    check_invariants(game)


@pytest.mark.parametrize("heads", [1, 11])
def test_any_difficulty_from_one_to_eleven_heads(heads: int) -> None:
    assert len(HydraGame.new(heads).battlefield) == heads


@pytest.mark.parametrize("heads", [0, 12])
def test_impossible_difficulty_is_refused(heads: int) -> None:
    with pytest.raises(HydraError) as error:
        HydraGame.new(heads)
    assert error.value.key == "hydra.error.heads_range"


def test_the_slayer_adds_seven_life_each_copy() -> None:
    game = HydraGame.new(
        2,
        [
            PlayerSetup("a", ("The Slayer",)),
            PlayerSetup("b", ("The Slayer", "The Slayer")),
            PlayerSetup("c", ("The Protector",)),
        ],
    )
    assert lives(game) == [27, 34, 20]


def test_three_heroes_or_five_players_are_refused() -> None:
    with pytest.raises(HydraError, match="too_many_heroes"):
        HydraGame.new(2, [PlayerSetup("a", ("The Slayer", "The Hunter", "The Warrior"))])
    with pytest.raises(HydraError, match="players_range"):
        HydraGame.new(2, 5)


def test_players_go_first_without_drawing_then_draw_on_later_turns() -> None:
    game = new_game(top=[LUNGE])
    assert game.active == "players" and game.turn == 1
    assert "hydra.log.no_first_draw" in keys(game) and "hydra.log.draw_reminder" not in keys(game)
    hydra_turn(game)
    assert game.turn == 3 and game.active == "players"
    assert keys(game)[-1] == "hydra.log.draw_reminder"


# ------------------------------------------------------------------ the Hydra's turn (H6)
def test_hydra_turn_untaps_reveals_casts_and_deals_one_per_head_two_per_elite() -> None:
    game = new_game(battlefield=[HH, HH, BRUTE], top=[HH], players=2)
    game.apply("tap 1")
    hydra_turn(game)
    # untapped again, the revealed Hydra Head entered: 3 Hydra Heads x1 + 1 elite x2 = 5 each.
    assert names(game) == [HH, HH, BRUTE, HH]
    assert lives(game) == [15, 15]


def test_tapped_heads_deal_no_damage() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.TORN_BETWEEN_HEADS])
    hydra_turn(game, "pass", "1 2")  # Torn taps both: only its own 5 damage
    assert lives(game) == [15]


def test_the_damage_step_is_combat_damage_that_the_players_can_prevent() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.DISORIENTING_GLOWER])
    hydra_turn(game, "pass", "prevent")
    assert lives(game) == [20] and "hydra.log.damage_prevented" in keys(game)


def test_the_players_may_counter_the_card_the_hydra_casts() -> None:
    game = new_game(battlefield=[HH], top=[BRUTE])
    hydra_turn(game, "counter")
    assert names(game) == [HH]  # the countered Head never entered
    assert game.name_of(game.graveyard[-1]) == BRUTE
    assert "hydra.log.grow" not in keys(game)  # nothing left the battlefield


def test_an_empty_library_does_not_end_the_game() -> None:
    game = new_game(battlefield=[HH])
    game.graveyard.extend(game.library)
    game.library.clear()
    hydra_turn(game)
    assert not game.over and lives(game) == [19] and "hydra.log.library_empty" in keys(game)


# ------------------------------------------------------------------ heads leaving (H5, H9, Hero's Reward)
@pytest.mark.parametrize(
    "action", ["destroy 1", "exile 1", "bounce 1", "damage 1 3", "attack 1 3", "loselife 1 3"]
)
def test_a_head_leaving_in_any_way_grows_new_heads_and_gives_the_reward(action: str) -> None:
    game = new_game(battlefield=[HH, HH], top=[BRUTE, LUNGE], players=2)
    game.apply(action)
    # H9: whatever the zone, it went to the graveyard; H5: top two revealed, the Head entered.
    assert names(game) == [HH, BRUTE]
    assert [game.name_of(i) for i in game.graveyard] == [HH, LUNGE]
    assert lives(game) == [22, 22]
    check_invariants(game)


def test_elite_rewards_gain_their_life_and_ask_each_player_to_draw() -> None:
    game = new_game(battlefield=[FANG], top=[LUNGE, LUNGE])
    game.apply("destroy 1")
    assert lives(game) == [24] and "hydra.log.reward_draw" in keys(game)


def test_lethal_damage_accumulates_and_heads_dying_together_each_grow() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[LUNGE, LUNGE, HH, LUNGE])
    game.apply("attack 1 2 2 5")
    assert names(game) == [HH, BRUTE]
    game.apply("damage 2 1")  # 6 damage on the 0/6: both heads now died, two reveals of two
    game.apply("damage 1 1")
    assert names(game) == [HH] and lives(game) == [24]
    assert game.heads_severed == 2


def test_the_hydra_losing_life_is_dealt_to_a_head_the_players_choose_h8() -> None:
    game = new_game(battlefield=[HH, BRUTE])
    game.apply("loselife 2 4")
    assert game.battlefield[1].damage == 4 and "hydra.log.redirected" in keys(game)


def test_damage_wears_off_at_the_end_of_every_turn() -> None:
    game = new_game(battlefield=[BRUTE], top=[LUNGE])
    game.apply("damage 1 5")
    hydra_turn(game)
    assert game.battlefield[0].damage == 0


# ------------------------------------------------------------------ win and loss (H7)
def test_the_players_win_at_the_end_of_a_turn_with_no_heads_not_before() -> None:
    game = new_game(battlefield=[HH], top=[LUNGE, LUNGE])
    game.apply("destroy 1")
    assert game.battlefield == [] and game.outcome == "ongoing"
    game.apply("end")
    assert game.outcome == "won" and keys(game)[-1] == "hydra.log.won"
    with pytest.raises(HydraError, match="game_over"):
        game.apply("end")


def test_the_win_is_also_checked_at_the_end_of_the_hydras_turn() -> None:
    game = new_game(battlefield=[HH], top=[C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE])
    game.graveyard.extend(game.library[:-3])
    del game.library[:-3]
    hydra_turn(game, "1")  # Strike destroys the only head; the two revealed are sorceries
    assert game.outcome == "won"


def test_a_player_at_zero_loses_and_the_game_ends_with_no_challenger_left() -> None:
    game = new_game(battlefield=[HH], players=2, top=[LUNGE])
    game.apply("life 1 -19")
    hydra_turn(game)  # Lunge 1 + head 1
    assert game.players[0].lost and not game.players[1].lost and game.outcome == "ongoing"
    game.apply("life 2 -16")
    hydra_turn(game)
    assert game.outcome == "lost" and game.pending is None


def test_damage_hits_each_player_h10() -> None:
    game = new_game(battlefield=[HH, HH], players=4, top=[LUNGE])
    hydra_turn(game)
    assert lives(game) == [16, 16, 16, 16]


# ------------------------------------------------------------------ the sorceries, word by word
def test_disorienting_glower_locks_spells_until_the_hydras_next_turn() -> None:
    game = new_game(battlefield=[HH], top=[C.DISORIENTING_GLOWER, LUNGE])
    hydra_turn(game)
    assert game.spells_locked and "hydra.log.glower_active" in keys(game)
    game.apply("end")
    assert not game.spells_locked  # the lock ended as the Hydra's next turn began
    assert game.pending is not None and game.pending.topic == "counter"


def test_distract_the_hydra_sacrifice_taps_a_chosen_head_decline_loses_three() -> None:
    game = new_game(battlefield=[HH, HH, HH], players=2, top=[C.DISTRACT_THE_HYDRA])
    hydra_turn(game, "pass", "sacrifice", "decline", "3")
    assert [h.tapped for h in game.battlefield] == [False, False, True]
    assert lives(game) == [18, 15]  # damage 2 from the untapped heads; P2 also lost 3


def test_distract_the_hydra_defaults_to_not_sacrificing() -> None:
    game = new_game(battlefield=[HH], top=[C.DISTRACT_THE_HYDRA])
    hydra_turn(game)
    assert lives(game) == [16]


def test_grown_from_the_stump_returns_exactly_two_hydra_heads_from_the_graveyard() -> None:
    game = new_game(battlefield=[BRUTE], graveyard=[HH, LUNGE, HH], top=[C.GROWN_FROM_THE_STUMP])
    hydra_turn(game)
    assert names(game) == [BRUTE, HH, HH] and "hydra.log.stump_graveyard" in keys(game)


def test_grown_from_the_stump_with_one_hydra_head_reveals_until_a_head() -> None:
    game = new_game(battlefield=[BRUTE], graveyard=[HH], top=[C.GROWN_FROM_THE_STUMP, LUNGE, LUNGE, FANG])
    hydra_turn(game)
    assert names(game) == [BRUTE, FANG]
    assert [game.name_of(i) for i in game.graveyard] == [HH, LUNGE, LUNGE, C.GROWN_FROM_THE_STUMP]


def test_impenetrable_hide_lasts_until_the_end_of_the_hydras_next_turn() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.IMPENETRABLE_HIDE, LUNGE, LUNGE])
    hydra_turn(game)
    game.apply("destroy 1")
    game.apply("damage 2 9")
    assert names(game) == [HH, HH]  # both survive in the players' turn
    game.apply("end")
    game.apply("choose pass")  # Lunge in the Hydra's next turn: still indestructible now
    game.apply("destroy 1")
    assert names(game) == [HH, HH]
    game.play_until_players()
    assert not any(game.is_indestructible(h) for h in game.battlefield)
    game.apply("destroy 1")
    assert len(game.battlefield) == 1 + 0  # gone now (the two revealed were sorceries)


def test_neck_tangle_with_five_heads_taps_two_chosen_that_skip_the_next_untap() -> None:
    game = new_game(battlefield=[HH] * 5, top=[C.NECK_TANGLE, LUNGE, LUNGE])
    hydra_turn(game, "pass", "2 5")
    assert [h.tapped for h in game.battlefield] == [False, True, False, False, True]
    assert lives(game) == [17]
    hydra_turn(game)  # they stay tapped through the Hydra's next untap step
    assert [h.tapped for h in game.battlefield] == [False, True, False, False, True]
    assert lives(game) == [17 - 5 - 3]  # Lunge 5 heads, then 3 untapped heads
    hydra_turn(game)
    assert not any(h.tapped for h in game.battlefield)


def test_neck_tangle_with_fewer_heads_casts_the_next_card_which_can_be_countered() -> None:
    game = new_game(battlefield=[HH], top=[C.NECK_TANGLE, BRUTE])
    hydra_turn(game, "pass", "counter")
    assert names(game) == [HH]
    assert [game.name_of(i) for i in game.graveyard] == [C.NECK_TANGLE, BRUTE]


def test_noxious_hydra_breath_mode_is_chosen_by_the_players() -> None:
    damage = new_game(battlefield=[HH], top=[C.NOXIOUS_HYDRA_BREATH])
    hydra_turn(damage, "pass", "damage")
    assert lives(damage) == [14]
    destroy = new_game(battlefield=[HH], top=[C.NOXIOUS_HYDRA_BREATH])
    hydra_turn(destroy, "pass", "destroy")
    assert lives(destroy) == [19] and "hydra.log.destroy_tapped_creatures" in keys(destroy)
    assert names(destroy) == [HH]  # Heads are not affected


def test_strike_the_weak_spot_on_an_elite_head_gives_an_extra_turn() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE, LUNGE])
    hydra_turn(game, "2")
    assert names(game) == [HH] and "hydra.log.extra_turn" in keys(game)
    assert game.turn == 4  # Hydra turns 2 and 3, then the players
    assert lives(game) == [20 + 2 - 1 - 1 - 1]  # reward, damage step, Lunge (1 head), damage step


def test_strike_the_weak_spot_on_a_non_elite_head_gives_no_extra_turn() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE])
    hydra_turn(game, "1")
    assert names(game) == [BRUTE] and game.turn == 3


def test_strike_fizzles_when_its_target_left_in_response() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE])
    game.apply("end")
    game.apply("choose 2")
    game.apply("exile 2")  # instant speed, in the counter window
    hydra_turn_rest = game.events[-1]
    assert hydra_turn_rest.key == "hydra.log.grow"
    game.apply("choose pass")
    game.play_until_players()
    assert "hydra.log.fizzles" in keys(game) and "hydra.log.extra_turn" not in keys(game)


def test_swallow_the_hero_whole_returns_the_exiled_when_a_head_leaves() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[C.SWALLOW_THE_HERO_WHOLE, LUNGE, LUNGE])
    hydra_turn(game, "pass", "Grizzly Bears", "none")
    assert [(p, c) for w in game.swallows for p, c in w.exiled] == [(0, "Grizzly Bears")]
    game.apply("destroy 1")
    returned = [e for e in game.events if e.key == "hydra.log.swallow_return"]
    assert [e.values["creature"] for e in returned] == ["Grizzly Bears"]
    game.apply("destroy 2")  # already returned: nothing more
    assert len([e for e in game.events if e.key == "hydra.log.swallow_return"]) == 1


def test_swallow_the_hero_whole_window_closes_at_the_hydras_next_turn() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.SWALLOW_THE_HERO_WHOLE, LUNGE, C.STRIKE_THE_WEAK_SPOT])
    hydra_turn(game, "pass", "Llanowar Elves")
    hydra_turn(game)
    assert game.swallows == [] and "hydra.log.swallow_closed" in keys(game)
    game.apply("destroy 1")
    assert "hydra.log.swallow_return" not in keys(game)


def test_torn_between_heads_taps_up_to_two_chosen_heads_and_deals_five() -> None:
    game = new_game(battlefield=[HH, HH, HH], top=[C.TORN_BETWEEN_HEADS, LUNGE])
    hydra_turn(game, "pass", "3")
    assert [h.tapped for h in game.battlefield] == [False, False, True]
    assert lives(game) == [20 - 5 - 2]
    hydra_turn(game)  # the tapped one skips this untap step
    assert [h.tapped for h in game.battlefield] == [False, False, True]


def test_torn_between_heads_may_tap_none() -> None:
    game = new_game(battlefield=[HH], top=[C.TORN_BETWEEN_HEADS])
    hydra_turn(game, "pass", "none")
    assert lives(game) == [20 - 5 - 1]


def test_unified_lunge_deals_the_number_of_heads() -> None:
    game = new_game(battlefield=[HH, HH, BRUTE], top=[LUNGE])
    hydra_turn(game)
    assert lives(game) == [20 - 3 - 4]


# ------------------------------------------------------------------ elite end-step triggers
def test_snapping_fang_deals_one_at_the_hydras_end_step() -> None:
    game = new_game(battlefield=[FANG], top=[C.DISORIENTING_GLOWER])
    hydra_turn(game)
    assert lives(game) == [20 - 2 - 1]


def test_savage_vigor_casts_another_card_at_the_end_step() -> None:
    game = new_game(battlefield=[VIGOR], top=[C.DISORIENTING_GLOWER, HH])
    hydra_turn(game)
    assert names(game) == [VIGOR, HH]
    assert lives(game) == [18]  # the new head entered after the damage step


def test_the_players_order_simultaneous_end_step_triggers() -> None:
    game = new_game(battlefield=[VIGOR, FANG], top=[C.DISORIENTING_GLOWER, LUNGE])
    hydra_turn(game, "pass", "pass", "snapping fang head")
    order = [e.values["head"] for e in game.events if e.key == "hydra.log.trigger"]
    assert order == [FANG, VIGOR]


# ------------------------------------------------------------------ choices, errors, replay, undo
def test_bad_input_is_refused_and_changes_nothing() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.TORN_BETWEEN_HEADS])
    before = game.snapshot()
    for line in ("destroy 3", "attack 1 2 5 1", "attack 1", "life 9 1", "choose 1", "fly 1", "damage 1 -2"):
        with pytest.raises(HydraError, match=r"^hydra\.error\."):
            game.apply(line)
        assert game.snapshot() == before and game.actions == []
    game.apply("end")
    game.apply("choose pass")
    with pytest.raises(HydraError, match="answer_first"):
        game.apply("damage 1 1")  # not in the middle of a choice
    with pytest.raises(HydraError, match="same_head_twice"):
        game.apply("choose 1 1")
    with pytest.raises(HydraError, match="head_count"):
        game.apply("choose 1 2 3")
    game.apply("choose none")
    assert game.pending is not None and game.pending.topic == "prevent"
    with pytest.raises(HydraError, match="bad_option"):
        game.apply("choose maybe")
    game.play_until_players()
    with pytest.raises(HydraError, match="nothing_to_choose"):
        game.apply("choose pass")
    assert game.active == "players"


def test_sorcery_speed_actions_wait_for_the_players_turn() -> None:
    game = new_game(battlefield=[HH], top=[LUNGE])
    game.apply("end")
    assert game.pending is not None and game.pending.topic == "counter"
    with pytest.raises(HydraError, match="answer_first"):
        game.apply("attack 1 3")
    game.apply("tap 1")  # instant speed is fine in a window


def test_replay_of_seed_and_actions_rebuilds_the_same_state() -> None:
    game = HydraGame.new(3, 2, seed=99)
    for line in ("attack 1 3", "end"):
        game.apply(line)
    game.play_until_players()
    game.apply(f"damage {game.battlefield_numbers()[0]} 2")
    copy = replay(game.setup, game.actions)
    assert copy.snapshot() == game.snapshot() and copy.events == game.events


def test_undo_takes_back_only_an_action_of_the_current_players_turn() -> None:
    game = HydraGame.new(3, 1, seed=3)
    game.apply("damage 1 2")
    assert undoable(game.actions)
    undone = replay(game.setup, game.actions[:-1])
    assert undone.battlefield[0].damage == 0
    game.apply("end")
    game.play_until_players()
    assert not undoable(game.actions)


def test_a_question_to_a_player_who_concedes_takes_its_default() -> None:
    game = new_game(battlefield=[HH], players=2, top=[C.DISTRACT_THE_HYDRA])
    hydra_turn_start = game.apply("end")
    assert hydra_turn_start and game.pending.topic == "counter"
    game.apply("choose pass")
    assert game.pending.topic == "distract_sacrifice" and game.pending.player == 0
    game.apply("concede 1")
    assert game.pending.player == 1  # P1's question was answered by default (decline)
    game.apply("choose decline")
    game.play_until_players()
    assert game.players[0].lost and lives(game)[1] == 20 - 3 - 1
    check_invariants(game)
