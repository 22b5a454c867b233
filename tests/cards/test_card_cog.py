"""``/card`` through the real command tree with only Discord's HTTP edge faked (bot/testing harness)."""

from __future__ import annotations

import pytest
import pytest_asyncio

from bot.cards.index import choice_id
from bot.testing import DiscordHarness
from tests.cards.conftest import SUBSET

# /card only reads, so one bot serves every test of this module (a start costs ~0.5 s).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def harness(tmp_path_factory: pytest.TempPathFactory):
    async with DiscordHarness.start(tmp_path_factory.mktemp("card-cog"), cards_path=str(SUBSET)) as h:
        yield h


async def test_card_embed_in_english(harness: DiscordHarness) -> None:
    reply = await harness.slash("card", name="lim dul's vault")
    assert not reply.ephemeral
    embed = reply.embed
    assert embed["title"] == "Lim-Dûl's Vault"
    assert embed["description"].startswith("{U}{B}\n**Instant**\nLook at the top five cards")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields == {"Colour identity": "UB", "Commander": "Legal"}


async def test_card_embed_in_japanese_with_the_printed_name(harness: DiscordHarness) -> None:
    reply = await harness.slash("card", name="稲妻", locale="ja")
    embed = reply.embed
    assert embed["title"] == "稲妻 (Lightning Bolt)"
    assert "{R}" in embed["description"] and "Lightning Bolt deals 3 damage" in embed["description"]
    assert {f["name"]: f["value"] for f in embed["fields"]} == {"固有色": "R", "統率者戦": "適正"}


async def test_multi_face_card_shows_every_face_with_printed_face_names(harness: DiscordHarness) -> None:
    reply = await harness.slash("card", name="Kenzo the Hardhearted", locale="zh-CN")
    embed = reply.embed
    assert embed["title"] == "生手武士 // 无情的谦造 (Bushi Tenderfoot // Kenzo the Hardhearted)"
    faces = embed["fields"][:2]
    assert faces[0]["name"] == "生手武士 (Bushi Tenderfoot)  {W}"
    assert faces[1]["name"] == "无情的谦造 (Kenzo the Hardhearted)  {W}"
    assert "力量/防御力：3/4" in faces[1]["value"]
    assert embed["fields"][2] == {"name": "标识色", "value": "W", "inline": True}


async def test_planeswalker_loyalty_and_banned_card(harness: DiscordHarness) -> None:
    jace = (await harness.slash("card", name="Jace, the Mind Sculptor", locale="zh-TW")).embed
    assert "忠誠：3" in jace["description"]
    assert {f["name"]: f["value"] for f in jace["fields"]}[
        "指揮官"
    ] == "合法"  # legal in Commander since 2024
    crypt = (await harness.slash("card", name="mana crypt")).embed
    assert {f["name"]: f["value"] for f in crypt["fields"]} == {
        "Colour identity": "Colourless",
        "Commander": "Banned",
    }


async def test_unknown_name_gets_a_localized_did_you_mean(harness: DiscordHarness) -> None:
    reply = await harness.slash("card", name="Lightnig Bolt", locale="ja")
    assert reply.ephemeral and not reply.embeds
    assert reply.content.startswith(
        "「Lightnig Bolt」という名前のカードは見つかりません。もしかして：Lightning Bolt"
    )
    nothing = await harness.slash("card", name="qqqqxzzzvv")
    assert nothing.content == (
        "No card is named “qqqqxzzzvv”. No card in the card data comes close to it: it may "
        "be newer than the data. The bot's operator can bring current card data with "
        "`podkeeper cards sync`."
    )


async def test_ambiguous_name_lists_the_cards(harness: DiscordHarness) -> None:
    reply = await harness.slash("card", name="重生", locale="zh-CN")
    assert reply.ephemeral
    assert reply.content == "“重生”是多张牌的名称：Regenerate、Regeneration。请从列表中选择。"


async def test_autocomplete_in_the_users_language(harness: DiscordHarness) -> None:
    choices = await harness.autocomplete("card", "name", "稲", locale="ja")
    assert choices[0] == {"name": "稲妻 (Lightning Bolt)", "value": choice_id("Lightning Bolt")}
    picked = await harness.slash("card", locale="ja", name=choices[0]["value"])  # what the client sends back
    assert picked.embed["title"].startswith("稲妻")
    english = await harness.autocomplete("card", "name", "sol r")
    assert english[0] == {"name": "Sol Ring", "value": choice_id("Sol Ring")}
    assert len(await harness.autocomplete("card", "name", "a")) == 25
    assert await harness.autocomplete("card", "name", "") == []


async def test_command_and_option_names_are_localized(harness: DiscordHarness) -> None:
    command = harness.bot.tree.get_command("card")
    payload = await command.get_translated_payload(harness.bot.tree, harness.bot.tree.translator)
    assert payload["name_localizations"] == {"ja": "カード", "zh-CN": "牌", "zh-TW": "牌"}
    option = payload["options"][0]
    assert option["name"] == "name" and option["autocomplete"] is True
    assert option["name_localizations"] == {"ja": "名前", "zh-CN": "名称", "zh-TW": "名稱"}
    assert option["description_localizations"]["ja"] == "カード名。一覧から選ぶか入力してください"
