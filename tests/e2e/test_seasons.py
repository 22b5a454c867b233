"""End to end: a league season through the bot's real start-up path (``serve``) against the local Discord
stand-in over real HTTP and a real gateway: the season opened in Japanese, a league game played on its
board, the posted result confirmed with its buttons across a SIGTERM restart, and the standings."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import default_config, standard_world
from tests.e2e.test_startup import TOKEN, Running

pytestmark = pytest.mark.slow  # a real gateway and HTTP on 127.0.0.1
WAIT = 600  # tenths of a second a posted message may take on a busy machine


async def _posted(driver, title_part: str):
    for _ in range(WAIT):
        for message in reversed(driver.messages()):
            if message.embeds and title_part in message.embeds[0].get("title", ""):
                return message
        await asyncio.sleep(0.1)
    raise AssertionError(f"no message titled {title_part!r}")


async def test_a_league_game_is_posted_confirmed_across_a_restart_and_ranked(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guild = standard_world(fake)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, discord__token=TOKEN)
        run = Running(server, config, guild)
        await run.start()
        opened = await run.driver.slash(
            "season open", user="admin", locale="ja", name="春リーグ", league_only=True
        )
        assert "シーズン「春リーグ」開幕" in opened.text
        alice, bob = run.driver.user("alice"), run.driver.user("bob")
        await run.driver.slash(
            "pod start", user="alice", players=f"{alice.mention} {bob.mention}", league=True
        )
        board = next(m for m in reversed(run.driver.messages()) if m.buttons)
        await run.driver.click(board, label="Start turn 1", user="alice")
        await run.driver.click(board, label="Concede", user="bob")
        result = await _posted(run.driver, ": result")
        assert f"<@{alice.id}>: won" in result.embeds[0]["description"]
        await run.driver.click(result, label="Confirm", user="alice")
        assert await run.stop_with_sigterm() == 0

        again = Running(server, config, guild)
        await again.start()
        refused = await again.driver.click(result, label="Confirm", user="carol")
        assert refused.ephemeral and "Only the players at that table" in refused.text
        await again.driver.click(result, label="Confirm", user="bob")
        assert "everyone at the table confirmed" in result.embeds[0]["description"] and not result.buttons
        standings = await again.driver.slash("season standings", user="carol", locale="zh-TW")
        assert standings.embeds[0]["title"] == "排名：春リーグ (進行中)"
        assert standings.embeds[0]["description"].startswith(f"**1.** <@{alice.id}>：3分 · 1局 · 1勝")
        assert await again.stop_with_sigterm() == 0
