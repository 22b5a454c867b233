"""``/config winner-role`` refuses a role that would be a way up (issue #13): a member with Manage
Server but not Manage Roles could have the bot hand out Administrator to whoever won a Hydra event."""

from __future__ import annotations

from bot.testing import DiscordHarness


def give_the_bot_a_role(h, name: str = "Podkeeper"):
    """The role Discord gives a bot when it is invited (the fake world's bot starts with none)."""
    role = h.add_role(name)
    h.guild.members[h.fake.bot_user.id].role_ids.append(role.id)
    h._refresh_guild()
    return role


async def settled_role(h):
    return (await h.bot.guild_settings.get(h.guild.id)).winner_role_id


async def test_dangerous_roles_are_refused_with_the_reason(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        admins = h.add_role("Admins", permissions=["administrator"])
        movers = h.add_role("Movers", permissions=["manage_roles", "manage_channels"])
        give_the_bot_a_role(h)
        refused = await h.slash("config winner-role", user="admin", role=admins)
        assert refused.ephemeral and "it grants Administrator" in refused.content
        refused = await h.slash("config winner-role", user="admin", role=movers, locale="ja")
        assert "Manage Roles, Manage Channels" in refused.content and "勝者ロールにできません" in refused.content
        everyone = h.guild.roles[h.guild.id]
        refused = await h.slash("config winner-role", user="admin", role=everyone, locale="zh-CN")
        assert "@everyone" in refused.content and "不能发放" in refused.content
        assert await settled_role(h) is None


async def test_a_role_above_the_setter_or_the_bot_is_refused(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        slayers = h.add_role("Slayers")  # lowest: anyone with Manage Server may choose it
        dave = h.add_member("dave", permissions="manage_guild")  # dave's own role sits above Slayers
        give_the_bot_a_role(h)
        champions = h.add_role("Champions")  # above dave's role and the bot's
        refused = await h.slash("config winner-role", user=dave, role=champions)
        assert refused.ephemeral and "not below your own highest role" in refused.content
        refused = await h.slash("config winner-role", user="admin", role=champions, locale="zh-TW")
        assert "不低於機器人的最高身分組" in refused.content  # the owner may, but the bot can't give it
        assert await settled_role(h) is None
        accepted = await h.slash("config winner-role", user=dave, role=slayers)
        assert slayers.mention in accepted.content and await settled_role(h) == slayers.id
