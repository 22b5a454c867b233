"""Seasons in the domain: the points rule parser (Hypothesis), scoring real pod records folded by the pod
domain, the confirm/dispute/decide states, and standings with their tie-breakers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.domain import pod
from bot.domain.pod import commander_key
from bot.domain.season import (
    ACCEPT,
    ACCEPTED,
    CONFIRM,
    CONFIRMED,
    DISPUTE,
    DISPUTED,
    PENDING,
    VOID,
    VOIDED,
    PointsRule,
    ResultState,
    SeasonError,
    SeatResult,
    answer,
    check_name,
    decide,
    parse_points,
    score_game,
    standings,
)
from tests.pods.test_domain import ALICE, BOB, CAROL, Game

RULE = PointsRule(win=3, survive=1, elimination=1)


def won_by_alice() -> pod.PodGameRecord:
    """Alice deals Carol 21 with her commander (G5), then Bob pays his own life to 0: Alice wins with one
    elimination credited; Bob's own payment credits nobody."""
    game = Game()
    game.add(pod.COMMANDERS, player=ALICE, names=["Tymna the Weaver"])
    game.start()
    tymna = commander_key(ALICE, 0)
    game.add(pod.COMMANDER_DAMAGE, commander=tymna, target=CAROL, amount=21)
    state = game.add(pod.LIFE, player=BOB, amount=-40, source=BOB)
    return pod.game_record(state, game_id=7, guild_id=1, channel_id=2)


def drawn_after_bob_kills_carol() -> pod.PodGameRecord:
    game = Game()
    game.start()
    game.add(pod.LIFE, player=CAROL, amount=-40, source=BOB, combat=True)
    game.add(pod.DRAW_VOTE, player=ALICE)
    state = game.add(pod.DRAW_VOTE, actor=BOB, player=BOB)
    return pod.game_record(state, game_id=8, guild_id=1, channel_id=2)


def test_a_win_and_a_commander_kill_are_scored_and_self_inflicted_losses_credit_nobody() -> None:
    alice, bob, carol = score_game(RULE, won_by_alice())
    assert (alice.user_id, alice.won, alice.eliminations, alice.points) == (ALICE, True, 1, 3 + 1)
    assert (bob.won, bob.survived, bob.eliminations, bob.points) == (False, False, 0, 0)
    assert (carol.seat, carol.points) == (3, 0)


def test_survivors_of_a_draw_get_survival_points_and_the_lethal_source_gets_the_kill() -> None:
    alice, bob, carol = score_game(PointsRule(win=5, survive=2, elimination=4), drawn_after_bob_kills_carol())
    assert (alice.survived, alice.won, alice.points) == (True, False, 2)
    assert (bob.survived, bob.eliminations, bob.points) == (True, 1, 2 + 4)
    assert (carol.survived, carol.points) == (False, 0)


def test_poison_and_concessions_credit_nobody() -> None:
    game = Game()
    game.start()
    game.add(pod.POISON, player=BOB, amount=10)
    state = game.add(pod.CONCEDE, actor=CAROL, player=CAROL)
    results = score_game(RULE, pod.game_record(state, game_id=9, guild_id=1, channel_id=2))
    assert [r.eliminations for r in results] == [0, 0, 0]
    assert [r.points for r in results] == [3, 0, 0]


def test_points_parse_in_any_order_with_short_keys_and_defaults() -> None:
    assert parse_points("e=2, w=5") == PointsRule(win=5, survive=1, elimination=2)
    assert parse_points("") == PointsRule()
    assert parse_points("WIN:4 survive=0", min_games=3) == PointsRule(
        win=4, survive=0, elimination=1, min_games=3
    )
    assert parse_points(PointsRule(win=-2, survive=7, elimination=0).text()) == PointsRule(-2, 7, 0)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("win=3 lose=1", "season.error.bad_points"),
        ("win", "season.error.bad_points"),
        ("win=3 w=4", "season.error.points_twice"),
        ("win=101", "season.error.points_out_of_range"),
    ],
)
def test_bad_points_are_refused_naming_the_part(text: str, key: str) -> None:
    with pytest.raises(SeasonError) as refused:
        parse_points(text)
    assert refused.value.key == key
    for language in ("en", "ja", "zh-Hans", "zh-Hant"):
        assert refused.value.localized(language)


def test_min_games_and_names_have_bounds() -> None:
    with pytest.raises(SeasonError, match="min_games_out_of_range"):
        parse_points("", min_games=-1)
    with pytest.raises(SeasonError, match="bad_name"):
        check_name("   ")
    assert check_name("  Spring   2027 ") == "Spring 2027"


@given(st.text(max_size=60))
def test_any_typed_points_either_parse_or_are_refused_with_a_message(text: str) -> None:
    try:
        rule = parse_points(text)
    except SeasonError as refused:
        assert refused.localized("ja")
    else:
        assert all(-100 <= v <= 100 for v in (rule.win, rule.survive, rule.elimination))
        assert parse_points(rule.text()) == rule


@given(st.integers(-100, 100), st.integers(-100, 100), st.integers(-100, 100))
def test_a_rule_reads_back_as_itself(win: int, survive: int, elimination: int) -> None:
    rule = PointsRule(win, survive, elimination)
    assert parse_points(rule.text()) == rule


def test_a_result_is_confirmed_when_every_player_confirmed() -> None:
    state = ResultState(players=frozenset({ALICE, BOB}))
    assert state.status == PENDING and not state.counts
    state = answer(state, ALICE, CONFIRM)
    assert state.status == PENDING
    state = answer(state, BOB, CONFIRM)
    assert state.status == CONFIRMED and state.final and state.counts
    with pytest.raises(SeasonError, match="already_final"):
        answer(state, BOB, DISPUTE)


def test_a_dispute_holds_the_result_until_an_organiser_decides() -> None:
    state = answer(ResultState(players=frozenset({ALICE, BOB, CAROL})), BOB, DISPUTE)
    state = answer(answer(state, ALICE, CONFIRM), CAROL, CONFIRM)
    assert state.status == DISPUTED and not state.counts
    assert answer(state, BOB, CONFIRM).status == CONFIRMED  # Bob changed his mind
    assert decide(state, ACCEPT).status == ACCEPTED and decide(state, ACCEPT).counts
    voided = decide(state, VOID)
    assert voided.status == VOIDED and voided.final and not voided.counts
    assert decide(voided, ACCEPT).status == ACCEPTED  # an organiser may change a decision
    with pytest.raises(SeasonError, match="already_decided"):
        decide(voided, VOID)


def test_bystanders_and_unknown_answers_are_refused() -> None:
    state = ResultState(players=frozenset({ALICE}))
    with pytest.raises(SeasonError, match="not_at_table"):
        answer(state, BOB, CONFIRM)
    with pytest.raises(SeasonError, match="bad_answer"):
        answer(state, ALICE, "maybe")
    with pytest.raises(SeasonError, match="bad_decision"):
        decide(state, "maybe")


@given(
    st.lists(
        st.tuples(st.sampled_from([ALICE, BOB, CAROL]), st.sampled_from([CONFIRM, DISPUTE])), max_size=12
    )
)
def test_the_state_is_the_last_answer_of_each_player(answers: list[tuple[int, str]]) -> None:
    state = ResultState(players=frozenset({ALICE, BOB, CAROL}))
    last: dict[int, str] = {}
    for user, choice in answers:
        if state.final:
            break
        state = answer(state, user, choice)
        last[user] = choice
    assert state.confirmed == {u for u, c in last.items() if c == CONFIRM}
    assert state.disputed == {u for u, c in last.items() if c == DISPUTE}
    assert not state.confirmed & state.disputed


def seat(user: int, points: int, *, won: bool = False, kills: int = 0) -> SeatResult:
    return SeatResult(
        user_id=user, name=f"p{user}", seat=1, won=won, survived=False, eliminations=kills, points=points
    )


def test_standings_break_ties_by_wins_then_eliminations_then_fewer_games() -> None:
    games = [
        (1, [seat(ALICE, 3, won=True), seat(BOB, 2, kills=2), seat(CAROL, 3, kills=3)]),
        (2, [seat(BOB, 1, kills=1), seat(4, 3, won=True)]),
        (3, [seat(4, 0)]),
    ]
    lines = standings(games, PointsRule())
    assert [(s.user_id, s.points, s.place) for s in lines] == [
        (ALICE, 3, 1),
        (4, 3, 2),
        (CAROL, 3, 3),
        (BOB, 3, 4),
    ]
    assert (lines[1].games, lines[1].wins) == (2, 1)  # alice won in 1 game, player 4 needed 2


def test_equal_players_share_a_place_and_too_few_games_are_unranked() -> None:
    games = [(1, [seat(ALICE, 2), seat(BOB, 2), seat(CAROL, 5)]), (2, [seat(ALICE, 0), seat(BOB, 0)])]
    lines = standings(games * 2, PointsRule(min_games=2))  # each game listed twice counts once
    assert [(s.user_id, s.place, s.games) for s in lines] == [(ALICE, 1, 2), (BOB, 1, 2), (CAROL, None, 1)]
    assert not lines[2].ranked


@given(
    st.lists(
        st.tuples(
            st.integers(1, 30),
            st.lists(
                st.tuples(st.integers(1, 6), st.integers(-5, 9)),
                min_size=1,
                max_size=4,
                unique_by=lambda x: x[0],
            ),
        ),
        max_size=20,
        unique_by=lambda game: game[0],
    ),
    st.integers(0, 4),
)
def test_standings_sum_the_points_of_each_game_once(games, min_games) -> None:
    results = [(game_id, [seat(user, points) for user, points in seats]) for game_id, seats in games]
    lines = standings(results, PointsRule(min_games=min_games))
    for line in lines:
        assert line.points == sum(
            s.points for _, seats in results for s in seats if s.user_id == line.user_id
        )
        assert line.ranked == (line.games >= min_games)
    places = [line.place for line in lines if line.ranked]
    assert places == sorted(places) and (not places or places[0] == 1)


@given(st.text(max_size=80))
def test_any_typed_name_is_trimmed_to_a_bounded_name_or_refused(text: str) -> None:
    try:
        name = check_name(text)
    except SeasonError as refused:
        assert refused.key == "season.error.bad_name" and refused.localized("zh-Hant")
        assert not 1 <= len(" ".join(text.split())) <= 64
    else:
        assert 1 <= len(name) <= 64 and name == name.strip() and "  " not in name
