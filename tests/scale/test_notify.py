"""Notices between processes over PostgreSQL LISTEN/NOTIFY (two notifiers = two processes' connections)."""

from __future__ import annotations

import asyncio

import pytest

from bot.changes import ChangeHub
from bot.notify import LocalNotifier, PostgresNotifier, channel_name, notify_once
from tests.scale._wait import end_sessions, until

pytestmark = pytest.mark.postgresql_only


async def test_a_notice_reaches_the_other_process_and_not_the_sender(pg_dsn: str, namespace: str) -> None:
    a, b = PostgresNotifier(pg_dsn, namespace), PostgresNotifier(pg_dsn, namespace)
    heard_a: list[str] = []
    heard_b: list[str] = []
    a.on("change", heard_a.append)
    b.on("change", heard_b.append)
    await a.start()
    await b.start()
    try:
        for _ in range(3):  # a burst to one topic is coalesced into one notice
            a.send("change", "pod:12")
        a.send("change", "tournament:3")
        await until(lambda: len(heard_b) >= 2)
        await asyncio.sleep(0.1)
        assert heard_b == ["pod:12", "tournament:3"]
        assert heard_a == []
    finally:
        await a.close()
        await b.close()


async def test_other_namespaces_hear_nothing(pg_dsn: str, namespace: str) -> None:
    assert channel_name(namespace) != channel_name(namespace + "x")
    a, other = PostgresNotifier(pg_dsn, namespace), PostgresNotifier(pg_dsn, namespace + "x")
    heard: list[str] = []
    other.on("change", heard.append)
    await a.start()
    await other.start()
    try:
        a.send("change", "pod:1")
        await asyncio.sleep(0.3)
        assert heard == []
    finally:
        await a.close()
        await other.close()


async def test_change_hubs_of_two_processes_wake_each_others_readers(pg_dsn: str, namespace: str) -> None:
    """A page served by process B updates when process A commits a change: pages follow every process."""
    hubs = [ChangeHub(), ChangeHub()]
    notifiers = [PostgresNotifier(pg_dsn, namespace) for _ in hubs]
    for hub, notifier in zip(hubs, notifiers, strict=True):
        hub.relay = lambda topic, n=notifier: n.send("change", topic)
        notifier.on("change", hub.deliver, resync=hub.deliver_all)
        await notifier.start()
    try:
        with hubs[1].subscribe(["pod:7"]) as page:
            hubs[0].publish("pod:7")
            assert await page.wait(2.0)
            assert hubs[1].version("pod:7") == 1 and hubs[0].version("pod:7") == 1
    finally:
        for notifier in notifiers:
            await notifier.close()


async def test_after_a_lost_connection_every_reader_reads_again(pg_dsn: str, namespace: str) -> None:
    hub = ChangeHub()
    notifier = PostgresNotifier(pg_dsn, namespace)
    notifier.on("change", hub.deliver, resync=hub.deliver_all)
    await notifier.start()
    try:
        with hub.subscribe(["hydra_event:5"]) as page:
            await end_sessions(pg_dsn, [notifier._pid])
            assert await page.wait(15.0), "a reconnect makes every page read the committed state again"
    finally:
        await notifier.close()


async def test_local_notifier_tells_nobody() -> None:
    notifier = LocalNotifier()
    heard: list[str] = []
    notifier.on("change", heard.append)
    await notifier.start()
    notifier.send("change", "pod:1")
    await asyncio.sleep(0)
    assert heard == []
    await notifier.close()


async def test_a_one_off_notice_reaches_the_listening_bots(pg_schema_url: str) -> None:
    """``podkeeper cards sync`` in its own process tells the running bots (notify_once), whose
    notifier finds the same channel from the same database and schema."""
    bot = PostgresNotifier(pg_schema_url)
    heard: list[str] = []
    bot.on("change", heard.append)
    await bot.start()
    try:
        await notify_once(pg_schema_url, "change", "cards")
        await until(lambda: heard == ["cards"])
    finally:
        await bot.close()
