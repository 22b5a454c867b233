"""Exact values of the statistics' summary of a game (bot/domain/stats), on hand-built game records:
who eliminated whom from the life log, places of players missing from the standings, partners, the
month and duration of a game, and the figures' win rate. The property tests in test_summary.py check
that random games stay consistent; these pin each field to the value it must have."""

from __future__ import annotations

from typing import Any

import pytest

from bot.domain import pod
from bot.domain.pod import Elimination, GameRecordPlayer, PodGameRecord
from bot.domain.stats.figures import Tally, win_rate
from bot.domain.stats.summary import (
    GameSummary,
    PlayerSummary,
    combined_identity,
    counts_for_statistics,
    eliminators,
    summarise,
)


def _player(user_id: int, commanders: list[str | None], deck: str | None = None) -> GameRecordPlayer:
    return GameRecordPlayer(
        user_id=user_id,
        name=f"P{user_id}",
        seat=user_id - 1,
        commanders=commanders,
        deck=deck,
        final_life=0,
        poison=0,
        mulligans=0,
        kept_cards=None,
    )


def _record(
    *,
    players: list[GameRecordPlayer] | None = None,
    eliminations: list[Elimination] | None = None,
    life_changes: list[dict[str, Any]] | None = None,
    standings: list[tuple[int, list[int]]] | None = None,
    survivors: list[int] | None = None,
    turns: int = 5,
    ended_at: str | None = "2026-11-30T21:00:00+00:00",
    tournament_id: int | None = None,
) -> PodGameRecord:
    return PodGameRecord(
        guild_id=10,
        channel_id=20,
        game_id=7,
        ruleset="commander",
        players=players or [_player(1, []), _player(2, [])],
        survivors=survivors if survivors is not None else [1],
        eliminations=eliminations or [],
        standings=standings if standings is not None else [(1, [1]), (2, [2])],
        draw=False,
        ended=pod.END_LAST_STANDING,
        turns=turns,
        combat_damage={},
        commander_damage={},
        casts=[],
        life_changes=life_changes or [],
        mulligans=None,
        tournament_id=tournament_id,
        ended_at=ended_at,
    )


def _lost(player: int, reason: str, *, seq: int = 5, by_commander: str | None = None) -> Elimination:
    return Elimination(player=player, reason=reason, turn=4, seq=seq, at="t", by_commander=by_commander)


def _change(seq: int, player: int, source: int | None) -> dict[str, Any]:
    return {"turn": 4, "seq": seq, "player": player, "amount": -3, "source": source, "combat": False}


def test_a_win_rate_is_wins_over_games() -> None:
    assert win_rate(1, 4) == 0.25
    assert Tally("x", games=3, wins=3).rate == 1.0
    assert win_rate(0, 0) == 0.0


def test_a_game_stopped_before_its_first_turn_does_not_count() -> None:
    assert counts_for_statistics(_record(turns=0)) is False
    assert counts_for_statistics(_record(turns=1)) is True


def test_identity_of_no_commander_is_unknown_and_letters_outside_wubrg_are_ignored() -> None:
    assert combined_identity([]) is None
    assert combined_identity(["GW", "BX"]) == "WBG"
    assert combined_identity(["", ""]) == "C"
    assert combined_identity([None, "W"]) is None


def test_the_life_elimination_is_credited_to_the_source_of_the_killing_change() -> None:
    """Only the change of the eliminated player at the eliminating event counts, not an earlier hit
    from another player nor the same event's change to somebody else."""
    record = _record(
        eliminations=[_lost(2, pod.LOST_LIFE, seq=5)],
        life_changes=[_change(4, 2, 4), _change(5, 2, 3), _change(5, 1, 4)],
    )
    assert eliminators(record) == {2: 3}


def test_a_life_elimination_without_a_sourced_change_has_no_eliminator() -> None:
    unsourced = _record(eliminations=[_lost(2, pod.LOST_LIFE)], life_changes=[_change(5, 2, None)])
    no_change = _record(eliminations=[_lost(2, pod.LOST_LIFE)], life_changes=[_change(4, 2, 3)])
    self_inflicted = _record(eliminations=[_lost(2, pod.LOST_LIFE)], life_changes=[_change(5, 2, 2)])
    assert eliminators(unsourced) == {}
    assert eliminators(no_change) == {}
    assert eliminators(self_inflicted) == {}


def test_poison_and_keyless_commander_damage_have_no_eliminator_even_with_a_life_change() -> None:
    record = _record(
        eliminations=[_lost(2, pod.LOST_POISON), _lost(3, pod.LOST_COMMANDER_DAMAGE, seq=6)],
        life_changes=[_change(5, 2, 1), _change(6, 3, 1)],
    )
    assert eliminators(record) == {}


def test_commander_damage_is_credited_to_the_commanders_owner() -> None:
    record = _record(eliminations=[_lost(2, pod.LOST_COMMANDER_DAMAGE, by_commander="3:1")])
    assert eliminators(record) == {2: 3}


def test_the_summary_of_a_game_field_by_field() -> None:
    """Player 3 is missing from the standings: they place last (the number of players)."""
    record = _record(
        players=[
            _player(1, ["Tymna", None, "Thrasios"], deck="Blue farm"),
            _player(2, ["Atraxa"]),
            _player(3, []),
        ],
        eliminations=[_lost(2, pod.LOST_COMMANDER_DAMAGE, seq=9, by_commander="1:0")],
        standings=[(1, [1]), (2, [2])],
        tournament_id=44,
    )
    summary = summarise(
        record,
        started_at="2026-11-30T20:00:00+00:00",
        identities={"Tymna": "WB", "Thrasios": "UG", "Atraxa": "WUBG"},
    )
    assert summary == GameSummary(
        game_id=7,
        guild_id=10,
        ended_at="2026-11-30T21:00:00+00:00",
        month="2026-11",
        turns=5,
        duration_seconds=3600,
        ended=pod.END_LAST_STANDING,
        tournament_id=44,
        players=(
            PlayerSummary(1, "P1", 0, "Tymna", "Thrasios", "WUBG", "Blue farm", 1, True, None, None, None),
            PlayerSummary(2, "P2", 1, "Atraxa", None, "WUBG", None, 2, False, "commander_damage", 1, 4),
            PlayerSummary(3, "P3", 2, None, None, None, None, 3, False, None, None, None),
        ),
    )
    assert summary.winner == 1


@pytest.mark.parametrize(
    ("started_at", "ended_at", "seconds"),
    [
        ("2026-11-30T21:00:00+00:00", "2026-11-30T21:00:00+00:00", 0),
        ("2026-11-30T21:00:05+00:00", "2026-11-30T21:00:00+00:00", 0),  # a clock that went back
        ("2026-11-30T20:59:59+00:00", "2026-11-30T21:00:00+00:00", 1),
        ("not a date", "2026-11-30T21:00:00+00:00", None),
        (None, "2026-11-30T21:00:00+00:00", None),
    ],
)
def test_the_duration_never_goes_below_zero(
    started_at: str | None, ended_at: str, seconds: int | None
) -> None:
    summary = summarise(_record(ended_at=ended_at), started_at=started_at, identities={})
    assert summary.duration_seconds == seconds


def test_a_game_without_an_end_time_has_no_month_nor_duration() -> None:
    summary = summarise(_record(ended_at=None), started_at="2026-11-30T20:00:00+00:00", identities={})
    assert (summary.ended_at, summary.month, summary.duration_seconds) == (None, None, None)
