"""Seating, late joiners, no-shows, severance credit and the leaderboard (H10)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import count

import pytest

from bot.domain.hydra import GameSetup, PlayerSetup
from bot.domain.hydra_events import (
    LOST,
    ONGOING,
    WON,
    EventError,
    LoggedAction,
    OpenTable,
    PlayerLine,
    SeveranceTally,
    TableLine,
    build_leaderboard,
    check_event_options,
    no_shows,
    parse_start,
    place_late_group,
    seat_players,
)


def random_groups(rng: random.Random, players: int, table_size: int) -> list[tuple[int, ...]]:
    ids = count(1)
    groups: list[tuple[int, ...]] = []
    left = players
    while left:
        size = min(left, rng.choice([1, 1, 1, 2, 2, 3, 4][: 3 + table_size]))
        size = min(size, table_size)
        groups.append(tuple(next(ids) for _ in range(size)))
        left -= size
    return groups


def together_possible(sizes: list[int], table_size: int) -> bool:
    """Brute force: can the groups be seated intact at tables of 2..table_size?"""
    sizes = sorted(sizes, reverse=True)

    def place(i: int, tables: list[int]) -> bool:
        if i == len(sizes):
            return all(t >= 2 for t in tables)
        tried = set()
        for t in range(len(tables)):
            if tables[t] + sizes[i] <= table_size and tables[t] not in tried:
                tried.add(tables[t])
                tables[t] += sizes[i]
                if place(i + 1, tables):
                    return True
                tables[t] -= sizes[i]
        tables.append(sizes[i])
        ok = place(i + 1, tables)
        tables.pop()
        return ok

    return place(0, [])


def check_seating(groups: list[tuple[int, ...]], table_size: int) -> None:
    seating = seat_players(groups, table_size)
    everyone = [u for g in groups for u in g]
    seated = [u for table in seating.tables for u in table]
    assert sorted(seated + list(seating.waiting)) == sorted(everyone), "everyone seated or waiting, once"
    assert all(len(table) <= table_size <= 4 for table in seating.tables), (
        "H10: at most table_size, never > 4"
    )
    if len(everyone) == 1:
        assert seating.tables == ((everyone[0],),)
        return
    assert all(len(table) >= 2 for table in seating.tables), "no table below two players"
    if table_size == 2 and len(everyone) % 2:
        assert len(seating.waiting) == 1
    else:
        assert seating.waiting == ()
    if together_possible([len(g) for g in groups], table_size) and not seating.waiting:
        assert seating.split_groups == ()
    for group in groups:
        if group not in seating.split_groups and not set(group) & set(seating.waiting):
            assert any(set(group) <= set(table) for table in seating.tables), f"group {group} sits together"


@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_seating_properties_on_random_joins(table_size: int, full_run: bool) -> None:
    rng = random.Random(table_size)
    for _ in range(3000 if full_run else 300):
        check_seating(random_groups(rng, rng.randint(1, 13), table_size), table_size)


def test_solo_players_are_balanced_at_the_fewest_tables() -> None:
    for players in range(2, 41):
        seating = seat_players([(u,) for u in range(players)], 4)
        sizes = [len(t) for t in seating.tables]
        assert len(sizes) == -(-players // 4)
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2


def test_five_players_sit_three_and_two_not_four_and_one() -> None:
    assert sorted(len(t) for t in seat_players([(1,), (2,), (3,), (4,), (5,)], 4).tables) == [2, 3]


def test_one_player_alone_is_allowed_and_nobody_is_an_empty_event() -> None:
    assert seat_players([(7,)], 4).tables == ((7,),)
    assert seat_players([], 4).tables == ()


def test_a_group_that_cannot_stay_whole_is_split_rather_than_leaving_someone_alone() -> None:
    # 4 + 4 + 1 at tables of 4: keeping both groups whole would leave player 9 alone.
    seating = seat_players([(1, 2, 3, 4), (5, 6, 7, 8), (9,)], 4)
    assert all(len(t) >= 2 for t in seating.tables)
    assert len(seating.split_groups) == 1


def test_table_size_two_with_odd_players_waitlists_the_last_solo_joiner() -> None:
    seating = seat_players([(1,), (2, 3), (4,), (5,)], 2)
    assert seating.waiting == (5,)
    assert (2, 3) in seating.tables


def test_event_options_are_checked() -> None:
    check_event_options(3, 4)
    with pytest.raises(EventError, match="table_size_range"):
        check_event_options(3, 5)
    with pytest.raises(EventError, match="table_size_range"):
        check_event_options(3, 1)
    with pytest.raises(EventError, match="heads_range"):
        check_event_options(0, 4)


def test_late_group_goes_to_the_emptiest_table_still_in_its_first_turn() -> None:
    tables = [OpenTable(1, 2, False), OpenTable(2, 3, True), OpenTable(3, 2, True)]
    assert place_late_group(tables, 1, 4) == 3
    assert place_late_group(tables, 2, 4) == 3
    assert place_late_group(tables, 3, 4) is None  # no first-turn table has room for three
    assert place_late_group([OpenTable(1, 2, False)], 1, 4) is None  # past the first turn: wait list
    assert place_late_group([OpenTable(1, 2, True)], 1, 2) is None  # table_size respected


def test_no_shows_are_the_seated_who_never_acted() -> None:
    assert no_shows([1, 2, 3], [2]) == [1, 3]


def test_severance_tally_credits_the_acting_player_and_survives_undo() -> None:
    setup = GameSetup(heads=2, players=(PlayerSetup("A"), PlayerSetup("B")), seed=3)
    tally = SeveranceTally(setup)
    log = [LoggedAction(1, "destroy 1", 10), LoggedAction(2, "damage 2 9", 20)]
    credited = tally.feed(log)
    assert sum(credited.values()) == tally.game.heads_severed >= 2
    assert credited[10] >= 1 and credited[20] >= 1
    # an undo removes action 2: the log no longer extends what was replayed -> rebuilt
    credited = tally.feed(log[:1])
    assert 20 not in credited and credited[10] == tally.game.heads_severed


def player(user: int, table: int, severed: int, standing: bool = True) -> PlayerLine:
    return PlayerLine(user, f"u{user}", table, severed, standing)


def test_leaderboard_counts_wins_losses_fastest_and_standing() -> None:
    tables = [
        TableLine(1, WON, 9, 6, 0, (player(1, 1, 4), player(2, 1, 2, standing=False))),
        TableLine(2, WON, 5, 3, 0, (player(3, 2, 3),)),
        TableLine(3, LOST, 7, 1, 3, (player(4, 3, 1, False), player(5, 3, 0, False))),
        TableLine(4, ONGOING, 3, 2, 2, (player(6, 4, 2), player(7, 4, 0, False))),
    ]
    board = build_leaderboard(tables)
    assert (board.won, board.lost, board.running, board.standing) == (2, 1, 1, 1)
    assert board.fastest_win is not None and board.fastest_win.table_no == 2
    assert [line.table_no for line in board.tables] == [2, 1, 4, 3]
    assert [p.user_id for p in board.players[:4]] == [1, 3, 6, 2]  # ties: standing players first
    assert {p.user_id for p in board.winners} == {1, 3}  # player 2 fell at a won table
    assert not board.finished
    assert build_leaderboard(tables[:3]).finished


NOW = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("now", NOW),
        ("in 30m", NOW + timedelta(minutes=30)),
        ("2h", NOW + timedelta(hours=2)),
        ("1h30m", NOW + timedelta(minutes=90)),
        ("2026-12-05 19:00", datetime(2026, 12, 5, 19, 0, tzinfo=UTC)),
        ("2026-12-05T19:00+09:00", datetime(2026, 12, 5, 10, 0, tzinfo=UTC)),
        ("<t:1796497200:F>", datetime.fromtimestamp(1796497200, tz=UTC)),
    ],
)
def test_start_times_an_organiser_may_type(text: str, expected: datetime) -> None:
    assert parse_start(text, NOW) == expected


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("tomorrow-ish", "bad_start"),
        ("2026-11-01 10:00", "start_in_past"),
        ("2030-01-01", "start_too_late"),
        ("", "bad_start"),
    ],
)
def test_bad_start_times_are_refused_with_a_reason(text: str, key: str) -> None:
    with pytest.raises(EventError, match=key):
        parse_start(text, NOW)
