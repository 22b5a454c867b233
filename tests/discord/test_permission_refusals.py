"""The bot tells people, privately and in their language, when Discord would refuse what it is asked to do.

Before a board, a lobby, an announcement or a tournament board is posted the bot checks its own
permissions in the channel (an interaction's response needs none, so without this the board would
appear and then never change). Each test runs a real command through the real tree against the
stand-in, with one permission taken from the bot's role in that channel, and checks the refusal names
it, is private, and that nothing was stored.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.client import MISSING_ACCESS
from bot.testing import DiscordHarness
from bot.testing.fakediscord.model import PERMISSIONS

NAMES = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path) as harness:
        yield harness


def deny(h: DiscordHarness, permission: str, channel: str = "general") -> None:
    """Take ``permission`` from the bot's role in ``channel`` (a channel overwrite, as an admin would)."""
    h.channel(channel).overwrites[h.fake.bot_role(h.guild).id] = (0, PERMISSIONS[permission], 0)


async def count(h: DiscordHarness, table: str) -> int:
    return int(await h.bot.db.scalar(f"SELECT COUNT(*) FROM {table}"))


@pytest.mark.parametrize("permission", ["view_channel", "send_messages", "embed_links", "attach_files"])
async def test_pod_start_is_refused_privately_naming_the_permission_and_stores_nothing(h, permission):
    deny(h, permission)
    reply = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    assert reply.ephemeral and NAMES[permission] in reply.content
    assert f"<#{h.channel('general').id}>" in reply.content and "Nothing was changed" in reply.content
    assert await count(h, "pod_games") == 0
    assert not h.messages("general")
    fine = await h.slash(
        "pod start", channel="games", players=f"{h.user('alice').mention} {h.user('bob').mention}"
    )
    assert not fine.ephemeral  # another channel where the bot has everything is unaffected


async def test_the_refusal_is_in_the_members_language(h):
    deny(h, "embed_links")
    reply = await h.slash(
        "pod start", locale="ja", players=h.user("alice").mention
    )  # refused before counting
    assert reply.ephemeral and "埋め込みリンク" in reply.content
    reply = await h.slash("pod start", locale="zh-TW", players=h.user("alice").mention)
    assert reply.ephemeral and "嵌入連結" in reply.content


async def test_hydra_and_challenge_tables_check_before_opening(h):
    deny(h, "attach_files")
    hydra = await h.slash("hydra start", heads=3)
    assert hydra.ephemeral and "Attach Files" in hydra.content
    challenge = await h.slash("challenge start", deck="horde")
    assert challenge.ephemeral and "Attach Files" in challenge.content
    assert await count(h, "challenge_tables") == 0


async def test_a_hydra_table_in_a_thread_needs_thread_permissions(h):
    await h.bot.guild_settings.update(h.guild.id, pod_threads=True)
    deny(h, "create_public_threads")
    reply = await h.slash("hydra start", heads=3)
    assert reply.ephemeral and "Create Public Threads" in reply.content
    assert not h.threads() and await count(h, "challenge_tables") == 0


async def test_an_event_announcement_checks_the_channel_and_its_table_threads(h):
    deny(h, "send_messages_in_threads")
    reply = await h.slash("hydra event create", user="admin", name="Friday", start="in 2 hours")
    assert reply.ephemeral and "Send Messages in Threads" in reply.content
    assert await count(h, "hydra_events") == 0


async def test_a_tournament_round_is_not_paired_where_its_boards_could_not_live(h):
    await h.slash("tournament create", user="admin", name="Cup")
    for name in ("alice", "bob", "carol"):
        await h.slash("tournament join", user=name)
    deny(h, "embed_links")
    reply = await h.slash("tournament pair", user="admin")
    assert reply.ephemeral and "Embed Links" in reply.content
    assert await count(h, "pod_games") == 0
    standings = await h.slash("tournament standings")
    assert "Round 1" not in standings.text


async def test_pod_start_without_thread_permissions_posts_in_the_channel_and_explains_privately(h):
    await h.bot.guild_settings.update(h.guild.id, pod_threads=True)
    deny(h, "create_public_threads")
    reply = await h.slash(
        "pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}", expect_refusal=50013
    )
    assert not h.threads()
    assert not reply.ephemeral and reply.embeds  # the board, in the channel
    (note,) = reply.followups
    assert note.ephemeral and "Create Public Threads" in note.content


async def test_explain_refusal_recognises_missing_access(tmp_path):
    seen: list[bool] = []

    async def probe(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.client.get_channel(games_id).send("hello")
        except discord.Forbidden as error:
            assert error.code == MISSING_ACCESS
            seen.append(await interaction.client.explain_refusal(interaction, error))

    async def add_probe(bot: Any) -> None:
        bot.tree.command(name="probe", description="Send into #games")(probe)

    async with DiscordHarness.start(tmp_path, on_boot=add_probe) as h:
        games_id = h.channel("games").id
        deny(h, "view_channel", "games")
        reply = await h.slash("probe", expect_refusal=50001)
        assert seen == [True]
        assert reply.ephemeral and "can't see" in reply.text


async def test_reposting_a_board_checks_too(h):
    board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    deny(h, "attach_files")
    reply = await h.slash("pod show")
    assert reply.ephemeral and "Attach Files" in reply.content
    assert [m.id for m in h.messages("general")] == [board.message.id]  # no second board
