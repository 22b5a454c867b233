"""One language rule for every reply: the member's /config my-language, their Discord language, the server's
/config locale, the server's Discord language, English; ``/config show`` says which applied and why."""

from __future__ import annotations

from pathlib import Path

from bot.testing import DiscordHarness


def _kana(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" for ch in text)


def _fields(reply) -> dict[str, str]:
    return {field["name"]: field["value"] for field in reply.embed["fields"]}


async def test_a_members_choice_beats_their_discord_language_in_private_and_public_replies(
    tmp_path: Path,
) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        chosen = await h.slash("config my-language", user="alice", locale="en-US", language="ja")
        assert chosen.content == "あなたへの返信は、どのサーバーでも日本語になります。"
        helped = await h.slash("help", user="alice", locale="en-US")  # private reply
        assert helped.ephemeral and helped.embed["title"] == "Podkeeper のコマンド"
        odds = await h.slash("odds", user="alice", locale="en-US", deck_size=99, copies=4, drawn=7, want=1)
        assert not odds.ephemeral and _kana(odds.text)  # public reply, same rule
        bob = await h.slash("help", user="bob", locale="en-US")  # a choice is one member's, not the server's
        assert bob.embed["title"] == "Podkeeper commands"
        shown = await h.slash("config show", user="alice", locale="en-US")
        # Her English client lists the commands by their English names, whatever language she reads replies in.
        assert _fields(shown)["あなたへの返信"] == "日本語：あなたの選択（/config my-language）"


async def test_the_choice_is_stored_per_member_and_survives_a_restart(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        await h.slash("config my-language", user="bob", language="zh-Hant")
        await h.restart()
        assert await h.bot.user_settings.language(h.user("bob").id) == "zh-Hant"
        assert (await h.slash("help", user="bob")).embed["title"] == "Podkeeper 指令"
        cleared = await h.slash("config my-language", user="bob", locale="ja", language="auto")
        assert cleared.content.startswith("選択を解除しました") and "日本語" in cleared.content
        assert await h.bot.user_settings.language(h.user("bob").id) is None


async def test_show_explains_each_step_of_the_rule(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, guild_locale="zh-TW") as h:
        mine = _fields(await h.slash("config show", user="carol", locale="en-US"))
        assert mine["Your replies"].startswith("English: your Discord language")
        # French is not translated: the server's Discord language (zh-TW) until the server chooses one.
        french = _fields(await h.slash("config show", user="carol", locale="fr"))
        assert french["給你的回覆"].startswith("繁體中文：本伺服器的 Discord 語言")
        await h.slash("config locale", user="admin", options={"locale": "ja"})
        french = _fields(await h.slash("config show", user="carol", locale="fr"))
        # A French client lists the commands by their own (English) names: no French ones are registered.
        assert french["あなたへの返信"].startswith("日本語：このサーバーの設定（/config locale）")


async def test_the_bot_default_is_last(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, guild_locale="fr") as h:
        shown = _fields(await h.slash("config show", user="carol", locale="de"))
        assert shown["Your replies"] == "English: the bot's default, as no other language applies"


async def test_boards_that_belong_to_no_member_use_the_server_language(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, guild_locale="en-US") as h:
        await h.slash("config my-language", user="alice", language="ja")
        await h.slash("config locale", user="admin", options={"locale": "zh-Hans"})
        assert await h.bot.guild_language(h.guild.id) == "zh-Hans"
        assert await h.bot.language_for_member(h.guild.id, h.user("alice").id) == "ja"


async def test_command_paths_follow_the_members_client_not_the_reply_language(tmp_path: Path) -> None:
    """Discord lists the commands in the names of the member's client locale: a reply in English to a
    Japanese client names "/設定 自分の言語", and a Japanese reply to an English client "/config my-language"."""
    async with DiscordHarness.start(tmp_path) as h:
        await h.slash("config my-language", user="alice", locale="ja", language="en")
        shown = _fields(await h.slash("config show", user="alice", locale="ja"))
        assert shown["Your replies"] == "English: your own choice (/設定 自分の言語)"
        await h.slash("config my-language", user="bob", locale="zh-TW", language="ja")
        shown = _fields(await h.slash("config show", user="bob", locale="zh-TW"))
        assert shown["あなたへの返信"] == "日本語：あなたの選択（/設定 我的語言）"
        shown = _fields(
            await h.slash("config show", user="carol", locale="ja")
        )  # no choice: the same language
        assert shown["あなたへの返信"].startswith("日本語：あなたの Discord の言語")
