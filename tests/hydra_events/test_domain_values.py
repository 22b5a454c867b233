"""Exact keys, values and boundaries of the event options, start times and seating (the first
mutation run of ``bot/domain/hydra_events.py`` left these unpinned; H2, H10)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.domain.hydra.engine import MAX_HEADS, MIN_HEADS
from bot.domain.hydra_events import (
    LATEST_START,
    EventError,
    check_event_options,
    parse_start,
    seat_players,
)

NOW = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def refusal(call, *args) -> tuple[str, dict]:
    with pytest.raises(EventError) as caught:
        call(*args)
    return caught.value.key, dict(caught.value.values)


# -- options: each deck's own ranges ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "lowest", "highest", "seats"),
    [
        ("hydra", MIN_HEADS, MAX_HEADS, (2, 4)),
        ("god", 1, 3, (1, 4)),
        ("horde", 2, 4, (1, 1)),
    ],
)
def test_every_deck_takes_exactly_its_own_difficulties_and_table_sizes(deck, lowest, highest, seats) -> None:
    key = "hydra_events.error.heads_range" if deck == "hydra" else "hydra_events.error.difficulty_range"
    check_event_options(lowest, seats[0], deck)
    check_event_options(highest, seats[1], deck)
    assert refusal(check_event_options, lowest - 1, seats[0], deck) == (key, {"min": lowest, "max": highest})
    assert refusal(check_event_options, highest + 1, seats[0], deck) == (key, {"min": lowest, "max": highest})
    size_key = "hydra_events.error.table_size_range"
    assert refusal(check_event_options, lowest, seats[0] - 1, deck) == (
        size_key,
        {"min": seats[0], "max": seats[1]},
    )
    assert refusal(check_event_options, lowest, seats[1] + 1, deck) == (
        size_key,
        {"min": seats[0], "max": seats[1]},
    )


def test_an_unknown_deck_is_named_shortened_with_the_decks_there_are() -> None:
    assert refusal(check_event_options, 3, 4, "x" * 30) == (
        "hydra_events.error.unknown_deck",
        {"deck": "x" * 20, "decks": ("hydra", "god", "horde")},
    )


# -- start times: boundaries and the values of each refusal ------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", NOW),
        ("  NOW  ", NOW),
        ("in 2 hours 5 minutes", NOW + timedelta(hours=2, minutes=5)),
        ("IN 45 MIN", NOW + timedelta(minutes=45)),
        ("3h", NOW + timedelta(hours=3)),
        (str(int(NOW.timestamp()) + 60), NOW + timedelta(minutes=1)),
        ("<t:1796497200>", datetime.fromtimestamp(1796497200, tz=UTC)),
        ("2026-11-29 17:59", NOW - timedelta(minutes=1)),  # a minute late still counts as now
        ((NOW + LATEST_START).isoformat(), NOW + LATEST_START),  # the latest start allowed
    ],
)
def test_start_times_at_and_inside_the_limits(text: str, expected: datetime) -> None:
    start = parse_start(text, NOW)
    assert start == expected and start.tzinfo == UTC


def test_an_iso_time_with_an_offset_comes_back_in_utc() -> None:
    start = parse_start("2026-12-05 19:00+09:00", NOW)
    assert (start.hour, start.utcoffset()) == (10, timedelta(0))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("2026-11-29 17:58:59", "start_in_past"),
        ((NOW + LATEST_START + timedelta(seconds=1)).isoformat(), "start_too_late"),
        ("99999999999999999999", "start_too_late"),
        ("in 99999999999h", "start_too_late"),
        ("²", "bad_start"),
        ("in h", "bad_start"),
        ("<t:abc>", "bad_start"),
    ],
)
def test_start_times_outside_the_limits_are_refused_naming_the_text(text: str, key: str) -> None:
    assert refusal(parse_start, text, NOW) == (f"hydra_events.error.{key}", {"text": text.strip()[:50]})


def test_a_long_start_text_is_quoted_shortened() -> None:
    text = "next friday after the store closes, probably around eight or so"
    assert refusal(parse_start, text, NOW) == ("hydra_events.error.bad_start", {"text": text[:50]})


# -- seating: exact tables --------------------------------------------------------------------------


def test_tables_of_one_seat_everyone_alone_and_name_the_split_groups() -> None:
    seating = seat_players([(1, 2), (), (3,), (4, 5, 6)], 1)
    assert seating.tables == ((1,), (2,), (3,), (4,), (5,), (6,))
    assert seating.split_groups == ((1, 2), (4, 5, 6)) and seating.waiting == ()


def test_a_group_larger_than_a_table_is_split_into_table_sized_chunks() -> None:
    seating = seat_players([(1, 2, 3, 4, 5, 6)], 4)
    assert seating.split_groups == ((1, 2, 3, 4, 5, 6),)
    assert sorted(seating.tables) == [(1, 2, 3, 4), (5, 6)] and seating.waiting == ()


def test_nobody_to_seat_gives_no_tables() -> None:
    assert seat_players([(), ()], 4) == seat_players([], 4)
    assert seat_players([], 4).tables == () and seat_players([], 4).waiting == ()


def test_a_table_size_over_four_seats_four_at_most() -> None:
    seating = seat_players([(n,) for n in range(1, 11)], 9)
    assert max(len(table) for table in seating.tables) <= 4
    assert sorted(user for table in seating.tables for user in table) + list(seating.waiting) == list(
        range(1, 11)
    )
