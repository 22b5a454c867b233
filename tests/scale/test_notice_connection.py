"""The notice connection between its cuts: a quiet connection is checked but not replaced (each needless
reconnect makes every page and every held kind read everything again), and the channel's name is the same
in every version (a ``podkeeper cards sync`` of another version beside the bots must reach them)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot import notify
from bot.notify import PostgresNotifier, channel_name
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
