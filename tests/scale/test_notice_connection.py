"""The notice connection between its cuts: a quiet connection is checked but not replaced (each needless
reconnect makes every page and every held kind read everything again), and the channel's name is the same
in every version (a ``podkeeper cards sync`` of another version beside the bots must reach them), the
namespace is the database and schema, a dropped session is really ended, and a one-off notice that cannot
be sent says why. Then the exact edges: the ``connect`` given is used, an idle notifier sends nothing, a
notice may have no rest, a close on a dead connection still succeeds, and finished handler tasks are let go."""

from __future__ import annotations

import asyncio
import logging
import re

import asyncpg
import pytest

from bot import notify
from bot.notify import DedicatedSession, PostgresNotifier, channel_name, database_namespace, notify_once
from tests.scale._wait import end_sessions, until


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


class CountingConnection(asyncpg.Connection):  # type: ignore[misc]
    """A real connection that keeps every statement ``execute`` sent (the keepalive, each batch)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.statements: list[str] = []

    async def execute(self, query: str, *args: object, **kwargs: object) -> str:
        self.statements.append(query)
        return await super().execute(query, *args, **kwargs)


def counting_connect(dsn: str) -> object:
    """The notifier's own ``connect``: named in ``pg_stat_activity`` and counting what it sends."""
    return asyncpg.connect(
        dsn, connection_class=CountingConnection, server_settings={"application_name": "podkeeper-notices"}
    )


@pytest.mark.postgresql_only
async def test_the_notifier_connects_its_own_way_and_sends_nothing_while_idle(
    pg_dsn: str, namespace: str
) -> None:
    """The ``connect`` given is the one used (its connection is named in ``pg_stat_activity``); an idle
    notifier sends no statement between keepalives, and closing with nothing queued sends none either."""
    notifier = PostgresNotifier(pg_dsn, namespace, connect=counting_connect)
    await notifier.start()
    connection = notifier.session.connection
    try:
        assert isinstance(connection, CountingConnection)
        name = await connection.fetchval(
            "SELECT application_name FROM pg_stat_activity WHERE pid = $1", connection.get_server_pid()
        )
        assert name == "podkeeper-notices"
        await asyncio.sleep(0.2)  # far less than a keepalive: nothing is due
        assert connection.statements == []
    finally:
        await notifier.close()
    assert connection.statements == []


@pytest.mark.postgresql_only
async def test_a_notice_without_a_rest_arrives_with_an_empty_one(pg_dsn: str) -> None:
    """``send(kind)`` and ``notify_once(dsn, kind)`` mean ``kind:``: the handler is called with ``""``."""
    a, b = PostgresNotifier(pg_dsn), PostgresNotifier(pg_dsn)  # the test schema's namespace, as notify_once's
    heard: list[str] = []
    b.on("cards", heard.append)
    await a.start()
    await b.start()
    try:
        a.send("cards")
        await until(lambda: heard == [""])
        await notify_once(pg_dsn, "cards")
        await until(lambda: heard == ["", ""])
    finally:
        await a.close()
        await b.close()


@pytest.mark.postgresql_only
async def test_a_notice_left_for_a_dead_connection_at_close_is_given_up_quietly(
    pg_dsn: str, namespace: str
) -> None:
    """The server ended the connection (a restart, an admin) just before the bot's shutdown: the last
    notice cannot go out, and closing still succeeds (best effort, never a failed shutdown)."""
    notifier = PostgresNotifier(pg_dsn, namespace)
    await notifier.start()
    await end_sessions(pg_dsn, [notifier.session.connection.get_server_pid()])
    notifier.send("change", "pod:1")
    await notifier.close()
    assert notifier.session.connection is None


async def test_postgresql_out_of_reach_names_no_channel_and_logs_the_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Before any connection there is no channel (it comes from where the connection lands); the lost
    connection is logged word for word with the reason."""
    notifier = PostgresNotifier("postgresql://nobody@127.0.0.1:1/none")
    with caplog.at_level(logging.WARNING, logger="bot.notify"):
        await asyncio.wait_for(notifier.start(), 5)
        await asyncio.wait_for(notifier.close(), 5)
    assert notifier.channel == ""
    said = [r.getMessage() for r in caplog.records if r.name == "bot.notify"]
    assert said and all(
        re.fullmatch(r"notices: PostgreSQL connection lost \((?!None\)|%s\)).+\); reconnecting", line)
        for line in said
    ), said


@pytest.mark.postgresql_only
async def test_a_finished_handler_task_is_let_go_without_an_error(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A coroutine handler runs as a task the notifier keeps only until it is done: nothing piles up over
    a bot's life, and its end is no error of the event loop's."""
    a, b = PostgresNotifier(pg_dsn, namespace), PostgresNotifier(pg_dsn, namespace)
    handled: list[str] = []

    async def handler(rest: str) -> None:
        handled.append(rest)

    b.on("change", handler)
    await a.start()
    await b.start()
    try:
        with caplog.at_level(logging.ERROR):
            a.send("change", "pod:5")
            await until(lambda: handled == ["pod:5"])
            await until(lambda: not b._tasks)
            await asyncio.sleep(0.05)
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        await a.close()
        await b.close()
