"""Defeat a God, pinned event by event: what each of Xenagos's cards does and logs, with its exact values
(the rules and verbatim card texts of docs/rules/CHALLENGE_DECKS.md §5b: shared life, "each player" counted once per
player; Xenagos's Strike "deals 4 damage to each player"; Impulsive Return "Return two cards named Ecstatic
Piper"; Rip to Pieces "each Reveler deals 1 damage to each player"; Impulsive Destruction "deals 3 damage
to each player who didn't sacrifice"; Dance of Flame "Whenever a Reveler attacks ... 1 damage to each
player"; Dance of Panic and Maddened Oread "As long as five or more Revelers"; the Hero's Rewards)."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError, Decision, Event
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import (
    CHARGE,
    DESTRUCTION,
    FLAME,
    OREAD,
    PANIC,
    PIPER,
    RETURN,
    RIP,
    SCORN,
    STRIKE,
    THRONG,
    XENAGOS,
    GodGame,
)

from .helpers import attacker, rig

PHERES, MAENADS, DANCERS = "Pheres-Band Revelers", "Wild Maenads", "Serpent Dancers"
TURN_START = [Event("challenge.log.players_end", {"turn": 1}), Event("god.log.deck_turn", {"turn": 2})]
TURN_END = [Event("challenge.log.players_turn", {"turn": 3}), Event("challenge.log.draw_reminder", {})]


def god(players: int = 1, throngs: int = 2, *, all_windows: bool = False, **rigging) -> GodGame:
    game = GodGame(
        [Seat(f"P{i + 1}") for i in range(players)], seed=1, difficulty=throngs, all_windows=all_windows
    )
    return rig(game, **rigging)  # type: ignore[return-value]


def xenagos_turn(game: GodGame, *lines: str) -> list[Event]:
    """End the players' turn, say ``lines``, default the rest; the events of it all."""
    start = len(game.events)
    game.apply("end")
    for line in lines:
        game.apply(line)
    game.play_until_players()
    return game.events[start:]


def test_the_throngs_range_and_one_more_throng_per_extra_player_up_to_six() -> None:
    for difficulty in (0, 4):
        with pytest.raises(ChallengeError) as refused:
            GodGame([Seat("a")], seed=1, difficulty=difficulty)
        assert (refused.value.key, refused.value.values) == ("god.error.throngs_range", {"min": 1, "max": 3})
    counts = {
        (d, p): [
            x.name for x in GodGame([Seat(str(i)) for i in range(p)], seed=1, difficulty=d).battlefield
        ].count(THRONG)
        for d in (1, 2, 3)
        for p in (1, 2, 4)
    }
    assert counts == {
        (1, 1): 1,
        (1, 2): 2,
        (1, 4): 4,
        (2, 1): 2,
        (2, 2): 3,
        (2, 4): 5,
        (3, 1): 3,
        (3, 2): 4,
        (3, 4): 6,
    }
    game = GodGame([Seat("a")], seed=1, all_windows=True, stable_ids=False)
    assert (game.all_windows, game.stable_ids, game.difficulty, game.seed) == (True, False, 2, 1)
    assert GodGame([Seat("a")], seed=5).library == GodGame([Seat("b")], seed=5).library  # the seed shuffles
    assert GodGame([Seat("a")], seed=5).library != GodGame([Seat("a")], seed=6).library


def test_strike_deals_4_to_each_player_and_scorn_makes_xenagos_attack_with_trample() -> None:
    assert (
        xenagos_turn(god(players=2, top=[STRIKE, SCORN]))
        == TURN_START
        + [
            Event("challenge.log.reveal", {"cards": (STRIKE, SCORN)}),
            Event("challenge.log.resolves", {"card": STRIKE}),
            Event("challenge.log.damage_to_players", {"card": STRIKE, "amount": 8, "life": 12}),
            Event("challenge.log.resolves", {"card": SCORN}),
            Event("god.log.xenagos_will_attack", {"card": SCORN}),
            Event("god.log.trample", {}),
            Event("challenge.log.attack", {"cards": (attacker(1, "Xenagos Ascended", 6, 5),)}),
            Event("challenge.log.combat_damage", {"amount": 6, "life": 6}),
        ]
        + TURN_END
    )


def test_a_shield_from_a_named_card_prevents_only_that_cards_damage() -> None:
    game = god(top=[STRIKE, PHERES])
    xenagos_turn(
        game, "prevent 3 from Xenagos's Strike", "prevent 5 from Dance of Flame"
    )  # as the Strike is cast
    assert game.life == 20 - 1
    flame = god(battlefield=[XENAGOS, THRONG, FLAME], top=[CHARGE, PHERES])
    xenagos_turn(flame, "prevent 1 from Dance of Flame")
    assert flame.life == 20 - 1 - 5  # two Revelers attack: one Flame damage prevented, then 1 + 4 combat


def test_impulsive_return_returns_exactly_two_pipers_and_deals_one_per_reveler() -> None:
    game = god(battlefield=[XENAGOS], graveyard=[PIPER] * 3, top=[RETURN, FLAME])
    assert (
        xenagos_turn(game)
        == TURN_START
        + [
            Event("challenge.log.reveal", {"cards": (RETURN, FLAME)}),
            Event("challenge.log.resolves", {"card": RETURN}),
            Event("challenge.log.enters", {"card": PIPER}),
            Event("god.log.xenagos_will_attack", {"card": PIPER}),
            Event("challenge.log.enters", {"card": PIPER}),
            Event("god.log.xenagos_will_attack", {"card": PIPER}),
            Event("challenge.log.enters", {"card": FLAME}),
            Event("challenge.log.damage_to_players", {"card": RETURN, "amount": 2, "life": 18}),
            Event("challenge.log.attack", {"cards": (attacker(1, "Xenagos Ascended", 6, 5),)}),
            Event("challenge.log.combat_damage", {"amount": 6, "life": 12}),
        ]
        + TURN_END
    )
    assert [game.name_of(i) for i in game.graveyard] == [PIPER, RETURN]


def test_dance_of_flame_deals_1_per_flame_per_attacking_reveler() -> None:
    game = god(battlefield=[XENAGOS, THRONG, FLAME, FLAME], top=[CHARGE, PHERES])
    assert (
        xenagos_turn(game)
        == TURN_START
        + [
            Event("challenge.log.reveal", {"cards": (CHARGE, PHERES)}),
            Event("challenge.log.resolves", {"card": CHARGE}),
            Event("challenge.log.enters", {"card": PHERES}),
        ]
        + [
            Event("challenge.log.damage_to_players", {"card": FLAME, "amount": 1, "life": life})
            for life in (19, 18, 17, 16)
        ]
        + [
            Event(
                "challenge.log.attack",
                {
                    "cards": (
                        attacker(2, "Rollicking Throng", 1, 3),
                        attacker(5, "Pheres-Band Revelers", 4, 4),
                    )
                },
            ),
            Event("challenge.log.combat_damage", {"amount": 5, "life": 11}),
        ]
        + TURN_END
    )


def test_rip_to_pieces_deals_one_per_reveler_to_each_player_per_copy_and_nothing_without_revelers() -> None:
    rip = [
        Event("challenge.log.damage_to_players", {"card": RIP, "amount": 4, "life": 16}),
        Event("god.log.rip_creatures", {"amount": 2}),
        Event("challenge.log.damage_to_players", {"card": RIP, "amount": 4, "life": 12}),
        Event("god.log.rip_creatures", {"amount": 2}),
    ]
    assert (
        xenagos_turn(god(players=2, battlefield=[XENAGOS, THRONG, PIPER], top=[RIP, RIP]))
        == TURN_START
        + [
            Event("challenge.log.reveal", {"cards": (RIP, RIP)}),
            Event("challenge.log.resolves", {"card": RIP}),
            Event("challenge.log.resolves", {"card": RIP}),
        ]
        + rip
        + [Event("challenge.log.no_attack", {})]
        + TURN_END
    )
    alone = god(battlefield=[XENAGOS], top=[RIP, FLAME])
    assert [e.key for e in xenagos_turn(alone)][4:6] == ["challenge.log.enters", "challenge.log.no_attack"]
    assert alone.life == 20


def test_impulsive_destruction_asks_each_player_and_deals_3_per_player_who_declined() -> None:
    game = god(players=3, battlefield=[XENAGOS], top=[DESTRUCTION, FLAME])
    game.apply("end")
    game.apply("choose pass")
    asked = []
    for answer in ("decline", "sacrifice", "decline"):
        asked.append(game.pending)
        game.apply(f"choose {answer}")
    assert asked == [
        Decision(
            "destruction_sacrifice",
            "option",
            "decline",
            player=seat,
            options=("sacrifice", "decline"),
            card=DESTRUCTION,
        )
        for seat in (0, 1, 2)
    ]
    assert game.events[-1] == Event(
        "challenge.log.damage_to_players", {"card": DESTRUCTION, "amount": 6, "life": 14}
    )
    everyone = god(players=2, battlefield=[XENAGOS], top=[DESTRUCTION, FLAME])
    xenagos_turn(everyone, "choose pass", "choose sacrifice", "choose sacrifice")
    assert everyone.life == 20 and everyone.ledger["damage"] == 0


@pytest.mark.parametrize(
    "battlefield, top, attackers",
    [
        # Dance of Panic: five Revelers give all of them haste and make them attack; four do nothing
        ([XENAGOS, THRONG, THRONG, THRONG, PANIC, OREAD], [PHERES, FLAME], "2 3 4 6 7"),
        ([XENAGOS, THRONG, THRONG, PANIC, OREAD], [PHERES, FLAME], ""),
        # Maddened Oread alone attacks once five Revelers are there; the others don't
        ([XENAGOS, THRONG, THRONG, THRONG, OREAD], [PHERES, FLAME], "5"),
        ([XENAGOS, THRONG, THRONG, OREAD], [PHERES, FLAME], ""),
        (
            [XENAGOS, THRONG, THRONG, THRONG, THRONG],
            [OREAD, FLAME],
            "",
        ),  # five Revelers, but the new Oread has no haste
        # Impulsive Charge: every Reveler, new ones with haste; Xenagos only for the Piper or the Scorn
        ([XENAGOS, THRONG], [CHARGE, PHERES], "2 3"),
        ([XENAGOS, THRONG], [PIPER, PANIC], "1"),
        ([XENAGOS, THRONG], [SCORN, PANIC], "1"),
        ([XENAGOS, THRONG], [FLAME, PANIC], ""),
    ],
)
def test_who_attacks(battlefield: list[str], top: list[str], attackers: str) -> None:
    game = god(battlefield=battlefield, top=top)
    game.apply("end")
    while game.pending is not None and game.pending.topic != "blocks":
        game.apply("choose pass")
    named = game.allowed_numbers(game.pending) if game.pending is not None else []
    assert " ".join(map(str, named)) == attackers


def test_heros_rewards_are_triggers_for_the_cards_that_have_one_and_xenagos_leaving_wins() -> None:
    game = god(
        players=2, all_windows=True, battlefield=[XENAGOS, THRONG, PIPER, PHERES, OREAD, MAENADS, DANCERS]
    )

    def say(*lines: str) -> list[Event]:
        start = len(game.events)
        for line in lines:
            game.apply(line)
        return game.events[start:]

    assert say("destroy 2") == [Event("challenge.log.leaves_destroyed", {"card": THRONG})]
    assert game.pending is None  # no reward, no trigger
    assert say("destroy 3") == [Event("challenge.log.leaves_destroyed", {"card": PIPER})]
    assert game.pending == Decision(
        "trigger", "option", "pass", options=("pass", "counter"), card=PIPER, detail="reward"
    )
    assert say("choose pass") == [Event("challenge.log.gain", {"card": PIPER, "amount": 4, "life": 24})]
    assert say("destroy 4", "choose pass") == [
        Event("challenge.log.leaves_destroyed", {"card": PHERES}),
        Event("challenge.log.reward_draw", {}),
    ]
    assert say("destroy 1") == [Event("god.log.cannot_leave", {"card": XENAGOS})]
    assert say("destroy 5 6 7", "choose pass", "choose pass", "choose counter") == [
        Event("challenge.log.leaves_destroyed", {"card": OREAD}),
        Event("challenge.log.leaves_destroyed", {"card": MAENADS}),
        Event("challenge.log.leaves_destroyed", {"card": DANCERS}),
        Event("challenge.log.gain", {"card": OREAD, "amount": 6, "life": 30}),
        Event("challenge.log.gain", {"card": MAENADS, "amount": 6, "life": 36}),
        Event("challenge.log.trigger_countered", {"card": DANCERS}),
    ]
    assert not game.over
    assert say("destroy 1") == [
        Event("challenge.log.leaves_destroyed", {"card": XENAGOS}),
        Event("god.log.xenagos_leaves", {}),
        Event("challenge.log.won", {}),
    ]
