"""End to end: `podkeeper run`'s real start-up path against the local Discord stand-in (real HTTP and
gateway), a Hydra table played through a restart of the bot."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.cli.run import serve
from bot.storage.db import Database
from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
from bot.testing.harness import default_config, standard_world

pytestmark = pytest.mark.slow  # a real gateway and HTTP on 127.0.0.1

TOKEN = "fake-token"


async def _start(server, config, guild) -> tuple[asyncio.Task[int], RemoteDriver]:
    task = asyncio.create_task(serve(config, guild_ready_timeout=0.05))
    await server.wait_until_connected()
    return task, RemoteDriver(server, guild)


async def _stop(task: asyncio.Task[int], driver: RemoteDriver) -> int:
    os.kill(os.getpid(), signal.SIGTERM)
    try:
        return await asyncio.wait_for(task, 15)
    finally:
        driver.close()


async def test_a_hydra_table_survives_a_restart_end_to_end(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guild = standard_world(fake)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, discord__token=TOKEN)
        task, users = await _start(server, config, guild)
        synced = {c["name"]: c for c in fake.synced_commands[None]}
        assert synced["hydra"]["description_localizations"]["ja"].startswith("ハイドラとの対峙")
        lobby = await users.slash("hydra start", heads=3, window=0)
        await users.click(lobby, label="Join", user="bob")
        await users.click(lobby, label="Start", user="bob")
        assert "3. Hydra Head" in lobby.message.embeds[0]["description"]
        assert lobby.message.files["hydra-1.png"].startswith(b"\x89PNG")
        ended = await users.click(lobby, label="End our turn")
        turn = ended.channel_messages[0]
        assert "Turn 2: the Hydra's turn." in turn.content
        assert await _stop(task, users) == 0

        task, users = await _start(server, config, guild)  # a new process: buttons still route
        await users.click(turn, label="Default", user="bob")
        assert await _stop(task, users) == 0
    db = await Database.open(config.database_path)
    try:
        lines = [row[0] for row in await db.fetchall("SELECT line FROM challenge_table_actions ORDER BY seq")]
    finally:
        await db.close()
    assert lines[0] == "end" and lines[1].startswith("choose ")
