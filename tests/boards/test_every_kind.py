"""Every board kind stays live for hours: a Hydra table, a God table (Horde tables are the same code), an
event announcement (pod boards,
and so a tournament round's boards, in test_long_games.py). Pressed after 51 minutes, each is posted
afresh (before Discord's cap on edits of hour-old messages); the old message points to the new one and
has no buttons; the new one's buttons work."""

from __future__ import annotations

import pytest

from bot.testing import DiscordHarness
from bot.testing.fakediscord.model import PERMISSIONS
from cogs._boards import REPOST_AFTER

LATE = REPOST_AFTER.total_seconds() + 60


async def on_boot(bot) -> None:
    bot.get_cog("HydraEvents").announcements.delay = 0


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol"), on_boot=on_boot) as harness:
        harness.bot.get_cog("Hydra").fixed_seed = 5
        harness.bot.get_cog("Challenge").fixed_seed = 5
        yield harness


def live(h) -> list:
    return [m for m in h.messages() if m.components]


def assert_moved(old, fresh) -> None:
    assert fresh.id != old.id
    assert not old.components and old.embeds == [] and old.content.endswith(f"/{fresh.id}")


async def test_a_hydra_table_is_posted_afresh_and_its_buttons_move_along(h):
    lobby = (await h.slash("hydra start", heads=2, window=0)).message
    await h.advance(LATE)
    await h.click(lobby, label="Join", user="bob")
    (fresh,) = live(h)
    assert_moved(lobby, fresh)
    assert "bob" in str(fresh.embeds[0]["fields"])
    await h.click(fresh, label="Start", user="alice")
    assert "started with 2 heads" in fresh.embeds[0]["title"]
    assert (await h.bot.get_cog("Hydra").service.load(1)).row.message_id == fresh.id


async def test_a_god_table_is_posted_afresh_and_its_buttons_move_along(h):
    lobby = (await h.slash("challenge start", deck="god", window=0)).message
    await h.advance(LATE)
    await h.click(lobby, label="Join", user="bob")
    (fresh,) = live(h)
    assert_moved(lobby, fresh)
    assert "bob" in fresh.embeds[0]["description"]


async def test_an_event_announcement_is_posted_afresh_for_a_long_night(h):
    announcement = (
        await h.slash(
            "hydra event create", user="admin", name="Hydra night", start="in 3h", heads=2, table_size=2
        )
    ).message
    await h.advance(LATE)
    await h.click(announcement, label="Join", user="bob")
    await h.settle()
    await h.bot.get_cog("HydraEvents").announcements.flush()
    (fresh,) = [m for m in live(h) if m.id != announcement.id]
    assert_moved(announcement, fresh)
    await h.click(fresh, label="Join", user="carol")
    await h.settle()
    await h.bot.get_cog("HydraEvents").announcements.flush()
    assert "2 joined" in str(fresh.embeds[0])


async def test_a_refused_hydra_table_is_told_once_and_its_seats_are_kept(h):
    lobby = (await h.slash("hydra start", heads=2, window=0)).message
    h.channel("general").overwrites[h.fake.bot_user.id] = (0, PERMISSIONS["embed_links"], 1)
    h._refresh_guild()
    await h.click(lobby, label="Join", user="bob", expect_refusal=50013)
    await h.click(lobby, label="Join", user="carol")  # refused a moment ago: not tried, not told again
    told = [m for m in h.messages() if "can't update this game's board" in m.content]
    assert len(told) == 1 and "Embed Links" in told[0].content
    seats = (await h.bot.get_cog("Hydra").service.load(1)).seats
    assert [s.name for s in seats] == ["alice", "bob", "carol"]
