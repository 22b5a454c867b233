"""Notices between processes where they could fail an operator: a handler that raises (the others must
still hear), notices queued at shutdown (they must still go out), notices sent while the connection is
cut (sent again after the reconnect), PostgreSQL out of reach (logged, never a hang or a crash), and a
notice whose rest holds colons (kept whole)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.notify import PostgresNotifier, notify_once
from tests.scale._wait import end_sessions, until

pytestmark = pytest.mark.postgresql_only

NOWHERE = "postgresql://nobody@127.0.0.1:1/none"


async def pair(dsn: str, namespace: str) -> tuple[PostgresNotifier, PostgresNotifier]:
    a, b = PostgresNotifier(dsn, namespace), PostgresNotifier(dsn, namespace)
    return a, b


async def test_a_failing_handler_is_logged_and_every_other_handler_still_hears(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = await pair(pg_dsn, namespace)
    heard: list[str] = []
    awaited: list[str] = []

    def broken(rest: str) -> None:
        raise RuntimeError(f"cannot handle {rest}")

    async def later(rest: str) -> None:
        await asyncio.sleep(0)
        awaited.append(rest)

    async def broken_later(rest: str) -> None:
        raise RuntimeError(f"cannot handle {rest} later")

    b.on("change", broken)
    b.on("change", heard.append)
    b.on("change", later)
    b.on("change", broken_later)
    b.on("job", heard.append)
    await a.start()
    await b.start()
    try:
        with caplog.at_level(logging.ERROR, logger="bot.notify"):
            a.send("change", "page:pod:3")  # the rest keeps its own colons
            a.send("job", "hydra-turns")
            await until(lambda: heard == ["page:pod:3", "hydra-turns"] and awaited == ["page:pod:3"])
            await asyncio.sleep(0.05)
        failures = [r for r in caplog.records if r.getMessage() == "a notice handler failed"]
        assert len(failures) == 2 and {str(r.exc_info[1]) for r in failures if r.exc_info} == {
            "cannot handle page:pod:3",
            "cannot handle page:pod:3 later",
        }
        assert (a.received, b.received) == (0, 2)
    finally:
        await a.close()
        await b.close()


async def test_a_notice_kind_never_holds_a_colon() -> None:
    with pytest.raises(ValueError, match="no colon"):
        PostgresNotifier(NOWHERE).on("change:pod", print)


async def test_notices_queued_at_shutdown_still_go_out(pg_dsn: str, namespace: str) -> None:
    a, b = await pair(pg_dsn, namespace)
    heard: list[str] = []
    b.on("change", heard.append)
    await a.start()
    await b.start()
    try:
        a.send("change", "pod:1")
        a.send("change", "pod:2")
        await a.close()  # a rolling update stops the process right after its last commit
        await until(lambda: heard == ["pod:1", "pod:2"])
    finally:
        await b.close()


async def test_a_notice_sent_while_the_connection_is_cut_arrives_after_the_reconnect(
    pg_dsn: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = await pair(pg_dsn, namespace)
    heard: list[str] = []
    resyncs: list[str] = []
    b.on("change", heard.append)
    a.on("change", print)  # no resync: a reconnect must not trip over it
    a.on("job", print, resync=lambda: resyncs.append("job"))
    await a.start()
    await b.start()
    try:
        await end_sessions(pg_dsn, [a.session.connection.get_server_pid()])
        with caplog.at_level(logging.WARNING, logger="bot.notify"):
            a.send("change", "pod:9")
            await until(lambda: heard == ["pod:9"], timeout=15)
        assert resyncs == ["job"], "the reconnect catches up once, through the resync that exists"
        assert "notices: reconnected to PostgreSQL; catching up on what may have been missed" in [
            r.getMessage() for r in caplog.records
        ]
    finally:
        await a.close()
        await b.close()


async def test_postgresql_out_of_reach_is_logged_and_never_hangs_or_raises(
    caplog: pytest.LogCaptureFixture,
) -> None:
    notifier = PostgresNotifier(NOWHERE, "nowhere")
    with caplog.at_level(logging.WARNING, logger="bot.notify"):
        await asyncio.wait_for(notifier.start(), 5)
        notifier.send("change", "pod:1")  # queued, never raised
        await asyncio.wait_for(notify_once(NOWHERE, "change", "cards"), 5)
        await asyncio.wait_for(notifier.close(), 5)
    assert "notices: PostgreSQL connection lost (" in caplog.text
    assert "could not tell the running bots (" in caplog.text
