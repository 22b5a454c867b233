"""End to end: statistics through the bot's real start-up path (``serve``) against the local Discord
stand-in over real HTTP and a real gateway. A game finished with /pod commands is in /stats at once; a
database whose games finished before the statistics existed (their rows removed while the bot is stopped)
gets them back from the games' events when the bot starts again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage.db import Database
from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import default_config, standard_world
from tests.conftest import TEST_DATA
from tests.e2e.test_startup import TOKEN, Running

pytestmark = pytest.mark.slow  # a real gateway and HTTP on 127.0.0.1
WAIT = 600  # tenths of a second


async def _stats_me(run: Running, user: str) -> str:
    """The /stats me answer once it has figures (the backfill runs in the background after a start)."""
    for _ in range(WAIT):
        reply = await run.driver.slash("stats me", user=user)
        if not reply.ephemeral:
            return reply.text
        await asyncio.sleep(0.1)
    raise AssertionError(f"/stats me never had figures for {user}")


async def test_a_finished_game_is_in_the_statistics_and_older_games_are_backfilled(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guild = standard_world(fake)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, TEST_DATA / "pods_cards.jsonl", discord__token=TOKEN)
        run = Running(server, config, guild)
        await run.start()
        alice, bob = run.driver.user("alice"), run.driver.user("bob")
        await run.driver.slash("pod start", players=f"{alice.mention} {bob.mention}")
        await run.driver.slash("pod commander", user="alice", name="Atraxa, Praetors' Voice")
        await run.driver.slash("pod next", user="alice")
        await run.driver.slash("pod concede", user="bob")
        assert "1 game · 1 win · win rate 100%" in await _stats_me(run, "alice")
        assert await run.stop_with_sigterm() == 0

        db = await Database.open(config.database_path)
        try:  # as if the game had finished before migration 0050
            await db.execute("DELETE FROM stats_players")
            await db.execute("DELETE FROM stats_games")
        finally:
            await db.close()

        again = Running(server, config, guild)
        await again.start()
        text = await _stats_me(again, "bob")
        assert "1 game · 0 wins · win rate 0%" in text and "conceded: 1" in text
        assert await again.stop_with_sigterm() == 0
