"""What two callers of the event service at once must not do twice: open a table's game (the start's timer
and the organiser's Start button can meet) or enter one member (a double press). The event's lock makes the
second caller see what the first stored; without it both create the table's game and one is left over."""

from __future__ import annotations

import asyncio

from bot.services.hydra import HydraService
from bot.services.hydra_events import HydraEventService
from tests.hydra_events.test_service import new_event


async def test_two_openings_of_the_tables_at_once_make_one_game_per_table(db) -> None:
    events = HydraEventService(db, HydraService(db), seed_for=lambda event, table: 5)
    event = await new_event(events)
    for user in range(1, 9):
        await events.join(event.event_id, [(user, f"u{user}")])
    await events.plan(event.event_id)
    first, second = await asyncio.gather(
        events.open_tables(event.event_id), events.open_tables(event.event_id)
    )
    tables = await events.repo.tables(event.event_id)
    assert [t.table_no for t in tables] == [1, 2]
    assert len(await events.hydra.repo.games_with_status(("playing",))) == 2  # no game left without a table
    assert sorted(t.table_no for t, _ in first) == [1, 2] == sorted(t.table_no for t, _ in second)


async def test_two_joins_of_one_member_at_once_enter_them_once(db) -> None:
    events = HydraEventService(db, HydraService(db), seed_for=lambda event, table: 5)
    event = await new_event(events)
    outcomes = await asyncio.gather(
        events.join(event.event_id, [(1, "u1")]),
        events.join(event.event_id, [(1, "u1")]),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert [e.user_id for e in await events.repo.entrants(event.event_id)] == [1]
