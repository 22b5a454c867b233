"""The statistics' summary of a game (bot/domain/stats), over random games played by the real pod rules:
one winner at most and only in a game won by last standing, places agree with the standings, every
eliminated player says how, nobody eliminates themself, and the figures (win rate, streaks) stay in range."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import pod
from bot.domain.stats.figures import Tally, streaks, win_rate
from bot.domain.stats.summary import combined_identity, eliminators, summarise
from tests.stats.games import IDENTITIES, random_game

seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_a_summary_agrees_with_the_game_record(seed: int) -> None:
    record, events = random_game(seed)
    summary = summarise(record, started_at=events[0].at, identities=IDENTITIES)
    assert [p.user_id for p in summary.players] == [p.user_id for p in record.players]
    winners = [p.user_id for p in summary.players if p.won]
    assert winners == ([record.winner] if record.winner is not None else [])
    if winners:
        assert record.ended == pod.END_LAST_STANDING
    places = {user: place for place, users in record.standings for user in users}
    for player in summary.players:
        assert player.place == places[player.user_id]
        assert (player.eliminated_how is None) == (player.user_id in record.survivors)
        assert player.eliminated_by != player.user_id
        if player.eliminated_by is not None:
            assert player.eliminated_how in (pod.LOST_LIFE, pod.LOST_COMMANDER_DAMAGE)
            assert player.eliminated_by in places
        if player.won:
            assert player.place == 1
    assert summary.duration_seconds is not None and summary.duration_seconds >= 0
    assert summary.month == summary.ended_at[:7]


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_commander_damage_eliminations_name_the_commanders_owner(seed: int) -> None:
    record, _ = random_game(seed)
    by_whom = eliminators(record)
    for elimination in record.eliminations:
        if elimination.reason == pod.LOST_COMMANDER_DAMAGE:
            assert by_whom[elimination.player] == pod.parse_commander_key(elimination.by_commander)[0]
        if elimination.reason in (pod.LOST_POISON, pod.LOST_CONCEDED):
            assert elimination.player not in by_whom


def test_partner_identity_is_the_union_and_an_unknown_name_stays_unknown() -> None:
    assert combined_identity(["WB", "UG"]) == "WUBG"
    assert combined_identity([""]) == "C"
    assert combined_identity(["WB", None]) is None


@given(st.lists(st.booleans(), max_size=60))
def test_streaks_are_runs_of_wins(results: list[bool]) -> None:
    found = streaks(results)
    text = "".join("W" if r else "L" for r in results)
    assert found.best == max((len(run) for run in text.split("L")), default=0)
    assert found.current == len(text) - len(text.rstrip("W"))
    assert 0 <= found.current <= found.best <= len(results)


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_a_win_rate_is_between_zero_and_one(wins: int, extra: int) -> None:
    rate = Tally("x", games=wins + extra, wins=wins).rate
    assert 0.0 <= rate <= 1.0
    assert win_rate(0, 0) == 0.0
