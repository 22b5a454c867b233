"""Hydra event storage on a real SQLite file: whole groups, seating plans, one-transaction awards."""

from __future__ import annotations

import pytest

from bot.storage.db import Database
from bot.storage.hydra_events import (
    CANCELLED,
    FINISHED,
    JOINED,
    RUNNING,
    SEATED,
    SEATING,
    WAITING,
    AlreadyEntered,
    HydraEventRepository,
)


async def new_event(repo: HydraEventRepository) -> int:
    return await repo.create(
        guild_id=1,
        channel_id=2,
        name="Hydra night",
        starts_at="2030-01-01T19:00:00+00:00",
        heads=3,
        table_size=4,
        grace_minutes=10,
        language="en",
        created_by=9,
    )


async def test_a_group_enters_whole_or_not_at_all(db: Database) -> None:
    repo = HydraEventRepository(db)
    event_id = await new_event(repo)
    group = await repo.add_group(event_id, [(10, "Ann"), (11, "Bo")], state=JOINED)
    solo = await repo.add_group(event_id, [(12, "Cy")], state=JOINED)
    with pytest.raises(AlreadyEntered) as refused:
        await repo.add_group(event_id, [(13, "Di"), (11, "Bo")], state=JOINED)
    assert refused.value.args[0] == [11]
    entrants = await repo.entrants(event_id)
    assert [(e.user_id, e.group_id) for e in entrants] == [(10, group), (11, group), (12, solo)]
    assert group != solo


async def test_seating_plan_is_written_for_everyone_and_survives_reopening(db_url) -> None:
    db = await Database.open(db_url)
    repo = HydraEventRepository(db)
    event_id = await new_event(repo)
    for user in range(10, 15):
        await repo.add_group(event_id, [(user, f"u{user}")], state=JOINED)
    await repo.save_seating(event_id, [(10, 11, 12), (13,)], waiting=[14])
    await repo.add_table(event_id, 1, game_id=500)
    await repo.set_table(event_id, 1, thread_id=777)
    await db.close()

    repo = HydraEventRepository(await Database.open(db_url))
    event = await repo.event(event_id)
    assert event is not None and event.status == SEATING and event.began_at
    states = {e.user_id: (e.state, e.table_no) for e in await repo.entrants(event_id)}
    assert states == {10: (SEATED, 1), 11: (SEATED, 1), 12: (SEATED, 1), 13: (SEATED, 2), 14: (WAITING, None)}
    tables = await repo.tables(event_id)
    assert [(t.table_no, t.game_id, t.thread_id) for t in tables] == [(1, 500, 777)]
    assert await repo.table_of_game(500) == (event_id, 1)
    assert await repo.table_of_game(501) is None
    await repo.db.close()


async def test_awards_are_written_once_with_the_finish_and_never_after_cancel(db: Database) -> None:
    repo = HydraEventRepository(db)
    event_id = await new_event(repo)
    assert not await repo.finish(event_id, [(10, 1)], role_id=None)  # not running yet: nothing written
    await repo.update(event_id, status=RUNNING)
    assert await repo.finish(event_id, [(10, 1), (11, 1)], role_id=55)
    assert not await repo.finish(event_id, [(12, 2)], role_id=55)  # second finish: refused
    assert not await repo.cancel(event_id)  # finished events stay finished
    event = await repo.event(event_id)
    assert event is not None and event.status == FINISHED and event.ended_at
    assert [(a.user_id, a.role_id, a.role_granted) for a in await repo.awards(event_id)] == [
        (10, 55, False),
        (11, 55, False),
    ]
    pending = await repo.roles_to_grant()
    assert [(e, a.user_id) for e, _guild, a in pending] == [(event_id, 10), (event_id, 11)]
    await repo.role_granted(event_id, 10)
    assert [a.user_id for _e, _g, a in await repo.roles_to_grant()] == [11]

    other = await new_event(repo)
    await repo.update(other, status=RUNNING)
    assert await repo.cancel(other)
    assert not await repo.finish(other, [(20, 1)], role_id=None)
    assert (await repo.event(other)).status == CANCELLED  # type: ignore[union-attr]
    assert await repo.awards(other) == []


async def test_update_refuses_unknown_columns(db: Database) -> None:
    repo = HydraEventRepository(db)
    event_id = await new_event(repo)
    with pytest.raises(ValueError, match=r"cannot change \['heads'\]"):
        await repo.update(event_id, heads=9)
