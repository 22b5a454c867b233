"""A finished pod game as tournaments read it (bot/domain/tournament/records.py): survival, who knocked whom
out, and the T2 prize figures, from a record built by the real pod fold."""

from __future__ import annotations

from bot.domain import pod
from bot.domain.pod import commander_key
from bot.domain.tournament.records import eliminators, outcomes
from tests.pods.test_domain import ALICE, BOB, CAROL, Game

MANA_VALUES = {"Tymna the Weaver": 3}


def played() -> pod.PodGameRecord:
    """Alice casts Tymna twice (tax 0, then 2), hits Bob for 5 in turn 1, then for 7 and Carol for 40 in
    turn 2 (Carol is out, credited to Alice); Bob then loses to his own life payment (nobody is credited)."""
    game = Game()
    game.add(pod.COMMANDERS, player=ALICE, names=["Tymna the Weaver"])
    game.start()
    tymna = commander_key(ALICE, 0)
    game.add(pod.CAST, commander=tymna)
    game.add(pod.LIFE, player=BOB, amount=-5, source=ALICE, combat=True)
    game.add(pod.NEXT_TURN)
    game.add(pod.CAST, commander=tymna)
    game.add(pod.LIFE, player=BOB, amount=-7, source=ALICE, combat=True)
    game.add(pod.LIFE, player=CAROL, amount=-40, source=ALICE, combat=True)
    state = game.add(pod.LIFE, player=BOB, amount=-28, source=BOB)
    return pod.game_record(state, game_id=1, guild_id=None, channel_id=None)


def test_eliminations_are_credited_to_their_source_but_never_to_oneself() -> None:
    found = eliminators(played())
    assert [(e.player, e.by) for e in found] == [(CAROL, ALICE), (BOB, None)]
    assert all(e.cause == pod.LOST_LIFE for e in found)


def test_outcomes_count_the_best_combat_turn_and_the_mana_spent_on_commanders() -> None:
    alice, bob, carol = outcomes(played(), lambda name: MANA_VALUES.get(name or "", 0))
    assert (alice.user_id, alice.seat, alice.survived, alice.eliminations) == (ALICE, 1, True, 1)
    assert alice.prizes.combat_damage == 47  # turn 2: 7 + 40 (turn 1 was 5; not the 52 of the game)
    assert alice.prizes.commander_mana == (3 + 0) + (3 + 2)  # mana value plus the tax of each cast
    assert (bob.survived, bob.eliminations, bob.prizes.combat_damage) == (False, 0, 0)
    assert (carol.seat, carol.survived, carol.prizes.commander_mana) == (3, False, 0)


def test_a_cast_recorded_without_its_tax_counts_the_mana_value_alone() -> None:
    record = played()
    record.casts[1].pop("tax")  # records written before the tax was kept
    alice = outcomes(record, lambda name: MANA_VALUES.get(name or "", 0))[0]
    assert alice.prizes.commander_mana == 3 + 3
