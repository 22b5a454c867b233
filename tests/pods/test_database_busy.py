"""Another program holding the SQLite file's write lock (a ``sqlite3`` shell inside a transaction, a
backup tool): ``/pod life`` used to wait for it past Discord's 3 s and was never answered. Now it is
deferred in time and answered when the change is stored; held past ``busy_timeout`` (5 s), the member
is told the database is busy and nothing changed, in their language. The lock is a real second
connection to the bot's file; the stand-in refuses an answer after Discord's deadline."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.domain import pod
from bot.i18n import t
from bot.testing import DiscordHarness


@contextmanager
def write_locked(path) -> Iterator[None]:
    """What ``sqlite3 podkeeper.sqlite3`` then ``BEGIN IMMEDIATE;`` does: hold the write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def life_of(h: DiscordHarness, player: str) -> int:
    running = await h.bot.get_cog("Pods").service.open_in_channel(h.channel("general").id)
    return (await h.bot.get_cog("Pods").service.get(running[0].game_id)).state.player(h.user(player).id).life


async def test_a_change_waiting_on_another_programs_lock_is_deferred_then_answered(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        with write_locked(h.bot.config.database_path):
            change = asyncio.create_task(h.slash("pod life", user="alice", player="bob", amount=-2))
            await asyncio.sleep(3.5)  # past Discord's deadline, within busy_timeout
        reply = await change
        assert reply.record.response_type == 5  # deferred ("thinking…") in time
        assert reply.content == t("pod.done_game", "en", game=1)
        assert await life_of(h, "bob") == pod.STARTING_LIFE - 2


@pytest.mark.parametrize("locale", ["ja", "zh-TW"])  # each waits out busy_timeout (5 s)
async def test_a_lock_held_past_the_busy_timeout_is_told_and_changes_nothing(tmp_path, locale) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        with write_locked(h.bot.config.database_path):
            reply = await h.slash(
                "pod life", user="alice", player="bob", amount=-2, locale=locale, expect_error=True
            )
        language = {"en-US": "en", "ja": "ja", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}[locale]
        assert reply.content == t("core.error.database_busy", language)
        assert await life_of(h, "bob") == pod.STARTING_LIFE
