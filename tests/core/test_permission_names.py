"""A permission is named in Discord's own words for the member's language, so that an admin who reads the
bot's refusal finds the same switch in Server Settings → Roles. Discord renamed some of them when forum
posts and join requests came ("Send Messages and Create Posts", "Kick, Approve, and Reject Members"); these
are the names the Japanese and Traditional Chinese clients show now (docs/contributors/translating.md
says where they were checked)."""

from __future__ import annotations

import pytest

from bot.i18n import t

CLIENT_NAMES = {
    ("send_messages", "ja"): "メッセージの送信と投稿の作成",
    ("send_messages_in_threads", "ja"): "スレッドと投稿でメッセージを送信",
    ("manage_threads", "ja"): "スレッドと投稿の管理",
    ("kick_members", "ja"): "メンバーのキック、承認、拒否",
    ("view_channel", "ja"): "チャンネルを見る",
    ("manage_guild", "ja"): "サーバー管理",
    ("send_messages", "zh-Hant"): "傳送訊息和建立貼文",
    ("send_messages_in_threads", "zh-Hant"): "在討論串和貼文中傳送訊息",
    ("manage_threads", "zh-Hant"): "管理討論串和貼文",
    ("manage_webhooks", "zh-Hant"): "管理 Webhooks",
    ("view_channel", "zh-Hant"): "檢視頻道",
}


@pytest.mark.parametrize(("permission", "language"), sorted(CLIENT_NAMES))
def test_a_permission_reads_as_the_discord_client_names_it(permission: str, language: str) -> None:
    assert t(f"core.permission.{permission}", language) == CLIENT_NAMES[permission, language]
