"""The pod game as a fold over events (bot/domain/pod.py). Rule IDs from docs/rules/RULES.md."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.domain.pod import Event, PodError, commander_key, replay

ALICE, BOB, CAROL = 1, 2, 3


class Game:
    """Builds a list of events the way the service does, replaying after each one."""

    def __init__(self, ruleset: str = "commander", players=(ALICE, BOB, CAROL), **create) -> None:
        self.events: list[Event] = []
        names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
        self.add(
            pod.CREATE,
            ruleset=ruleset,
            players=[{"user_id": u, "name": names.get(u, str(u))} for u in players],
            **create,
        )

    def add(self, kind: str, actor: int | None = ALICE, **data) -> pod.PodState:
        event = Event(
            seq=len(self.events) + 1, kind=kind, actor=actor, at=f"t{len(self.events) + 1}", data=data
        )
        state = replay(self.events) if self.events else None
        pod.step(state, self.events, event)  # raises without appending when refused
        self.events.append(event)
        return self.state

    def undo(self, steps: int = 1) -> pod.PodState:
        return self.add(pod.UNDO, seqs=pod.undoable(self.events, steps))

    @property
    def state(self) -> pod.PodState:
        return replay(self.events)

    def start(self) -> pod.PodState:
        return self.add(pod.NEXT_TURN)


def test_g1_starting_life_is_40_and_overridable():
    assert [p.life for p in Game().state.players] == [40, 40, 40]
    assert [p.life for p in Game(starting_life=20).state.players] == [20, 20, 20]


def test_life_changes_and_exact_total():
    game = Game()
    game.add(pod.LIFE, player=BOB, amount=-5)
    game.add(pod.LIFE, player=BOB, amount=+1)
    assert game.state.player(BOB).life == 36
    game.add(pod.SET_LIFE, player=BOB, total=12)
    assert game.state.player(BOB).life == 12
    assert [c["amount"] for c in game.state.life_log] == [-5, 1, -24]


def test_bad_amounts_change_nothing():
    game = Game()
    for bad in ("abc", None, 0, True):
        with pytest.raises(PodError) as excinfo:
            game.add(pod.LIFE, player=BOB, amount=bad)
        assert excinfo.value.key == "pod.error.bad_amount"
    with pytest.raises(PodError) as excinfo:
        game.add(pod.LIFE, player=BOB, amount=10**9)
    assert excinfo.value.key == "pod.error.out_of_range" and excinfo.value.values == {
        "low": -9999,
        "high": 9999,
    }
    assert len(game.events) == 1 and game.state.player(BOB).life == 40


def test_players_join_before_the_first_turn_only_up_to_eight():
    game = Game(players=(ALICE, BOB))
    game.add(pod.JOIN, player=CAROL, name="Carol")
    with pytest.raises(PodError, match="already_joined"):
        game.add(pod.JOIN, player=CAROL, name="Carol")
    for user in range(4, 9):
        game.add(pod.JOIN, player=user, name=str(user))
    with pytest.raises(PodError, match="too_many_players"):
        game.add(pod.JOIN, player=9, name="9")
    game.start()
    assert game.state.turn == 1
    started = Game(players=(ALICE, BOB))
    started.start()
    with pytest.raises(PodError, match="already_started"):
        started.add(pod.JOIN, player=CAROL, name="Carol")


def test_one_player_cannot_start():
    game = Game(players=(ALICE,))
    with pytest.raises(PodError, match="too_few_players"):  # a new game, and turn 1
        pod.check_new_game(game.state)
    with pytest.raises(PodError, match="too_few_players"):
        game.start()


def test_stored_events_beyond_todays_bounds_still_load():
    """A game stored before the bounds existed replays, skipping only the refused change."""
    events = [
        Event(
            1,
            pod.CREATE,
            ALICE,
            "t1",
            {
                "ruleset": "commander",
                "players": [{"user_id": ALICE, "name": "Alice"}, {"user_id": BOB, "name": "Bob"}],
            },
        ),
        Event(2, pod.LIFE, ALICE, "t2", {"player": BOB, "amount": 1_000_000}),
        Event(3, pod.LIFE, ALICE, "t3", {"player": BOB, "amount": -2}),
    ]
    state = replay(events)
    assert state.player(BOB).life == 38 and state.last_seq == 3


def test_seat_order_and_turns_skip_the_eliminated():
    game = Game()
    game.add(pod.SEATS, order=[CAROL, ALICE, BOB])
    with pytest.raises(PodError, match="bad_seat_order"):
        game.add(pod.SEATS, order=[CAROL, ALICE])
    state = game.start()
    assert (state.turn, state.active_player.user_id) == (1, CAROL)
    game.add(pod.CONCEDE, player=ALICE)
    state = game.add(pod.NEXT_TURN)
    assert (state.turn, state.active_player.user_id) == (2, BOB)
    state = game.add(pod.NEXT_TURN)
    assert (state.turn, state.active_player.user_id) == (3, CAROL)
    with pytest.raises(PodError, match="already_started"):
        game.add(pod.SEATS, order=[ALICE, BOB, CAROL])


def _with_commanders(ruleset: str = "commander") -> Game:
    game = Game(ruleset)
    game.add(pod.COMMANDERS, player=ALICE, names=["Tymna the Weaver", "Thrasios, Triton Hero"])
    game.add(pod.COMMANDERS, player=BOB, names=["Atraxa, Praetors' Voice"])
    game.add(pod.COMMANDERS, player=CAROL, names=[None])
    return game


def test_partners_count_as_two_commanders_and_three_is_refused():
    game = _with_commanders()
    assert [c.name for c in game.state.player(ALICE).commanders] == [
        "Tymna the Weaver",
        "Thrasios, Triton Hero",
    ]
    assert game.state.player(CAROL).commanders[0].name is None
    with pytest.raises(PodError, match="too_many_commanders"):
        game.add(pod.COMMANDERS, player=BOB, names=["a", "b", "c"])


def test_g5_commander_damage_lowers_life_and_is_kept_per_commander():
    game = _with_commanders()
    game.start()
    tymna, thrasios = commander_key(ALICE, 0), commander_key(ALICE, 1)
    game.add(pod.COMMANDER_DAMAGE, commander=tymna, target=BOB, amount=11)
    state = game.add(pod.COMMANDER_DAMAGE, commander=thrasios, target=BOB, amount=11)
    bob = state.player(BOB)
    # G5: never summed across commanders: 22 in total but 11 from each, so Bob is still in.
    assert bob.commander_damage_taken == {tymna: 11, thrasios: 11}
    assert bob.life == 18 and bob.alive
    state = game.add(pod.COMMANDER_DAMAGE, commander=tymna, target=BOB, amount=10)
    assert state.player(BOB).eliminated.reason == pod.LOST_COMMANDER_DAMAGE
    assert state.player(BOB).eliminated.by_commander == tymna
    assert state.player(BOB).life == 8  # eliminated by G5 with life left


def test_g5_commander_damage_not_reduced_by_life_gain():
    game = _with_commanders()
    game.start()
    atraxa = commander_key(BOB, 0)
    game.add(pod.COMMANDER_DAMAGE, commander=atraxa, target=CAROL, amount=20)
    game.add(pod.LIFE, player=CAROL, amount=30)
    state = game.add(pod.COMMANDER_DAMAGE, commander=atraxa, target=CAROL, amount=1)
    assert state.player(CAROL).life == 49
    assert state.player(CAROL).eliminated.reason == pod.LOST_COMMANDER_DAMAGE


def test_g5_a_player_can_lose_to_their_own_commander_controlled_by_someone_else():
    game = _with_commanders()
    game.start()
    atraxa = commander_key(BOB, 0)
    state = game.add(pod.COMMANDER_DAMAGE, commander=atraxa, target=BOB, amount=21, controller=CAROL)
    assert state.player(BOB).eliminated.reason == pod.LOST_COMMANDER_DAMAGE
    assert state.combat_damage == {1: {CAROL: 21}}


def test_g3a_tax_two_per_previous_cast():
    game = _with_commanders("edh-2010")
    atraxa = commander_key(BOB, 0)
    state = game.state
    assert state.next_tax(state.commander(atraxa)) == 0
    for expected_paid in (0, 2, 4):
        state = game.add(pod.CAST, commander=atraxa)
        assert state.cast_log[-1]["tax"] == expected_paid
    assert state.next_tax(state.commander(atraxa)) == 6
    assert state.commander(atraxa).tax_paid == 6
    with pytest.raises(PodError, match="no_death_counters"):
        game.add(pod.TO_COMMAND_ZONE, commander=atraxa)


def test_g3b_tax_two_per_death_counter():
    game = _with_commanders("duel-zh")
    atraxa = commander_key(BOB, 0)
    game.add(pod.CAST, commander=atraxa)
    game.add(pod.CAST, commander=atraxa)  # e.g. bounced to hand and recast from hand would not be recorded
    state = game.state
    # G3b: casting does not raise the tax; only going to the command zone does.
    assert state.next_tax(state.commander(atraxa)) == 0
    game.add(pod.TO_COMMAND_ZONE, commander=atraxa)
    state = game.add(pod.TO_COMMAND_ZONE, commander=atraxa)
    assert state.next_tax(state.commander(atraxa)) == 4
    state = game.add(pod.CAST, commander=atraxa)
    assert state.cast_log[-1]["tax"] == 4 and state.commander(atraxa).tax_paid == 4


def test_poison_ten_eliminates_and_counters():
    game = Game()
    game.start()
    game.add(pod.POISON, player=CAROL, amount=9)
    with pytest.raises(PodError, match="bad_amount"):
        game.add(pod.POISON, player=CAROL, amount=-10)
    state = game.add(pod.POISON, player=CAROL, amount=1)
    assert state.player(CAROL).eliminated.reason == pod.LOST_POISON
    game.add(pod.COUNTER, player=ALICE, name=" Energy ", amount=3)
    state = game.add(pod.COUNTER, player=ALICE, name="energy", amount=-1)
    assert state.player(ALICE).counters == {"energy": 2}
    state = game.add(pod.COUNTER, player=ALICE, name="energy", amount=-2)
    assert state.player(ALICE).counters == {}
    with pytest.raises(PodError, match="bad_counter_name"):
        game.add(pod.COUNTER, player=ALICE, name="  ", amount=1)


def test_zero_life_eliminates_and_changes_to_the_eliminated_are_refused():
    game = Game()
    game.start()
    state = game.add(pod.LIFE, player=BOB, amount=-40)
    assert state.player(BOB).eliminated.reason == pod.LOST_LIFE
    with pytest.raises(PodError, match="player_out"):
        game.add(pod.LIFE, player=BOB, amount=5)


def test_monarch_and_initiative_markers_leave_with_the_player():
    game = Game()
    game.start()
    game.add(pod.MONARCH, player=BOB)
    state = game.add(pod.INITIATIVE, player=BOB)
    assert (state.monarch, state.initiative) == (BOB, BOB)
    state = game.add(pod.CONCEDE, player=BOB)
    assert (state.monarch, state.initiative) == (None, None)


def test_last_player_standing_ends_the_game_with_standings():
    game = Game()
    game.start()
    game.add(pod.LIFE, player=BOB, amount=-40, source=ALICE, combat=True)
    state = game.add(pod.CONCEDE, player=CAROL)
    assert state.ended == pod.END_LAST_STANDING
    assert state.standings() == [(1, [ALICE]), (2, [CAROL]), (3, [BOB])]
    with pytest.raises(PodError, match="game_over"):
        game.add(pod.LIFE, player=ALICE, amount=1)


def test_draw_needs_every_remaining_player_and_a_change_resets_the_votes():
    game = Game()
    game.start()
    game.add(pod.CONCEDE, player=CAROL)
    game.add(pod.DRAW_VOTE, player=ALICE)
    game.add(pod.LIFE, player=ALICE, amount=-1)  # the board changed: the vote is void
    state = game.add(pod.DRAW_VOTE, player=BOB)
    assert not state.finished and state.draw_votes == {BOB}
    state = game.add(pod.DRAW_VOTE, player=ALICE)
    assert state.ended == pod.END_DRAW
    assert state.standings() == [(1, [ALICE, BOB]), (3, [CAROL])]


def test_a_withdrawn_draw_vote_no_longer_counts():
    game = Game()
    game.start()
    game.add(pod.DRAW_VOTE, player=ALICE)
    state = game.add(pod.DRAW_VOTE, player=ALICE, withdraw=True)
    assert state.draw_votes == set()
    game.add(pod.DRAW_VOTE, player=BOB)
    state = game.add(pod.DRAW_VOTE, player=CAROL)
    assert not state.finished and state.draw_votes == {BOB, CAROL}  # alice took hers back: no draw yet
    state = game.add(pod.DRAW_VOTE, player=CAROL, withdraw=True)  # withdrawing twice is harmless
    state = game.add(pod.DRAW_VOTE, player=CAROL, withdraw=True)
    assert state.draw_votes == {BOB} and not state.finished
    state = game.add(pod.DRAW_VOTE, player=ALICE)
    state = game.add(pod.DRAW_VOTE, player=CAROL)
    assert state.ended == pod.END_DRAW


def test_undo_drops_the_last_events_including_an_elimination():
    game = Game()
    game.start()
    game.add(pod.LIFE, player=BOB, amount=-30)
    game.add(pod.LIFE, player=BOB, amount=-10)
    assert not game.state.player(BOB).alive
    state = game.undo()
    assert state.player(BOB).alive and state.player(BOB).life == 10
    state = game.undo(2)  # the -30 and the first turn
    assert state.player(BOB).life == 40 and state.turn == 0
    # Undo never drops the creation, and an undo itself is not re-undone.
    with pytest.raises(PodError, match="nothing_to_undo"):
        game.undo()
    assert [e.kind for e in game.events][-2:] == [pod.UNDO, pod.UNDO]


def test_record_keeps_what_tournaments_need():
    game = _with_commanders("edh-2010")
    game.add(pod.MULLIGAN, player=ALICE, decision=2)  # M1: sets 2 aside, draws 1
    game.add(pod.MULLIGAN, player=BOB, decision=0)
    game.add(pod.MULLIGAN, player=CAROL, decision="0")
    game.add(pod.MULLIGAN, player=ALICE, decision=0)  # keeps 6
    game.start()
    tymna = commander_key(ALICE, 0)
    game.add(pod.CAST, commander=tymna)
    game.add(pod.COMMANDER_DAMAGE, commander=tymna, target=BOB, amount=2)
    game.add(pod.LIFE, player=CAROL, amount=-3, source=ALICE, combat=True)
    game.add(pod.NEXT_TURN)
    game.add(pod.LIFE, player=ALICE, amount=-40, source=BOB, combat=True)
    state = game.add(pod.CONCEDE, player=CAROL)
    record = pod.game_record(state, game_id=7, guild_id=10, channel_id=20, tournament_id=3, round_number=2)
    assert record.winner == BOB and record.survivors == [BOB] and not record.draw
    assert record.combat_damage == {1: {ALICE: 5}, 2: {BOB: 40}}
    assert record.commander_damage == {(BOB, tymna): 2}
    assert record.casts[0]["tax"] == 0 and record.casts[0]["name"] == "Tymna the Weaver"
    assert [(e.player, e.reason, e.turn) for e in record.eliminations] == [
        (ALICE, pod.LOST_LIFE, 2),
        (CAROL, pod.LOST_CONCEDED, 2),
    ]
    assert record.standings == [(1, [BOB]), (2, [CAROL]), (3, [ALICE])]
    assert [p.mulligans for p in record.players] == [1, 0, 0]
    assert [p.kept_cards for p in record.players] == [6, 7, 7]
    assert record.mulligans["style"] == "partial_paris"
    assert record.mulligans["decisions"] == [[ALICE, 2], [BOB, 0], [CAROL, 0], [ALICE, 0]]
    assert (record.tournament_id, record.round_number) == (3, 2)
    assert (record.game_id, record.guild_id, record.channel_id, record.ruleset) == (7, 10, 20, "edh-2010")
    assert (record.turns, record.ended, record.ended_at) == (2, pod.END_LAST_STANDING, "t15")
    # the logs tournaments add up (T2): every field, in order
    assert record.casts == [
        {"turn": 1, "seq": 10, "commander": tymna, "owner": ALICE, "name": "Tymna the Weaver", "tax": 0}
    ]
    assert record.life_changes == [
        {
            "turn": 1,
            "seq": 11,
            "player": BOB,
            "amount": -2,
            "source": ALICE,
            "combat": True,
            "commander": tymna,
        },
        {"turn": 1, "seq": 12, "player": CAROL, "amount": -3, "source": ALICE, "combat": True},
        {"turn": 2, "seq": 14, "player": ALICE, "amount": -40, "source": BOB, "combat": True},
    ]
    assert [(p.user_id, p.name, p.seat, p.commanders, p.final_life, p.poison) for p in record.players] == [
        (ALICE, "Alice", 1, ["Tymna the Weaver", "Thrasios, Triton Hero"], 0, 0),
        (BOB, "Bob", 2, ["Atraxa, Praetors' Voice"], 38, 0),
        (CAROL, "Carol", 3, [None], 37, 0),
    ]  # an unnamed commander


def test_event_target_names_whose_totals_change():
    def event(kind: str, **data) -> Event:
        return Event(seq=1, kind=kind, actor=ALICE, at="t1", data=data)

    assert pod.event_target(event(pod.COMMANDER_DAMAGE, target=BOB, commander=commander_key(ALICE, 0))) == BOB
    assert pod.event_target(event(pod.CAST, commander=commander_key(CAROL, 1))) == CAROL
    assert pod.event_target(event(pod.TO_COMMAND_ZONE, commander=commander_key(BOB, 0))) == BOB
    assert pod.event_target(event(pod.LIFE, player=CAROL, amount=-1)) == CAROL
    assert pod.event_target(event(pod.NEXT_TURN)) is None


def test_commander_damage_must_be_positive():
    game = _with_commanders()
    game.start()
    for amount in (0, -3):  # refused with the bounds named
        with pytest.raises(PodError, match=r"^pod\.error\.out_of_range") as refused:
            game.add(pod.COMMANDER_DAMAGE, commander=commander_key(ALICE, 0), target=BOB, amount=amount)
        assert refused.value.values == {"low": 1, "high": pod.MAX_COMMANDER_HIT}
    assert game.state.player(BOB).life == 40 and game.state.life_log == []


def test_permissions_players_or_managers_and_own_totals_only():
    open_game = Game().state
    pod.check_may_change(open_game, BOB, ALICE, manager=False)
    with pytest.raises(PodError, match="not_your_game"):
        pod.check_may_change(open_game, 99, ALICE, manager=False)
    pod.check_may_change(open_game, 99, ALICE, manager=True)
    strict = Game(own_totals_only=True).state
    with pytest.raises(PodError, match="own_totals_only"):
        pod.check_may_change(strict, BOB, ALICE, manager=False)
    pod.check_may_change(strict, BOB, BOB, manager=False)
    pod.check_may_change(strict, BOB, None, manager=False)


def test_replay_is_deterministic():
    game = _with_commanders()
    game.start()
    game.add(pod.COMMANDER_DAMAGE, commander=commander_key(BOB, 0), target=ALICE, amount=7)
    assert replay(game.events) == replay(list(game.events))


def test_m1_partial_paris_mulligan_step_in_seat_order():
    game = Game("duel-zh", players=(ALICE, BOB))
    with pytest.raises(PodError) as excinfo:
        game.add(pod.MULLIGAN, player=BOB, decision=1)
    assert excinfo.value.key == "mulligan.error.not_your_turn"
    state = game.add(pod.MULLIGAN, player=ALICE, decision=3)
    assert pod.mulligan_instructions(state, ALICE)[0].count == 2  # M1: draw one fewer than set aside
    with pytest.raises(PodError, match="mulligans_started"):
        game.add(pod.JOIN, player=CAROL, name="Carol")
    with pytest.raises(PodError, match="mulligans_unfinished"):
        game.start()
    game.add(pod.MULLIGAN, player=BOB, decision=0)
    state = game.add(pod.MULLIGAN, player=ALICE, decision=0)
    assert state.mulligan.finished
    assert game.start().turn == 1


def test_london_first_mulligan_free_with_three_players_and_vancouver_option():
    game = Game("commander")
    state = game.add(pod.MULLIGAN, player=ALICE, decision="mulligan")
    assert state.mulligan.style == "london" and state.mulligan.player(ALICE).to_bottom == 0
    vancouver = Game("commander", mulligan_style="vancouver")
    assert vancouver.state.mulligan_style == "vancouver"
    with pytest.raises(PodError, match="unknown_mulligan_style"):
        Game("commander", mulligan_style="paris")


def test_each_player_starts_with_one_unnamed_commander_and_may_have_none():
    game = Game()
    assert [len(p.commanders) for p in game.state.players] == [1, 1, 1]
    assert game.state.player(ALICE).commanders[0].name is None
    state = game.add(pod.COMMANDERS, player=ALICE, names=[])
    assert state.player(ALICE).commanders == []


def test_a_finished_game_cannot_be_undone():
    game = Game(players=(ALICE, BOB))
    game.start()
    game.add(pod.CONCEDE, player=BOB)
    with pytest.raises(PodError, match="game_over"):
        game.undo()


def test_stop_keeps_everyone_alive_as_survivors_without_a_draw():
    game = Game()
    game.start()
    game.add(pod.CONCEDE, player=CAROL)
    state = game.add(pod.STOP)
    record = pod.game_record(state, game_id=1, guild_id=None, channel_id=None)
    assert (record.ended, record.draw, record.survivors, record.winner) == (
        pod.END_STOPPED,
        False,
        [ALICE, BOB],
        None,
    )


def test_g6_commanders_are_fixed_at_turn_one_but_may_be_named_later():
    game = Game()
    game.start()
    atraxa = commander_key(BOB, 0)
    game.add(pod.CAST, commander=atraxa)
    state = game.add(pod.COMMANDERS, player=BOB, names=["Atraxa, Praetors' Voice"])
    assert state.commander(atraxa).name == "Atraxa, Praetors' Voice" and state.commander(atraxa).casts == 1
    with pytest.raises(PodError, match="already_started"):
        game.add(pod.COMMANDERS, player=BOB, names=["Tymna the Weaver", "Thrasios, Triton Hero"])


def _refusal(game: Game | None, kind: str, **data) -> str:
    """The key of the refusal of one more event, after checking the game did not change."""
    events = game.events if game else []
    state = replay(events) if events else None
    before = replay(events) if events else None
    with pytest.raises(PodError) as refused:
        pod.step(state, list(events), Event(seq=len(events) + 1, kind=kind, actor=ALICE, at="t", data=data))
    if events:
        assert replay(events) == before
    return refused.value.key


def test_each_refusal_names_its_reason():
    players = [{"user_id": ALICE, "name": "Alice"}]
    assert _refusal(None, pod.LIFE, player=ALICE, amount=1) == "pod.error.no_game"
    assert _refusal(None, pod.UNDO, seqs=[1]) == "pod.error.no_game"
    assert _refusal(None, pod.CREATE, ruleset="modern", players=players) == "pod.error.unknown_ruleset"
    assert (
        _refusal(None, pod.CREATE, ruleset="commander", players=players, starting_life=0)
        == "pod.error.out_of_range"
    )
    assert (
        _refusal(None, pod.CREATE, ruleset="commander", players=players, mulligan_style="mystery")
        == "pod.error.unknown_mulligan_style"
    )
    assert _refusal(None, pod.CREATE, ruleset="commander", players=[]) == "pod.error.too_few_players"
    game = Game()
    assert _refusal(game, pod.CREATE, ruleset="commander", players=players) == "pod.error.already_created"
    assert _refusal(game, "teleport") == "pod.error.unknown_change"
    assert _refusal(game, pod.UNDO, seqs=[1]) == "pod.error.nothing_to_undo"  # never the creation
    assert _refusal(game, pod.UNDO, seqs=[]) == "pod.error.nothing_to_undo"
    assert (
        _refusal(game, pod.COMMANDERS, player=ALICE, names=["A", "B", "C"]) == "pod.error.too_many_commanders"
    )
    game.start()
    assert _refusal(game, pod.COMMANDERS, player=ALICE, names=["A", "B"]) == "pod.error.already_started"
    assert [c.name for c in game.add(pod.COMMANDERS, player=ALICE, names=["A"]).player(ALICE).commanders] == [
        "A"
    ]
    game.add(pod.CONCEDE, player=BOB)
    game.add(pod.CONCEDE, player=CAROL)
    assert game.state.finished
    assert _refusal(game, pod.LIFE, player=ALICE, amount=1) == "pod.error.game_over"
    assert _refusal(game, pod.UNDO, seqs=[game.events[-1].seq]) == "pod.error.game_over"


def test_create_keeps_who_created_it_names_and_a_deck():
    game = Game(players=(ALICE, BOB))
    state = game.state
    assert (state.created_by, state.last_seq, [p.name for p in state.players]) == (ALICE, 1, ["Alice", "Bob"])
    state = game.add(
        pod.COMMANDERS, player=BOB, names=["  Atraxa, Praetors' Voice  ", "  "], deck="Superfriends"
    )
    bob = state.player(BOB)
    assert [c.name for c in bob.commanders] == [
        "Atraxa, Praetors' Voice",
        None,
    ] and bob.deck == "Superfriends"
    state = game.add(pod.COMMANDERS, player=BOB, names=["Atraxa, Praetors' Voice"])
    assert state.player(BOB).deck == "Superfriends"  # not given again: kept
    assert state.last_seq == 3


def test_undo_refusals_and_what_a_replay_remembers():
    game = Game()
    game.start()
    game.add(pod.LIFE, player=BOB, amount=-3)
    assert (
        _refusal(game, pod.UNDO, seqs=[1]) == "pod.error.nothing_to_undo"
    )  # the creation, with others to undo
    assert _refusal(game, pod.UNDO) == "pod.error.nothing_to_undo"  # no seqs at all
    assert _refusal(game, pod.UNDO, seqs=[2, 9]) == "pod.error.nothing_to_undo"  # one of them never happened
    with pytest.raises(PodError, match=r"^pod\.error\.bad_amount$"):
        pod.undoable(game.events, 0)
    state = game.undo()  # drops seq 3, the life change
    assert state.player(BOB).life == 40 and state.last_seq == 4  # the undo is the last thing that happened
    state = game.add(pod.LIFE, player=BOB, amount=-1)
    assert state.last_seq == 5 and replay(game.events).last_seq == 5
    with pytest.raises(PodError, match=r"^pod\.error\.no_game$"):
        replay([])
    # an undo that drops the latest events keeps counting from the undo itself
    undone = replay([*game.events, Event(seq=6, kind=pod.UNDO, actor=ALICE, at="t6", data={"seqs": [5]})])
    assert undone.last_seq == 6 and undone.player(BOB).life == 40


def test_more_refusals_name_their_reasons():
    game = Game()
    assert _refusal(game, pod.JOIN, player=BOB, name="Bob again") == "pod.error.already_joined"
    for extra in range(4, 9):
        game.add(pod.JOIN, player=extra, name=f"P{extra}")
    assert _refusal(game, pod.JOIN, player=9, name="Ninth") == "pod.error.too_many_players"
    assert game.state.commander(commander_key(BOB, 0)).index == 0  # everyone starts with commander 0
    assert (
        _refusal(game, pod.COMMANDER_DAMAGE, commander=commander_key(ALICE, 1), target=BOB, amount=1)
        == "pod.error.unknown_commander"
    )  # alice has one commander: index 1 is past it
    alone = Game(players=(ALICE,))
    assert _refusal(alone, pod.MULLIGAN, player=ALICE, decision="keep") == "pod.error.too_few_players"
    paris = Game("edh-2010")
    assert _refusal(paris, pod.MULLIGAN, player=BOB, decision=0) == "mulligan.error.not_your_turn"
    with pytest.raises(PodError) as refused:
        paris.add(pod.MULLIGAN, player=ALICE, decision=9)  # more than the hand: the procedure's values kept
    assert refused.value.key.startswith("mulligan.error.") and refused.value.values


def test_counters_count_up_and_down_and_vanish_at_zero():
    game = Game()
    game.start()
    assert game.add(pod.COUNTER, player=BOB, name=" Energy ", amount=3).player(BOB).counters == {"energy": 3}
    assert game.add(pod.COUNTER, player=BOB, name="energy", amount=-2).player(BOB).counters == {"energy": 1}
    assert game.add(pod.COUNTER, player=BOB, name="ENERGY", amount=-1).player(BOB).counters == {}
    assert _refusal(game, pod.COUNTER, player=BOB, name="energy", amount=-1) == "pod.error.bad_amount"
    assert _refusal(game, pod.COUNTER, player=BOB, name="storm", amount=0) == "pod.error.bad_amount"
    assert _refusal(game, pod.COUNTER, player=BOB, name="  ", amount=1) == "pod.error.bad_counter_name"
    assert (
        _refusal(game, pod.COUNTER, player=BOB, name="x" * (pod.MAX_COUNTER_NAME + 1), amount=1)
        == "pod.error.bad_counter_name"
    )
    assert game.add(pod.COUNTER, player=BOB, name="x" * pod.MAX_COUNTER_NAME, amount=1).player(BOB).counters
