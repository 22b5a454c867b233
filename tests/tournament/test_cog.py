"""The /tournament commands and the democratic vote through the real bot (bot.testing harness)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.domain import pod
from bot.services.pods import PodService
from bot.testing.harness import DiscordHarness

CARDS = Path(__file__).parent.parent / "data" / "tournament_cards.jsonl"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=("alice", "bob", "carol", "dave")) as harness:
        yield harness


async def test_create_needs_an_organiser(h):
    reply = await h.slash("tournament create", user="alice", name="Friday")
    assert reply.ephemeral and "Only organisers" in reply.content
    reply = await h.slash("tournament create", user="admin", name="Friday", rounds=2)
    assert not reply.ephemeral and "Friday" in reply.text and "Democratic victory (T3)" in reply.text


async def start_tournament(h, players=("alice", "bob", "carol", "dave"), **options):
    await h.slash("tournament create", user="admin", name="Friday", channel="games", **options)
    for name in players:
        reply = await h.slash("tournament join", user=name, channel="games")
        assert not reply.ephemeral, reply.content
    tournament = await h.bot.get_cog("Tournaments").service.active(h.guild.id)
    return tournament


async def finish_linked_game(h, tournament, players=("alice", "bob", "carol", "dave")):
    """A real pod game linked to round 1: dave and carol are knocked out, alice and bob draw."""
    pods = PodService(h.bot.db, notify=h.bot.dispatch)
    ids = [h.user(name).id for name in players]
    game = await pods.start_game(guild_id=h.guild.id, channel_id=h.channel("games").id, created_by=ids[0],
                                 players=[(i, n) for i, n in zip(ids, players, strict=True)], ruleset="commander",
                                 tournament_id=tournament.tournament_id, round_number=1)
    await pods.change(game.game_id, ids[0], pod.NEXT_TURN)
    await pods.change(game.game_id, ids[3], pod.CONCEDE, player=ids[3])
    await pods.change(game.game_id, ids[2], pod.CONCEDE, player=ids[2])
    await pods.change(game.game_id, ids[0], pod.DRAW_VOTE, player=ids[0])
    await pods.change(game.game_id, ids[1], pod.DRAW_VOTE, player=ids[1])
    await listeners_done(h)
    return game.game_id


async def listeners_done(h):
    """Wait for the bot's ``on_pod_game_finished`` listeners (``h.settle()`` only waits for tasks
    started after it is called, and the dispatch happened before)."""
    await asyncio.gather(*(task for task in asyncio.all_tasks()
                           if task.get_name() == "discord.py: on_pod_game_finished"))
    await h.settle()


def vote_message(h):
    (message,) = [m for m in h.messages("games") if m.embeds and "democratic vote" in m.embeds[0]["title"]]
    return message


async def test_democratic_vote_end_to_end(h):
    tournament = await start_tournament(h)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    assert message.embeds[0]["footer"]["text"] == "0/4 have voted"
    description = message.embeds[0]["description"]
    stranger = h.add_member("erin")
    refused = await h.click(message, label="Vote", user=stranger)
    assert refused.ephemeral and "did not play at the table" in refused.content

    ballot = await h.click(message, label="Vote", user="dave")  # knocked out, still votes (T3)
    assert ballot.ephemeral
    (menu,) = [c for c in ballot.message.walk_components() if c.get("type") == 3]
    assert sorted(o["label"] for o in menu["options"]) == ["alice", "bob", "carol"]  # not oneself
    chosen = await h.select(ballot.message, menu["custom_id"], [str(h.user("carol").id)], user="dave")
    assert "Your vote" in chosen.message.content
    assert message.embeds[0]["footer"]["text"] == "1/4 have voted"
    # secret: the table sees only the count, never who voted or for whom
    assert message.embeds[0]["description"] == description and not message.embeds[0].get("fields")
    # dave changes his vote; still one vote
    ballot = await h.click(message, label="Vote", user="dave")
    await h.select(ballot.message, menu["custom_id"], [str(h.user("alice").id)], user="dave")
    assert message.embeds[0]["footer"]["text"] == "1/4 have voted"

    for voter, votee in (("alice", "bob"), ("bob", "alice"), ("carol", "alice")):
        ballot = await h.click(message, label="Vote", user=voter)
        await h.select(ballot.message, menu["custom_id"], [str(h.user(votee).id)], user=voter)
    await h.settle()
    result = message.embeds[0]
    assert result["title"] == f"Game {game_id}: result of the vote"
    assert message.components == []
    alice = h.user("alice").id
    assert f"<@{alice}>: survived ✅ · 3 votes · **5 points**" in result["description"]
    assert f"<@{h.user('dave').id}>: survived — · 0 votes · **0 points**" in result["description"]

    standings = await h.slash("tournament standings", user="carol", channel="games")
    assert f"**1.** <@{alice}>: 5 pts" in standings.embed["description"]
    assert set(standings.files) == {"standings.png", "standings.csv"}
    assert standings.files["standings.png"][:8] == b"\x89PNG\r\n\x1a\n"
    csv_lines = standings.files["standings.csv"].decode().splitlines()
    assert csv_lines[1].startswith("1,alice,5,")


async def test_open_vote_survives_a_restart(h):
    tournament = await start_tournament(h)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    ballot = await h.click(message, label="Vote", user="alice")
    (menu,) = [c for c in ballot.message.walk_components() if c.get("type") == 3]
    await h.select(ballot.message, menu["custom_id"], [str(h.user("bob").id)], user="alice")
    await h.restart()
    # the old message's button and the old private select still work (DynamicItem)
    await h.select(ballot.message, menu["custom_id"], [str(h.user("carol").id)], user="alice")
    ballot = await h.click(message, label="Vote", user="bob")
    assert ballot.ephemeral and any(c.get("type") == 3 for c in ballot.message.walk_components())
    votes = await h.bot.get_cog("Tournaments").service.repo.votes(game_id)
    assert votes == {h.user("alice").id: h.user("carol").id}


async def test_deadline_passed_while_down_closes_on_start(h):
    tournament = await start_tournament(h)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    ballot = await h.click(message, label="Vote", user="carol")
    (menu,) = [c for c in ballot.message.walk_components() if c.get("type") == 3]
    await h.select(ballot.message, menu["custom_id"], [str(h.user("dave").id)], user="carol")
    await h.bot.db.execute("UPDATE tournament_games SET vote_deadline = ? WHERE game_id = ?",
                           ("2000-01-01T00:00:00+00:00", game_id))
    await h.restart()
    await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name() == f"tournament-vote-{game_id}"))
    await h.settle()
    assert message.embeds[0]["title"] == f"Game {game_id}: result of the vote"
    dave = h.user("dave").id
    assert f"<@{dave}>: survived — · 1 votes · **1 points**" in message.embeds[0]["description"]
    refused = await h.select(ballot.message, menu["custom_id"], [str(h.user("alice").id)], user="carol")
    assert refused.ephemeral and "has closed" in refused.content
