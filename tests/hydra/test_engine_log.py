"""What the Hydra channel shows, pinned with its values: the log of each Hydra card as it resolves, the
refusals' keys and the values their messages need, the HEAD numbers of tables saved before stable numbers
(migration 0016) and the defaults of a new game. Each card's log follows its oracle text
(the Hydra card texts of the project's shared rules data, docs/rules/RULES.md H1–H13)."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import Decision, Event
from bot.domain.hydra import HydraError, HydraGame, PlayerSetup
from bot.domain.hydra import cards as C
from bot.domain.hydra.engine import DamageStep, GameSetup
from bot.i18n.phrase import Phrase

from .hydra_helpers import BRUTE, HH, LUNGE, hydra_turn, keys, lives, names, new_game, rig

Log = list[tuple[str, dict[str, object]]]
TURN_START: Log = [
    ("hydra.log.players_end", {"turn": 1}),
    ("hydra.log.hydra_turn", {"turn": 2}),
    ("hydra.log.untap", {}),
]
NEXT_TURN: Log = [("hydra.log.players_turn", {"turn": 3}), ("hydra.log.draw_reminder", {})]


def log_of_turn(game: HydraGame, *answers: str) -> Log:
    start = len(game.events)
    hydra_turn(game, *answers)
    return [(e.key, e.values) for e in game.events[start:]]


def revealed(card: str) -> Log:
    return [*TURN_START, ("hydra.log.reveal", {"card": card})]


# ------------------------------------------------------------------ each card's log as it resolves
def test_disorienting_glower_locks_spells_through_the_players_next_turn_only() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.DISORIENTING_GLOWER, LUNGE])
    assert log_of_turn(game) == [
        *revealed(C.DISORIENTING_GLOWER),
        ("hydra.log.glower", {}),
        ("hydra.log.heads_attack", {"amount": 2}),
        *NEXT_TURN,
        ("hydra.log.glower_active", {}),
    ]
    assert game.spells_locked and game.glower_until == 2
    log = log_of_turn(game)  # the Hydra's next turn begins: the lock ends
    assert log[:3] == [
        ("hydra.log.players_end", {"turn": 3}),
        ("hydra.log.hydra_turn", {"turn": 4}),
        ("hydra.log.glower_ends", {}),
    ]
    assert (
        not game.spells_locked and game.glower_until == 0 and "hydra.log.glower_active" not in keys(game, -3)
    )


def test_impenetrable_hide_lasts_until_the_hydra_s_next_turn_and_counts_the_heads() -> None:
    game = new_game(battlefield=[HH, HH, BRUTE], top=[C.IMPENETRABLE_HIDE, LUNGE, LUNGE])
    assert log_of_turn(game) == [
        *revealed(C.IMPENETRABLE_HIDE),
        ("hydra.log.hide", {"count": 3}),
        ("hydra.log.heads_attack", {"amount": 4}),
        *NEXT_TURN,
    ]
    assert [h.indestructible_through for h in game.battlefield] == [2, 2, 2]
    game.apply("destroy 1")
    assert names(game) == [HH, HH, BRUTE] and keys(game, -1) == ["hydra.log.indestructible"]
    hydra_turn(game)  # cleared in the cleanup of the Hydra's next turn
    assert [h.indestructible_through for h in game.battlefield] == [0, 0, 0]


def test_noxious_hydra_breath_logs_its_damage_or_the_destroy_mode() -> None:
    damage = new_game(battlefield=[HH], top=[C.NOXIOUS_HYDRA_BREATH])
    assert log_of_turn(damage) == [
        *revealed(C.NOXIOUS_HYDRA_BREATH),
        ("hydra.log.deals_damage", {"card": C.NOXIOUS_HYDRA_BREATH, "amount": 5}),
        ("hydra.log.heads_attack", {"amount": 1}),
        *NEXT_TURN,
    ]
    destroy = new_game(battlefield=[HH], top=[C.NOXIOUS_HYDRA_BREATH])
    assert log_of_turn(destroy, "pass", "destroy")[4:6] == [
        ("hydra.log.destroy_tapped_creatures", {}),
        ("hydra.log.heads_attack", {"amount": 1}),
    ]


def test_unified_lunge_deals_one_per_head_and_the_damage_step_follows() -> None:
    game = new_game(battlefield=[HH, BRUTE, HH], players=2, top=[LUNGE])
    assert log_of_turn(game) == [
        *revealed(LUNGE),
        ("hydra.log.deals_damage", {"card": LUNGE, "amount": 3}),
        ("hydra.log.heads_attack", {"amount": 4}),
        *NEXT_TURN,
    ]
    assert lives(game) == [13, 13]


def test_strike_the_weak_spot_logs_its_target_and_the_elite_s_extra_turn() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.STRIKE_THE_WEAK_SPOT, C.NECK_TANGLE, LUNGE, LUNGE])
    start = len(game.events)
    game.apply("end")
    assert game.pending is not None
    assert (game.pending.topic, game.pending.default) == ("strike_target", "1")  # the first non-elite head
    game.apply("choose 2")
    game.play_until_players()
    log = [(e.key, e.values) for e in game.events[start + 1 :]]
    assert log[:10] == [
        ("hydra.log.hydra_turn", {"turn": 2}),
        ("hydra.log.untap", {}),
        ("hydra.log.reveal", {"card": C.STRIKE_THE_WEAK_SPOT}),
        ("hydra.log.targets", {"card": C.STRIKE_THE_WEAK_SPOT, "head": BRUTE}),
        ("hydra.log.leaves_destroyed", {"head": BRUTE}),
        ("hydra.log.extra_turn_earned", {}),
        ("hydra.log.reward", {"head": BRUTE, "life": 2}),
        ("hydra.log.reward_draw", {}),
        ("hydra.log.grow", {"cards": (C.NECK_TANGLE, LUNGE)}),
        ("hydra.log.heads_attack", {"amount": 1}),
    ]
    assert log[10:13] == [
        ("hydra.log.extra_turn", {}),
        ("hydra.log.hydra_turn", {"turn": 3}),
        ("hydra.log.untap", {}),
    ]


def test_strike_with_no_head_to_target_goes_to_the_graveyard() -> None:
    game = new_game(battlefield=[HH], top=[C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE])
    game.apply("end")
    game.apply("choose 1")
    game.apply("destroy 1")  # in the counter window: Strike's only target leaves
    game.play_until_players()
    assert ("hydra.log.fizzles", {"card": C.STRIKE_THE_WEAK_SPOT}) in [(e.key, e.values) for e in game.events]
    assert game.stack == [] and C.STRIKE_THE_WEAK_SPOT in [game.name_of(i) for i in game.graveyard]
    assert game.extra_turns == 0 and game.outcome == "won"  # no head at the end of the turn (H7)


def test_an_elite_strike_target_that_stays_still_earns_the_extra_turn() -> None:
    """ "If that Head was elite, the Hydra takes an extra turn" — even when Hide kept it on the battlefield."""
    game = new_game(battlefield=[BRUTE], top=[C.STRIKE_THE_WEAK_SPOT, LUNGE, LUNGE])
    game.battlefield[0].indestructible_through = 1
    log = log_of_turn(game, "1")
    assert log[4:7] == [
        ("hydra.log.targets", {"card": C.STRIKE_THE_WEAK_SPOT, "head": BRUTE}),
        ("hydra.log.indestructible", {"head": BRUTE}),
        ("hydra.log.extra_turn_earned", {}),
    ]
    assert names(game) == [BRUTE] and game.turn == 4


def test_neck_tangle_under_five_heads_casts_the_next_card_and_on_an_empty_library_does_nothing() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.NECK_TANGLE, LUNGE])
    assert log_of_turn(game) == [
        *revealed(C.NECK_TANGLE),
        ("hydra.log.neck_tangle_cast", {}),
        ("hydra.log.reveal", {"card": LUNGE}),
        ("hydra.log.deals_damage", {"card": LUNGE, "amount": 2}),
        ("hydra.log.heads_attack", {"amount": 2}),
        *NEXT_TURN,
    ]
    empty = new_game(battlefield=[HH, HH], top=[C.NECK_TANGLE])
    empty.library[:] = empty.library[-1:]  # Neck Tangle is the last card
    empty.exile.extend(
        i
        for i in range(C.DECK_SIZE)
        if i not in empty.library
        and i not in empty.graveyard
        and all(h.card_id != i for h in empty.battlefield)
    )
    assert log_of_turn(empty)[4:7] == [
        ("hydra.log.neck_tangle_cast", {}),
        ("hydra.log.library_empty", {}),
        ("hydra.log.heads_attack", {"amount": 2}),
    ]
    assert [empty.name_of(i) for i in empty.graveyard] == [C.NECK_TANGLE] and empty.stack == []


def test_neck_tangle_on_five_heads_taps_the_two_chosen_and_they_skip_an_untap() -> None:
    game = new_game(battlefield=[HH] * 5, top=[C.NECK_TANGLE, LUNGE, LUNGE])
    game.apply("end")
    game.apply("choose pass")
    assert game.pending is not None
    assert (game.pending.topic, game.pending.default, game.pending.min_heads, game.pending.max_heads) == (
        "neck_tangle_tap",
        "1 2",
        2,
        2,
    )
    with pytest.raises(HydraError, match=r"^hydra\.error\.head_count\b") as error:
        game.apply("choose 3")
    assert error.value.values == {"min": 2, "max": 2}
    game.apply("choose 2 4")
    game.play_until_players()
    assert [(e.key, e.values) for e in game.events if e.key == "hydra.log.tapped_frozen"] == [
        ("hydra.log.tapped_frozen", {"head": HH})
    ] * 2
    assert [(h.tapped, h.frozen_for) for h in game.battlefield] == [
        (False, 0),
        (True, 2),
        (False, 0),
        (True, 2),
        (False, 0),
    ]
    assert ("hydra.log.heads_attack", {"amount": 3}) in [(e.key, e.values) for e in game.events]


def test_torn_between_heads_taps_up_to_two_then_deals_five() -> None:
    game = new_game(battlefield=[HH, HH, HH], top=[C.TORN_BETWEEN_HEADS, LUNGE])
    game.apply("end")
    game.apply("choose pass")
    assert game.pending is not None
    assert (game.pending.topic, game.pending.default, game.pending.min_heads, game.pending.max_heads) == (
        "torn_tap",
        "1 2",
        0,
        2,
    )
    start = len(game.events)
    game.apply("choose 1 3")
    game.play_until_players()
    assert [(e.key, e.values) for e in game.events[start : start + 4]] == [
        ("hydra.log.tapped_frozen", {"head": HH}),
        ("hydra.log.tapped_frozen", {"head": HH}),
        ("hydra.log.deals_damage", {"card": C.TORN_BETWEEN_HEADS, "amount": 5}),
        ("hydra.log.heads_attack", {"amount": 1}),
    ]
    assert lives(game) == [14]
    one = new_game(battlefield=[HH], top=[C.TORN_BETWEEN_HEADS])
    one.apply("end")
    one.apply("choose pass")
    assert one.pending is not None and (one.pending.default, one.pending.max_heads) == ("1", 1)


def test_distract_the_hydra_logs_who_sacrificed_which_head_they_tapped_and_who_lost_three() -> None:
    game = new_game(battlefield=[HH, HH], players=3, top=[C.DISTRACT_THE_HYDRA, LUNGE])
    game.apply("end")
    game.apply("choose pass")
    questions = []
    for answer in ("sacrifice", "decline", "SACRIFICE"):
        assert game.pending is not None
        questions.append(
            (game.pending.topic, game.pending.player, game.pending.default, game.pending.options)
        )
        game.apply(f"choose {answer}")
    assert questions == [
        ("distract_sacrifice", seat, "decline", ("sacrifice", "decline")) for seat in range(3)
    ]
    taps = []
    for answer in ("2", "2"):  # the second player to sacrifice taps the already tapped head: nothing more
        assert game.pending is not None
        taps.append(
            (
                game.pending.topic,
                game.pending.kind,
                game.pending.player,
                game.pending.default,
                game.pending.card,
                game.pending.min_heads,
                game.pending.max_heads,
            )
        )
        game.apply(f"choose {answer}")
    assert taps == [
        ("distract_tap", "heads", seat, "1", C.DISTRACT_THE_HYDRA, 1, 1)  # untapped heads first
        for seat in (0, 2)
    ]
    game.play_until_players()
    log = [
        (e.key, e.values)
        for e in game.events
        if e.key.startswith(("hydra.log.sac", "hydra.log.player_t", "hydra.log.loses"))
    ]
    assert log == [
        ("hydra.log.sacrifices", {"player": "P1"}),
        ("hydra.log.sacrifices", {"player": "P3"}),
        ("hydra.log.player_taps", {"player": "P1", "head": HH}),
        ("hydra.log.player_taps", {"player": "P3", "head": HH}),
        ("hydra.log.loses_life", {"player": "P2", "amount": 3}),
    ]
    assert [(p.life, p.life_lost) for p in game.players] == [(19, 0), (16, 3), (19, 0)]


def test_grown_from_the_stump_logs_where_its_heads_came_from() -> None:
    from_graveyard = new_game(battlefield=[HH], top=[C.GROWN_FROM_THE_STUMP], graveyard=[HH, LUNGE, HH])
    assert log_of_turn(from_graveyard)[3:6] == [
        ("hydra.log.reveal", {"card": C.GROWN_FROM_THE_STUMP}),
        ("hydra.log.stump_graveyard", {}),
        ("hydra.log.heads_attack", {"amount": 3}),
    ]
    from_library = new_game(
        battlefield=[HH], top=[C.GROWN_FROM_THE_STUMP, LUNGE, C.NECK_TANGLE, BRUTE], graveyard=[HH]
    )
    assert log_of_turn(from_library)[4] == ("hydra.log.stump_library", {"head": BRUTE, "milled": 2})
    assert names(from_library) == [HH, BRUTE]


def test_the_hydra_s_own_head_enters_and_a_countered_card_is_logged() -> None:
    game = new_game(battlefield=[HH], top=[BRUTE, LUNGE])
    assert log_of_turn(game)[3:5] == [
        ("hydra.log.reveal", {"card": BRUTE}),
        ("hydra.log.head_enters", {"head": BRUTE}),
    ]
    assert names(game) == [HH, BRUTE] and game.stack == []
    countered = new_game(battlefield=[HH], top=[LUNGE])
    assert log_of_turn(countered, "counter")[3:6] == [
        ("hydra.log.reveal", {"card": LUNGE}),
        ("hydra.log.countered", {"card": LUNGE}),
        ("hydra.log.heads_attack", {"amount": 1}),
    ]
    assert [countered.name_of(i) for i in countered.graveyard] == [LUNGE] and lives(countered) == [19]


# ------------------------------------------------------------------ refusals and their values
def test_set_up_refusals_name_the_limits() -> None:
    for heads in (0, 12):
        with pytest.raises(HydraError, match=r"^hydra\.error\.heads_range\b") as error:
            HydraGame.new(heads)
        assert error.value.values == {"min": 1, "max": 11}
    for players in (0, 5):
        with pytest.raises(HydraError, match=r"^hydra\.error\.players_range\b") as error:
            HydraGame.new(2, players)
        assert error.value.values == {"max": 4}
    assert len(HydraGame.new(2, 4).players) == 4
    with pytest.raises(HydraError, match=r"^hydra\.error\.too_many_heroes\b") as error:
        HydraGame.new(2, [PlayerSetup("a", ("The Slayer", "The Hunter", "The Warrior"))])
    assert error.value.values == {"max": 2}
    assert HydraGame.new(2, [PlayerSetup("a", ("The Slayer", "The Hunter"))]).players[0].life == 27
    with pytest.raises(HydraError, match=r"^hydra\.error\.unknown_hero\b") as error:
        HydraGame.new(2, [PlayerSetup("a", ("The Slayer",)), PlayerSetup("b", ("The Sleeper",))])
    assert error.value.values == {"hero": "The Sleeper"}


def test_a_new_game_s_defaults_one_player_seed_zero_counter_and_prevent_windows_only() -> None:
    game = HydraGame.new(3)
    assert game.setup == GameSetup(
        heads=3, players=(PlayerSetup("Player 1"),), seed=0, all_windows=False, stable_ids=True
    )
    assert game.seed == 0 and game.library == HydraGame.new(3, seed=0).library
    assert [p.name for p in HydraGame.new(3, 2).players] == ["Player 1", "Player 2"]
    assert [(e.key, e.values) for e in game.events] == [
        ("hydra.log.setup", {"heads": 3, "players": 1}),
        ("hydra.log.players_turn", {"turn": 1}),
        ("hydra.log.no_first_draw", {}),
    ]
    assert HydraGame.new(3, all_windows=True).setup.all_windows


def test_answers_are_checked_and_the_refusals_name_what_was_allowed() -> None:
    game = new_game(battlefield=[HH, HH, HH], top=[C.TORN_BETWEEN_HEADS, C.SWALLOW_THE_HERO_WHOLE])
    game.apply("end")
    with pytest.raises(HydraError, match=r"^hydra\.error\.bad_option\b") as error:
        game.apply("choose maybe")
    assert error.value.values == {"option": "maybe", "options": ("pass", "counter")}
    game.apply("choose  PASS ")
    for answer, key, values in (
        ("1 1", "hydra.error.same_head_twice", {}),
        ("1, 2, 3", "hydra.error.head_count", {"min": 0, "max": 2}),
        ("4", "hydra.error.no_such_head_id", {"head": 4, "heads": (1, 2, 3)}),
    ):
        with pytest.raises(HydraError, match=rf"^{key}\b") as error:
            game.apply(f"choose {answer}")
        assert error.value.values == values
    game.apply("choose 3,1")
    assert [h.tapped for h in game.battlefield] == [True, False, True]
    torn_turn = new_game(battlefield=[HH, HH], top=[C.TORN_BETWEEN_HEADS])
    torn_turn.apply("end")
    torn_turn.apply("choose pass")
    torn_turn.apply("choose None")  # "up to two": none at all
    assert not any(h.tapped for h in torn_turn.battlefield)


def test_a_text_answer_may_be_none_but_not_empty() -> None:
    game = new_game(battlefield=[HH], players=2, top=[C.SWALLOW_THE_HERO_WHOLE, LUNGE])
    game.apply("end")
    game.apply("choose pass")
    with pytest.raises(HydraError, match=r"^hydra\.error\.usage\b") as error:
        game.apply("choose   ")
    assert error.value.values == {"usage": "choose OPTION"}
    game.apply("choose NONE")
    game.apply("choose Llanowar Elves")
    assert [
        (e.key, e.values) for e in game.events if e.key in ("hydra.log.exiles", "hydra.log.nothing_to_exile")
    ] == [
        ("hydra.log.nothing_to_exile", {"player": "P1"}),
        ("hydra.log.exiles", {"player": "P2", "creature": "Llanowar Elves"}),
    ]


def test_a_head_number_no_head_has_names_the_heads_there_are() -> None:
    game = new_game(battlefield=[HH, BRUTE, HH])
    game.apply("exile 2")
    with pytest.raises(HydraError, match=r"^hydra\.error\.no_such_head_id\b") as error:
        game.apply("damage 2 1")
    assert error.value.values["head"] == 2 and error.value.values["heads"] == tuple(
        game.battlefield_numbers()
    )
    bare = rig(HydraGame.new(1, seed=1), battlefield=[])
    with pytest.raises(HydraError, match=r"^hydra\.error\.no_such_head_id\b") as error:
        bare.apply("damage 1 1")
    assert error.value.values == {"head": 1, "heads": "-"}


# ------------------------------------------------------------------ tables saved before stable numbers
def legacy(battlefield: list[str]) -> HydraGame:
    game = HydraGame(
        GameSetup(heads=len(battlefield), players=(PlayerSetup("P1"),), seed=1, stable_ids=False)
    )
    return rig(game, battlefield=battlefield, top=[LUNGE, C.NECK_TANGLE, LUNGE, C.DISORIENTING_GLOWER])


def test_a_legacy_table_numbers_heads_by_their_position_at_the_time() -> None:
    game = legacy([HH, BRUTE, HH])
    assert game.battlefield_numbers() == [1, 2, 3]
    game.apply("exile 1")  # the heads after it move up: Brute is now head 1
    numbers = game.battlefield_numbers()
    assert numbers == list(range(1, len(game.battlefield) + 1)) and names(game)[0] == BRUTE
    brute = game.battlefield[0]
    assert game.position_of(brute.serial) == 1 and game.number_of(brute) == 1
    game.apply("damage 1 6")  # names Brute by its new position
    assert brute not in game.battlefield and game.position_of(brute.serial) is None
    count = len(game.battlefield)
    for number in (0, count + 1):
        with pytest.raises(HydraError, match=r"^hydra\.error\.no_such_head\b") as error:
            game.apply(f"damage {number} 1")
        assert error.value.values == {"head": number, "count": count}
    game.apply(f"damage {count} 1")  # the last position is a head
    assert game.battlefield[-1].damage == 1


def test_a_legacy_table_s_default_picks_are_positions() -> None:
    game = legacy([HH, HH, HH])
    game.apply("tap 1")
    game.apply("exile 2")  # grows two non-heads: two heads left, the tapped one first
    assert [h.tapped for h in game.battlefield] == [True, False]
    assert game.default_heads(1) == "2" and game.default_heads(2) == "1 2"


# ------------------------------------------------------------------ the players' actions: their log and timing
def test_the_players_actions_log_each_head_and_amount_and_damage_adds_up() -> None:
    game = new_game(battlefield=[HH, HH, BRUTE, HH], players=2, top=[LUNGE, LUNGE, LUNGE])
    game.battlefield[1].indestructible_through = 1  # as if Hide resolved on the Hydra's last turn
    start = len(game.events)
    for action in (
        "attack 1 1 2 0",
        "attack 1 1",
        "damage 3 2",
        "damage 3 1",
        "weaken 4 3",
        "freeze 4",
        "tap 4",
        "tap 4",
        "damage 2 9",
        "destroy 2",
        "life 1 2",
        "life 1 2",
    ):
        game.apply(action)
    assert [(e.key, e.values) for e in game.events[start:]] == [
        ("hydra.log.combat_damage", {"head": HH, "amount": 1}),  # nothing logged for the 0 assigned to head 2
        ("hydra.log.combat_damage", {"head": HH, "amount": 1}),
        ("hydra.log.damage", {"head": BRUTE, "amount": 2}),
        ("hydra.log.damage", {"head": BRUTE, "amount": 1}),
        ("hydra.log.weakened", {"head": BRUTE, "amount": 4, "toughness": 2}),
        ("hydra.log.leaves_dies", {"head": BRUTE}),  # 3 damage against toughness 6 - 4
        ("hydra.log.reward", {"head": BRUTE, "life": 2}),
        ("hydra.log.reward_draw", {}),
        ("hydra.log.grow", {"cards": (LUNGE, LUNGE)}),
        ("hydra.log.frozen", {"head": HH}),
        ("hydra.log.tapped", {"head": HH}),  # the second tap: already tapped
        ("hydra.log.damage", {"head": HH, "amount": 9}),
        ("hydra.log.indestructible", {"head": HH}),  # lethal damage, but indestructible
        ("hydra.log.indestructible", {"head": HH}),  # and destroy does nothing to it either
        ("hydra.log.life", {"player": "P1", "delta": "+2", "life": 24}),
        ("hydra.log.life", {"player": "P1", "delta": "+2", "life": 26}),
    ]
    assert [h.damage for h in game.battlefield] == [2, 9, 0]
    assert (game.players[0].adjusted, game.players[0].reward_gain) == (4, 2)


@pytest.mark.parametrize(
    ("action", "key"),
    [
        ("bounce 1", "hydra.log.leaves_bounce"),
        ("sacrifice 1", "hydra.log.leaves_sacrificed"),
        ("exile 1", "hydra.log.leaves_exile"),
        ("destroy 1", "hydra.log.leaves_destroyed"),
        ("loselife 1 3", "hydra.log.leaves_dies"),
    ],
)
def test_instant_speed_removal_works_in_a_response_window_and_names_how_the_head_left(
    action: str, key: str
) -> None:
    game = new_game(battlefield=[HH, HH], top=[LUNGE, LUNGE, LUNGE])
    game.apply("end")
    assert game.pending is not None and game.pending.topic == "counter"
    start = len(game.events)
    game.apply(action)
    assert (key, {"head": HH}) in [(e.key, e.values) for e in game.events[start : start + 2]]
    assert len(game.battlefield) == 1 and game.pending is not None and game.pending.topic == "counter"


def test_removing_several_heads_at_once_triggers_for_each() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[LUNGE, LUNGE, LUNGE, LUNGE])
    game.apply("destroy all")
    assert [(e.key, e.values) for e in game.events if e.key == "hydra.log.reward"] == [
        ("hydra.log.reward", {"head": HH, "life": 2}),
        ("hydra.log.reward", {"head": BRUTE, "life": 2}),
    ]
    assert keys(game).count("hydra.log.grow") == 2 and lives(game) == [24]


def test_two_shields_add_up_to_the_damage_and_what_is_left_stays_for_the_turn() -> None:
    game = new_game(battlefield=[HH], top=[C.NOXIOUS_HYDRA_BREATH, LUNGE])
    game.apply("end")
    game.apply("prevent 2 1")  # in the counter window: shields last this turn
    game.apply("prevent 4 1")
    game.apply("choose pass")
    game.apply("choose damage")  # Breath deals 5: 2 + 3 of the second shield prevented
    assert lives(game) == [20] and [s.amount for s in game.shields] == [1]
    assert ("hydra.log.prevented_for", {"player": "P1", "amount": 5}) in [
        (e.key, e.values) for e in game.events
    ]


def test_growing_heads_from_an_empty_library_and_a_stump_that_finds_nothing() -> None:
    game = new_game(battlefield=[HH, HH], top=[C.GROWN_FROM_THE_STUMP, LUNGE])
    heads_left = [i for i in game.library if C.CARDS[game.name_of(i)].is_head]
    game.library[:] = [i for i in game.library if i not in heads_left]
    game.exile.extend(heads_left)  # the players' cards exiled every other head (accounting holds)
    milled = len(game.library) - 1
    log = log_of_turn(game)
    assert log[3:6] == [
        ("hydra.log.reveal", {"card": C.GROWN_FROM_THE_STUMP}),
        ("hydra.log.stump_nothing", {"milled": milled}),
        ("hydra.log.heads_attack", {"amount": 2}),
    ]
    assert game.library == []
    start = len(game.events)
    game.apply("destroy 1")
    assert [(e.key, e.values) for e in game.events[start:]] == [
        ("hydra.log.leaves_destroyed", {"head": HH}),
        ("hydra.log.reward", {"head": HH, "life": 2}),
        ("hydra.log.grow_empty", {}),
    ]


def test_grown_from_the_stump_returns_exactly_two_heads_from_the_graveyard() -> None:
    game = new_game(battlefield=[HH], top=[C.GROWN_FROM_THE_STUMP], graveyard=[HH, HH, HH])
    hydra_turn(game)
    assert names(game) == [HH, HH, HH] and [game.name_of(i) for i in game.graveyard] == [
        HH,
        C.GROWN_FROM_THE_STUMP,
    ]


def test_the_game_lost_is_logged_after_the_last_challenger() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[LUNGE])
    game.apply("life 1 -18")
    game.apply("life 2 -18")
    hydra_turn(game)
    assert [(e.key, e.values) for e in game.events[-3:]] == [
        ("hydra.log.player_loses", {"player": "P1"}),
        ("hydra.log.player_loses", {"player": "P2"}),
        ("hydra.log.lost", {}),
    ]
    assert game.outcome == "lost"


def test_an_end_step_trigger_window_names_the_head_and_a_countered_trigger_is_logged() -> None:
    game = rig(
        HydraGame.new(1, [PlayerSetup("P1")], seed=1, all_windows=True),
        battlefield=[C.SNAPPING_FANG_HEAD],
        top=[LUNGE],
    )
    game.apply("end")
    while game.pending is not None and game.pending.topic != "trigger":
        game.apply("choose pass")
    assert game.pending is not None
    assert (game.pending.default, game.pending.options, game.pending.card, game.pending.detail) == (
        "pass",
        ("pass", "counter"),
        C.SNAPPING_FANG_HEAD,
        "end_step",
    )
    start = len(game.events)
    game.apply("choose counter")
    assert [(e.key, e.values) for e in game.events[start - 1 : start + 1]] == [
        ("hydra.log.trigger", {"head": C.SNAPPING_FANG_HEAD}),
        ("hydra.log.trigger_countered", {"head": C.SNAPPING_FANG_HEAD, "kind": "end_step"}),
    ]
    assert lives(game) == [20 - 1 - 2]  # Lunge and the damage step; no trigger damage


def test_swallow_asks_each_challenger_for_a_creature_and_returns_it_named() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[C.SWALLOW_THE_HERO_WHOLE, LUNGE, LUNGE])
    game.apply("end")
    game.apply("choose pass")
    assert game.pending is not None
    assert (
        game.pending.topic,
        game.pending.kind,
        game.pending.default,
        game.pending.player,
        game.pending.card,
    ) == ("swallow_exile", "text", "a creature", 0, C.SWALLOW_THE_HERO_WHOLE)
    game.apply("choose Grizzly Bears")
    game.play_until_players()
    assert game.snapshot()["swallowed"] == [
        {"player": "P1", "creature": "Grizzly Bears"},
        {"player": "P2", "creature": "a creature"},
    ]
    game.apply("destroy 1")
    assert [(e.key, e.values) for e in game.events if e.key == "hydra.log.swallow_return"] == [
        ("hydra.log.swallow_return", {"player": "P1", "creature": "Grizzly Bears"}),
        ("hydra.log.swallow_return", {"player": "P2", "creature": "a creature"}),
    ]


def test_a_player_who_concedes_while_asked_takes_the_default() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[C.DISTRACT_THE_HYDRA, LUNGE])
    game.apply("end")
    game.apply("choose pass")
    game.apply("choose sacrifice")
    game.apply("choose decline")
    assert game.pending is not None and (game.pending.topic, game.pending.player) == ("distract_tap", 0)
    game.apply("concede 1")
    assert ("hydra.log.player_taps", {"player": "P1", "head": HH}) in [(e.key, e.values) for e in game.events]
    assert [h.tapped for h in game.battlefield] == [True, False]


def test_default_picks_strike_the_first_non_elite_and_there_may_be_none() -> None:
    game = new_game(battlefield=[BRUTE, HH, HH])
    game.apply("tap 2")
    assert game.default_heads(1, "nonelite") == "2" and game.default_heads(1) == "1"
    assert game.default_heads(2) == "1 3"
    bare = rig(HydraGame.new(1, seed=1), battlefield=[])
    assert bare.default_heads(2) == "none"


def test_the_snapshot_of_a_new_game_and_of_an_open_window() -> None:
    game = new_game(battlefield=[HH], top=[LUNGE])
    heads = game.snapshot()["heads"]
    assert isinstance(heads, list) and [h["skips_untap"] for h in heads] == [False]
    game.apply("end")
    assert game.snapshot()["pending"] == {
        "topic": "counter",
        "kind": "option",
        "default": "pass",
        "options": ["pass", "counter"],
        "card": LUNGE,
        "player": None,
    }


def test_distract_with_no_head_left_to_tap_still_costs_the_others_three_life() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[C.DISTRACT_THE_HYDRA, LUNGE, LUNGE, LUNGE, LUNGE])
    game.apply("end")
    game.apply("exile all")  # in the counter window; the heads grown are no heads
    assert game.battlefield == []
    game.apply("choose pass")
    game.apply("choose sacrifice")
    game.apply("choose decline")
    assert game.pending is None or game.pending.topic != "distract_tap"
    game.play_until_players()
    assert ("hydra.log.loses_life", {"player": "P2", "amount": 3}) in [(e.key, e.values) for e in game.events]
    assert [p.life_lost for p in game.players] == [0, 3] and game.outcome == "won"


# ------------------------------------------------------------------ every question in full
def test_each_question_of_the_hydra_s_cards_in_full() -> None:
    """Topic, kind, default, options, the card asking and how many heads: what the buttons are built from."""
    game = new_game(
        battlefield=[BRUTE, HH, HH, HH, HH],
        top=[C.STRIKE_THE_WEAK_SPOT, C.NECK_TANGLE, C.TORN_BETWEEN_HEADS, C.NOXIOUS_HYDRA_BREATH],
    )
    game.apply("end")
    assert game.pending == Decision(
        "strike_target", "heads", "2", card=C.STRIKE_THE_WEAK_SPOT, min_heads=1, max_heads=1
    )  # the first non-elite head
    game.apply("choose 5")
    assert game.pending == Decision(
        "counter", "option", "pass", options=("pass", "counter"), card=C.STRIKE_THE_WEAK_SPOT
    )
    game.apply("choose pass")  # head 5 destroyed: Reward, and Neck Tangle and Torn grown into the graveyard
    assert game.pending == Decision("prevent", "option", "pass", options=("pass", "prevent"))
    game.apply("choose prevent")
    assert game.damage_steps == [DamageStep(1, (BRUTE, HH, HH, HH), 5, 0)]
    assert ("hydra.log.damage_prevented", {"amount": 5}) in [(e.key, e.values) for e in game.events]
    hydra_turn(game)  # Noxious Hydra Breath
    assert game.pending is None
    breath = new_game(battlefield=[HH], top=[C.NOXIOUS_HYDRA_BREATH])
    breath.apply("end")
    breath.apply("choose pass")
    assert breath.pending == Decision(
        "breath_mode", "option", "damage", options=("damage", "destroy"), card=C.NOXIOUS_HYDRA_BREATH
    )
    neck = new_game(battlefield=[HH] * 5, top=[C.NECK_TANGLE, LUNGE, LUNGE])
    neck.apply("end")
    neck.apply("choose pass")
    assert neck.pending == Decision(
        "neck_tangle_tap", "heads", "1 2", card=C.NECK_TANGLE, min_heads=2, max_heads=2
    )
    torn = new_game(battlefield=[HH, HH, HH], top=[C.TORN_BETWEEN_HEADS])
    torn.apply("end")
    torn.apply("choose pass")
    assert torn.pending == Decision(
        "torn_tap", "heads", "1 2", card=C.TORN_BETWEEN_HEADS, min_heads=0, max_heads=2
    )


def test_the_windows_of_a_table_that_asked_for_every_one() -> None:
    game = rig(
        HydraGame.new(1, [PlayerSetup("P1")], seed=1, all_windows=True),
        battlefield=[C.SAVAGE_VIGOR_HEAD, C.SNAPPING_FANG_HEAD, HH],
        top=[LUNGE, LUNGE, LUNGE, LUNGE],
    )
    game.apply("end")
    assert game.pending == Decision("upkeep", "option", "pass", options=("pass",))
    game.apply("choose pass")
    game.apply("destroy 3")  # in the upkeep window: Reward and growing heads trigger
    assert game.pending == Decision(
        "trigger", "option", "pass", options=("pass", "counter"), card=HH, detail="reward"
    )
    game.apply("choose counter")
    assert game.events[-1] == Event("hydra.log.trigger_countered", {"head": HH, "kind": "reward"})
    assert game.pending == Decision(
        "trigger", "option", "pass", options=("pass", "counter"), card=HH, detail="grow"
    )
    game.apply("choose COUNTER")
    assert game.events[-1] == Event("hydra.log.trigger_countered", {"head": HH, "kind": "grow"})
    assert lives(game) == [20]
    while game.pending is not None and game.pending.topic != "trigger_order":
        game.apply("choose pass")
    assert game.pending == Decision(
        "trigger_order",
        "option",
        C.SAVAGE_VIGOR_HEAD.lower(),  # collector order
        options=(C.SAVAGE_VIGOR_HEAD.lower(), C.SNAPPING_FANG_HEAD.lower()),
    )


def test_strike_cast_with_no_head_on_the_battlefield_has_no_target() -> None:
    game = new_game(battlefield=[HH], top=[C.NECK_TANGLE, LUNGE, LUNGE, C.STRIKE_THE_WEAK_SPOT, LUNGE])
    game.apply("end")
    game.apply("exile 1")  # in Neck Tangle's counter window; the two cards grown are no heads
    game.play_until_players()
    log = [(e.key, e.values) for e in game.events]
    assert ("hydra.log.no_target", {"card": C.STRIKE_THE_WEAK_SPOT}) in log
    assert game.stack == [] and C.STRIKE_THE_WEAK_SPOT in [game.name_of(i) for i in game.graveyard]


def test_a_challenger_loses_at_zero_life_not_at_one() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[LUNGE])
    game.apply("life 1 -19")
    game.apply("life 2 -18")
    assert not any(p.lost for p in game.players)
    hydra_turn(game)  # Lunge deals 2: both lose before the damage step
    assert [(e.key, e.values) for e in game.events[-4:]] == [
        ("hydra.log.deals_damage", {"card": LUNGE, "amount": 2}),
        ("hydra.log.player_loses", {"player": "P1"}),
        ("hydra.log.player_loses", {"player": "P2"}),
        ("hydra.log.lost", {}),
    ]


def test_frozen_heads_stay_tapped_once_and_an_unused_swallow_closes_naming_the_creatures() -> None:
    game = new_game(battlefield=[HH, HH], players=2, top=[C.SWALLOW_THE_HERO_WHOLE, LUNGE, LUNGE])
    hydra_turn(game, "pass", "Grizzly Bears")
    game.apply("freeze 1")
    game.apply("tap 1")
    start = len(game.events)
    hydra_turn(game)
    log = [(e.key, e.values) for e in game.events[start:]]
    exiled = tuple(
        Phrase("core.label_value", {"label": player, "value": creature})
        for player, creature in (("P1", "Grizzly Bears"), ("P2", "a creature"))
    )
    assert log[2:5] == [
        ("hydra.log.swallow_closed", {"creatures": exiled}),
        ("hydra.log.stays_tapped", {"head": HH}),
        ("hydra.log.untap", {}),
    ]
    assert [(h.tapped, h.frozen_for) for h in game.battlefield] == [(True, 0), (False, 0)]


def test_an_action_returns_only_the_events_it_caused_and_rebuild_replays_the_same_table() -> None:
    game = new_game(battlefield=[HH, HH], top=[LUNGE])
    assert game.apply("tap 1") == [Event("hydra.log.tapped", {"head": HH})]
    again = game.rebuild(game.actions)
    assert again.setup == game.setup and again.actions == ["tap 1"]
    assert game.players[0].starting_life == 20
    slayer = HydraGame.new(1, [PlayerSetup("a", ("The Slayer",))])
    assert (slayer.players[0].starting_life, slayer.players[0].life) == (27, 27)


def test_refusals_of_the_players_effects_name_the_card_and_the_choices() -> None:
    game = new_game(battlefield=[HH], graveyard=[LUNGE, C.NECK_TANGLE], top=[C.DISORIENTING_GLOWER, LUNGE])
    with pytest.raises(HydraError, match=r"^hydra\.error\.unknown_source\b") as error:
        game.apply("prevent 1 from Lightning Bolt")
    assert error.value.values == {
        "source": "Lightning Bolt",
        "sources": ("heads", C.SNAPPING_FANG_HEAD, C.NOXIOUS_HYDRA_BREATH, C.TORN_BETWEEN_HEADS, LUNGE),
    }
    with pytest.raises(HydraError, match=r"^hydra\.error\.not_in_graveyard\b") as error:
        game.apply("exilecards graveyard Glower")
    assert error.value.values == {"card": "Glower"}
    game.apply("end")  # in the counter window: the players' effects are instants
    game.apply("exilecards graveyard all")
    game.apply("mill 2")
    assert [(e.key, e.values) for e in game.events[-2:]] == [
        ("hydra.log.exiled_from_graveyard", {"count": 2, "cards": (LUNGE, C.NECK_TANGLE)}),
        ("hydra.log.milled", {"count": 2, "cards": (LUNGE, game.name_of(game.graveyard[-1]))}),
    ]
    game.apply("prevent 1")
    assert game.events[-1] == Event("hydra.log.shield", {"amount": 1, "players": ("P1",), "source": "*"})
    torn = new_game(battlefield=[HH, HH], top=[C.TORN_BETWEEN_HEADS])
    torn.apply("end")
    torn.apply("choose pass")
    with pytest.raises(HydraError, match=r"^hydra\.error\.not_a_number\b") as error:
        torn.apply("choose 1 x")
    assert error.value.values["line"] == "1 x"
