"""The event service on a real SQLite file with the real Hydra service: join in groups, seat,
play real Hydra games, late joiners, no-shows, the leaderboard and one-transaction awards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.domain.hydra_events import EventError
from bot.services.hydra import HydraService
from bot.services.hydra_events import HydraEventService
from bot.storage.db import Database
from bot.storage.hydra_events import CANCELLED, DROPPED, FINISHED, JOINED, RUNNING, SEATED, WAITING

WIN_SCRIPT = ("attack 1 3", "end", "choose counter", "choose pass", "attack 2 3", "end")  # seed 5, 2 heads
NOW = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


@pytest.fixture
async def events(db: Database) -> HydraEventService:
    return HydraEventService(db, HydraService(db), seed_for=lambda event, table: 5)


async def new_event(events: HydraEventService, table_size: int = 4, heads: int = 2):
    return await events.create(
        guild_id=1,
        channel_id=2,
        user_id=9,
        name="  Hydra   night ",
        start="in 1h",
        heads=heads,
        table_size=table_size,
        language="en",
        now=NOW,
    )


async def begin(events: HydraEventService, event_id: int):
    await events.plan(event_id)
    opened = await events.open_tables(event_id)
    for table, _hydra_table in opened:
        await events.attach_thread(event_id, table.table_no, 1000 + table.table_no)
    await events.mark_running(event_id)
    return opened


async def play(events: HydraEventService, game_id: int, user_id: int, lines=WIN_SCRIPT):
    result = None
    for line in lines:
        result = await events.hydra.act(game_id, user_id, line)
    return result


async def test_create_checks_options_and_stores_nothing_when_wrong(events: HydraEventService) -> None:
    event = await new_event(events)
    assert event.name == "Hydra night" and event.starts_at == "2026-11-29T19:00:00+00:00"
    for bad, key in (
        ({"table_size": 5}, "table_size_range"),
        ({"heads": 0}, "heads_range"),
        ({"start": "yesterday"}, "bad_start"),
        ({"name": "   "}, "no_name"),
    ):
        options = {"name": "x", "start": "in 1h", "heads": 2, "table_size": 4} | bad
        with pytest.raises(EventError, match=rf"^hydra_events\.error\.{key}\b"):
            await events.create(guild_id=1, channel_id=2, user_id=9, language="en", now=NOW, **options)
    assert await events.repo.events_with_status(("open",)) == [event]


async def test_groups_sit_together_at_balanced_tables_each_a_real_hydra_game(
    events: HydraEventService,
) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo"), (3, "Cy")])
    for user in (4, 5, 6):
        await events.join(event.event_id, [(user, f"u{user}")])
    with pytest.raises(EventError, match="already_joined"):
        await events.join(event.event_id, [(7, "Di"), (2, "Bo")])
    assert 7 not in {e.user_id for e in await events.repo.entrants(event.event_id)}  # the group: all or none
    assert {e.state for e in await events.repo.entrants(event.event_id)} == {JOINED}
    with pytest.raises(EventError, match="group_too_big"):
        await events.join(event.event_id, [(u, "x") for u in range(10, 15)])
    opened = await begin(events, event.event_id)
    seats = [sorted(s.user_id for s in hydra_table.seats) for _t, hydra_table in opened]
    assert sorted(map(len, seats)) == [3, 3]
    assert [1, 2, 3] in seats
    for _t, hydra_table in opened:
        assert hydra_table.row.status == "playing" and hydra_table.row.heads == 2
    assert (await events.event(event.event_id)).status == RUNNING


async def test_a_restart_mid_seating_opens_only_the_missing_tables(db: Database) -> None:
    events = HydraEventService(db, HydraService(db))
    event = await new_event(events)
    for user in range(1, 9):
        await events.join(event.event_id, [(user, f"u{user}")])
    await events.plan(event.event_id)
    first = await events.open_tables(event.event_id)
    await events.attach_thread(event.event_id, first[0][0].table_no, 77)
    # a new process: same database, fresh services
    again = HydraEventService(db, HydraService(db))
    rest = await again.open_tables(event.event_id)
    assert [t.table_no for t, _ in rest] == [2]
    assert len(await again.repo.tables(event.event_id)) == 2
    assert len(await again.hydra.repo.games_with_status(("playing",))) == 2


async def test_late_joiners_sit_while_a_first_turn_lasts_then_wait(events: HydraEventService) -> None:
    event = await new_event(events)
    for user in (1, 2):
        await events.join(event.event_id, [(user, f"u{user}")])
    ((table, hydra_table),) = await begin(events, event.event_id)
    await events.hydra.act(table.game_id, 1, "attack 1 1")  # still the first turn
    late = await events.join(event.event_id, [(3, "Late")])
    assert late.state == SEATED and late.table_no == 1
    assert [s.user_id for s in late.table.seats] == [1, 2, 3]
    assert late.table.game.players[2].name == "Late" and late.table.game.heads_severed == 0
    await events.hydra.act(table.game_id, 3, "end")  # the first turn is over
    later = await events.join(event.event_id, [(4, "Later")])
    assert later.state == WAITING
    with pytest.raises(EventError, match="seated_concede"):
        await events.leave(event.event_id, 3)
    await events.leave(event.event_id, 4)
    assert 4 not in {e.user_id for e in await events.repo.entrants(event.event_id)}


async def test_no_shows_are_dropped_and_the_table_goes_on(events: HydraEventService) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo"), (3, "Cy")])
    ((table, _),) = await begin(events, event.event_id)
    await events.hydra.act(table.game_id, 1, "attack 1 1")
    await events.check_in(event.event_id, 2)
    dropped = await events.drop_no_shows(event.event_id, 1, now=after_grace(event))
    assert dropped.user_ids == [3] and dropped.next_due is None
    game = (await events.hydra.load(table.game_id)).game
    assert [p.lost for p in game.players] == [False, False, True] and not game.over
    assert {e.user_id: e.state for e in await events.repo.entrants(event.event_id)}[3] == DROPPED
    assert (
        await events.drop_no_shows(event.event_id, 1, now=after_grace(event))
    ).user_ids == []  # checked once


async def test_a_late_joiner_is_judged_from_their_own_seat(events: HydraEventService) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    ((table, _),) = await begin(events, event.event_id)
    await events.check_in(event.event_id, 1)
    await events.check_in(event.event_id, 2)
    late = await events.join(event.event_id, [(3, "Cy")])
    seated_at = datetime.fromisoformat(
        next(e for e in await events.repo.entrants(event.event_id) if e.user_id == 3).seated_at or ""
    )
    early = await events.drop_no_shows(
        event.event_id, 1, now=seated_at + timedelta(minutes=event.grace_minutes) - timedelta(seconds=1)
    )
    assert late.state == SEATED and early.user_ids == []
    assert early.next_due == seated_at + timedelta(minutes=event.grace_minutes)  # look again then
    due = await events.drop_no_shows(event.event_id, 1, now=early.next_due)
    assert due.user_ids == [3] and due.next_due is None


def after_grace(event) -> datetime:
    """A moment past the grace period of every player seated so far (the grace timer's moment)."""
    return datetime.now(UTC) + timedelta(minutes=event.grace_minutes, seconds=1)


async def test_leaderboard_credits_heads_and_finish_awards_winners_once(events: HydraEventService) -> None:
    event = await new_event(events, table_size=2)
    for user in (1, 2, 3, 4):
        await events.join(event.event_id, [(user, f"u{user}")])
    opened = await begin(events, event.event_id)
    won_table, lost_table = opened[0][0], opened[1][0]
    winner, loser = opened[0][1].seats[0].user_id, opened[1][1].seats[0].user_id
    await play(events, won_table.game_id, winner)
    status = await events.status(event.event_id)
    assert (status.board.won, status.board.running) == (1, 1)
    assert status.board.fastest_win.table_no == won_table.table_no and status.board.fastest_win.turns == 3
    assert {p.user_id: p.severed for p in status.board.players}[winner] == 2
    assert not await events.all_tables_over(event.event_id)
    await events.hydra.concede(lost_table.game_id, loser)
    other = opened[1][1].seats[1].user_id
    await events.hydra.concede(lost_table.game_id, other)
    assert await events.all_tables_over(event.event_id)

    finished = await events.finish(event.event_id, role_id=42)
    assert finished is not None and finished.event.status == FINISHED
    awards = await events.repo.awards(event.event_id)
    assert sorted(a.user_id for a in awards) == sorted(s.user_id for s in opened[0][1].seats)
    assert all(a.role_id == 42 for a in awards)
    for seat in opened[0][1].seats:  # H13: The Slayer, recorded by the Hydra feature's profiles
        assert (await events.hydra.profile(seat.user_id)).has_slayer
    assert not (await events.hydra.profile(loser)).has_slayer
    assert await events.finish(event.event_id, role_id=42) is None  # never twice
    assert len(await events.repo.awards(event.event_id)) == 2


async def test_cancel_awards_nothing_and_refuses_joins(events: HydraEventService) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    ((table, hydra_table),) = await begin(events, event.event_id)
    await play(events, table.game_id, 1)
    assert await events.cancel(event.event_id)
    assert (await events.event(event.event_id)).status == CANCELLED
    assert await events.finish(event.event_id, role_id=None) is None
    assert await events.repo.awards(event.event_id) == []
    with pytest.raises(EventError, match="not_open"):
        await events.join(event.event_id, [(3, "Cy")])
    assert not await events.cancel(event.event_id)


async def test_begin_needs_someone_and_happens_once(events: HydraEventService) -> None:
    event = await new_event(events)
    with pytest.raises(EventError, match="nobody_joined"):
        await events.plan(event.event_id)
    await events.join(event.event_id, [(1, "Solo")])
    seating = await events.plan(event.event_id)
    assert seating.tables == ((1,),)
    with pytest.raises(EventError, match="already_begun"):
        await events.plan(event.event_id)
    entrants = await events.repo.entrants(event.event_id)
    assert [(e.state, e.table_no) for e in entrants] == [(SEATED, 1)]


async def test_the_wait_list_gets_new_tables_on_request(events: HydraEventService) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    ((table, _),) = await begin(events, event.event_id)
    await events.hydra.act(table.game_id, 1, "end")
    for user in (3, 4, 5):
        assert (await events.join(event.event_id, [(user, f"u{user}")])).state == WAITING
    seating = await events.seat_waiting(event.event_id)
    assert sorted(map(len, seating.tables)) == [3]
    opened = await events.open_tables(event.event_id)
    assert [(t.table_no, sorted(s.user_id for s in ht.seats)) for t, ht in opened] == [(2, [3, 4, 5])]
    with pytest.raises(EventError, match="nobody_waiting"):
        await events.seat_waiting(event.event_id)
