"""End to end: a best-of-three match with sideboards through the bot's real start-up path (``serve``)
against the local Discord stand-in over real HTTP and a real gateway, across a SIGTERM restart.

Decks are registered in the real SQLite file first; then everything goes through Discord: the board,
the Commanders panel, the swap form (one batch, all or nothing), Next game, a wrong choice of who plays
first taken back after the restart, a wish, and the records of the finished match."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.domain import pod
from bot.services.decks import DeckService
from bot.services.matches import MatchService
from bot.services.pods import PodService
from bot.storage.db import Database
from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import default_config, standard_world
from tests.conftest import TEST_DATA
from tests.decks.conftest import load_cards
from tests.e2e.test_startup import TOKEN, Running
from tests.matches.conftest import WISH_DECK

pytestmark = pytest.mark.slow  # a real gateway and HTTP on 127.0.0.1
WAIT = 600  # tenths of a second a board edit may take (the stand-in driver's own limit is a minute)


async def _showing(driver, title: str, label: str):
    """The board titled ``title`` once an edit brought its button ``label`` (the edit is coalesced and its
    picture drawn in the work pool's processes: seconds on a busy two-core machine), the newest first."""
    for _ in range(WAIT):
        for message in reversed(driver.messages()):
            if title in _fields(message) and label in [b.get("label") for b in message.buttons]:
                return message
        await asyncio.sleep(0.1)
    raise AssertionError(f"no board {title!r} shows {label!r}")


async def _posted(driver, text: str):
    """The newest message whose fields say ``text``, once it is there: a new board is posted after the
    button's answer, and a channel's rate limit can hold that post back for seconds."""
    for _ in range(WAIT):
        for message in reversed(driver.messages()):
            if text in _fields(message):
                return message
        await asyncio.sleep(0.1)
    raise AssertionError(f"no message says {text!r}")


def _board(driver, title: str):
    """The newest board in the channel with that title (a board may be posted after the command's answer)."""
    return next(m for m in reversed(driver.messages()) if title in _fields(m))


def _fields(message) -> str:
    return " ".join(f"{f['name']} {f['value']}" for e in message.embeds for f in e.get("fields", []))


async def _register_decks(config, guild, users) -> None:
    from bot.cards.index import CardIndex

    db = await Database.open(config.database_path)
    try:
        decks = DeckService(db, CardIndex.from_cards(load_cards()))
        for user in users:
            result = await decks.register(
                guild.id, user.id, "Kaalia", WISH_DECK.read_text(encoding="utf-8"), "duel-zh"
            )
            assert result.record is not None
    finally:
        await db.close()


async def test_a_match_with_swaps_undo_and_a_wish_across_a_restart(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guild = standard_world(fake)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, TEST_DATA / "deck_cards.jsonl", discord__token=TOKEN)
        run = Running(server, config, guild)
        await _register_decks(config, guild, [run.driver.user("alice"), run.driver.user("bob")])
        await run.start()
        alice, bob = run.driver.user("alice"), run.driver.user("bob")
        await run.driver.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="duel-zh")
        board = _board(run.driver, "Match · game 1 of 3")
        for name in ("alice", "bob"):
            panel = await run.driver.click(board, label="My commanders", user=name)
            await run.driver.select(panel, label="Your registered decks", values=["Kaalia"], user=name)
        turn = await run.driver.click(board, label="Start turn 1", user="alice")
        conceded = await run.driver.click(board, label="Concede", user="bob")
        assert not turn.ephemeral and not conceded.ephemeral  # neither refused
        board = await _showing(run.driver, "Match · game 1 of 3", "Next game")
        offer = await run.driver.click(board, label="Next game", user="bob")
        started = await run.driver.click(offer, label="Let alice play first", user="bob")
        assert "Game 2 started, first player: alice" in started.message.content
        wrong = await _posted(run.driver, "Match · game 2 of 3")
        # The new board's message id is stored just after Discord accepted the message: SIGTERM waits for the
        # button handler still doing that (bot/shutdown.py).
        assert await run.stop_with_sigterm() == 0

        again = Running(server, config, guild)
        await again.start()
        undone = await again.driver.click(started, label="Undo: choose again", user="bob")
        assert "took back the start of game 2" in undone.message.content
        for _ in range(WAIT):  # the abandoned board is closed (edited after the answer)
            if wrong.embeds == []:
                break
            await asyncio.sleep(0.1)
        assert wrong.embeds == [] and "took back" in wrong.content
        board = await _showing(again.driver, "Match · game 1 of 3", "Next game")
        offer = await again.driver.click(board, label="Next game", user="bob")
        await again.driver.click(offer, label="I play first", user="bob")
        game2 = await _posted(again.driver, "First player: bob (chosen by bob).")

        game2 = await _showing(again.driver, "First player: bob", "Sideboard")
        panel = await again.driver.click(game2, label="Sideboard", user="alice")
        form = await again.driver.click(panel, label="Swap cards…", user="alice")
        refused = await again.driver.submit_modal(
            form, {"swaps": "Anger -> Lightning Bolt\nMountain -> Counterspell"}
        )
        assert "Nothing was swapped" in refused.text  # the second swap is wrong: the first is not kept either
        form = await again.driver.click(panel, label="Swap cards…", user="alice")
        done = await again.driver.submit_modal(
            form, {"swaps": "Anger -> Lightning Bolt\nMountain -> Badlands"}
        )
        assert "2 swaps made" in done.text
        await again.driver.click(game2, label="Start turn 1", user="bob")
        wished = await again.driver.slash(
            "sideboard wish", user="alice", card="Anger"
        )  # swapped out: wishable
        assert "fetched **Anger**" in wished.text
        await again.driver.click(game2, label="Concede", user="bob")
        for _ in range(WAIT):
            if "Match over" in _fields(game2):
                break
            await asyncio.sleep(0.1)
        assert "Match over: alice wins the match." in _fields(game2)
        assert await again.stop_with_sigterm() == 0

    db = await Database.open(config.database_path)
    try:
        pods = PodService(db)
        games = [await pods.get(game_id) for game_id in (1, 2, 3)]
        assert games[1].row.status == "abandoned"
        record = games[2].record
        assert record is not None and record.match_game == 2 and record.winner == alice.id
        assert record.swaps == {
            alice.id: [
                {"out": "Anger", "in": "Lightning Bolt", "count": 1},
                {"out": "Mountain", "in": "Badlands", "count": 1},
            ]
        }
        assert record.wishes == {alice.id: ["Anger"]}
        assert [e.kind for e in games[2].events].count(pod.SWAP) == 1  # one batch, one event
        match = await MatchService(db, pods).get(1)
        assert match.state.score == (2, 0) and match.state.winner == alice.id
    finally:
        await db.close()
