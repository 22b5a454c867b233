"""Which language the bot speaks: per user for replies, per server for boards everyone reads."""

from __future__ import annotations

from pathlib import Path

from bot.testing import DiscordHarness


async def test_table_language_prefers_server_setting_then_discord_locale(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, guild_locale="zh-TW") as h:
        assert await h.bot.guild_language(h.guild.id) == "zh-Hant"
        await h.bot.guild_settings.update(h.guild.id, locale="ja")
        assert await h.bot.guild_language(h.guild.id) == "ja"
        assert await h.bot.guild_language(None) == h.bot.config.default_locale


async def test_replies_follow_the_user_before_the_server(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, guild_locale="zh-TW") as h:
        japanese = await h.slash("help", locale="ja")
        server = await h.slash("help", locale="fr")  # a locale we don't translate: the server's language
        assert japanese.text != server.text
        assert any("\u3040" <= ch <= "\u30ff" for ch in japanese.text)  # kana: Japanese
        assert any("\u4e00" <= ch <= "\u9fff" for ch in server.text)  # hanzi ...
        assert not any("\u3040" <= ch <= "\u30ff" for ch in server.text)  # ... and no kana: Chinese
