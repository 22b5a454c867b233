"""The cogs' keyed timers (cogs/_timers.py) on a FakeClock: one pending timer per key (arming again replaces
it, so a question's default is never given twice), a timer re-arming its own key from inside its job is
not cut off, a failed job is logged and forgotten, and a deadline re-armed after the clock jumped back
waits its whole length, not a day."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest

from bot.clock import FakeClock
from cogs._timers import TableTimers, Timers, sane_due


def recorder(fired: list[str], name: str):  # noqa: ANN201 - a job
    async def job() -> None:
        fired.append(name)

    return job


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_arming_a_key_again_replaces_its_timer() -> None:
    clock = FakeClock()
    timers: Timers[int] = Timers(clock, "hydra")
    fired: list[str] = []
    timers.after(1, 10, recorder(fired, "first"))
    timers.after(1, 30, recorder(fired, "second"))
    timers.after(2, 20, recorder(fired, "other key"))
    await settle()
    await clock.advance(seconds=10)
    await settle()
    assert fired == [] and timers.pending(1) and timers.pending(2)
    await clock.advance(seconds=10)
    await settle()
    assert fired == ["other key"] and not timers.pending(2) and timers.task(2) is None
    await clock.advance(seconds=10)
    await settle()
    assert fired == ["other key", "second"] and not timers.pending(1)


async def test_a_due_time_already_passed_fires_at_once() -> None:
    clock = FakeClock()
    timers: Timers[str] = Timers(clock, "votes")
    fired: list[str] = []
    timers.at("vote", clock.now() - timedelta(minutes=5), recorder(fired, "closed"))
    await settle()
    assert fired == ["closed"]


async def test_cancelling_by_key_by_choice_and_all() -> None:
    clock = FakeClock()
    timers: Timers[tuple[str, int]] = Timers(clock, "events")
    fired: list[str] = []
    for key in [("start", 1), ("start", 2), ("grace", 1), ("grace", 2)]:
        timers.after(key, 5, recorder(fired, f"{key[0]}-{key[1]}"))
    timers.cancel(("start", 2))
    timers.cancel(("no such", 9))  # nothing armed: nothing happens
    timers.cancel_where(lambda key: key[1] == 1)  # event 1 ended
    await settle()
    await clock.advance(seconds=5)
    await settle()
    assert fired == ["grace-2"]
    timers.after(("start", 3), 5, recorder(fired, "start-3"))
    timers.cancel_all()
    await clock.advance(seconds=5)
    await settle()
    assert fired == ["grace-2"] and not timers.pending(("start", 3))


async def test_a_job_that_re_arms_its_own_key_finishes_and_its_new_timer_stays() -> None:
    clock = FakeClock()
    timers: Timers[int] = Timers(clock, "hydra")
    fired: list[str] = []

    async def question_default() -> None:
        timers.after(7, 60, recorder(fired, "next question's default"))  # the next question's timer
        await asyncio.sleep(0)
        fired.append("shown")  # cut off here if arming had cancelled the running job

    timers.after(7, 60, question_default)
    await settle()
    await clock.advance(seconds=60)
    await settle()
    assert fired == ["shown"] and timers.pending(7), "the job's own re-arm was lost or cut it off"
    await clock.advance(seconds=60)
    await settle()
    assert fired == ["shown", "next question's default"]


async def test_a_failed_job_is_logged_with_its_key_and_the_key_is_free_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    timers: Timers[int] = Timers(clock, "tournament")

    async def broken() -> None:
        raise RuntimeError("the vote message is gone")

    timers.after(4, 1, broken)
    await settle()
    with caplog.at_level(logging.ERROR, logger="cogs._timers"):
        await clock.advance(seconds=1)
        await settle()
    [failed] = caplog.records
    assert failed.getMessage() == "tournament timer 4 failed" and failed.exc_info is not None
    assert not timers.pending(4) and timers.task(4) is None


async def test_spawned_work_is_kept_replaced_and_cancelled_like_a_timer() -> None:
    clock = FakeClock()
    timers: Timers[str] = Timers(clock, "leaderboard")
    looks: list[str] = []

    async def leaderboard(name: str) -> None:
        looks.append(name)
        await clock.sleep(3600)

    timers.spawn("board", leaderboard("old"))
    await settle()
    first = timers.task("board")
    assert looks == ["old"] and timers.pending("board") and first is not None
    timers.spawn("board", leaderboard("new"))
    await settle()
    assert looks == ["old", "new"] and first.cancelled() and timers.task("board") is not first
    assert timers.task("board").get_name() == "leaderboard-work-board"  # type: ignore[union-attr]
    timers.cancel("board")
    await settle()
    assert not timers.pending("board")

    async def once() -> None:
        looks.append("once")

    timers.spawn("resume", once())
    await settle()
    assert looks[-1] == "once" and timers.task("resume") is None, "finished work is forgotten"


def test_a_deadline_is_kept_unless_the_clock_jumped_back(caplog: pytest.LogCaptureFixture) -> None:
    armed = FakeClock().now()
    due = armed + timedelta(minutes=5)
    with caplog.at_level(logging.WARNING, logger="cogs._timers"):
        assert sane_due(due, armed, armed, "vote") == due  # just armed: the whole wait is ahead
        assert sane_due(due, armed, armed + timedelta(minutes=4), "vote") == due
        assert sane_due(due, armed, armed + timedelta(minutes=9), "vote") == due  # overdue: fires at once
        assert sane_due(due, due + timedelta(minutes=1), armed, "vote") == due  # armed after due: kept
        assert caplog.records == []
        behind = armed - timedelta(days=1)  # a restart with the clock a day behind
        assert sane_due(due, armed, behind, "vote of game 3") == behind + timedelta(minutes=5)
        assert sane_due(due, armed, armed - timedelta(seconds=1), "vote") == due - timedelta(seconds=1)
    first, second = (r.getMessage() for r in caplog.records)
    assert first == (
        f"vote of game 3: the clock reads {behind.isoformat(timespec='seconds')}, 1 day, 0:00:00 before the"
        f" deadline was set ({armed.isoformat(timespec='seconds')}); the clock jumped back? waiting the"
        f" deadline's full length (0:05:00) from now instead of until {due.isoformat(timespec='seconds')}"
    )
    assert second.startswith("vote: ")
    # a deadline set to its own moment (no wait at all) fires at once after a jump back, not a day later
    assert sane_due(due, due, due - timedelta(hours=1), "vote") == due - timedelta(hours=1)


async def test_a_stored_deadline_re_armed_after_a_jump_back_fires_after_its_length(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    armed = clock.now()
    clock.jump(days=-1)
    timers: Timers[int] = Timers(clock, "votes")
    fired: list[str] = []
    with caplog.at_level(logging.WARNING, logger="cogs._timers"):
        timers.at(9, armed + timedelta(minutes=1), recorder(fired, "closed"), armed=armed)
    [said] = [r.getMessage() for r in caplog.records]
    assert said.startswith("votes timer 9: the clock reads ")
    await settle()
    await clock.advance(seconds=59)
    await settle()
    assert fired == []
    await clock.advance(seconds=1)
    await settle()
    assert fired == ["closed"]


class Table:
    """What ``TableTimers`` reads of a stored table: its game id and its actions so far."""

    def __init__(self, game_id: int, actions: int) -> None:
        self.game_id, self.actions = game_id, [object()] * actions


class Tables(TableTimers):
    """A cog's turn timers: each open table's default answer 30 s after it was armed."""

    def __init__(self, clock: FakeClock, open_tables: list[Table]) -> None:
        self.timers = Timers(clock, "hydra")
        self.armed_at = {}
        self.open = open_tables
        self.service = self  # type: ignore[assignment]
        self.defaults: list[int] = []

    async def open_tables(self) -> list[Table]:
        return self.open

    def arm(self, table: Table) -> None:
        self.armed_at[table.game_id] = len(table.actions)

        async def default() -> None:
            self.defaults.append(table.game_id)

        self.arm_default(table.game_id, 30, default)


async def test_a_poke_keeps_a_timer_armed_for_the_current_action_and_a_take_over_re_arms_all() -> None:
    """Re-arming a question that is still waiting restarts its wait: a poke (another process acted at
    another table) must leave it running, and re-arm only a table whose action count moved on."""
    clock = FakeClock()
    waiting, moved_on = Table(1, 3), Table(2, 5)
    tables = Tables(clock, [waiting, moved_on])
    await tables.arm_open_tables()  # this process took the lease over
    await settle()
    kept = tables.timers.task(1)
    await clock.advance(seconds=20)
    moved_on.actions.append(object())  # another process answered at table 2
    await tables.arm_open_tables(taking_over=False)
    await settle()
    assert tables.timers.task(1) is kept and tables.armed_at == {1: 3, 2: 6}
    await clock.advance(seconds=10)
    await settle()
    assert tables.defaults == [1], "table 1 waited its 30 s; table 2's wait started again"
    await tables.arm_open_tables(taking_over=True)
    await settle()
    assert tables.timers.task(2) is not None and tables.timers.pending(1)
    await clock.advance(seconds=30)
    await settle()
    assert sorted(tables.defaults) == [1, 1, 2]
