"""End to end: the bot's real start-up path (``bot.cli.run.serve``) against the local Discord stand-in.

Real HTTP (login, application info, command sync PUT, multipart uploads), the real gateway
(zlib-stream, HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats), a slash command, a button on a
persistent view across a restart, and a clean SIGTERM shutdown with the database closed.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import discord
import pytest

from bot.cli.run import serve
from bot.storage.db import Database
from bot.testing import FakeDiscord, HarnessError
from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
from bot.testing.harness import default_config, standard_world
from tests.discord.labcog import add_lab_cog

pytestmark = pytest.mark.slow  # a real gateway and HTTP on 127.0.0.1

TOKEN = "fake-token"


class Running:
    """``serve(config)`` in a task, as ``podkeeper run`` does, plus a driver acting as users."""

    def __init__(self, server: FakeDiscordServer, config, guild) -> None:
        self.server, self.config, self.guild = server, config, guild
        self.task: asyncio.Task[int] | None = None
        self.driver = RemoteDriver(server, guild)

    async def start(self, **bot_options) -> None:
        self.task = asyncio.create_task(serve(self.config, guild_ready_timeout=0.05, **bot_options))
        await self.server.wait_until_connected()

    async def stop_with_sigterm(self) -> int:
        os.kill(os.getpid(), signal.SIGTERM)  # serve() installed its handler on the loop
        assert self.task is not None
        try:
            return await asyncio.wait_for(self.task, 15)
        finally:
            self.driver.close()


@pytest.fixture
async def world(tmp_path: Path):
    fake = FakeDiscord()
    guild = standard_world(fake)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, discord__token=TOKEN)
        yield server, config, guild


async def test_login_sync_slash_command_and_sigterm_shutdown(world, tmp_path) -> None:
    server, config, guild = world
    run = Running(server, config, guild)
    await run.start()
    logins = [r for r in server.fake.requests if r.path in ("/users/@me", "/oauth2/applications/@me")]
    assert [r.status for r in logins] == [200, 200]
    assert server.sessions[0].compressor is not None, "the client asked for zlib-stream and got it"
    assert server.sessions[0].identify["token"] == TOKEN

    synced = {c["name"]: c for c in server.fake.synced_commands[None]}
    config_command = synced["config"]
    assert config_command["name_localizations"] == {"ja": "設定", "zh-CN": "设置", "zh-TW": "設定"}
    ruleset = next(o for o in config_command["options"] if o["name"] == "ruleset")
    assert ruleset["description_localizations"]["ja"] == "デッキチェックと対戦に使うルールセットを選びます"
    assert synced["help"]["name_localizations"]["zh-TW"] == "說明"

    reply = await run.driver.slash("ping", locale="ja")
    assert reply.ephemeral and reply.content.startswith("ポン！ゲートウェイ遅延：")
    changed = await run.driver.slash("config ruleset", user="admin", ruleset="duel-zh")
    assert "duel-zh" in changed.content

    assert await run.stop_with_sigterm() == 0
    assert not Path(f"{config.database_path}-wal").exists(), "the database was closed (WAL checkpointed)"
    db = await Database.open(config.database_path)
    try:
        assert (
            await db.scalar("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (guild.id,)) == "duel-zh"
        )
    finally:
        await db.close()


async def test_persistent_button_works_across_a_restart(world, monkeypatch) -> None:
    server, config, guild = world
    from bot.client import PodkeeperBot

    original_setup = PodkeeperBot.setup_hook

    async def setup_with_lab(self) -> None:  # the lab cog must be in the tree before the sync
        await add_lab_cog(self)
        await original_setup(self)

    monkeypatch.setattr(PodkeeperBot, "setup_hook", setup_with_lab)
    run = Running(server, config, guild)
    await run.start()
    board = await run.driver.slash("lab board")
    image = await run.driver.slash("lab image", width=40)  # multipart upload over real HTTP
    assert image.files["red.png"].startswith(b"\x89PNG")
    assert await run.stop_with_sigterm() == 0

    with pytest.raises(HarnessError, match="no bot is connected"):
        await run.driver.click(board, label="Confirm")

    again = Running(server, config, guild)
    await again.start()
    assert server.identify_count == 2
    click = await again.driver.click(board, label="Confirm", user="bob")
    assert click.message is board.message and board.message.content == "Confirmed by bob"
    assert await again.stop_with_sigterm() == 0


async def test_slow_command_misses_the_deadline_but_defer_works(world, monkeypatch) -> None:
    server, config, guild = world
    server.fake.interaction_deadline = 0.2
    from bot.client import PodkeeperBot

    original_setup = PodkeeperBot.setup_hook

    async def setup_with_lab(self) -> None:
        await add_lab_cog(self)
        await original_setup(self)

    monkeypatch.setattr(PodkeeperBot, "setup_hook", setup_with_lab)
    run = Running(server, config, guild)
    await run.start()
    with pytest.raises(HarnessError) as failure:
        await run.driver.slash("lab sleepy")
    assert "deadline" in str(failure.value)
    invoke_error = failure.value.__cause__
    assert isinstance(invoke_error.original, discord.NotFound) and invoke_error.original.code == 10062
    deferred = await run.driver.slash("lab slow")
    assert deferred.content == "first (edited)" and [m.content for m in deferred.followups] == ["second"]
    assert await run.stop_with_sigterm() == 0


async def test_wrong_token_is_a_clear_login_failure(world, capsys) -> None:
    server, config, guild = world
    assert await serve(config.with_values(discord__token="wrong")) == 1
    assert "Discord rejected the token" in capsys.readouterr().err


async def test_sigterm_waits_for_a_command_between_storing_and_answering(world, monkeypatch) -> None:
    """SIGTERM while ``/pod life`` has stored its change but not answered yet: the process stops taking
    interactions, the command answers, and only then the bot closes (bot/shutdown.py)."""
    server, config, guild = world
    from bot.services.pods import PodService

    stored, release = asyncio.Event(), asyncio.Event()
    change = PodService.change

    async def slow_change(self, *args, **kwargs):
        loaded = await change(self, *args, **kwargs)
        if kwargs.get("amount") == -3:
            stored.set()
            await release.wait()
        return loaded

    monkeypatch.setattr(PodService, "change", slow_change)
    run = Running(server, config, guild)
    await run.start()
    alice, bob = run.driver.user("alice"), run.driver.user("bob")
    await run.driver.slash("pod start", players=f"{alice.mention} {bob.mention}")
    command = asyncio.create_task(run.driver.slash("pod life", user="alice", player=bob.mention, amount=-3))
    await stored.wait()
    stopping = asyncio.create_task(run.stop_with_sigterm())
    await asyncio.sleep(0.3)
    assert not stopping.done()
    release.set()
    reply = await command
    assert reply.ephemeral and reply.content == "Done: game #1."
    assert await stopping == 0
    db = await Database.open(config.database_path)
    try:
        assert await db.scalar("SELECT COUNT(*) FROM pod_events WHERE game_id = 1 AND kind = 'life'") == 1
    finally:
        await db.close()
