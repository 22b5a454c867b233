"""/challenge through the real bot (bot/testing harness: only Discord's HTTP edge is fake), on a real
SQLite file: Horde and God tables in a channel, their questions, a restart in the middle."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.testing import DiscordHarness


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol")) as harness:
        _fix(harness)
        yield harness


def _fix(harness) -> None:
    cog = harness.bot.get_cog("Challenge")
    cog.fixed_seed = 4


def cog(h):
    return h.bot.get_cog("Challenge")


def logged(table) -> list[tuple[str, int | None]]:
    """The table's action log as (line, who acted; None for the bot)."""
    return [(action.line, action.actor_id) for action in table.actions]


async def test_a_god_table_for_two_survives_a_restart(h):
    lobby = await h.slash("challenge start", deck="god", window=0)
    assert lobby.embed["title"] == "Defeat a God #1"
    await h.click(lobby, label="Join", user="bob")
    await h.click(lobby, label="Start", user="bob")
    board = lobby.message
    assert "1. Xenagos Ascended 6/5" in board.embeds[0]["description"]  # 2 Throngs + 1 for the second player
    assert board.embeds[0]["description"].count("Rollicking Throng") == 3
    await h.click(board, label="End our turn", user="alice")
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    assert "Counter it?" in fields["Now"] and "Turn 2: Xenagos's turn." in fields["Latest"]
    await h.restart()
    _fix(h)
    for _ in range(10):  # answer every question by its highlighted default, after the restart
        table = await cog(h).service.load(1)
        if table.game.pending is None:
            break
        decision = table.game.pending
        if decision.kind == "heads":
            await h.click(board, label="None")
        else:
            await h.click(board, custom_id=f"chal:1:answer:{decision.default}")
    table = await cog(h).service.load(1)
    assert table.game.active == "players" and table.game.turn == 3
    assert len(table.actions) >= 2 and logged(table)[0] == ("end", h.user("alice").id)


async def test_the_horde_is_a_single_player_challenge_and_hits_mill_it(h):
    lobby = await h.slash("challenge start", deck="horde")
    refused = await h.click(lobby, label="Join", user="bob")
    assert refused.ephemeral and "full" in refused.content
    await h.click(lobby, label="Start")
    board = lobby.message
    opened = await h.click(board, label="Hit the Horde…")
    await h.submit_modal(opened, {"text": "4"})
    game = (await cog(h).service.load(1)).game
    assert len(game.library) == 56 and game.actions == ["hit 4"]
    stranger = await h.click(board, label="End our turn", user="carol")
    assert stranger.ephemeral and (await cog(h).service.load(1)).game.turn == 1


async def test_an_unanswered_window_takes_its_default_on_the_bot_clock(h):
    lobby = await h.slash("challenge start", deck="god", window=1)
    await h.click(lobby, label="Start")
    await h.click(lobby.message, label="End our turn")
    pending = (await cog(h).service.load(1)).game.pending
    assert pending.topic == "counter" and cog(h).timers.pending(1)
    await h.advance(seconds=0.9)  # the bot's fake clock: the 1 s window is not over yet
    assert len((await cog(h).service.load(1)).actions) == 1
    await h.advance(seconds=0.1)  # now it is: its default (let it resolve), then the next question's timer
    table = await cog(h).service.load(1)
    assert logged(table)[1] == ("choose pass", None)
    for _ in range(20):  # each default asks the next question: a window takes 1 s, a choice three
        if table.game.pending is None:
            break
        await h.advance(seconds=3)
        table = await cog(h).service.load(1)
    assert table.game.active == "players" and all(actor is None for _, actor in logged(table)[1:])
    assert not cog(h).timers.pending(1)  # the players' turn waits for them: no timer


async def test_a_table_without_window_never_arms_a_timer(h):
    lobby = await h.slash("challenge start", deck="god", window=0)
    await h.click(lobby, label="Start")
    await h.click(lobby.message, label="End our turn")
    assert (await cog(h).service.load(1)).game.pending is not None and not cog(h).timers.pending(1)
    await h.advance(hours=1)
    assert len((await cog(h).service.load(1)).actions) == 1  # still waiting for the players


async def test_bad_input_is_localised_and_changes_nothing(h):
    lobby = await h.slash("challenge start", deck="horde")
    await h.click(lobby, label="Start")
    opened = await h.click(lobby.message, label="Hit the Horde…", locale="ja")
    bad = await h.submit_modal(opened, {"text": "lots"}, locale="ja")
    assert bad.ephemeral and "lots" in bad.content
    assert (await cog(h).service.load(1)).actions == []


async def test_a_table_with_every_window_stops_in_the_upkeep(h):
    lobby = await h.slash("challenge start", deck="god", window=0, windows=True)
    await h.click(lobby, label="Start")
    await h.restart()
    _fix(h)
    await h.click(lobby.message, label="End our turn")
    fields = {f["name"]: f["value"] for f in lobby.message.embeds[0]["fields"]}
    assert "upkeep" in fields["Now"]
    await h.click(lobby.message, label="Go on")
    assert (await cog(h).service.load(1)).game.pending.topic == "counter"


async def test_a_table_in_play_shows_its_board_image_made_in_the_work_pool(h):
    lobby = await h.slash("challenge start", deck="horde", window=0)
    assert lobby.message.attachments == []  # the lobby has no board yet
    await h.click(lobby, label="Start")
    board = lobby.message
    assert [a.filename for a in board.attachments] == ["horde-1.png"]
    assert board.embeds[0]["image"]["url"] == "attachment://horde-1.png"
    image = Image.open(io.BytesIO(board.attachments[0].data))
    assert image.format == "PNG" and image.width == 720
    ran = h.bot.workers.ran["png_bytes"]
    await h.click(board, label="End our turn")
    assert h.bot.workers.ran["png_bytes"] > ran and len(board.attachments) == 1


async def test_a_pending_default_is_armed_again_after_a_restart_on_the_bot_clock(h):
    lobby = await h.slash("challenge start", deck="horde", window=2)
    await h.click(lobby, label="Start")
    for _ in range(3):
        await h.click(lobby.message, label="End our turn")
    assert (await cog(h).service.load(1)).game.pending.topic == "counter"
    await h.restart()
    _fix(h)
    assert cog(h).timers.pending(1)  # re-armed from the stored table, by the process holding the turn lease
    # The restart's reconcile pass redraws the board and arms the window afresh from when it runs; on a
    # busy machine that may come after the first advance, so the window is counted from its end.
    await h.bot.reconciled
    await h.advance(seconds=1.9)
    assert len((await cog(h).service.load(1)).actions) == 3
    await h.advance(seconds=0.1)
    assert logged(await cog(h).service.load(1))[3] == ("choose pass", None)
    await h.settle()  # the edit the default started (it failed once at load 12 without waiting for it)
    # the board shows the default's outcome, though the restart's reconcile pass was drawing it meanwhile
    assert "enters the battlefield." in str(lobby.message.embeds[0]["fields"])


async def test_a_board_redrawn_without_an_action_keeps_the_question_s_running_wait(h):
    """A redraw of the board that stored nothing (a restart's reconcile pass finishing late, under load)
    leaves the pending question's timer as it was: the default still comes when its window ends."""
    lobby = await h.slash("challenge start", deck="horde", window=2)
    await h.click(lobby, label="Start")
    for _ in range(3):
        await h.click(lobby.message, label="End our turn")
    assert (await cog(h).service.load(1)).game.pending.topic == "counter"
    timer = cog(h).timers.task(1)
    await h.advance(seconds=1.9)
    await cog(h).refresh(await cog(h).service.load(1))  # the late redraw
    assert cog(h).timers.task(1) is timer
    await h.advance(seconds=0.1)
    assert logged(await cog(h).service.load(1))[3] == ("choose pass", None)


async def test_a_slow_older_board_edit_never_lands_after_a_newer_one(h):
    lobby = await h.slash("challenge start", deck="horde", window=0)
    await h.click(lobby, label="Start")
    drawing, calls = asyncio.Event(), []
    draw = cog(h).board_file

    async def slow_first(table, embed):  # the first edit's image takes long (a busy work pool)
        calls.append(len(table.actions))
        if len(calls) == 1:
            await drawing.wait()
        return await draw(table, embed)

    cog(h).board_file = slow_first
    older = asyncio.create_task(cog(h).refresh(await cog(h).service.load(1)))
    await asyncio.sleep(0.05)
    table = (await cog(h).service.act(1, h.user("alice").id, "hit 4")).table
    newer = asyncio.create_task(cog(h).refresh(table))
    await asyncio.sleep(0.05)
    drawing.set()
    await asyncio.gather(older, newer)
    await h.settle()
    assert calls == [0, 1]  # the newer edit waited for the older one, then drew the newest state
    assert "Library: 56" in lobby.message.embeds[0]["description"]
