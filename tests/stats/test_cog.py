"""/stats through the real bot (bot/testing harness): pods are played with the /pod commands, then /stats
answers from what their finishes stored, in the reader's language, with a chart whose bars are checked
pixel by pixel. A member who deleted their data is "deleted member" in the others' head-to-heads."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import t
from bot.render import stats as chart
from bot.services.privacy import PrivacyService
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA

pytestmark = pytest.mark.both_engines

CARDS = TEST_DATA / "pods_cards.jsonl"
LANGUAGE = {"en-US": "en", "ja": "ja", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=("alice", "bob", "carol")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


def mention(h, *names: str) -> str:
    return " ".join(f"<@{h.user(name).id}>" for name in names)


async def play_two_games(h) -> None:
    """Game 1: Alice's Atraxa deals Bob 21 commander damage, Carol concedes: Alice wins. Game 2: Alice
    concedes to Bob."""
    await h.slash("pod start", players=mention(h, "alice", "bob", "carol"))
    await h.slash("pod commander", user="alice", name="Atraxa, Praetors' Voice")
    await h.slash("pod commander", user="bob", name="Kenrith, the Returned King")
    await h.slash("pod commander", user="carol", name="Tymna the Weaver", partner="Thrasios, Triton Hero")
    await h.slash("pod next", user="alice")
    await h.slash("pod damage", user="alice", owner="alice", target="bob", amount=21)
    await h.slash("pod concede", user="carol")
    await h.slash("pod start", players=mention(h, "alice", "bob"))
    await h.slash("pod commander", user="alice", name="Atraxa, Praetors' Voice", game=2)
    await h.slash("pod commander", user="bob", name="Kenrith, the Returned King", game=2)
    await h.slash("pod next", user="alice", game=2)
    await h.slash("pod concede", user="alice", game=2)
    await h.settle()


def decoded(reply) -> Image.Image:
    return Image.open(io.BytesIO(reply.files[chart.CHART])).convert("RGB")


async def test_stats_me_counts_the_games_played_with_pod_commands(h):
    await play_two_games(h)
    reply = await h.slash("stats me", user="alice")
    embed = reply.embed
    assert "2 games · 1 win · win rate 50%" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["By commander"] == "Atraxa, Praetors' Voice: 2 games, 1 win (50%)"
    assert fields["How they were eliminated"] == "conceded: 1"
    assert fields["Whom they eliminated"] == "commander damage: 1"
    assert f"{mention(h, 'bob')}: 2 games together, won 1, they won 1" in fields["Head-to-head"]
    assert f"{mention(h, 'carol')}: 1 game together, won 1, they won 0" in fields["Head-to-head"]
    assert embed["image"]["url"] == f"attachment://{chart.CHART}"
    image = decoded(reply)
    left, top, right, bottom = chart.bar_box(0, chart.TITLE_HEIGHT)
    middle = (top + bottom) // 2
    half = left + (right - left) // 2
    assert image.getpixel((left + 5, middle)) == chart.WIN  # Atraxa: 50 % filled ...
    assert image.getpixel((half - 5, middle)) == chart.WIN
    assert image.getpixel((half + 5, middle)) == chart.TRACK  # ... and no further
    assert not reply.message.pings.users  # mentions name members without pinging them


async def test_stats_server_and_commander_in_the_readers_language(h):
    await play_two_games(h)
    reply = await h.slash("stats server", user="bob", locale="ja")
    embed = reply.embed
    assert "3人のプレイヤーによる2ゲーム" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert "法務官の声、アトラクサ：2ゲーム、1勝（50%）" in fields["最も使われた統率者"]
    # Atraxa twice and Tymna + Thrasios (WB with UG) once: WUBG, read from the card data at each finish
    assert fields["最も使われた固有色"] == "WUBG：3ゲーム、1勝（33%）\nWUBRG：2ゲーム、1勝（50%）"
    assert decoded(reply).width == chart.WIDTH
    choices = await h.autocomplete("stats commander", "name", "atr", user="bob")
    assert [c["value"] for c in choices] == ["Atraxa, Praetors' Voice"]
    commander = await h.slash("stats commander", user="bob", name=choices[0]["value"])
    assert "2 games · 1 win · win rate 50%" in commander.embed["description"]
    assert "1 opponent eliminated by its pilots" in commander.embed["description"]


@pytest.mark.parametrize("locale", list(LANGUAGE))
async def test_nothing_to_show_is_said_in_every_language(h, locale):
    language = LANGUAGE[locale]
    empty = await h.slash("stats server", user="alice", locale=locale)
    assert empty.ephemeral and empty.content == t("stats.empty.server", language)
    unknown = await h.slash("stats commander", user="alice", locale=locale, name="Nobody's Commander")
    assert unknown.ephemeral and unknown.content == t(
        "stats.error.unknown_commander", language, name="Nobody's Commander"
    )


async def test_a_deleted_member_is_gone_from_the_figures_and_a_deleted_member_to_others(h):
    await play_two_games(h)
    bob = h.user("bob").id
    await PrivacyService(h.bot.db).delete_member(bob)
    gone = await h.slash("stats member", user="alice", member="bob")
    assert gone.ephemeral and "no finished games" in gone.content
    reply = await h.slash("stats me", user="alice", locale="zh-TW")
    head_to_head = {f["name"]: f["value"] for f in reply.embed["fields"]}["交手戰績"]
    assert "已刪除成員：同桌2局，自己勝1局，對方勝1局" in head_to_head
    assert str(bob) not in reply.text
    server = await h.slash("stats server", user="alice")
    assert str(bob) not in server.text
