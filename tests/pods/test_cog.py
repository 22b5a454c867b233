"""The /pod commands and the live board through the real bot (bot/testing harness)."""

from __future__ import annotations

import pytest

from bot.testing import DiscordHarness


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol", "dave")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


def mention(h, name: str) -> str:
    return f"<@{h.user(name).id}>"


async def test_start_posts_a_board(h):
    reply = await h.slash("pod start", players=f"{mention(h, 'alice')} {mention(h, 'bob')}")
    print(reply.embed)
    print(reply.files.keys())
