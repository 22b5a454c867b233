"""A 1-vs-1 tournament of matches through the real bot: /tournament create format: matches, pairs with
a bye, match boards, no democratic vote per game, and match-point standings."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.i18n import t
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA

CARDS = TEST_DATA / "tournament_cards.jsonl"
PLAYERS = ("alice", "bob", "carol", "dave", "erin")


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=PLAYERS) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


async def _play_match(h, game_id: int, loser: int) -> None:
    """``loser`` concedes two games in a row (2-0 for the other player)."""
    pods = h.bot.get_cog("Pods")
    service = pods.match_step.service
    for _ in range(2):
        await pods.service.change(game_id, loser, pod.NEXT_TURN)
        await pods.service.change(game_id, loser, pod.CONCEDE, player=loser)
        match = await service.for_game(await pods.service.get(game_id))
        if not match.state.finished:
            _, game = await service.next_game(match.match_id, loser, loser)
            game_id = game.game_id


async def test_a_tournament_of_matches(h):
    await h.slash(
        "tournament create", user="admin", name="Duels", rounds=2, format="matches", channel="games"
    )
    for name in PLAYERS:
        await h.slash("tournament join", user=name, channel="games")
    paired = await h.slash("tournament pair", user="admin", channel="games")
    await h.settle()
    assert "best of three" in paired.text and "Bye:" in paired.text
    boards = [
        m
        for m in h.messages("games")
        if any("Match · game 1 of 3" in f.get("name", "") for e in m.embeds for f in e.get("fields", []))
    ]
    assert len(boards) == 2
    pods = h.bot.get_cog("Pods")
    games = [row for row in await pods.service.open_in_channel(h.channel("games").id)]
    assert len(games) == 2
    for row in games:
        state = (await pods.service.get(row.game_id)).state
        await _play_match(h, row.game_id, state.players[1].user_id)
    await h.settle()
    assert not [m for m in h.messages("games") if "Vote" in str(m.components)]  # no T3 vote per game

    standings = await h.slash("tournament standings", user="carol", channel="games")
    assert "3 pts (1-0-0)" in standings.text and "0 pts (0-1-0)" in standings.text
    assert "OMW 33.3%" in standings.text  # the floor: every loser's match-win % counts as 33%
    assert "least 33%" in standings.text

    assert set(standings.files) == {"standings.png", "standings.csv"}  # as for pods: embed, image and CSV
    assert standings.files["standings.png"][:8] == b"\x89PNG\r\n\x1a\n"
    header, *rows = standings.files["standings.csv"].decode().splitlines()
    assert header.startswith("rank,player,match_points,matches,match_wins") and len(rows) == len(PLAYERS)
    assert sum(row.split(",")[2] == "3" for row in rows) == 3  # two match winners and the bye

    again = await h.slash("tournament pair", user="admin", channel="games")
    assert "Table 1" in again.text  # round 2: the previous round's matches are over
    await h.settle()
    asked = await h.slash("tournament end", user="admin", channel="games", locale="zh-TW")
    assert asked.ephemeral and "1、2" in asked.text  # round 2's matches still run: ask first
    ended = await h.click(
        asked, label=t("tournament.end.confirm_button", "zh-Hant"), user="admin", locale="zh-TW"
    )
    await h.settle()
    final = h.messages("games")[-1]
    assert "結束" in final.content and "OMW" in str(final.embeds) and "（1-0-0）" in str(final.embeds)
    assert header in ended.files["standings.csv"].decode()
