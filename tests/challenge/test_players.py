"""The players' side of every challenge deck: a life total per player (the Hydra) or one shared total
(the Horde and the God), behind one interface — damage to each player, shields, the life ledger."""

from __future__ import annotations

from bot.domain.challenge.players import Dealt, LifePerPlayer, Player, SharedLife, Shield


def _three() -> LifePerPlayer:
    return LifePerPlayer([Player(name, (), 20, 20) for name in ("Ann", "Bo", "Cy")])


def test_each_player_takes_the_damage_on_their_own_total_and_their_own_shields() -> None:
    side = _three()
    side.add_shields(2, None, [0])
    side.add_shields(5, "heads", [1])
    assert side.damage_each_player(3, "Unified Lunge") == [Dealt(0, 2, 1), Dealt(1, 0, 3), Dealt(2, 0, 3)]
    assert [p.life for p in side.players] == [19, 17, 17]
    assert [p.damage_taken for p in side.players] == [1, 3, 3]
    assert side.shields == [Shield(5, "heads", 1)]  # the spent one is gone, the other kept for its source
    assert side.damage_each_player(4, "heads") == [Dealt(0, 0, 4), Dealt(1, 4, 0), Dealt(2, 0, 4)]
    assert side.shields == [Shield(1, "heads", 1)]  # a partly used shield keeps its rest
    side.clear_shields()
    assert side.shields == []


def test_a_player_out_of_the_game_takes_and_gains_nothing_and_the_side_loses_when_nobody_is_left() -> None:
    side = _three()
    side.lose_life(1, 15)
    side.lose_life(1, 5)  # a second loss adds up
    assert [p.name for p in side.newly_lost()] == ["Bo"] and side.newly_lost() == []
    assert side.alive() == [0, 2] and not side.defeated
    side.gain_each_player(4)
    side.change_life(0, -24)
    side.damage_each_player(25, "heads")
    assert [(p.life, p.reward_gain, p.adjusted, p.damage_taken, p.life_lost) for p in side.players] == [
        (-25, 4, -24, 25, 0),
        (0, 0, 0, 0, 20),
        (-1, 4, 0, 25, 0),
    ]
    assert [p.name for p in side.newly_lost()] == ["Ann", "Cy"] and side.defeated


def test_a_shared_total_counts_each_player_damage_and_gain_once_per_player() -> None:
    side = SharedLife(seats=3, starting_life=20)
    side.add_shields(4, None, [None])
    side.add_shields(9, "combat", [None])
    assert side.damage_each_player(2, "Rip to Pieces") == [Dealt(None, 4, 2)]  # 2 x 3 players, 4 prevented
    assert side.damage(10, "combat") == Dealt(None, 9, 1)
    assert side.shields == []
    assert side.gain_each_player(3) == 9
    side.change_life(2, -5)
    assert side.life == 20 - 2 - 1 + 9 - 5 == 21
    assert side.ledger == {"gained": 9, "adjusted": -5, "damage": 3, "lost": 0}
    assert not side.defeated
    side.damage(21, "combat")
    assert side.defeated and side.life == 0 and side.starting_life == 20


def test_a_shield_for_another_source_or_seat_is_left_alone() -> None:
    side = SharedLife(seats=1, starting_life=20)
    side.add_shields(3, "Xenagos's Strike", [None])
    assert side.damage(2, "combat") == Dealt(None, 0, 2)
    assert side.shields == [Shield(3, "Xenagos's Strike")]
    apart = _three()
    apart.add_shields(3, None, [2])
    assert apart.damage_each_player(1, "heads")[:2] == [Dealt(0, 0, 1), Dealt(1, 0, 1)]
    assert apart.shields == [Shield(2, None, 2)]


def test_one_permanent_type_carries_a_heads_extras_and_a_creatures_as_data() -> None:
    from bot.domain.challenge import horde
    from bot.domain.challenge.permanents import TOKEN_ID, Permanent
    from bot.domain.hydra import cards as C

    head = Permanent(TOKEN_ID, C.CARDS[C.SNAPPING_FANG_HEAD], counters=2, shrunk=1)
    assert (head.token, head.elite, head.toughness, head.power, head.entered_turn) == (True, True, 9, 1, 0)
    plain = Permanent(3, C.CARDS[C.HYDRA_HEAD])
    assert (plain.token, plain.elite, plain.toughness, plain.indestructible_through) == (False, False, 3, 0)
    creature = Permanent(0, horde.CARDS["Minotaur Goreseeker"], pumped=2, shrunk=1)
    assert (creature.token, creature.elite, creature.power, creature.toughness) == (False, False, 4, 1)
    assert creature.name == "Minotaur Goreseeker"
