"""The admin cog at the Discord layer: /ping, /config (Manage Server only), /help."""

from __future__ import annotations

import pytest

from bot.storage.db import Database
from bot.testing import DiscordHarness


async def test_config_ruleset_is_persisted_and_announced(tmp_path) -> None:
    seen: list[tuple[int, str]] = []

    async def listen(bot) -> None:
        async def on_ruleset_changed(guild_id: int, ruleset: str) -> None:
            seen.append((guild_id, ruleset))

        bot.add_listener(on_ruleset_changed)

    async with DiscordHarness.start(tmp_path, on_boot=listen) as h:
        reply = await h.slash("config ruleset", user="admin", ruleset="edh-2010")
        assert reply.ephemeral and "**edh-2010**" in reply.content
        assert reply.embed["fields"][0] == {"name": "Ruleset", "value": "edh-2010", "inline": True}
        assert seen == [(h.guild.id, "edh-2010")]
        assert await h.bot.ruleset_for(h.guild.id) == "edh-2010"
    db = await Database.open(tmp_path / "podkeeper.sqlite3")  # the bot is closed: read the file itself
    try:
        assert (
            await db.scalar("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (h.guild.id,))
            == "edh-2010"
        )
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "Manage Server"), ("ja", "サーバー管理"), ("zh-CN", "管理服务器"), ("zh-TW", "管理伺服器")],
)
async def test_non_managers_are_refused_in_their_language_and_nothing_changes(
    tmp_path, locale, expected
) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        refused = await h.slash("config ruleset", user="alice", locale=locale, ruleset="duel-zh")
        assert refused.ephemeral and expected in refused.content
        assert (await h.bot.guild_settings.get(h.guild.id)).ruleset is None
        assert await h.bot.ruleset_for(h.guild.id) == "commander"


async def test_a_member_with_manage_server_may_change_settings(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        h.add_member("dave", permissions="manage_guild")
        reply = await h.slash("config pod-threads", user="dave", enabled=True)
        assert "on" in reply.content
        assert (await h.bot.guild_settings.get(h.guild.id)).pod_threads is True


async def test_roles_locale_and_show_survive_a_restart(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        organisers = h.add_role("Organisers")
        await h.slash("config organiser-role", user="admin", role=organisers)
        await h.slash("config winner-role", user="admin", role=h.add_role("Slayers"))
        changed = await h.slash("config locale", user="admin", options={"locale": "zh-Hant"})
        assert changed.content == "Server language set to 繁體中文.", "the user's own language comes first"
        french = await h.slash("config locale", user="admin", locale="fr", options={"locale": "zh-Hant"})
        assert french.content == "伺服器語言已設為繁體中文。", "no French catalogue: the new server language"
        await h.restart()
        shown = await h.slash(
            "config show", user="bob", locale="fr"
        )  # French: no catalogue -> server language
        fields = {f["name"]: f["value"] for f in shown.embed["fields"]}
        assert shown.embed["title"] == "伺服器設定"
        assert fields["主辦者身分組"] == f"<@&{organisers.id}>"
        assert fields["語言"] == "繁體中文" and fields["規則集"] == "commander（預設）"
        cleared = await h.slash("config organiser-role", user="admin")
        assert "none" in cleared.content
        assert (await h.bot.guild_settings.get(h.guild.id)).organiser_role_id is None


async def test_help_lists_commands_with_localized_descriptions(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        english = await h.slash("help")
        assert "`/ping` — Check that the bot is alive" in english.embed["description"]
        assert (
            "`/config ruleset` — Choose the ruleset for deck checks and games" in english.embed["description"]
        )
        japanese = await h.slash("help", locale="ja")
        assert japanese.embed["title"] == "Podkeeper のコマンド"
        assert "`/ping` — ボットが動いているか確認します" in japanese.embed["description"]


async def test_ping_reports_the_version(tmp_path) -> None:
    import bot

    async with DiscordHarness.start(tmp_path) as h:
        reply = await h.slash("ping", locale="zh-CN")
        assert reply.content == f"乒！网关延迟：–毫秒 · Podkeeper {bot.__version__}"  # no gateway in-process


@pytest.mark.parametrize("locale", ["en-US", "ja", "zh-CN", "zh-TW"])
async def test_help_shows_every_command_in_pages_in_every_language(tmp_path, locale: str) -> None:
    """The whole command list is longer than one embed holds: a select turns the pages, and together
    the pages name every command (cutting the list once hid the tournament commands)."""
    from cogs._help import leaf_commands

    async with DiscordHarness.start(tmp_path) as h:
        reply = await h.slash("help", locale=locale)
        assert reply.ephemeral
        selects = reply.message.selects
        pages = [option["value"] for option in selects[0]["options"]] if selects else ["0"]
        if locale == "en-US":  # the English list is the longest: more than one embed holds
            assert len(pages) >= 2
        shown = reply.embed["description"]
        for value in pages[1:]:
            turned = await h.select(reply.message, "help:page", [value], locale=locale)
            shown += "\n" + turned.embed["description"]
            assert turned.embed["footer"]["text"].startswith(
                {
                    "en-US": f"Page {int(value) + 1} of",
                    "ja": f"{int(value) + 1} /",
                    "zh-CN": f"第 {int(value) + 1} 页",
                    "zh-TW": f"第 {int(value) + 1} 頁",
                }[locale]
            )
        for command in leaf_commands(h.bot.tree):
            assert f"`/{command.qualified_name}` — " in shown, command.qualified_name
