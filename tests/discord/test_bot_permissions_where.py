"""Which of the bot's permissions a board or a role needs depends on where: in a thread the bot sends with
Send Messages in Threads (not Send Messages), in a channel the other way round, and a role is given only
with Manage Roles and only below the bot's own role (never @everyone or an integration's role). Asking for
the wrong one refuses a board that would have lived, or lets through one that would freeze; so each test
denies exactly one permission in the stand-in (a channel overwrite, as an admin would) and runs the real
command, and the role verdicts are checked against the stand-in's own refusal of the grant."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.invite import PERMISSIONS as INVITE_PERMISSIONS
from bot.invite import permissions_integer
from bot.testing import DiscordHarness
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.model import PERMISSIONS
from cogs._permissions import refuse_unless_bot_can_post, role_grant_problem


def deny(h: DiscordHarness, permission: str, channel: str = "general") -> None:
    h.channel(channel).overwrites[h.fake.bot_role(h.guild).id] = (0, PERMISSIONS[permission], 0)


async def a_pod_thread(h: DiscordHarness) -> object:
    """A thread of #general, made by a pod started with the server's "threads" setting."""
    await h.bot.guild_settings.update(h.guild.id, pod_threads=True)
    await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    (thread,) = h.threads()
    await h.bot.guild_settings.update(h.guild.id, pod_threads=False)
    return thread


async def test_a_board_in_a_channel_does_not_need_the_thread_sending_permission(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        deny(h, "send_messages_in_threads")  # threads off: the board goes in the channel itself
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        assert not board.ephemeral and board.embeds


@pytest.mark.parametrize(
    ("command", "options"),
    [("hydra start", {"heads": 3}), ("challenge start", {"deck": "horde"})],  # its own list, the default one
)
async def test_a_table_in_a_thread_needs_the_threads_sending_permission_not_the_channels(
    tmp_path, command: str, options: dict[str, object]
) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        thread = await a_pod_thread(h)
        deny(h, "send_messages")  # in #general: its threads still take the bot's messages
        table = await h.slash(command, channel=thread, **options)
        assert not table.ephemeral, table.content


async def test_a_table_in_a_thread_without_the_threads_sending_permission_is_refused(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        thread = await a_pod_thread(h)
        deny(h, "send_messages_in_threads")
        refused = await h.slash("hydra start", heads=3, channel=thread)
        assert refused.ephemeral and "Send Messages in Threads" in refused.content
        assert int(await h.bot.db.scalar("SELECT COUNT(*) FROM challenge_tables")) == 0


async def test_a_winner_role_without_manage_roles_is_refused_with_that_reason(tmp_path) -> None:
    without = permissions_integer([name for name in INVITE_PERMISSIONS if name != "manage_roles"])
    async with DiscordHarness.start(tmp_path, bot_permissions=without) as h:
        winner = h.add_role("Winner")
        refused = await h.slash("config winner-role", user="admin", role=winner)
        assert refused.ephemeral
        assert refused.content == t("core.error.no_manage_roles", "en", role=winner.mention)
        assert (await h.bot.guild_settings.get(h.guild.id)).winner_role_id is None


async def test_the_roles_the_bot_may_not_give_are_the_ones_discord_refuses(tmp_path) -> None:
    """@everyone and the bot's own (managed) role are refused like a role above the bot; a plain role
    below it is given. The verdict before the grant and the stand-in's answer to the grant agree."""
    async with DiscordHarness.start(tmp_path) as h:
        below = h.add_role("Winner")
        guild = h.bot.get_guild(h.guild.id)
        assert guild is not None
        member = await guild.fetch_member(h.user("alice").id)
        roles = {
            "below": guild.get_role(below.id),
            "everyone": guild.default_role,
            "managed": guild.get_role(h.fake.bot_role(h.guild).id),
        }
        verdicts = {name: role_grant_problem(role) for name, role in roles.items() if role is not None}
        assert verdicts == {"below": None, "everyone": "role_above_bot", "managed": "role_above_bot"}
        await member.add_roles(roles["below"])  # type: ignore[arg-type]
        h._expect_refusal = 50013  # the harness's own expectation (as tests/boards/helpers.py does)
        try:
            for name in ("everyone", "managed"):
                with pytest.raises(discord.Forbidden):
                    await member.add_roles(roles[name])  # type: ignore[arg-type]
            h.check_contract()
        finally:
            h._expect_refusal = None


async def test_a_board_aimed_at_another_channel_is_judged_by_that_channels_permissions(tmp_path) -> None:
    """``refuse_unless_bot_can_post(channel=...)``: a board to be posted in another channel than the
    command's is judged by the bot's permissions there (computed from its roles and overwrites), and the
    refusal names that channel. Through a probe command, as a feature posting elsewhere would call it."""
    verdicts: list[bool] = []

    async def probe(interaction: discord.Interaction) -> None:
        target = interaction.client.get_channel(games_id)
        assert isinstance(target, discord.TextChannel)
        refused = await refuse_unless_bot_can_post(interaction, channel=target)
        verdicts.append(refused)
        if not refused:
            await interaction.response.send_message("posted")

    async def add_probe(bot: Any) -> None:
        bot.tree.command(name="probe", description="Post a board into #games")(probe)

    async with DiscordHarness.start(tmp_path, on_boot=add_probe) as h:
        games_id = h.channel("games").id
        deny(h, "attach_files", "general")  # the command's own channel lacks it; #games does not
        allowed = await h.slash("probe")
        assert verdicts == [False] and allowed.content == "posted"
        deny(h, "attach_files", "games")
        h.fake.emit("CHANNEL_UPDATE", P.channel(h.channel("games")))  # as Discord tells of an admin's edit
        await h.settle()
        refused = await h.slash("probe")
        assert verdicts == [False, True] and refused.ephemeral
        assert "Attach Files" in refused.content and f"<#{games_id}>" in refused.content
        assert "View Channels" not in refused.content and "Embed Links" not in refused.content
        assert f"<#{h.channel('general').id}>" not in refused.content


async def test_the_whole_refusal_is_in_the_members_language(tmp_path) -> None:
    """Not only the permission's name: the sentence around it too (a refusal half in English)."""
    async with DiscordHarness.start(tmp_path) as h:
        deny(h, "embed_links")
        refused = await h.slash("pod start", locale="ja", players=h.user("alice").mention)
        general = h.channel("general").id
        names = [t("core.permission.embed_links", "ja")]
        assert refused.ephemeral
        assert refused.content == t(
            "core.error.bot_cannot_post", "ja", permissions=names, channel=f"<#{general}>"
        )
        assert refused.content != t(
            "core.error.bot_cannot_post", "en", permissions=names, channel=f"<#{general}>"
        )
