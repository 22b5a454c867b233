"""Seasons through the real bot (bot.testing harness): /season commands, each finished pod game posted
with Confirm and Dispute buttons for its table, standings and the CSV export, on both engines."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest

from bot.domain import pod
from bot.testing.harness import DiscordHarness

pytestmark = pytest.mark.both_engines


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol", "dave")) as harness:
        yield harness


async def listeners_done(h) -> None:
    """Wait for the bot's ``on_pod_game_finished`` listeners (dispatched before ``settle`` was called)."""
    await asyncio.gather(
        *(task for task in asyncio.all_tasks() if task.get_name() == "discord.py: on_pod_game_finished")
    )
    await h.settle()


async def play(h, players=("alice", "bob", "carol"), *, channel="games", **start) -> int:
    """Start a game with /pod start and play it through the pod tracker: the first player knocks the
    second out with combat damage, the rest concede. Returns the game id."""
    mentions = " ".join(h.user(name).mention for name in players)
    await h.slash("pod start", user=players[0], channel=channel, players=mentions, **start)
    pods = h.bot.get_cog("Pods").service
    (row,) = [r for r in await pods.recent(h.guild.id, 1)]
    first, second, *rest = (h.user(name).id for name in players)
    await pods.change(row.game_id, first, pod.NEXT_TURN)
    await pods.change(row.game_id, first, pod.LIFE, player=second, amount=-40, source=first, combat=True)
    for user in rest:
        await pods.change(row.game_id, user, pod.CONCEDE, player=user)
    await listeners_done(h)
    return row.game_id


def result_message(h, game_id: int, channel="games"):
    (message,) = [
        m for m in h.messages(channel) if m.embeds and f"game {game_id}: result" in m.embeds[0]["title"]
    ]
    return message


async def test_a_finished_game_is_confirmed_by_its_table_and_counts_in_the_standings(h):
    refused = await h.slash("season open", user="alice", name="Spring")
    assert refused.ephemeral and "Only organisers" in refused.content
    opened = await h.slash("season open", user="admin", name="Spring", points="win=5 e=2", min_games=1)
    assert not opened.ephemeral and "Spring" in opened.text and "5 points for a win" in opened.text
    game_id = await play(h)
    message = result_message(h, game_id)
    alice, bob, carol = (h.user(n).id for n in ("alice", "bob", "carol"))
    assert f"<@{alice}>: won · 1 elimination · **7 pts**" in message.embeds[0]["description"]
    assert f"<@{bob}>: out · 0 eliminations · **0 pts**" in message.embeds[0]["description"]
    assert "0/3 confirmed" in message.embeds[0]["description"]
    assert {b["label"] for b in message.buttons} == {"Confirm", "Dispute"}

    bystander = await h.click(message, label="Confirm", user="dave")
    assert bystander.ephemeral and "Only the players at that table" in bystander.content
    assert "0/3 confirmed" in message.embeds[0]["description"]

    before = await h.slash("season standings", user="dave")
    assert "No result counts yet." in before.embed["description"]
    assert "waiting for the table or an organiser: 1" in before.embed["footer"]["text"]

    pressed = await h.click(message, label="Confirm", user="alice")
    assert "You confirmed the result of game" in pressed.text
    assert "1/3 confirmed" in message.embeds[0]["description"]
    await h.click(message, label="Confirm", user="bob")
    answered = await h.slash("season result", user="carol", game=game_id, answer="confirm", locale="ja")
    assert answered.ephemeral and f"ゲーム{game_id}の結果を確認しました" in answered.content
    await h.settle()
    assert "everyone at the table confirmed" in message.embeds[0]["description"] and message.components == []

    standings = await h.slash("season standings", user="dave")
    assert standings.embed["title"] == "Standings: Spring (open)"
    lines = standings.embed["description"].splitlines()
    assert lines[0] == f"**1.** <@{alice}>: 7 pts · 1 game · 1 won · 1 elimination"
    assert f"**2.** <@{bob}>: 0 pts" in lines[1] and f"**2.** <@{carol}>: 0 pts" in lines[2]  # a shared place


async def test_a_dispute_waits_for_an_organiser_who_decides(h):
    await h.slash("season open", user="admin", name="Summer")
    game_id = await play(h, ("bob", "carol"))
    message = result_message(h, game_id)
    await h.click(message, label="Dispute", user="carol")
    assert f"Disputed by <@{h.user('carol').id}>" in message.embeds[0]["description"]
    refused = await h.slash("season decide", user="bob", game=game_id, decision="void")
    assert refused.ephemeral and "Only organisers" in refused.content
    decided = await h.slash("season decide", user="admin", game=game_id, decision="void", locale="zh-TW")
    assert f"第{game_id}局：結果已作廢" in decided.content
    await h.settle()
    assert "voided" in message.embeds[0]["description"] and message.components == []
    again = await h.slash("season result", user="bob", game=game_id, answer="confirm")
    assert again.ephemeral and "already final" in again.content
    standings = await h.slash("season standings", user="bob")
    assert "No result counts yet." in standings.embed["description"]
    await h.slash("season decide", user="admin", game=game_id, decision="accept")
    standings = await h.slash("season standings", user="bob")
    assert f"**1.** <@{h.user('bob').id}>: 4 pts" in standings.embed["description"]


async def test_games_before_the_season_after_it_or_of_a_tournament_are_not_scored(h):
    await play(h, ("alice", "bob"))
    assert not [m for m in h.messages("games") if m.embeds and ": result" in m.embeds[0]["title"]]
    none = await h.slash("season standings", user="alice")
    assert none.ephemeral and "no seasons yet" in none.content
    await h.slash("season open", user="admin", name="Autumn")
    twice = await h.slash("season open", user="admin", name="Winter")
    assert twice.ephemeral and "“Autumn” is still open" in twice.content
    closed = await h.slash("season close", user="admin")
    assert "Season “Autumn” is closed" in closed.content
    reused = await h.slash("season open", user="admin", name="Autumn")
    assert reused.ephemeral and "already had a season called “Autumn”" in reused.content
    await play(h, ("alice", "bob"))
    assert not [m for m in h.messages("games") if m.embeds and ": result" in m.embeds[0]["title"]]
    bad = await h.slash("season open", user="admin", name="Winter", points="win=3 lose=1", locale="ja")
    assert bad.ephemeral and "「lose=1」を読み取れません" in bad.content
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM seasons") == 1  # nothing changed


async def test_a_league_only_season_scores_only_games_started_for_the_league(h):
    await h.slash("season open", user="admin", name="League", league_only=True)
    casual = await play(h, ("alice", "bob"))
    league = await play(h, ("carol", "dave"), league=True)
    titles = [
        m.embeds[0]["title"] for m in h.messages("games") if m.embeds and ": result" in m.embeds[0]["title"]
    ]
    assert titles == [f"League · game {league}: result"]
    assert casual != league


async def test_the_export_is_utf8_csv_with_a_bom_and_cjk_names(h):
    h.add_member("山田")
    await h.slash("season open", user="admin", name="春", min_games=2)
    game_id = await play(h, ("山田", "bob"))
    await h.slash("season decide", user="admin", game=game_id, decision="accept")
    exported = await h.slash("season export", user="bob", locale="ja")
    assert exported.ephemeral
    (data,) = exported.files.values()
    assert data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == [
        "順位",
        "プレイヤー",
        "ユーザーID",
        "ポイント",
        "ゲーム数",
        "勝利数",
        "撃破数",
        "順位あり",
    ]
    assert rows[1] == [
        "",
        "山田",
        str(h.user("山田").id),
        "4",
        "1",
        "1",
        "1",
        "いいえ",
    ]  # 1 game of the 2 needed


async def test_the_result_buttons_work_after_a_restart(h):
    await h.slash("season open", user="admin", name="Spring")
    game_id = await play(h, ("alice", "bob"))
    await h.restart()
    message = result_message(h, game_id)
    await h.click(message, label="Confirm", user="alice")
    await h.click(message, label="Confirm", user="bob")
    assert message.components == []


async def test_a_game_that_finished_while_no_season_listener_heard_it_is_scored_at_the_next_start(h):
    await h.slash("season open", user="admin", name="Spring")
    await h.bot.remove_cog("Seasons")  # as if the bot stopped between the game's last event and scoring it
    game_id = await play(h, ("alice", "bob"))
    assert not [m for m in h.messages("games") if m.embeds and ": result" in m.embeds[0]["title"]]
    await h.restart()
    assert (await h.bot.reconciled)["seasons"] == 1  # the pass runs in the background once the bot is ready
    await h.settle()
    message = result_message(h, game_id)
    assert "0/2 confirmed" in message.embeds[0]["description"]
    await h.restart()  # scored once: a second start posts nothing more
    assert (await h.bot.reconciled)["seasons"] == 0
    await h.settle()
    assert len([m for m in h.messages("games") if m.embeds and ": result" in m.embeds[0]["title"]]) == 1
