"""The notice connection between its cuts: a quiet connection is checked but not replaced (each needless
reconnect makes every page and every held kind read everything again), and the channel's name is the same
in every version (a ``podkeeper cards sync`` of another version beside the bots must reach them), the
namespace is the database and schema, a dropped session is really ended, and a one-off notice that cannot
be sent says why."""

from __future__ import annotations

import asyncio
import logging
import re

import asyncpg
import pytest

from bot import notify
from bot.notify import DedicatedSession, PostgresNotifier, channel_name, database_namespace, notify_once
from tests.scale._wait import until


def test_the_channel_name_is_the_same_in_every_version_and_fits_postgresql() -> None:
    assert channel_name("test/public") == "podkeeper_6f78ba31495cacb6"
    assert len(channel_name("x" * 500).encode()) <= 63  # PostgreSQL's longest identifier


@pytest.mark.postgresql_only
async def test_a_quiet_connection_is_checked_but_never_replaced(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notify, "KEEPALIVE_SECONDS", 0.02)  # many checks in the test's fraction of a second
    a, b = PostgresNotifier(pg_dsn, namespace), PostgresNotifier(pg_dsn, namespace)
    resyncs: list[str] = []
    heard: list[str] = []
    b.on("change", heard.append, resync=lambda: resyncs.append("again"))
    await a.start()
    await b.start()
    try:
        pid = b._pid
        with caplog.at_level(logging.WARNING, logger="bot.notify"):
            await asyncio.sleep(0.3)
        assert caplog.records == [] and resyncs == [] and b._pid == pid, "a live connection was replaced"
        a.send("change", "pod:4")
        await until(lambda: heard == ["pod:4"])
    finally:
        await a.close()
        await b.close()


@pytest.mark.postgresql_only
async def test_the_namespace_is_the_database_and_the_schema_the_connection_lands_in(pg_dsn: str) -> None:
    """Every process on one database and schema agrees on it whatever host name it uses, and another
    schema of the same database (a test's, another bot's) is another namespace."""
    here = await asyncpg.connect(pg_dsn)
    public = await asyncpg.connect(pg_dsn, server_settings={"search_path": "public"})
    try:
        schema = await here.fetchval("SELECT current_schema()")
        database = await here.fetchval("SELECT current_database()")
        assert schema != "public"
        assert await database_namespace(here) == f"{database}/{schema}"
        assert await database_namespace(public) == f"{database}/public"
    finally:
        await here.close()
        await public.close()


@pytest.mark.postgresql_only
async def test_a_dropped_session_is_terminated_and_no_longer_alive(pg_dsn: str) -> None:
    session = DedicatedSession(pg_dsn)
    connection = await session.open()
    assert session.alive and session.namespace is not None
    session.drop()  # a broken connection: no goodbye to a server that may be gone
    assert connection.is_closed() and session.connection is None and not session.alive
    session.drop()  # dropping again is harmless
    await session.close()
    assert session.connection is None


async def test_a_one_off_notice_out_of_reach_says_why(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.notify"):
        await asyncio.wait_for(notify_once("postgresql://nobody@127.0.0.1:1/none", "change", "cards"), 5)
    [said] = [r.getMessage() for r in caplog.records]
    assert re.fullmatch(
        r"could not tell the running bots \((?!None\)|%s\)).+\); they notice within minutes anyway", said
    ), said


@pytest.mark.postgresql_only
async def test_notices_sent_at_shutdown_arrive_once_each_and_nothing_else(
    pg_dsn: str, namespace: str
) -> None:
    a, b = PostgresNotifier(pg_dsn, namespace), PostgresNotifier(pg_dsn, namespace)
    heard: list[str] = []
    b.on("change", heard.append)
    await a.start()
    await b.start()
    try:
        a.send("change", "pod:1")
        a.send("change", "pod:2")
        await a.close()  # what is queued goes out in the close
        await until(lambda: heard == ["pod:1", "pod:2"])
        await asyncio.sleep(0.1)
        assert heard == ["pod:1", "pod:2"] and b.received == 2, "an empty notice went out too"
    finally:
        await b.close()


@pytest.mark.postgresql_only
async def test_a_notice_of_a_kind_nobody_handles_is_ignored_quietly(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A newer version's new kind of notice reaches the older processes of a rolling update too."""
    a, b = PostgresNotifier(pg_dsn, namespace), PostgresNotifier(pg_dsn, namespace)
    heard: list[str] = []
    b.on("change", heard.append)
    await a.start()
    await b.start()
    try:
        with caplog.at_level(logging.ERROR):
            a.send("a-kind-from-a-newer-version", "7")
            a.send("change", "pod:3")
            await until(lambda: heard == ["pod:3"])
            await asyncio.sleep(0.1)
        assert b.received == 2 and [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        await a.close()
        await b.close()


@pytest.mark.postgresql_only
async def test_a_closed_notifier_leaves_no_task_or_connection_and_closes_again_harmlessly(
    pg_dsn: str, namespace: str
) -> None:
    """A task dump names the listener ("notices"); once closed (a bot's shutdown, a test's end) neither
    its task nor its connection is left behind, and a second close finds nothing to do."""
    notifier = PostgresNotifier(pg_dsn, namespace)
    await notifier.start()
    connection = notifier.session.connection
    assert [t for t in asyncio.all_tasks() if t.get_name() == "notices" and not t.done()] != []
    await notifier.close()
    await asyncio.sleep(0)
    assert [t for t in asyncio.all_tasks() if t.get_name() == "notices" and not t.done()] == []
    assert connection.is_closed() and notifier.session.connection is None and not notifier.session.alive
    await notifier.close()
