"""What the players' own cards do to the Hydra: each effect a paper game can need."""

from __future__ import annotations

import pytest

from bot.domain.challenge.decks import LEGACY_RULES
from bot.domain.hydra import GameSetup, HydraError, HydraGame
from bot.domain.hydra import cards as C
from bot.domain.hydra.engine import DamageStep
from bot.domain.hydra.invariants import check_invariants

from .hydra_helpers import BRUTE, HH, LUNGE, hydra_turn, keys, lives, names, new_game


# ------------------------------------------------------------------ damage is counted when it is dealt
@pytest.mark.parametrize(
    "action, expected",
    [
        ("tap 3", 20 - 2),  # The Philosopher taps the elite in the window: 2 Hydra Heads deal 2
        ("destroy 1", 20 - 2 - 1 + 2),  # instant removal: reward +2, one Hydra Head and the Brute remain (3)
        ("tap 1", 20 - 3),
    ],
)
def test_heads_tapped_or_removed_in_the_prevent_window_no_longer_deal_damage(
    action: str, expected: int
) -> None:
    game = new_game(battlefield=[HH, HH, BRUTE], top=[C.DISORIENTING_GLOWER, C.NECK_TANGLE, C.NECK_TANGLE])
    game.apply("end")
    game.apply("choose pass")  # let Disorienting Glower resolve
    assert game.pending is not None and game.pending.topic == "prevent"
    game.apply(action)
    check_invariants(game)
    game.apply("choose pass")
    game.play_until_players()
    assert lives(game) == [expected]
    assert (
        game.damage_steps[-1].dealt
        == game.damage_steps[-1].untapped_output
        == 20 - expected + (2 if "destroy" in action else 0)
    )
    check_invariants(game)


def test_when_every_head_is_tapped_in_the_window_no_damage_is_dealt() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.DISORIENTING_GLOWER])
    game.apply("end")
    game.apply("choose pass")
    game.apply("tap 1")
    game.apply("tap 2")
    game.apply("choose pass")
    game.play_until_players()
    assert lives(game) == [20] and "hydra.log.no_damage" in keys(game)


# ------------------------------------------------------------------ the players' own effects
def test_the_savant_taps_every_head_and_they_skip_the_next_untap_step() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.DISORIENTING_GLOWER, C.DISORIENTING_GLOWER])
    game.apply("tap all")
    game.apply("freeze all")
    hydra_turn(game)
    assert lives(game) == [20] and all(h.tapped for h in game.battlefield)
    assert keys(game).count("hydra.log.stays_tapped") == 2
    game.apply("end")
    game.play_until_players()  # the following untap step untaps them again: 1 + 2
    assert lives(game) == [17]


def test_minus_x_until_end_of_turn_kills_through_hide_and_wears_off() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[LUNGE, LUNGE])
    game.battlefield[0].indestructible_through = 1
    game.apply("weaken 1 all")  # The Tyrant: -1/-1 to each head
    assert [h.toughness for h in game.battlefield] == [2, 5]
    game.apply("weaken 2 1")  # 0 toughness: put into the graveyard, indestructible or not
    assert names(game) == [BRUTE] and "hydra.log.leaves_dies" in keys(game)
    game.apply("damage 2 4")
    assert names(game) == [BRUTE]
    game.apply("end")
    game.play_until_players()
    assert game.battlefield[0].toughness == 6 and game.battlefield[0].damage == 0
    check_invariants(game)


def test_plus_and_minus_counters_stay_and_annihilate() -> None:
    game = new_game(battlefield=[HH], top=[C.DISORIENTING_GLOWER])
    game.apply("counters -2 1")
    assert game.battlefield[0].toughness == 1
    game.apply("counters 1 1")
    hydra_turn(game)
    assert game.battlefield[0].counters == -1 and game.battlefield[0].toughness == 2  # counters last
    game.apply("counters -2 1")  # toughness 0: it dies
    assert game.heads_severed == 1 and "hydra.log.leaves_dies" in keys(game)


def test_sacrifice_ignores_indestructible_and_grows_new_heads() -> None:
    game = new_game(battlefield=[HH, HH], top=[BRUTE, LUNGE])
    game.battlefield[0].indestructible_through = 1
    game.apply("destroy 1")
    assert len(game.battlefield) == 2
    game.apply("sacrifice 1")
    assert names(game) == [HH, BRUTE] and lives(game) == [22]
    assert "hydra.log.leaves_sacrificed" in keys(game)


def test_an_extra_turn_for_the_players_comes_before_the_hydras() -> None:
    game = new_game(battlefield=[HH], top=[LUNGE])
    game.apply("extraturn")
    game.apply("end")
    assert game.active == "players" and game.turn == 2 and game.pending is None
    assert keys(game)[-3:] == [
        "hydra.log.players_extra_turn",
        "hydra.log.players_turn",
        "hydra.log.draw_reminder",
    ]
    hydra_turn(game)
    assert game.turn == 4 and lives(game) == [20 - 1 - 1]


def test_prevention_to_one_player_only() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[C.DISORIENTING_GLOWER])
    game.apply("end")
    game.apply("choose pass")
    game.apply("prevent 1 2")  # The Protector on player 2
    game.play_until_players()
    assert lives(game) == [18, 19]


def test_prevention_from_snapping_fang_head_only() -> None:
    game = new_game(battlefield=[C.SNAPPING_FANG_HEAD], top=[C.DISORIENTING_GLOWER])
    game.apply("end")
    game.apply("choose pass")
    game.apply("prevent 5 all from snapping fang head")  # never the heads' damage step
    game.play_until_players()
    assert lives(game) == [18]  # 2 from the elite head, its end-step 1 prevented


def test_prevention_from_a_sorcery_only_and_of_n_damage() -> None:
    game = new_game(battlefield=[HH], top=[C.TORN_BETWEEN_HEADS])
    game.apply("end")
    game.apply("prevent 3 from Torn Between Heads")  # in the counter window
    game.apply("choose pass")
    game.apply("choose none")  # tap no head
    game.play_until_players()
    assert lives(game) == [20 - 2 - 1]
    with pytest.raises(HydraError, match="unknown_source"):
        game.apply("prevent 1 from Grizzly Bears")


def test_a_copy_of_a_head_counts_for_unified_lunge_and_the_win() -> None:
    """A token copy is a Head (Unified Lunge, the win, growing new heads) but no *card* named Hydra
    Head: the damage step ("1 damage for each untapped card named Hydra Head") leaves it out."""
    glower, tangle = C.DISORIENTING_GLOWER, C.NECK_TANGLE
    game = new_game(battlefield=[HH], top=[LUNGE, glower, glower, glower, tangle, tangle])
    game.apply("copy 1")
    assert names(game) == [HH, HH] and game.battlefield[1].token
    hydra_turn(game)
    assert lives(game) == [20 - 2 - 1]  # Lunge: 2 heads; damage step: the one card named Hydra Head
    assert game.damage_steps[-1] == DamageStep(1, (HH, HH), 1, 1, tokens=1)
    game.apply("destroy 1")  # the card: reward, grow reveals two Glowers
    assert len(game.battlefield) == 1
    game.apply("end")
    assert game.outcome == "ongoing"  # the copy is still a head
    game.play_until_players()  # Glower; the copy alone deals nothing
    assert "hydra.log.no_damage" in [e.key for e in game.events[-4:]]
    game.apply("destroy 2")  # the copy: Hero's Reward and growing new heads (two Neck Tangles)
    assert game.battlefield == [] and lives(game) == [17 + 2 + 2]
    assert [game.name_of(i) for i in game.graveyard].count(HH) == 1  # the token went nowhere
    game.apply("end")
    assert game.outcome == "won"
    check_invariants(game)


def test_tables_of_the_first_rules_version_keep_the_copys_damage_as_played() -> None:
    game = new_game(battlefield=[HH], top=[LUNGE, C.DISORIENTING_GLOWER], rules=LEGACY_RULES)
    game.apply("copy 1")
    hydra_turn(game)
    assert lives(game) == [20 - 2 - 2] and game.damage_steps[-1].tokens == 0
    check_invariants(game)


def test_a_sweeper_picks_its_heads_before_any_of_them_dies() -> None:
    game = new_game(battlefield=[HH, BRUTE, HH, HH], top=[C.DISORIENTING_GLOWER] * 4)
    game.apply("sweep 3 1 3 4")
    assert names(game) == [BRUTE]
    game.apply("destroy all")
    assert names(game) == []
    with pytest.raises(HydraError, match="same_head_twice"):
        new_game(battlefield=[HH, HH]).apply("destroy 1 1")


def test_exiling_cards_from_the_hydras_library_and_graveyard() -> None:
    game = new_game(battlefield=[HH], top=[BRUTE, LUNGE], graveyard=[HH, HH, C.NECK_TANGLE])
    game.apply("exilecards graveyard hydra head")
    game.apply("exilecards library 1")
    assert [game.name_of(i) for i in game.exile] == [HH, BRUTE]
    game.apply("exilecards graveyard all")
    assert game.graveyard == [] and len(game.exile) == 4
    with pytest.raises(HydraError, match="not_in_graveyard"):
        game.apply("exilecards graveyard Neck Tangle")
    check_invariants(game)


# ------------------------------------------------------------------ undo, concession
def test_undo_never_unreveals_the_hydras_library() -> None:
    game = new_game(battlefield=[HH, HH], top=[BRUTE, LUNGE])
    game.apply("tap 2")
    assert game.undo_refusal() is None
    game.apply("destroy 1")  # grew heads: two cards of the library were revealed
    assert game.undo_refusal() == "hydra.error.undo_revealed"
    game.apply("mill 1")
    assert game.undo_refusal() == "hydra.error.undo_revealed"


def test_a_conceding_player_exiles_nothing_to_swallow_the_hero_whole() -> None:
    game = new_game(battlefield=[HH], players=2, top=[C.SWALLOW_THE_HERO_WHOLE])
    game.apply("end")
    game.apply("choose pass")
    assert game.pending.topic == "swallow_exile" and game.pending.player == 0
    game.apply("concede 1")
    assert "hydra.log.exiles" not in keys(game)
    game.apply("choose Grizzly Bears")
    game.play_until_players()
    assert [e.values["player"] for e in game.events if e.key == "hydra.log.exiles"] == ["P2"]


# ------------------------------------------------------------------ every response window (all_windows)
def _windowed(**kwargs: object) -> HydraGame:
    game = new_game(**kwargs)  # type: ignore[arg-type]
    game.setup = GameSetup(game.setup.heads, game.setup.players, game.setup.seed, all_windows=True)
    return game


def test_the_hydras_upkeep_is_a_window_after_its_untap_step() -> None:
    game = _windowed(battlefield=[HH, HH], top=[C.DISORIENTING_GLOWER])
    game.apply("tap 1")
    game.apply("end")
    assert game.pending.topic == "upkeep" and not any(h.tapped for h in game.battlefield)
    game.apply("tap 1")  # The Philosopher in the upkeep: the head stays tapped for the damage step
    game.apply("choose pass")
    assert game.pending.topic == "counter"
    game.play_until_players()
    assert lives(game) == [19]


def test_growing_heads_and_hero_s_reward_are_triggers_the_players_may_counter() -> None:
    game = _windowed(battlefield=[HH, HH], top=[BRUTE, LUNGE])
    game.apply("destroy 1")
    assert game.pending.topic == "trigger" and game.pending.detail == "reward"
    game.apply("choose pass")
    assert lives(game) == [22] and game.pending.detail == "grow"
    game.apply("damage 2 3")  # a response on top of the grow trigger: this one resolves first
    assert game.pending.detail == "reward" and len(game.battlefield) == 0
    game.play_until_players()  # reward, grow (Brute, Lunge), then the first grow trigger (random cards)
    assert lives(game) == [24] and game.battlefield[0].name == BRUTE
    check_invariants(game)


def test_an_end_step_trigger_can_be_countered() -> None:
    game = _windowed(battlefield=[C.SNAPPING_FANG_HEAD], top=[C.DISORIENTING_GLOWER])
    game.apply("end")
    while game.pending.topic != "trigger":
        game.choose_default()
    assert game.pending.detail == "end_step"
    game.apply("choose counter")
    game.play_until_players()
    assert lives(game) == [18] and "hydra.log.trigger_countered" in keys(game)


# ------------------------------------------------------------------ extra turns, concessions, undo
def test_extra_turns_add_up_and_may_be_earned_in_a_response_window() -> None:
    """Each "extraturn" is one more players' turn (an instant: also while the Hydra's spell can be
    countered), each logged; the players take both before the Hydra's next turn."""
    game = new_game(battlefield=[HH], top=[LUNGE, LUNGE])
    game.apply("extraturn")
    game.apply("end")
    assert (game.turn, game.active, game.players_extra_turns) == (2, "players", 0)
    game.apply("end")
    assert (game.turn, game.active, game.pending.topic) == (3, "hydra", "counter")
    game.apply("extraturn")
    game.apply("extraturn")
    assert game.players_extra_turns == 2
    assert keys(game)[-2:] == ["hydra.log.players_extra_turn_earned"] * 2
    game.play_until_players()
    turns = []
    for _ in range(3):
        turns.append((game.turn, game.active, game.players_extra_turns))
        game.apply("end")
    assert turns == [(4, "players", 2), (5, "players", 1), (6, "players", 0)]
    assert (game.turn, game.active) == (7, "hydra")


def test_extra_turn_is_refused_in_the_middle_of_a_choice() -> None:
    game = new_game(battlefield=[HH], players=2, top=[C.DISTRACT_THE_HYDRA])
    game.apply("end")
    game.apply("choose pass")
    assert game.pending.topic == "distract_sacrifice"
    with pytest.raises(HydraError, match="^hydra.error.answer_first$"):
        game.apply("extraturn")
    assert game.players_extra_turns == 0


def test_concede_names_one_player_or_all_and_all_gone_is_a_loss() -> None:
    game = new_game(battlefield=[HH], players=3)
    game.apply("concede 2")
    assert [p.lost for p in game.players] == [False, True, False]
    assert [(e.key, e.values) for e in game.events[-1:]] == [("hydra.log.conceded", {"player": "P2"})]
    assert game.outcome == "ongoing"
    game.apply("concede")
    assert [e.values for e in game.events if e.key == "hydra.log.conceded"] == [
        {"player": "P2"},
        {"player": "P1"},
        {"player": "P3"},
    ]
    assert all(p.lost for p in game.players) and game.outcome == "lost" and game.over


def test_what_can_be_undone() -> None:
    """Only the players' own moves of this turn: not an end of turn, an answer or a concession."""
    from bot.domain.hydra.engine import undoable

    assert [
        undoable(log)
        for log in ([], ["end"], ["choose pass"], ["concede 1"], ["extraturn"], ["end", "tap 1"])
    ] == [False, False, False, False, True, True]
    game = new_game(battlefield=[HH])
    assert game.undo_refusal() == "hydra.error.nothing_to_undo"
    with pytest.raises(HydraError, match="^hydra.error.nothing_to_choose$"):
        game.choose_default()


def test_the_log_of_the_players_effects_names_what_changed() -> None:
    """The game log is what the Hydra channel shows: each player effect logs its key and the values the
    message needs (who, which head, how much, which cards). One rigged game, its whole log after setup."""
    game = new_game(
        battlefield=[HH, BRUTE, HH, HH],
        players=2,
        top=[LUNGE, C.DISTRACT_THE_HYDRA],
        graveyard=[C.NECK_TANGLE],
    )
    start = len(game.events)
    for action in (
        "life 2 -3",
        "loselife 1 2",
        "counters 1 1",
        "prevent 1 2",
        "mill 1",
        "exilecards graveyard Neck Tangle",
        "exilecards library 1",
        "copy 1",
        "bounce 4",
        "sweep 2 1 3",
    ):
        game.apply(action)
    assert [(e.key, e.values) for e in game.events[start:]] == [
        ("hydra.log.life", {"player": "P2", "delta": "-3", "life": 17}),
        (
            "hydra.log.redirected",
            {"head": "Hydra Head", "amount": 2},
        ),  # H8: the Hydra's life loss hits a head
        ("hydra.log.counters", {"head": "Hydra Head", "delta": "+1", "toughness": 4}),
        ("hydra.log.shield", {"amount": 1, "players": ("P2",), "source": "*"}),
        ("hydra.log.milled", {"count": 1, "cards": ("Unified Lunge",)}),
        ("hydra.log.exiled_from_graveyard", {"count": 1, "cards": ("Neck Tangle",)}),
        ("hydra.log.exiled_from_library", {"count": 1, "cards": ("Distract the Hydra",)}),
        ("hydra.log.copied", {"head": "Hydra Head"}),
        ("hydra.log.leaves_bounce", {"head": "Hydra Head"}),
        ("hydra.log.reward", {"head": "Hydra Head", "life": 2}),
        ("hydra.log.grow", {"cards": ("Torn Between Heads", "Torn Between Heads")}),
        ("hydra.log.swept", {"amount": 2, "heads": ("Hydra Head", "Hydra Head")}),
        ("hydra.log.leaves_dies", {"head": "Hydra Head"}),  # head 1: 2 redirected + 2 swept = its toughness 4
        ("hydra.log.reward", {"head": "Hydra Head", "life": 2}),
        ("hydra.log.grow", {"cards": ("Disorienting Glower", "Hydra's Impenetrable Hide")}),
    ]
    assert lives(game) == [20 + 2 + 2, 20 - 3 + 2 + 2]
    assert [(h.name, h.damage, h.toughness) for h in game.battlefield] == [
        (BRUTE, 0, 6),
        (HH, 2, 3),
        (HH, 0, 3),
    ]
    assert game.battlefield_numbers() == [2, 3, 5]


def test_refusals_name_the_player() -> None:
    game = new_game(battlefield=[HH], players=2)
    with pytest.raises(HydraError, match="^hydra.error.no_such_player") as error:
        game.apply("life 3 -1")
    assert error.value.values == {"player": 3, "count": 2}
    game.apply("concede 2")
    with pytest.raises(HydraError, match="^hydra.error.player_out") as error:
        game.apply("life 2 -1")
    assert error.value.values == {"player": "P2"}
