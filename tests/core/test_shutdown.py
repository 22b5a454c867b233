"""Shutdown lets running interaction handlers finish (bot/shutdown.py): a handler between storing its
change and answering gets to answer before the database closes; new interactions are refused with a
short "restarting" answer and change nothing; a stuck handler holds the stop for no longer than
``[discord] shutdown_wait_seconds``."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.domain import pod
from bot.storage.db import Database
from bot.storage.pods import PodRepository
from bot.testing import DiscordHarness
from bot.testing.fakediscord.driver import HarnessError


def _gate_after_storing(h) -> tuple[asyncio.Event, asyncio.Event]:
    """Every pod change is stored, then waits for ``release`` before its handler goes on to answer."""
    service = h.bot.get_cog("Pods").service
    stored, release = asyncio.Event(), asyncio.Event()
    change = service.change

    async def slow(*args, **kwargs):
        loaded = await change(*args, **kwargs)
        stored.set()
        await release.wait()
        return loaded

    service.change = slow
    return stored, release


def _when_the_database_closes(h) -> list[list]:
    """The requests made to Discord by the time the bot closes its database (one snapshot per close)."""
    seen: list[list] = []
    db = h.bot.db
    close = db.close

    async def recording() -> None:
        seen.append(list(h.fake.requests))
        await close()

    db.close = recording
    return seen


async def _closed(h) -> None:
    """Close the bot the way ``podkeeper run`` does on SIGTERM; the harness does not close it again."""
    await h.bot.close()
    h._unsubscribe()
    h.bot = None


async def _events(path, game_id: int = 1) -> list[pod.Event]:
    db = await Database.open(path)
    try:
        return await PodRepository(db).events(game_id)
    finally:
        await db.close()


async def test_a_running_handler_stores_and_answers_before_the_database_closes(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob")) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        stored, release = _gate_after_storing(h)
        at_close = _when_the_database_closes(h)
        db_path = h.bot.db.path
        command = asyncio.create_task(h.slash("pod life", user="alice", player="bob", amount=-3))
        await stored.wait()  # the change is committed; the answer has not gone out
        stopping = asyncio.create_task(_closed(h))
        await asyncio.sleep(0.2)
        assert not stopping.done()  # it waits for the handler
        assert h.bot.is_open

        late = await h.slash("pod life", user="bob", player="alice", amount=-5)  # arrives while stopping
        assert late.ephemeral and "restarting" in late.content and "nothing was changed" in late.content

        release.set()
        reply = await command
        await stopping
        assert reply.ephemeral and reply.content == "Done: game #1."
        (requests,) = at_close
        answers = [r.json for r in requests if r.is_callback]
        assert any("Done: game #1." in str(a) for a in answers)  # answered before the database closed
        assert any("restarting" in str(a) for a in answers)
        life = [e for e in await _events(db_path) if e.kind == pod.LIFE]
        assert [(e.actor, e.data["amount"]) for e in life] == [
            (h.user("alice").id, -3)
        ]  # the late one: nothing


async def test_a_stuck_handler_holds_the_stop_no_longer_than_the_bound(tmp_path, caplog) -> None:
    async with DiscordHarness.start(
        tmp_path, members=("alice", "bob"), interaction_deadline=None, discord__shutdown_wait_seconds=1
    ) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        stored, _never = _gate_after_storing(h)
        at_close = _when_the_database_closes(h)
        command = asyncio.create_task(h.slash("pod life", user="alice", player="bob", amount=-3))
        await stored.wait()
        started = time.perf_counter()
        with caplog.at_level(logging.WARNING, logger="bot.shutdown"):
            await _closed(h)
        took = time.perf_counter() - started
        assert 1.0 <= took < 3.0, took  # the bound, then at most the cancelled handler's unwinding
        assert "1 interaction handler(s) still running after 1 s were cancelled" in caplog.text
        assert len(at_close) == 1
        with pytest.raises(HarnessError, match="never responded"):  # cancelled at the bound: no answer
            await command
