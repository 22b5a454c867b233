"""End to end: shards. A bot running shards 0-3 of 4 in one process (``serve``), and two real
``podkeeper run`` processes with disjoint shard ranges, against the stand-in's sharded gateway, which
sends each guild's events only to shard ``(guild_id >> 22) % count`` and refuses bad shards (4010/4011).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.cli.run import serve
from bot.shards import shard_of
from bot.storage.db import Database
from bot.testing import FakeDiscord
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.model import FakeGuild
from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
from bot.testing.harness import HARNESS_CARDS, default_config

pytestmark = (
    pytest.mark.slow
)  # a real gateway and HTTP on 127.0.0.1, shards identifying 5 s apart, subprocesses

TOKEN = "fake-token"
RUNNER = Path(__file__).with_name("_podkeeper_against.py")


def guilds_on_shards(fake: FakeDiscord, count: int) -> list[FakeGuild]:
    """One guild per shard of ``count`` (guild ``i`` on shard ``i``), each with an admin, alice and #general."""
    guilds = []
    for shard in range(count):
        guild = fake.add_guild(f"Shard {shard} Server", owner=fake.add_user("admin"), shard=(shard, count))
        fake.add_member(guild, "alice")
        fake.add_channel(guild, "general")
        guilds.append(guild)
    return guilds


async def stored_ruleset(path: Path, guild: FakeGuild) -> str | None:
    db = await Database.open(path)
    try:
        return await db.scalar("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (guild.id,))
    finally:
        await db.close()


async def test_one_process_runs_four_shards_and_answers_in_every_guild(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guilds = guilds_on_shards(fake, 4)
    assert [shard_of(g.id, 4) for g in guilds] == [0, 1, 2, 3]
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(
            tmp_path, discord__token=TOKEN, discord__shard_count=4, discord__shard_ids="0-3"
        )
        task = asyncio.create_task(serve(config, guild_ready_timeout=0.05))
        await server.wait_until_connected(shards=range(4))
        assert sorted(s.identify["shard"] for s in server.sessions) == [[0, 4], [1, 4], [2, 4], [3, 4]]
        for session in server.sessions:  # each shard was sent only its own guild
            created = [gid for event, gid in session.events if event == "GUILD_CREATE"]
            assert created == [guilds[session.shard[0]].id]

        for guild in guilds:
            driver = RemoteDriver(server, guild)
            try:
                reply = await driver.slash("ping", locale="ja")
                assert reply.ephemeral and reply.content.startswith("ポン！ゲートウェイ遅延：")
                await driver.slash(
                    "config ruleset", user="admin", ruleset="duel-zh" if guild is guilds[2] else "edh-2010"
                )
            finally:
                driver.close()
        for session in server.sessions:
            interactions = [gid for event, gid in session.events if event == "INTERACTION_CREATE"]
            assert interactions == [guilds[session.shard[0]].id] * 2, (
                "a guild's interactions go to its shard only"
            )

        thread = fake.add_channel(
            guilds[3], "game-1", kind=11, parent=next(iter(guilds[3].channels.values()))
        )
        fake.emit("THREAD_CREATE", {**P.channel(thread), "newly_created": True})
        fake.emit(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guilds[1].id), "role": P.role(fake.add_role(guilds[1], "x"))},
        )
        await asyncio.sleep(0.2)
        for event, guild in (("THREAD_CREATE", guilds[3]), ("GUILD_ROLE_CREATE", guilds[1])):
            receivers = [s.shard[0] for s in server.sessions if (event, guild.id) in s.events]
            assert receivers == [shard_of(guild.id, 4)], event

        os.kill(os.getpid(), signal.SIGTERM)
        assert await asyncio.wait_for(task, 15) == 0
    assert await stored_ruleset(config.database_path, guilds[2]) == "duel-zh"
    assert await stored_ruleset(config.database_path, guilds[3]) == "edh-2010"


async def test_unsharded_bot_still_connects_once_without_a_shard(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guilds = guilds_on_shards(fake, 2)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, discord__token=TOKEN)
        task = asyncio.create_task(serve(config, guild_ready_timeout=0.05))
        await server.wait_until_connected()
        assert len(server.sessions) == 1 and "shard" not in server.sessions[0].identify
        created = {gid for event, gid in server.sessions[0].events if event == "GUILD_CREATE"}
        assert created == {g.id for g in guilds}
        os.kill(os.getpid(), signal.SIGTERM)
        assert await asyncio.wait_for(task, 15) == 0


async def test_out_of_range_shard_is_refused_with_4010(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeDiscord()
    guilds_on_shards(fake, 2)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        # with_values skips the config check on purpose: this is what Discord does with a bad shard.
        config = default_config(
            tmp_path, discord__token=TOKEN, discord__shard_count=2, discord__shard_ids="3"
        )
        assert await asyncio.wait_for(serve(config, guild_ready_timeout=0.05), 30) == 1
        assert server.refused_identifies == [([3, 2], 4010)]
    assert "invalid shard" in capsys.readouterr().err


async def test_too_few_shards_for_the_guilds_is_refused_with_4011(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeDiscord()
    guilds_on_shards(fake, 4)
    fake.max_guilds_per_session = 2  # Discord's 2,500, scaled down
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        assert fake.handle("GET", "/gateway/bot").body["shards"] == 1
        fake.guilds_per_shard = 2
        assert fake.handle("GET", "/gateway/bot").body["shards"] == 2
        config = default_config(tmp_path, discord__token=TOKEN)
        assert await asyncio.wait_for(serve(config, guild_ready_timeout=0.05), 30) == 1
        assert server.refused_identifies == [(None, 4011)]
    assert "sharding required" in capsys.readouterr().err


async def start_podkeeper(
    server: FakeDiscordServer, tmp_path: Path, name: str, *args: str
) -> asyncio.subprocess.Process:
    """A real ``podkeeper run ARGS`` process with its own database file ``<name>.sqlite3``."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": TOKEN,
        "PODKEEPER_DATABASE_PATH": str(tmp_path / f"{name}.sqlite3"),
        "PODKEEPER_CARDS_PATH": str(HARNESS_CARDS),
        "PODKEEPER_CARDS_AUTO_SYNC": "false",
        "PODKEEPER_LOGGING_LEVEL": "WARNING",
    }
    workdir = tmp_path / name
    workdir.mkdir()
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(RUNNER),
        server.url,
        "run",
        *args,
        cwd=workdir,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
    )


async def test_two_processes_with_disjoint_shards_each_get_only_their_guilds(tmp_path: Path) -> None:
    """Shards 0-1 and 2-3 of 4 in two real ``podkeeper run`` processes: each answers its guilds only.

    The two processes get SEPARATE SQLite files on purpose: SQLite is for one process (a second process
    on the same file refuses to start), and several processes sharing data need the PostgreSQL backend,
    which is not built yet. Separate files also prove the routing: a guild's setting lands only in the
    database of the process that runs the guild's shard.
    """
    fake = FakeDiscord()
    guilds = guilds_on_shards(fake, 4)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        low = await start_podkeeper(server, tmp_path, "low", "--shard-count", "4", "--shard-ids", "0-1")
        high = await start_podkeeper(server, tmp_path, "high", "--shard-count", "4", "--shard-ids", "2-3")
        try:
            await server.wait_until_connected(120, shards=range(4))
            assert sorted(s.shard for s in server.sessions) == [(0, 4), (1, 4), (2, 4), (3, 4)]
            for guild in guilds:
                driver = RemoteDriver(server, guild)
                try:
                    changed = await driver.slash("config ruleset", user="admin", ruleset="duel-zh")
                    assert "duel-zh" in changed.content
                finally:
                    driver.close()
        finally:
            for process in (low, high):
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            codes = [await asyncio.wait_for(p.wait(), 30) for p in (low, high)]
    assert codes == [0, 0]
    low_db, high_db = tmp_path / "low.sqlite3", tmp_path / "high.sqlite3"
    assert [await stored_ruleset(low_db, g) for g in guilds] == ["duel-zh", "duel-zh", None, None]
    assert [await stored_ruleset(high_db, g) for g in guilds] == [None, None, "duel-zh", "duel-zh"]
