"""The /tournament commands and the democratic vote through the real bot (bot.testing harness)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.domain import pod
from bot.testing.harness import DiscordHarness

# Discord-layer suite run on both engines (tests/conftest.py): the bot's database is SQLite, then PostgreSQL.
pytestmark = pytest.mark.both_engines

CARDS = Path(__file__).parent.parent / "data" / "tournament_cards.jsonl"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(
        tmp_path, cards_path=CARDS, members=("alice", "bob", "carol", "dave")
    ) as harness:
        yield harness


async def test_create_needs_an_organiser(h):
    reply = await h.slash("tournament create", user="alice", name="Friday")
    assert reply.ephemeral and "Only organisers" in reply.content
    reply = await h.slash("tournament create", user="admin", name="Friday", rounds=2)
    assert not reply.ephemeral and "Friday" in reply.text and "Democratic victory (T3)" in reply.text
    again = await h.slash("tournament create", user="admin", name="Saturday", locale="ja")
    assert again.ephemeral and "「Friday」が進行中" in again.content
    mixed = await h.slash("tournament create", user="admin", name="x", scoring="standard", vote=2)
    assert mixed.ephemeral and "only with custom scoring" in mixed.content
    bad = await h.slash("tournament create", user="admin", name="   ", locale="zh-TW")
    assert bad.ephemeral and "比賽名稱需要1到64個字元" in bad.content


async def start_tournament(h, players=("alice", "bob", "carol", "dave"), **options):
    await h.slash("tournament create", user="admin", name="Friday", channel="games", **options)
    for name in players:
        reply = await h.slash("tournament join", user=name, channel="games")
        assert not reply.ephemeral, reply.content
    tournament = await h.bot.get_cog("Tournaments").service.active(h.guild.id)
    return tournament


async def finish_linked_game(h, tournament):
    """Pair round 1 (one pod, its board from the pod tracker), then play that game through the pod
    tracker's own service: dave and carol concede, alice and bob agree a draw."""
    paired = await h.slash("tournament pair", user="admin", channel="games")
    assert "Table 1" in paired.text
    (pairing,) = await h.bot.get_cog("Tournaments").service.repo.pods(tournament.tournament_id, 1)
    assert pairing.game_id is not None, "the pod got no board"
    pods = h.bot.get_cog("Pods").service
    game = await pods.get(pairing.game_id)
    assert (game.row.tournament_id, game.row.round_number) == (tournament.tournament_id, 1)
    board = [
        m
        for m in h.messages("games")
        if any(str(c.get("custom_id", "")).startswith(f"pod:{game.game_id}:") for c in m.walk_components())
    ]
    assert len(board) == 1 and game.row.message_id == board[0].id
    alice, bob, carol, dave = (h.user(name).id for name in ("alice", "bob", "carol", "dave"))
    await pods.change(game.game_id, alice, pod.NEXT_TURN, manager=True)
    await pods.change(game.game_id, dave, pod.CONCEDE, player=dave)
    await pods.change(game.game_id, carol, pod.CONCEDE, player=carol)
    await pods.change(game.game_id, alice, pod.DRAW_VOTE, player=alice)
    await pods.change(game.game_id, bob, pod.DRAW_VOTE, player=bob)
    await listeners_done(h)
    return game.game_id


async def listeners_done(h):
    """Wait for the bot's ``on_pod_game_finished`` listeners (``h.settle()`` only waits for tasks
    started after it is called, and the dispatch happened before)."""
    await asyncio.gather(
        *(task for task in asyncio.all_tasks() if task.get_name() == "discord.py: on_pod_game_finished")
    )
    await h.settle()


async def cast(h, message, voter: str, votee: str):
    """``voter`` opens their ballot from the vote ``message`` and picks ``votee``; the ballot and its menu."""
    ballot = await h.click(message, label="Vote", user=voter)
    (menu,) = [c for c in ballot.message.walk_components() if c.get("type") == 3]
    await h.select(ballot.message, menu["custom_id"], [str(h.user(votee).id)], user=voter)
    return ballot, menu


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
    assert f"<@{alice}>: survived · 3 votes · **5 points**" in result["description"]
    assert f"<@{h.user('dave').id}>: out · 0 votes · **0 points**" in result["description"]

    standings = await h.slash("tournament standings", user="carol", channel="games")
    assert f"**1.** <@{alice}>: 5 pts" in standings.embed["description"]
    ended = await h.slash("tournament end", user="admin", channel="games")
    assert "Friday is over" in ended.text and f"**1.** <@{alice}>: 5 pts" in ended.text
    after = await h.slash(
        "tournament standings", user="carol", channel="games"
    )  # still visible after the end
    assert f"**1.** <@{alice}>: 5 pts" in after.embed["description"]
    assert (await h.slash("tournament join", user="carol")).ephemeral  # but nothing is running any more
    assert set(standings.files) == {"standings.png", "standings.csv"}
    assert standings.files["standings.png"][:8] == b"\x89PNG\r\n\x1a\n"
    csv_lines = standings.files["standings.csv"].decode().splitlines()
    assert csv_lines[1].startswith("1,alice,5,")


async def test_open_vote_survives_a_restart(h):
    tournament = await start_tournament(h)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    ballot, menu = await cast(h, message, "alice", "bob")
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
    ballot, menu = await cast(h, message, "carol", "dave")
    await h.bot.db.execute(
        "UPDATE tournament_games SET vote_deadline = ? WHERE game_id = ?",
        ("2000-01-01T00:00:00+00:00", game_id),
    )
    await h.restart()
    await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name() == f"tournament-vote-{game_id}"))
    await h.settle()
    assert message.embeds[0]["title"] == f"Game {game_id}: result of the vote"
    dave = h.user("dave").id
    assert f"<@{dave}>: out · 1 vote · **1 point**" in message.embeds[0]["description"]
    refused = await h.select(ballot.message, menu["custom_id"], [str(h.user("alice").id)], user="carol")
    assert refused.ephemeral and "has closed" in refused.content


async def test_the_vote_closes_at_its_deadline_on_the_bots_clock(h):
    tournament = await start_tournament(h, vote_minutes=5)
    game_id = await finish_linked_game(h, tournament)
    message = vote_message(h)
    ballot, menu = await cast(h, message, "carol", "dave")
    await h.advance(minutes=4, seconds=59)
    assert message.embeds[0]["title"] != f"Game {game_id}: result of the vote"  # still open
    await h.advance(seconds=1)
    assert message.embeds[0]["title"] == f"Game {game_id}: result of the vote"
    assert f"<@{h.user('dave').id}>: out · 1 vote · **1 point**" in message.embeds[0]["description"]


async def test_organiser_role_pairs_and_corrects_with_an_audit_log(h):
    tournament = await start_tournament(h)
    refused = await h.slash("tournament pair", user="carol", channel="games")
    assert refused.ephemeral and "Only organisers" in refused.content
    role = h.add_role("TO")
    organiser = h.add_member("olga", roles=[role])
    await h.bot.guild_settings.update(h.guild.id, organiser_role_id=role.id)
    paired = await h.slash("tournament pair", user=organiser, channel="games")
    assert not paired.ephemeral and "round 1 of 3" in paired.embed["title"]
    again = await h.slash("tournament pair", user=organiser, channel="games")
    assert again.ephemeral and "Round 1 is not over" in again.content

    bob = h.user("bob")
    bad = await h.slash("tournament correct", user=organiser, player=bob, points=0, reason="oops")
    assert bad.ephemeral and "not 0" in bad.content
    done = await h.slash("tournament correct", user=organiser, player=bob, points=3, reason="missed vote")
    assert f"<@{bob.id}> +3 points by <@{organiser.id}>. Reason: missed vote" in done.content
    log = await h.slash("tournament log", user="alice")
    assert f"<@{bob.id}> +3 by <@{organiser.id}>: missed vote" in log.embed["description"]
    standings = await h.slash("tournament standings", user="alice")
    assert standings.embed["description"].startswith(f"**1.** <@{bob.id}>: 3 pts")
    assert (
        tournament.tournament_id
        == (await h.bot.get_cog("Tournaments").service.active(h.guild.id)).tournament_id
    )


async def test_late_entry_and_drop(h):
    await start_tournament(h, players=("alice", "bob", "carol"))
    await h.slash("tournament pair", user="admin", channel="games")
    late = await h.slash("tournament join", user="dave", channel="games")  # still round 1
    assert not late.ephemeral and "(4 players)" in late.content
    left = await h.slash("tournament drop", user="carol")
    assert "left Friday" in left.content
    await h.slash("tournament pair", user="admin", channel="games", force=True)
    h.add_member("erin")
    closed = await h.slash("tournament join", user="erin")
    assert closed.ephemeral and "only until round 2" in closed.content
    twice = await h.slash("tournament drop", user="carol")
    assert twice.ephemeral and "not playing" in twice.content


async def test_votes_are_secret_unless_enabled_for_organisers(h):
    tournament = await start_tournament(h)
    game_id = await finish_linked_game(h, tournament)
    ballot, menu = await cast(h, vote_message(h), "alice", "dave")
    secret = await h.slash("tournament votes", user="admin", game=game_id)
    assert secret.ephemeral and "secret" in secret.content
    await h.slash("tournament reveal-votes", user="admin", enabled=True)
    player = await h.slash("tournament votes", user="bob", game=game_id)
    assert "secret" in player.content
    shown = await h.slash("tournament votes", user="admin", game=game_id)
    assert shown.ephemeral and shown.content == f"<@{h.user('alice').id}> → <@{h.user('dave').id}>"


async def test_t2_mana_pool_report_confirmed_by_another_player(h):
    tournament = await start_tournament(h, scoring="standard")
    none_yet = await h.slash("tournament mana-pool", user="alice", amount=12)
    assert none_yet.ephemeral and "no game in the current round" in none_yet.content
    game_id = await finish_linked_game(h, tournament)
    report = await h.slash("tournament mana-pool", user="alice", amount=12, channel="games")
    assert "reports 12 mana" in report.content
    own = await h.click(report, label="Confirm", user="alice")
    assert own.ephemeral and "not you" in own.content
    confirmed = await h.click(report, label="Confirm", user="bob")
    assert "Confirmed by" in report.message.content and report.message.components == []
    assert confirmed is not None
    prizes = await h.slash("tournament prizes", user="carol")
    fields = {f["name"]: f["value"] for f in prizes.embed["fields"]}
    assert fields["Biggest mana pool"] == f"<@{h.user('alice').id}> — 12"
    # standard scoring: no vote; the table sees the result at once (an agreed draw: 1 point each still in)
    (result,) = [
        m for m in h.messages("games") if m.embeds and m.embeds[0]["title"] == f"Game {game_id}: result"
    ]
    assert f"<@{h.user('alice').id}>: survived · 0 votes · **1 point**" in result.embeds[0]["description"]


async def test_a_large_round_lists_every_table_and_gives_each_a_board(tmp_path):
    names = tuple(f"p{i:02d}" for i in range(103))  # 25 pods of 4 and one of 3: more than one embed holds
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=names) as h:
        tournament = await start_tournament(h, players=names)
        paired = await h.slash("tournament pair", user="admin", channel="games")
        tables = [
            f["name"] for m in [paired.message, *paired.followups] for e in m.embeds for f in e["fields"]
        ]
        assert tables == [f"Table {n}" for n in range(1, 27)]
        pods = await h.bot.get_cog("Tournaments").service.repo.pods(tournament.tournament_id, 1)
        assert sorted(len(p.seats) for p in pods) == [3] + [4] * 25
        assert all(p.game_id is not None for p in pods)


async def test_a_vote_never_posted_is_posted_after_a_restart(h):
    tournament = await start_tournament(h)
    game_id = await finish_linked_game(h, tournament)
    first = vote_message(h)
    assert all(f"<@{h.user(n).id}>" in first.content for n in ("alice", "bob", "carol", "dave"))  # pinged
    await h.bot.db.execute("UPDATE tournament_games SET vote_message_id = NULL WHERE game_id = ?", (game_id,))
    first.deleted = True  # as if the bot had stopped before posting it
    await h.restart()
    message = vote_message(h)
    assert message.id != first.id and message.embeds[0]["footer"]["text"] == "0/4 have voted"
    ballot = await h.click(message, label="Vote", user="bob")
    assert ballot.ephemeral and "Your vote for game" in ballot.content


def test_pod_refusals_inside_tournament_commands_are_localised_not_raw_keys() -> None:
    from bot.domain.pod import PodError
    from bot.i18n import t
    from cogs._errors import refusal_text

    error = PodError("not_your_game")
    assert refusal_text(error, "ja") == t("pod.error.not_your_game", "ja")
    assert "pod.error" not in refusal_text(error, "zh-Hant")


def test_tournament_refusals_show_the_players_they_name_as_mentions() -> None:
    from bot.domain.tournament import TournamentError
    from cogs._errors import refusal_text

    error = TournamentError("vote_voter_not_at_table", game=7, voter=101, votee=202)
    text = refusal_text(error, "en")
    assert "<@101>" in text and "101" not in text.replace("<@101>", "")
