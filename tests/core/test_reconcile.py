"""Recovery after a crash: every message that lags its stored state catches up on start.

Each test commits a change the way the bot does, but "dies" before Discord is told (the change goes
through the service, not the cog), restarts the real bot on the same database, and checks that the
board, vote or Hydra turn now shows the stored state and can be answered.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import iso_clock
from bot.domain import pod
from bot.services.pods import PodService
from bot.services.reconcile import Reconciler
from bot.services.tournaments import TournamentService
from bot.testing import DiscordHarness
from cogs.pods.board import FIRST_POST_GRACE


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol", "dave")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


async def restarted(h) -> None:
    await h.restart()
    await h.bot.reconciled  # the pass runs in the background once the bot is ready
    await h.settle()


async def test_passes_are_registered_for_every_feature(h):
    assert {"pods", "tournament votes", "hydra tables", "hydra events", "challenge tables"} <= set(
        h.bot.reconciler.names
    )


async def test_a_failing_pass_is_logged_and_the_others_still_run(caplog):
    reconciler = Reconciler()

    async def broken() -> int:
        raise RuntimeError("boom")

    async def fine() -> int:
        return 2

    reconciler.register("broken", broken)
    reconciler.register("fine", fine)
    assert await reconciler.run() == {"broken": -1, "fine": 2}
    assert "reconcile pass broken failed" in caplog.text


async def test_a_pod_board_behind_its_log_catches_up_on_start(h):
    board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    # Committed, then the bot died before editing the board:
    await PodService(h.bot.db).change(1, h.user("alice").id, pod.LIFE, player=h.user("bob").id, amount=-7)
    await restarted(h)
    assert "2 bob (33)" in str(board.message.components)
    assert await h.bot.db.scalar("SELECT shown_seq FROM pod_games WHERE game_id = 1") == 2
    await h.click(board, label="-1", user="bob")  # and it is answerable
    await h.bot.get_cog("Pods").updater.flush()
    edits = len(board.message.history)
    await restarted(h)  # nothing lags now: no further edit
    assert len(board.message.history) == edits


async def stored_elsewhere(h, channel_name: str = "games") -> None:
    """A pod game stored the way ``/pod start`` stores it, by a process that has not posted its board
    (it died, or it is still drawing it: from here the two look the same)."""
    await PodService(h.bot.db, clock=iso_clock(h.clock)).start_game(
        guild_id=h.guild.id,
        channel_id=h.channel(channel_name).id,
        created_by=h.user("alice").id,
        players=[(h.user("alice").id, "alice"), (h.user("bob").id, "bob")],
        ruleset="commander",
    )


async def test_a_pod_stored_but_never_posted_gets_its_board(h):
    await stored_elsewhere(h)
    await restarted(h)
    assert h.messages("games") == []  # stored a moment ago: its starter may still be posting it
    await h.advance(seconds=FIRST_POST_GRACE.total_seconds())
    (board,) = h.messages("games")
    assert board.embeds[0]["title"] == "Pod #1 · commander"
    assert (await h.bot.get_cog("Pods").service.get(1)).row.message_id == board.id
    await h.click(board, label="+5", user="alice")


async def test_a_board_another_process_is_posting_is_not_posted_twice(h):
    """With several processes on one database, the one running the catch-up cannot see the other's
    ``/pod start`` in flight: a game stored moments ago is left to its starter for a minute."""
    await stored_elsewhere(h)
    assert (await h.bot.reconciler.run())["pods"] == 0  # the catch-up of this process's start
    pods = h.bot.get_cog("Pods")
    loaded = await pods.service.get(1)
    posted = await pods.post_board(
        h.bot.get_partial_messageable(h.channel("games").id), loaded
    )  # the starter
    await h.advance(seconds=FIRST_POST_GRACE.total_seconds())
    assert [m.id for m in h.messages("games")] == [posted.id]


async def test_a_game_stored_long_before_the_start_is_posted_at_once(h):
    await stored_elsewhere(h)
    h.clock.jump(seconds=FIRST_POST_GRACE.total_seconds())  # the bot was down for a while
    await restarted(h)
    (board,) = h.messages("games")
    assert (await h.bot.get_cog("Pods").service.get(1)).row.message_id == board.id


async def _tournament_game(h) -> int:
    await h.slash("tournament create", user="admin", name="Friday", channel="games")
    for name in ("alice", "bob", "carol", "dave"):
        await h.slash("tournament join", user=name, channel="games")
    await h.slash("tournament pair", user="admin", channel="games")
    tournament = await h.bot.get_cog("Tournaments").service.active(h.guild.id)
    (pairing,) = await h.bot.get_cog("Tournaments").service.repo.pods(tournament.tournament_id, 1)
    return pairing.game_id


async def test_a_tournament_game_that_finished_just_before_a_crash_gets_its_vote(h):
    game_id = await _tournament_game(h)
    silent = PodService(h.bot.db)  # its notify goes nowhere: the bot died before telling the tournament
    ids = [h.user(name).id for name in ("alice", "bob", "carol", "dave")]
    await silent.change(game_id, ids[0], pod.NEXT_TURN, manager=True)
    for user in ids[1:]:
        await silent.change(game_id, user, pod.CONCEDE, player=user)
    assert not [m for m in h.messages("games") if m.embeds and "democratic vote" in m.embeds[0]["title"]]
    await restarted(h)
    (vote,) = [m for m in h.messages("games") if m.embeds and "democratic vote" in m.embeds[0]["title"]]
    assert (await h.bot.get_cog("Tournaments").service.game(game_id)).vote_open
    ballot = await h.click(vote, label="Vote", user="bob")
    assert ballot.ephemeral


async def test_a_vote_closed_just_before_a_crash_shows_its_result_on_start(h):
    game_id = await _tournament_game(h)
    pods = h.bot.get_cog("Pods").service
    ids = [h.user(name).id for name in ("alice", "bob", "carol", "dave")]
    await pods.change(game_id, ids[0], pod.NEXT_TURN, manager=True)
    for user in ids[1:]:
        await pods.change(game_id, user, pod.CONCEDE, player=user)
    await h.settle()
    for task in [
        t for t in __import__("asyncio").all_tasks() if t.get_name() == "discord.py: on_pod_game_finished"
    ]:
        await task
    await h.settle()
    (vote,) = [m for m in h.messages("games") if m.embeds and "democratic vote" in m.embeds[0]["title"]]
    await TournamentService(h.bot.db).close_vote(game_id)  # closed, then the bot died before showing it
    await restarted(h)
    assert vote.embeds[0]["title"] == f"Game {game_id}: result of the vote" and vote.components == []


async def test_a_hydra_table_stuck_after_a_crash_is_asked_again(h):
    hydra = h.bot.get_cog("Hydra")
    hydra.fixed_seed = 5
    lobby = await h.slash("hydra start", heads=2, window=0)
    await h.click(lobby, label="Join", user="bob")
    await h.click(lobby, label="Start", user="bob")
    before = len(h.messages("general"))
    # The action is stored; the bot dies before posting the Hydra's turn and its question.
    await hydra.service.act(1, h.user("bob").id, "end")
    await restarted(h)
    turn = h.messages("general")[-1]
    assert len(h.messages("general")) == before + 1
    assert "The Hydra reveals and casts" in turn.content and "Counter it?" in turn.content
    actions = await h.bot.db.scalar(
        "SELECT COUNT(*) FROM challenge_table_actions WHERE kind = 'hydra' AND game_id = 1"
    )
    await h.click(turn, label="Default (pass)", user="bob")  # the pending question is answerable again
    assert (
        await h.bot.db.scalar(
            "SELECT COUNT(*) FROM challenge_table_actions WHERE kind = 'hydra' AND game_id = 1"
        )
        == actions + 1
    )


async def test_a_challenge_table_stuck_after_a_crash_shows_its_question_again(h):
    challenge = h.bot.get_cog("Challenge")
    challenge.fixed_seed = 4
    lobby = await h.slash("challenge start", deck="god", window=0)
    await h.click(lobby, label="Start")
    board = lobby.message
    # The action is stored; the bot dies before the board is edited with the God's turn and its question.
    await challenge.service.act(1, h.user("alice").id, "end")
    assert "Counter it?" not in str(board.embeds)
    await restarted(h)
    h.bot.get_cog("Challenge").fixed_seed = 4
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    assert "Counter it?" in fields["Now"]
    actions = await h.bot.db.scalar(
        "SELECT COUNT(*) FROM challenge_table_actions WHERE kind = 'challenge' AND game_id = 1"
    )
    table = await h.bot.get_cog("Challenge").service.load(1)
    await h.click(board, custom_id=f"chal:1:answer:{table.game.pending.default}")  # answerable again
    assert (
        await h.bot.db.scalar(
            "SELECT COUNT(*) FROM challenge_table_actions WHERE kind = 'challenge' AND game_id = 1"
        )
        == actions + 1
    )


async def test_a_challenge_table_created_but_never_posted_is_posted_on_start(h):
    challenge = h.bot.get_cog("Challenge")
    await challenge.service.create(
        guild_id=h.guild.id,
        channel_id=h.channel("general").id,
        user_id=h.user("alice").id,
        name="alice",
        deck="horde",
        difficulty=3,
        language="en",
        seed=4,
        window_seconds=0,
        all_windows=False,
    )
    before = len(h.messages("general"))
    await restarted(h)
    assert len(h.messages("general")) == before + 1
    posted = h.messages("general")[-1]
    assert posted.embeds[0]["title"] == "Battle the Horde #1"
    assert (await h.bot.get_cog("Challenge").service.load(1)).row.message_id == posted.id


async def test_a_pod_start_during_the_catch_up_gets_one_board(h):
    """/pod start stores its game, then draws and posts the board; a catch-up running in between sees a
    game without a board and must not post it too (the command is posting it)."""
    pods = h.bot.get_cog("Pods")
    drawing, release = asyncio.Event(), asyncio.Event()
    real = pods.board_payload

    async def held(loaded):
        if not drawing.is_set():  # only the command's board waits; the catch-up's would draw at once
            drawing.set()
            await release.wait()
        return await real(loaded)

    pods.board_payload = held
    command = asyncio.create_task(
        h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    )
    await drawing.wait()
    assert await pods.service.lagging_boards() == [1]  # stored, no board yet: what a crash would leave
    assert (await h.bot.reconciler.run())["pods"] == 0
    release.set()
    board = await command
    await h.settle()
    boards = [m for m in h.messages("general") if m.embeds and m.embeds[0]["title"] == "Pod #1 · commander"]
    assert [m.id for m in boards] == [board.message.id]
    assert (await pods.service.get(1)).row.message_id == board.message.id
    assert await pods.service.lagging_boards() == []
    await restarted(h)  # a later start still finds nothing to post
    assert len([m for m in h.messages("general") if m.embeds]) == 1


async def test_a_catch_up_right_after_the_commit_of_a_pod_start_waits_for_it(h):
    """The narrowest gap: the game row is committed but ``start_game`` has not resumed yet."""
    pods = h.bot.get_cog("Pods")
    committed, release = asyncio.Event(), asyncio.Event()
    create = pods.service.repo.create

    async def held(**kwargs):
        game_id = await create(**kwargs)
        committed.set()
        await release.wait()
        return game_id

    pods.service.repo.create = held
    command = asyncio.create_task(
        h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    )
    await committed.wait()
    assert await pods.service.lagging_boards() == [1]
    catch_up = asyncio.create_task(h.bot.reconciler.run())
    await asyncio.sleep(0.05)
    assert not catch_up.done()  # it waits for the start in flight instead of posting the board
    release.set()
    board = await command
    assert (await catch_up)["pods"] == 0
    await h.settle()
    assert [m.id for m in h.messages("general") if m.embeds] == [board.message.id]
