"""Exact values of the pod fold (bot/domain/pod.py): every refusal's key and values, the bounds, the logs,
sideboard swaps and wishes (D7, T1) and the game record (T2, G9). Rule IDs from docs/rules/RULES.md (these
pin what the mutation run found unchecked)."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.domain.mulligan import MulliganStyle
from bot.domain.pod import Event, PodError, commander_key, replay
from tests.pods.test_domain import ALICE, BOB, CAROL, Game


def refused(game: Game, kind: str, **data) -> PodError:
    """The refusal of one more event; the log and the state stay as they were."""
    before = game.state
    count = len(game.events)
    with pytest.raises(PodError) as refusal:
        game.add(kind, **data)
    assert len(game.events) == count and game.state == before
    return refusal.value


def refusal(game: Game, kind: str, **data) -> tuple[str, dict]:
    error = refused(game, kind, **data)
    return error.key, error.values


def decked(*players: int, ruleset: str = "commander", **create) -> Game:
    """A game whose given players picked a registered deck (swaps and wishes need one)."""
    game = Game(ruleset, **create)
    for user in players:
        game.add(pod.COMMANDERS, player=user, names=[f"Commander {user}"], deck=f"deck-{user}")
    return game


# -- creation (G1) ---------------------------------------------------------------------------------


def test_creation_keeps_every_option_exactly():
    match = {"id": 4, "game": 2, "swaps": {}}
    state = Game("duel-zh", players=(ALICE, BOB), starting_life=1, own_totals_only=1, match=match).state
    assert (state.ruleset, state.starting_life, state.own_totals_only, state.created_by) == (
        "duel-zh",
        1,
        True,
        ALICE,
    )
    assert (
        state.mulligan_style == MulliganStyle.PARTIAL_PARIS and state.last_seq == 1 and state.match == match
    )
    assert [(p.user_id, p.name, p.life) for p in state.players] == [(ALICE, "Alice", 1), (BOB, "Bob", 1)]
    assert Game(starting_life=9999).state.starting_life == 9999
    assert Game(own_totals_only=0).state.own_totals_only is False
    assert Game().state.own_totals_only is False
    assert Game("edh-2010").state.mulligan_style == MulliganStyle.PARTIAL_PARIS
    assert Game("edh-2010", mulligan_style="").state.mulligan_style == MulliganStyle.PARTIAL_PARIS
    assert Game("edh-2010", mulligan_style="vancouver").state.mulligan_style == MulliganStyle.VANCOUVER


@pytest.mark.parametrize(
    ("create", "key", "values"),
    [
        ({"ruleset": "modern"}, "pod.error.unknown_ruleset", {}),
        ({"starting_life": 0}, "pod.error.out_of_range", {"low": 1, "high": 9999}),
        ({"starting_life": 10000}, "pod.error.out_of_range", {"low": 1, "high": 9999}),
        ({"mulligan_style": "mystery"}, "pod.error.unknown_mulligan_style", {}),
        ({"players": []}, "pod.error.too_few_players", {}),
    ],
)
def test_creation_refusals(create, key, values):
    data = {"ruleset": "commander", "players": [{"user_id": ALICE, "name": "Alice"}], **create}
    with pytest.raises(PodError) as refusal:
        pod.apply(None, Event(seq=1, kind=pod.CREATE, actor=ALICE, at="t1", data=data))
    assert (refusal.value.key, refusal.value.values) == (key, values)


def test_a_one_player_game_loads_but_does_not_start():
    alone = Game(players=(ALICE,)).state
    assert [p.user_id for p in alone.players] == [ALICE]
    with pytest.raises(PodError) as refusal:
        pod.check_new_game(alone)
    assert refusal.value.key == "pod.error.too_few_players"
    pod.check_new_game(Game(players=(ALICE, BOB)).state)  # two players: allowed


def test_a_second_creation_and_unknown_kinds_are_refused():
    game = Game()
    assert refusal(game, pod.CREATE, ruleset="commander", players=[]) == ("pod.error.already_created", {})
    assert refusal(game, "shuffle") == ("pod.error.unknown_change", {})
    with pytest.raises(PodError) as refusal_:
        pod.apply(
            None, Event(seq=1, kind=pod.LIFE, actor=ALICE, at="t1", data={"player": ALICE, "amount": 1})
        )
    assert refusal_.value.key == "pod.error.no_game"


# -- lookups ---------------------------------------------------------------------------------------


def test_player_and_commander_lookups():
    state = Game().state
    assert state.player(CAROL).name == "Carol" and state.player(ALICE).name == "Alice"
    with pytest.raises(PodError) as refusal:
        state.player(99)
    assert (refusal.value.key, refusal.value.values) == ("pod.error.not_a_player", {})
    assert pod.parse_commander_key("12:1") == (12, 1)
    for bad in ("12", "1:2:3", "a:1", "1:b", ""):
        with pytest.raises(PodError) as refusal:
            pod.parse_commander_key(bad)
        assert refusal.value.key == "pod.error.unknown_commander"
    with pytest.raises(PodError) as refusal:
        state.commander("1:-1")
    assert refusal.value.key == "pod.error.unknown_commander"
    assert state.commander("1:0").key == "1:0"


# -- life, bounds and the life log (T2) ------------------------------------------------------------


def test_life_stays_within_the_bound_both_ways():
    game = Game()
    assert game.add(pod.LIFE, player=BOB, amount=9959).player(BOB).life == 9999  # exactly the bound
    assert refusal(game, pod.LIFE, player=BOB, amount=1) == (
        "pod.error.out_of_range",
        {"low": -9999, "high": 9999},
    )
    assert refusal(game, pod.SET_LIFE, player=ALICE, total=10000) == (
        "pod.error.out_of_range",
        {"low": -9999, "high": 9999},
    )
    assert refusal(game, pod.LIFE, player=ALICE, amount=-10000) == (
        "pod.error.out_of_range",
        {"low": -9999, "high": 9999},
    )
    assert game.add(pod.LIFE, player=ALICE, amount=-9999).player(ALICE).life == -9959  # one change of -9,999
    assert game.add(pod.SET_LIFE, player=CAROL, total=-9999).player(CAROL).life == -9999
    assert refusal(game, pod.SET_LIFE, player=BOB, total=9999) == ("pod.error.no_change", {})
    assert game.state.player(BOB).life == 9999
    assert refusal(game, pod.COMMANDER_DAMAGE, commander=commander_key(BOB, 0), target=ALICE, amount=1)[
        0
    ] == ("pod.error.player_out")


def test_one_commander_hit_of_the_largest_size_lowers_life():
    game = Game()
    game.add(pod.LIFE, player=BOB, amount=9959)
    state = game.add(pod.COMMANDER_DAMAGE, commander=commander_key(ALICE, 0), target=BOB, amount=999)
    assert state.player(BOB).life == 9000 and state.player(BOB).commander_damage_taken == {"1:0": 999}


def test_the_life_log_names_source_combat_and_amount():
    game = Game()
    game.start()
    game.add(pod.LIFE, player=BOB, amount=-3, source=ALICE, combat=True)
    game.add(pod.LIFE, player=BOB, amount=2, source=CAROL, combat=True)  # a gain is never combat damage
    game.add(pod.LIFE, player=CAROL, amount=-1)
    game.add(pod.LIFE, player=CAROL, amount=-4, source=str(BOB))
    state = game.add(pod.SET_LIFE, player=ALICE, total=30, source=BOB, combat=1)
    assert state.life_log == [
        {"turn": 1, "seq": 3, "player": BOB, "amount": -3, "source": ALICE, "combat": True},
        {"turn": 1, "seq": 4, "player": BOB, "amount": 2, "source": CAROL, "combat": False},
        {"turn": 1, "seq": 5, "player": CAROL, "amount": -1, "source": None, "combat": False},
        {"turn": 1, "seq": 6, "player": CAROL, "amount": -4, "source": BOB, "combat": False},
        {"turn": 1, "seq": 7, "player": ALICE, "amount": -10, "source": BOB, "combat": True},
    ]
    assert state.combat_damage == {1: {ALICE: 3, BOB: 10}}
    assert [p.life for p in state.players] == [30, 39, 35]


def test_life_changes_refuse_unknown_sources_and_combat_to_oneself():
    game = Game()
    game.start()
    assert refusal(game, pod.LIFE, player=BOB, amount=-3, source=99) == ("pod.error.not_a_player", {})
    assert refusal(game, pod.LIFE, player=BOB, amount=-3, source=BOB, combat=True) == (
        "pod.error.own_seat_combat",
        {},
    )
    assert refusal(game, pod.SET_LIFE, player=BOB, total=20, source=BOB, combat=True) == (
        "pod.error.own_seat_combat",
        {},
    )
    # not combat, or a gain: one's own seat may be the source
    assert game.add(pod.LIFE, player=BOB, amount=-3, source=BOB).player(BOB).life == 37
    assert game.add(pod.LIFE, player=BOB, amount=3, source=BOB, combat=True).player(BOB).life == 40
    assert game.state.combat_damage == {}


def test_set_life_to_zero_eliminates_with_reason_life():
    game = Game()
    game.start()
    state = game.add(pod.SET_LIFE, player=BOB, total=0)
    assert state.player(BOB).eliminated == pod.Elimination(
        player=BOB, reason=pod.LOST_LIFE, turn=1, seq=3, at="t3"
    )
    assert state.life_log[-1]["amount"] == -40


# -- commander damage (G5), poison, counters -------------------------------------------------------


def test_commander_damage_log_and_controller():
    game = Game()
    game.start()
    alice = commander_key(ALICE, 0)
    game.add(pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=5)
    state = game.add(pod.COMMANDER_DAMAGE, commander=alice, target=ALICE, amount=4, controller=CAROL)  # G5
    assert state.life_log == [
        {
            "turn": 1,
            "seq": 3,
            "player": BOB,
            "amount": -5,
            "source": ALICE,
            "combat": True,
            "commander": alice,
        },
        {
            "turn": 1,
            "seq": 4,
            "player": ALICE,
            "amount": -4,
            "source": CAROL,
            "combat": True,
            "commander": alice,
        },
    ]
    assert state.combat_damage == {1: {ALICE: 5, CAROL: 4}}
    assert state.player(ALICE).commander_damage_taken == {alice: 4} and state.player(ALICE).life == 36
    assert refusal(game, pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=1, controller=BOB) == (
        "pod.error.own_commander_damage",
        {},
    )
    assert refusal(game, pod.COMMANDER_DAMAGE, commander=alice, target=ALICE, amount=1) == (
        "pod.error.own_commander_damage",
        {},
    )
    assert refusal(game, pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=1, controller=99) == (
        "pod.error.not_a_player",
        {},
    )
    assert refusal(game, pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=0) == (
        "pod.error.out_of_range",
        {"low": 1, "high": 999},
    )
    assert refusal(game, pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=1000) == (
        "pod.error.out_of_range",
        {"low": 1, "high": 999},
    )


def test_g5_twenty_one_from_one_commander_eliminates_naming_it():
    game = Game()
    game.add(pod.LIFE, player=BOB, amount=100)
    game.start()
    alice = commander_key(ALICE, 0)
    state = game.add(pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=20)
    assert state.player(BOB).alive
    state = game.add(pod.COMMANDER_DAMAGE, commander=alice, target=BOB, amount=1)
    assert state.player(BOB).eliminated == pod.Elimination(
        player=BOB, reason=pod.LOST_COMMANDER_DAMAGE, turn=1, seq=5, at="t5", by_commander=alice
    )
    assert state.player(BOB).life == 119


def test_poison_counts_exactly_and_ten_eliminates():
    game = Game()
    game.start()
    assert refusal(game, pod.POISON, player=BOB, amount=11) == (
        "pod.error.out_of_range",
        {"low": -10, "high": 10},
    )
    assert refusal(game, pod.POISON, player=BOB, amount=-11) == (
        "pod.error.out_of_range",
        {"low": -10, "high": 10},
    )
    assert refusal(game, pod.POISON, player=BOB, amount=0) == ("pod.error.bad_amount", {})
    assert refusal(game, pod.POISON, player=BOB, amount=-1) == ("pod.error.bad_amount", {})
    assert game.add(pod.POISON, player=BOB, amount=9).player(BOB).poison == 9
    assert game.add(pod.POISON, player=BOB, amount=-9).player(BOB).poison == 0
    game.add(pod.POISON, player=BOB, amount=9)
    state = game.add(pod.POISON, player=BOB, amount=1)
    assert state.player(BOB).poison == 10
    assert state.player(BOB).eliminated == pod.Elimination(
        player=BOB, reason=pod.LOST_POISON, turn=1, seq=6, at="t6"
    )
    state = game.add(pod.POISON, player=CAROL, amount=10)
    assert state.player(CAROL).eliminated.reason == pod.LOST_POISON and state.ended == pod.END_LAST_STANDING


def test_counter_bounds_and_names():
    game = Game()
    game.start()
    assert game.add(pod.COUNTER, player=BOB, name="  Storm ", amount=9999).player(BOB).counters == {
        "storm": 9999
    }
    assert refusal(game, pod.COUNTER, player=BOB, name="storm", amount=1) == (
        "pod.error.out_of_range",
        {"low": 0, "high": 9999},
    )
    assert refusal(game, pod.COUNTER, player=BOB, name="energy", amount=10000) == (
        "pod.error.out_of_range",
        {"low": -9999, "high": 9999},
    )
    assert refusal(game, pod.COUNTER, player=BOB, name="energy", amount=-10000) == (
        "pod.error.out_of_range",
        {"low": -9999, "high": 9999},
    )
    assert refusal(game, pod.COUNTER, player=BOB, name="", amount=1) == ("pod.error.bad_counter_name", {})
    assert refusal(game, pod.COUNTER, player=BOB, name="x" * 33, amount=1) == (
        "pod.error.bad_counter_name",
        {},
    )
    state = game.add(pod.COUNTER, player=BOB, name="E" * 32, amount=2)
    assert state.player(BOB).counters == {"storm": 9999, "e" * 32: 2}
    state = game.add(pod.COUNTER, player=BOB, name="storm", amount=-9999)
    assert state.player(BOB).counters == {"e" * 32: 2}
    state = game.add(pod.COUNTER, player=CAROL, name=7, amount=1)
    assert state.player(CAROL).counters == {"7": 1} and state.player(ALICE).counters == {}


# -- turns, concessions, draws ---------------------------------------------------------------------


def test_next_turn_skips_the_eliminated_and_wraps():
    game = Game(players=(ALICE, BOB, CAROL, 4))
    assert refusal(Game(players=(ALICE,)), pod.NEXT_TURN) == ("pod.error.too_few_players", {})
    state = game.start()
    assert (state.turn, state.active_seat, state.active_player.user_id) == (1, 0, ALICE)
    game.add(pod.CONCEDE, player=BOB)
    game.add(pod.CONCEDE, player=CAROL)
    state = game.add(pod.NEXT_TURN)
    assert (state.turn, state.active_seat) == (2, 3)
    state = game.add(pod.NEXT_TURN)
    assert (state.turn, state.active_seat) == (3, 0)
    state = game.add(pod.NEXT_TURN)
    assert (state.turn, state.active_seat) == (4, 3)


def test_concede_and_draw_votes_need_a_started_game():
    game = Game()
    assert refusal(game, pod.CONCEDE, player=BOB) == ("pod.error.not_started", {})
    assert refusal(game, pod.DRAW_VOTE, player=BOB) == ("pod.error.not_started", {})
    game.start()
    state = game.add(pod.CONCEDE, player=BOB)
    assert state.player(BOB).eliminated == pod.Elimination(
        player=BOB, reason=pod.LOST_CONCEDED, turn=1, seq=3, at="t3"
    )
    assert state.eliminations == [state.player(BOB).eliminated]
    assert refusal(game, pod.CONCEDE, player=BOB) == ("pod.error.player_out", {})
    assert refusal(game, pod.DRAW_VOTE, player=BOB) == ("pod.error.player_out", {})


def test_draw_votes_add_withdraw_and_end_the_game():
    game = Game()
    game.start()
    assert game.add(pod.DRAW_VOTE, player=BOB).draw_votes == {BOB}
    assert game.add(pod.DRAW_VOTE, player=ALICE).draw_votes == {ALICE, BOB}
    assert game.add(pod.DRAW_VOTE, player=ALICE, withdraw=True).draw_votes == {BOB}
    assert game.add(pod.DRAW_VOTE, player=ALICE, withdraw=False).draw_votes == {ALICE, BOB}
    game.add(pod.CONCEDE, player=ALICE)  # a concession clears the votes of the older board
    state = game.add(pod.DRAW_VOTE, player=BOB)
    assert state.draw_votes == {BOB} and not state.finished
    state = game.add(pod.DRAW_VOTE, player=CAROL)
    assert (state.ended, state.ended_at) == (pod.END_DRAW, "t9")
    assert refusal(game, pod.LIFE, player=BOB, amount=1) == ("pod.error.game_over", {})


def test_an_eliminated_monarch_and_initiative_holder_lose_them():
    game = Game()
    game.start()
    game.add(pod.MONARCH, player=BOB)
    state = game.add(pod.INITIATIVE, player=BOB)
    assert (state.monarch, state.initiative) == (BOB, BOB)
    game.add(pod.DRAW_VOTE, player=BOB)
    state = game.add(pod.SET_LIFE, player=BOB, total=0)
    assert (state.monarch, state.initiative, state.draw_votes) == (None, None, set())
    game = Game()
    game.start()
    game.add(pod.MONARCH, player=ALICE)
    game.add(pod.INITIATIVE, player=CAROL)
    state = game.add(pod.CONCEDE, player=BOB)
    assert (state.monarch, state.initiative) == (ALICE, CAROL)
    assert game.add(pod.MONARCH, player=None).monarch is None


def test_the_last_one_standing_ends_the_game_at_that_event():
    game = Game(players=(ALICE, BOB))
    game.start()
    state = game.add(pod.LIFE, player=BOB, amount=-40)
    assert (state.ended, state.ended_at, state.last_seq) == (pod.END_LAST_STANDING, "t3", 3)
    assert state.standings() == [(1, [ALICE]), (2, [BOB])]


# -- step and replay -------------------------------------------------------------------------------


def test_undo_refusals():
    game = Game()
    state = game.state
    with pytest.raises(PodError) as refusal_:
        pod.step(None, [], Event(seq=1, kind=pod.UNDO, actor=ALICE, at="t", data={"seqs": [1]}))
    assert refusal_.value.key == "pod.error.no_game"
    assert refusal(game, pod.UNDO, seqs=[]) == ("pod.error.nothing_to_undo", {})
    assert refusal(game, pod.UNDO, seqs=[1]) == ("pod.error.nothing_to_undo", {})  # never the creation
    assert refusal(game, pod.UNDO) == ("pod.error.nothing_to_undo", {})
    game.add(pod.LIFE, player=BOB, amount=-1)
    game.add(pod.LIFE, player=BOB, amount=-2)
    assert game.add(pod.UNDO, seqs=["2"]).player(BOB).life == 38  # any of the effective events
    assert state.player(BOB).life == 40
    with pytest.raises(PodError) as refusal_:
        pod.undoable(game.events, 0)
    assert refusal_.value.key == "pod.error.bad_amount"
    ended = Game(players=(ALICE, BOB))
    ended.start()
    ended.add(pod.CONCEDE, player=BOB)
    assert refusal(ended, pod.UNDO, seqs=[3]) == ("pod.error.game_over", {})


def test_replay_skips_a_stored_event_today_refuses_and_keeps_counting():
    game = Game()
    stored = Event(seq=2, kind=pod.LIFE, actor=ALICE, at="t2", data={"player": BOB, "amount": 1_000_000})
    later = Event(seq=3, kind=pod.LIFE, actor=ALICE, at="t3", data={"player": BOB, "amount": -1})
    state = replay([*game.events, stored])
    assert state.player(BOB).life == 40 and state.last_seq == 2
    state = replay([*game.events, stored, later])
    assert state.player(BOB).life == 39 and state.last_seq == 3 and len(state.life_log) == 1
    undo = Event(seq=4, kind=pod.UNDO, actor=ALICE, at="t4", data={"seqs": [3]})
    state = replay([*game.events, stored, later, undo])
    assert state.player(BOB).life == 40 and state.last_seq == 4
    with pytest.raises(PodError) as refusal_:
        replay([undo])
    assert refusal_.value.key == "pod.error.no_game"


# -- seats, commanders ----------------------------------------------------------------------------


def test_seats_and_joining_stop_at_the_first_mulligan_answer():
    game = Game()
    assert refusal(game, pod.SEATS, order=[ALICE, BOB]) == ("pod.error.bad_seat_order", {})
    assert refusal(game, pod.SEATS, order=[ALICE, BOB, BOB]) == ("pod.error.bad_seat_order", {})
    state = game.add(pod.SEATS, order=[str(CAROL), ALICE, BOB])
    assert [p.user_id for p in state.players] == [CAROL, ALICE, BOB]
    game.add(pod.MULLIGAN, player=CAROL, decision="keep")
    assert refusal(game, pod.SEATS, order=[ALICE, BOB, CAROL]) == ("pod.error.mulligans_started", {})
    assert refusal(game, pod.JOIN, player=4, name="Dan") == ("pod.error.mulligans_started", {})
    game.add(pod.MULLIGAN, player=ALICE, decision="keep")
    assert refusal(game, pod.NEXT_TURN) == ("pod.error.mulligans_unfinished", {})
    game.add(pod.MULLIGAN, player=BOB, decision="keep")
    game.start()
    assert refusal(game, pod.JOIN, player=4, name="Dan") == ("pod.error.already_started", {})
    assert refusal(game, pod.MULLIGAN, player=BOB, decision="keep") == ("pod.error.already_started", {})


def test_commanders_are_named_trimmed_and_fixed_in_number_once_started():
    game = Game()
    assert refusal(game, pod.COMMANDERS, player=BOB, names=["a", "b", "c"]) == (
        "pod.error.too_many_commanders",
        {},
    )
    state = game.add(pod.COMMANDERS, player=BOB, names=["  Tymna ", "  "], deck="tymna")
    assert [(c.owner, c.index, c.name) for c in state.player(BOB).commanders] == [
        (BOB, 0, "Tymna"),
        (BOB, 1, None),
    ]
    assert state.player(BOB).deck == "tymna" and state.declared == {BOB: "t2"}
    state = game.add(pod.COMMANDERS, player=BOB, names=["Kraum"])
    assert state.player(BOB).deck == "tymna" and state.declared == {BOB: "t2"}  # first declaration kept
    assert [c.name for c in state.player(BOB).commanders] == ["Kraum"]
    state = game.add(pod.COMMANDERS, player=CAROL, names=[], deck="")
    assert state.player(CAROL).commanders == [] and state.player(CAROL).deck is None
    game.start()
    game.add(pod.CAST, commander=commander_key(BOB, 0))
    assert refusal(game, pod.COMMANDERS, player=BOB, names=["A", "B"]) == ("pod.error.already_started", {})
    state = game.add(pod.COMMANDERS, player=BOB, names=["Kraum, Ludevic's Opus"], deck=7)
    commander = state.player(BOB).commanders[0]
    assert (commander.name, commander.casts, commander.tax_paid, state.player(BOB).deck) == (
        "Kraum, Ludevic's Opus",
        1,
        0,
        "7",
    )
    assert state.declared == {BOB: "t2", CAROL: "t4"}


# -- sideboard swaps (D7, T1) ---------------------------------------------------------------------


def test_swaps_of_reads_a_batch_or_one_older_swap():
    assert pod.swaps_of({"swaps": [{"out": "Anger", "in": "Duress", "count": 2}, {"out": 1, "in": 2}]}) == [
        {"out": "Anger", "in": "Duress", "count": 2},
        {"out": "1", "in": "2", "count": 1},
    ]
    assert pod.swaps_of({"player": 1, "out": "Anger", "in": "Duress"}) == [
        {"out": "Anger", "in": "Duress", "count": 1}
    ]
    assert pod.swaps_of({"player": 1, "out": "Anger", "in": "Duress", "count": 3}) == [
        {"out": "Anger", "in": "Duress", "count": 3}
    ]
    assert pod.swaps_of({"swaps": []}) == []


def test_swaps_are_kept_exactly_for_the_record():
    game = decked(BOB, CAROL)
    game.add(
        pod.SWAP,
        player=BOB,
        swaps=[{"out": "Anger", "in": "Duress"}, {"out": "Shock", "in": "Bolt", "count": 10}],
    )
    state = game.add(pod.SWAP, player=str(CAROL), out="Forest", **{"in": "Bayou"}, count="2")
    assert state.swaps == [
        {"player": BOB, "out": "Anger", "in": "Duress", "count": 1},
        {"player": BOB, "out": "Shock", "in": "Bolt", "count": 10},
        {"player": CAROL, "out": "Forest", "in": "Bayou", "count": 2},
    ]
    assert pod.played_swaps(state) == {
        BOB: [{"out": "Anger", "in": "Duress", "count": 1}, {"out": "Shock", "in": "Bolt", "count": 10}],
        CAROL: [{"out": "Forest", "in": "Bayou", "count": 2}],
    }
    assert game.undo().swaps == state.swaps[:2]


def test_swap_refusals():
    game = decked(BOB)
    one = {"out": "Anger", "in": "Duress"}
    assert refusal(game, pod.SWAP, player=ALICE, swaps=[one]) == ("sideboard.error.no_deck", {})
    assert refusal(game, pod.SWAP, player=99, swaps=[one]) == ("pod.error.not_a_player", {})
    assert refusal(game, pod.SWAP, player=BOB, swaps=[]) == ("pod.error.bad_amount", {})
    assert refusal(game, pod.SWAP, player=BOB, swaps=[one] * 11) == ("pod.error.bad_amount", {})
    assert refusal(game, pod.SWAP, player=BOB, swaps=[{**one, "count": 0}]) == (
        "pod.error.out_of_range",
        {"low": 1, "high": 10},
    )
    assert refusal(game, pod.SWAP, player=BOB, swaps=[one, {**one, "count": 11}]) == (
        "pod.error.out_of_range",
        {"low": 1, "high": 10},
    )
    assert game.state.swaps == []
    assert len(game.add(pod.SWAP, player=BOB, swaps=[one] * 10).swaps) == 10
    game.add(pod.MULLIGAN, player=ALICE, decision="keep")
    assert refusal(game, pod.SWAP, player=BOB, swaps=[one]) == ("pod.error.mulligans_started", {})
    started = decked(BOB)
    started.start()
    assert refusal(started, pod.SWAP, player=BOB, swaps=[one]) == ("pod.error.already_started", {})


def test_played_swaps_start_from_the_earlier_games_of_the_match():
    earlier = {
        str(BOB): [{"out": "Anger", "in": "Duress", "count": 1}],
        "99": [{"out": "a", "in": "b", "count": 1}],
    }
    game = decked(BOB, CAROL, match={"id": 5, "game": 2, "swaps": earlier})
    assert pod.played_swaps(game.state) == {BOB: [{"out": "Anger", "in": "Duress", "count": 1}]}
    state = game.add(pod.SWAP, player=BOB, swaps=[{"out": "Duress", "in": "Anger"}])
    played = pod.played_swaps(state)
    assert played == {
        BOB: [{"out": "Anger", "in": "Duress", "count": 1}, {"out": "Duress", "in": "Anger", "count": 1}]
    }
    played[BOB][0]["count"] = 5  # the record's lists are copies: the state is not changed through them
    assert state.match["swaps"][str(BOB)] == [{"out": "Anger", "in": "Duress", "count": 1}]
    assert pod.played_swaps(decked(BOB, match={"id": 5, "game": 1, "swaps": None}).state) == {}
    assert pod.played_swaps(decked(BOB, match={"id": 5, "game": 1}).state) == {}


# -- wishes (D7) ----------------------------------------------------------------------------------


def test_wishes_are_kept_per_player_in_order():
    game = decked(BOB, CAROL)
    game.start()
    game.add(pod.WISH, player=BOB, card="Duress")
    game.add(pod.NEXT_TURN)
    game.add(pod.WISH, player=CAROL, card="Duress")  # another player's sideboard: allowed
    state = game.add(pod.WISH, player=str(BOB), card="Pyroblast")
    assert state.wishes == [
        {"player": BOB, "card": "Duress", "turn": 1},
        {"player": CAROL, "card": "Duress", "turn": 2},
        {"player": BOB, "card": "Pyroblast", "turn": 2},
    ]
    assert pod.fetched_by_wishes(state) == {BOB: ["Duress", "Pyroblast"], CAROL: ["Duress"]}
    assert pod.fetched_by_wishes(Game().state) == {}


def test_wish_refusals():
    game = decked(BOB)
    assert refusal(game, pod.WISH, player=BOB, card="Duress") == ("pod.error.not_started", {})
    game.start()
    assert refusal(game, pod.WISH, player=ALICE, card="Duress") == ("sideboard.error.no_deck", {})
    assert refusal(game, pod.WISH, player=99, card="Duress") == ("pod.error.not_a_player", {})
    game.add(pod.WISH, player=BOB, card="Duress")
    assert refusal(game, pod.WISH, player=BOB, card="dURESS") == (
        "sideboard.error.wish_already",
        {"card": "dURESS"},
    )
    game.add(pod.CONCEDE, player=BOB)
    assert refusal(game, pod.WISH, player=BOB, card="Bolt") == ("pod.error.player_out", {})


# -- the game record (T2, G9, D7) -----------------------------------------------------------------


def test_the_record_of_a_game_without_mulligans_or_match():
    game = decked(BOB)
    game.start()
    game.add(pod.WISH, player=BOB, card="Duress")
    game.add(pod.POISON, player=CAROL, amount=3)
    state = game.add(pod.STOP)
    record = pod.game_record(state, game_id=9, guild_id=None, channel_id=None)
    assert record == pod.PodGameRecord(
        guild_id=None,
        channel_id=None,
        game_id=9,
        ruleset="commander",
        players=[
            pod.GameRecordPlayer(
                user_id=ALICE,
                name="Alice",
                seat=1,
                commanders=[None],
                deck=None,
                final_life=40,
                poison=0,
                mulligans=0,
                kept_cards=None,
            ),
            pod.GameRecordPlayer(
                user_id=BOB,
                name="Bob",
                seat=2,
                commanders=["Commander 2"],
                deck="deck-2",
                final_life=40,
                poison=0,
                mulligans=0,
                kept_cards=None,
            ),
            pod.GameRecordPlayer(
                user_id=CAROL,
                name="Carol",
                seat=3,
                commanders=[None],
                deck=None,
                final_life=40,
                poison=3,
                mulligans=0,
                kept_cards=None,
            ),
        ],
        survivors=[ALICE, BOB, CAROL],
        eliminations=[],
        standings=[(1, [ALICE, BOB, CAROL])],
        draw=False,
        ended=pod.END_STOPPED,
        turns=1,
        combat_damage={},
        commander_damage={},
        casts=[],
        life_changes=[],
        mulligans=None,
        tournament_id=None,
        round_number=None,
        ended_at="t6",
        match_id=None,
        match_game=None,
        swaps={},
        wishes={BOB: ["Duress"]},
    )
    assert record.winner is None
    unfinished = pod.game_record(Game().state, game_id=1, guild_id=1, channel_id=2)
    assert (unfinished.ended, unfinished.ended_at, unfinished.draw, unfinished.turns) == (
        pod.END_STOPPED,
        None,
        False,
        0,
    )


def test_the_record_of_a_match_game_with_mulligans_swaps_and_a_draw():
    match = {"id": 5, "game": 3, "swaps": {str(BOB): [{"out": "Anger", "in": "Duress", "count": 1}]}}
    game = decked(BOB, players=(ALICE, BOB), match=match)
    game.add(pod.SWAP, player=BOB, swaps=[{"out": "Shock", "in": "Bolt"}])
    game.add(pod.MULLIGAN, player=ALICE, decision="mulligan")
    game.add(pod.MULLIGAN, player=BOB, decision="keep")
    game.add(pod.MULLIGAN, player=ALICE, decision="keep")
    game.start()
    game.add(pod.COMMANDER_DAMAGE, commander=commander_key(BOB, 0), target=ALICE, amount=3)
    game.add(pod.CAST, commander=commander_key(BOB, 0))
    game.add(pod.DRAW_VOTE, player=ALICE)
    state = game.add(pod.DRAW_VOTE, player=BOB)
    record = pod.game_record(state, game_id=2, guild_id=10, channel_id=20, tournament_id=3, round_number=4)
    assert [(p.user_id, p.seat, p.final_life, p.mulligans, p.kept_cards) for p in record.players] == [
        (ALICE, 1, 37, 1, 6),
        (BOB, 2, 40, 0, 7),
    ]
    assert (
        record.guild_id,
        record.channel_id,
        record.game_id,
        record.tournament_id,
        record.round_number,
    ) == (10, 20, 2, 3, 4)
    assert (record.draw, record.ended, record.ended_at, record.turns, record.winner) == (
        True,
        pod.END_DRAW,
        "t11",
        1,
        None,
    )
    assert (record.match_id, record.match_game) == (5, 3)
    assert record.swaps == {
        BOB: [{"out": "Anger", "in": "Duress", "count": 1}, {"out": "Shock", "in": "Bolt", "count": 1}]
    }
    assert (
        record.wishes == {} and record.survivors == [ALICE, BOB] and record.standings == [(1, [ALICE, BOB])]
    )
    assert record.commander_damage == {(ALICE, "2:0"): 3} and record.combat_damage == {1: {BOB: 3}}
    assert record.casts == [
        {"turn": 1, "seq": 9, "commander": "2:0", "owner": BOB, "name": "Commander 2", "tax": 0}
    ]
    assert record.life_changes == state.life_log and record.life_changes is not state.life_log
    assert record.casts is not state.cast_log and record.eliminations is not state.eliminations
    assert record.mulligans == state.mulligan.result() and record.mulligans["style"] == "london"


def test_mulligan_instructions_are_the_last_answer_of_that_player():
    game = Game("edh-2010", players=(ALICE, BOB))
    assert pod.mulligan_instructions(game.state, ALICE) == ()
    game.add(pod.MULLIGAN, player=ALICE, decision=2)
    told = pod.mulligan_instructions(game.state, ALICE)
    game.add(pod.MULLIGAN, player=BOB, decision=0)
    assert pod.mulligan_instructions(game.state, ALICE) == told and told != ()
    assert pod.mulligan_instructions(game.state, BOB) != told
    assert pod.mulligan_instructions(game.state, CAROL) == ()


# -- state-based checks ---------------------------------------------------------------------------


def test_g5_compares_each_commander_on_its_own_and_wins_over_life():
    game = Game()
    game.start()
    game.add(pod.COMMANDER_DAMAGE, commander=commander_key(CAROL, 0), target=BOB, amount=5)
    state = game.add(pod.COMMANDER_DAMAGE, commander=commander_key(ALICE, 0), target=BOB, amount=16)
    assert state.player(BOB).alive and state.player(BOB).life == 19  # 21 in all, but from two commanders
    # the hit that brings both 21 from Alice's commander and 0 life: commander damage is the reason (G5)
    game.add(pod.LIFE, player=BOB, amount=-14)
    state = game.add(pod.COMMANDER_DAMAGE, commander=commander_key(ALICE, 0), target=BOB, amount=5)
    assert (state.player(BOB).eliminated.reason, state.player(BOB).eliminated.by_commander) == (
        pod.LOST_COMMANDER_DAMAGE,
        "1:0",
    )
    assert state.player(BOB).life == 0


def test_the_tenth_poison_counter_eliminates_at_1_life_and_nobody_wins_before_turn_one():
    game = Game(players=(ALICE, BOB))
    game.add(pod.POISON, player=BOB, amount=9)
    game.add(pod.LIFE, player=BOB, amount=-39)
    game.start()
    state = game.add(pod.POISON, player=BOB, amount=1)
    assert state.player(BOB).eliminated.reason == pod.LOST_POISON
    early = Game(players=(ALICE, BOB))
    state = early.add(pod.SET_LIFE, player=BOB, total=0)
    assert state.player(BOB).eliminated.reason == pod.LOST_LIFE and state.ended is None  # not started yet
    assert state.active_player is None
    state = early.start()
    assert (state.ended, state.ended_at) == (pod.END_LAST_STANDING, "t3")


def test_votes_survive_a_stop_and_an_undo_needs_a_log():
    game = Game()
    game.start()
    game.add(pod.DRAW_VOTE, player=BOB)
    state = game.add(pod.STOP)
    assert (state.draw_votes, state.ended, state.ended_at) == ({BOB}, pod.END_STOPPED, "t4")
    with pytest.raises(PodError) as refusal_:
        pod.step(Game().state, [], Event(seq=2, kind=pod.UNDO, actor=ALICE, at="t2", data={"seqs": [1]}))
    assert refusal_.value.key == "pod.error.nothing_to_undo"
    assert pod.undoable(game.events, 2) == [3, 4] and pod.undoable(game.events, 9) == [2, 3, 4]
    assert refusal(game, pod.UNDO, seqs=[3]) == ("pod.error.game_over", {})


def test_amounts_too_large_for_a_number_are_bad_amounts():
    game = Game()
    assert refusal(game, pod.LIFE, player=BOB, amount=float("inf")) == ("pod.error.bad_amount", {})
    assert refusal(game, pod.LIFE, player=BOB, amount=[1]) == ("pod.error.bad_amount", {})
    assert game.add(pod.LIFE, player=BOB, amount="-5").player(BOB).life == 35


# -- exact keys the other tests match loosely ------------------------------------------------------


def test_refusal_keys_are_exact():
    strict = Game(own_totals_only=True).state
    with pytest.raises(PodError) as refusal_:
        pod.check_may_change(strict, BOB, ALICE, manager=False)
    assert (refusal_.value.key, refusal_.value.values) == ("pod.error.own_totals_only", {})
    with pytest.raises(PodError) as refusal_:
        pod.check_may_change(strict, 99, None, manager=False)
    assert refusal_.value.key == "pod.error.not_your_game"
    game = Game()
    assert refusal(game, pod.TO_COMMAND_ZONE, commander=commander_key(BOB, 0)) == (
        "pod.error.no_death_counters",
        {},
    )
    assert refusal(game, pod.MULLIGAN, player=ALICE, decision="keep", prompt=1) == (
        "pod.error.mulligan_outdated",
        {},
    )
    assert game.add(pod.MULLIGAN, player=ALICE, decision="keep", prompt=0).mulligan.decisions
    with pytest.raises(PodError) as refusal_:
        pod.apply(None, Event(seq=1, kind=pod.CREATE, actor=ALICE, at="t1", data={"ruleset": "commander"}))
    assert refusal_.value.key == "pod.error.too_few_players"  # no "players" at all: nobody is seated


def test_joining_keeps_the_name_and_turns_pass_clockwise():
    game = Game(players=(ALICE, BOB))
    state = game.add(pod.JOIN, player="3", name="Carol C.")
    assert [(p.user_id, p.name, p.life) for p in state.players][-1] == (CAROL, "Carol C.", 40)
    game.start()
    state = game.add(pod.NEXT_TURN)
    assert (state.turn, state.active_seat, state.active_player.user_id) == (2, 1, BOB)
    game.add(pod.INITIATIVE, player=BOB)
    assert game.add(pod.INITIATIVE, player=None).initiative is None
    state = game.add(pod.LIFE, player=CAROL, amount=-39)
    assert state.player(CAROL).alive and state.player(CAROL).life == 1  # 1 life is still in the game
