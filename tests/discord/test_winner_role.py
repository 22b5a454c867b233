"""``/config winner-role`` refuses a role that would be a way up: a member with Manage
Server but not Manage Roles could have the bot hand out Administrator to whoever won a Hydra event.
(Whether the bot itself can give the role — Manage Roles, a role below its own — is checked too:
tests/discord/test_discord_contract_fixes.py.)"""

from __future__ import annotations

from bot.i18n import t
from bot.testing import DiscordHarness


async def settled_role(h):
    return (await h.bot.guild_settings.get(h.guild.id)).winner_role_id


async def test_dangerous_roles_are_refused_with_the_reason(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        admins = h.add_role("Admins", permissions=["administrator"])
        movers = h.add_role("Movers", permissions=["manage_roles", "manage_channels"])
        refused = await h.slash("config winner-role", user="admin", role=admins)
        assert refused.ephemeral and "it grants Administrator" in refused.content
        refused = await h.slash("config winner-role", user="admin", role=movers, locale="ja")
        # Discord's own Japanese names, joined with the Japanese comma
        assert (
            "ロールの管理、チャンネルの管理" in refused.content
            and "勝者ロールにできません" in refused.content
        )
        everyone = h.guild.roles[h.guild.id]
        refused = await h.slash("config winner-role", user="admin", role=everyone, locale="zh-CN")
        assert "@everyone" in refused.content and "不能发放" in refused.content
        assert await settled_role(h) is None


async def test_a_role_above_the_setter_is_refused_unless_the_owner_sets_it(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        champions = h.add_role("Champions")  # new roles land at the bottom: each later one goes under it
        dave = h.add_member("dave", permissions="manage_guild")  # dave's own role, under Champions
        slayers = h.add_role("Slayers")  # under dave's role
        refused = await h.slash("config winner-role", user=dave, role=champions)
        assert refused.ephemeral and "not below your own highest role" in refused.content
        assert await settled_role(h) is None
        accepted = await h.slash("config winner-role", user=dave, role=slayers)
        assert slayers.mention in accepted.content and await settled_role(h) == slayers.id
        owner = await h.slash("config winner-role", user="admin", role=champions)  # the owner is above all
        assert champions.mention in owner.content and await settled_role(h) == champions.id


async def test_the_setters_own_highest_role_is_refused_too(tmp_path) -> None:
    """Discord lets a member hand out only roles strictly below their highest: the highest itself is no
    way down, so a member may not make the bot give it out either."""
    async with DiscordHarness.start(tmp_path) as h:
        elders = h.add_role("Elders")
        dave = h.add_member("dave", permissions="manage_guild", roles=[elders])  # his own role goes under
        refused = await h.slash("config winner-role", user=dave, role=elders)
        assert refused.ephemeral and "not below your own highest role" in refused.content
        assert await settled_role(h) is None


async def test_the_bots_own_highest_role_is_refused_even_when_not_its_integration_role(tmp_path) -> None:
    """An admin may give the bot a plain role above its integration role; the bot still cannot hand out
    that highest role itself (Discord: only roles strictly below it), so it is refused when configured."""
    async with DiscordHarness.start(tmp_path) as h:
        bot_member = h.fake.bot_member(h.guild)
        staff = h.fake.add_role(h.guild, "Bot staff", position=h.fake.bot_role(h.guild).position + 1)
        bot_member.role_ids.append(staff.id)
        h.add_role("Winner")  # refreshes the bot's view of the server, the bot's new role included
        refused = await h.slash("config winner-role", user="admin", role=staff)
        assert refused.ephemeral and refused.content == t(
            "core.error.role_above_bot", "en", role=staff.mention
        )
        assert await settled_role(h) is None
