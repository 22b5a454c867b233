"""A board lives for the whole game (hours), on the stand-in that knows Discord's clock: edits of
messages older than an hour are capped (429/30046), idle threads archive and refuse edits (50083), and a
refused board is told to the table once while the game goes on.

Every test here would fail on the stand-in's refusal if the bot provoked one it did not expect: the
harness fails a call (or ``settle``) on any refusal unless the test says ``expect_refusal``.
"""

from __future__ import annotations

import pytest

from bot.testing import DiscordHarness
from bot.testing.fakediscord.model import PERMISSIONS
from cogs._boards import REFUSED_RETRIES, REFUSED_RETRY, REPOST_AFTER
from tests.boards.helpers import CARDS, MEMBERS, life_on_board, pods, press_refused, start_pod


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=MEMBERS) as harness:
        pods(harness).updater.delay = 0
        yield harness


async def game(h, game_id: int = 1):
    return await pods(h).service.get(game_id)


def board_of(h, channel) -> object:
    """The live board: the newest message in ``channel`` with buttons."""
    return [m for m in h.messages(channel) if m.components][-1]


async def press(h, board, label: str = "-1", user: str = "bob", **options):
    reply = await h.click(board, label=label, user=user, **options)
    await h.settle()
    await pods(h).updater.flush()
    return reply


async def test_a_board_pressed_for_three_hours_is_posted_afresh_and_keeps_following_the_game(h):
    first = (await start_pod(h)).message
    board = first
    for _minute in range(0, 180, 6):  # a press every six minutes for three hours
        await press(h, board)
        await h.advance(minutes=6)
        board = board_of(h, "general")
    life = 40 - 30
    await press(h, board)
    life -= 1
    assert life_on_board(board)[1] == f"2 bob ({life})"
    assert (await game(h)).state.player(h.user("bob").id).life == life
    row = (await game(h)).row
    assert row.message_id == board.id != first.id  # the game follows its newest board
    # Every older board is a pointer without buttons (or gone): only one set of buttons in the channel.
    assert [m.id for m in h.messages("general") if m.components] == [board.id]
    pointers = [m for m in h.messages("general") if "moved on" in m.content]
    assert first in pointers and len(pointers) >= 3  # about one fresh board per 50 minutes
    ids = {m.id for m in h.messages("general")}
    assert all(int(p.content.rsplit("/", 1)[1]) in ids for p in pointers)  # each points to a later board


async def test_a_board_is_posted_afresh_before_it_is_an_hour_old(h):
    first = (await start_pod(h)).message
    await h.advance((REPOST_AFTER - REPOST_AFTER / 10).total_seconds())
    await press(h, first)
    assert (await game(h)).row.message_id == first.id  # young enough: edited in place
    await h.advance((REPOST_AFTER / 5).total_seconds())
    await press(h, first, label="-5")
    fresh = board_of(h, "general")
    assert fresh.id != first.id and life_on_board(fresh)[1] == "2 bob (34)"
    assert not first.components and first.embeds == [] and first.content.endswith(f"/{fresh.id}")
    await press(h, fresh, label="+1")  # the buttons moved along
    assert life_on_board(fresh)[1] == "2 bob (35)"


async def test_a_board_in_a_thread_that_archived_is_brought_back(h):
    await h.bot.guild_settings.update(h.guild.id, pod_threads=True)
    await start_pod(h)
    (thread,) = h.threads()
    board = board_of(h, thread)
    await h.advance(hours=25)  # past the thread's auto-archive duration, without a word
    assert thread.archived
    await press(h, board)
    assert not thread.archived
    current = board_of(h, thread)
    assert life_on_board(current)[1] == "2 bob (39)"
    assert (await game(h)).row.channel_id == thread.id


async def test_a_thread_the_bot_may_not_bring_back_gets_the_board_in_its_channel(h):
    """A thread someone else opened, archived: without Manage Threads the bot may not unarchive it, so
    the fresh board goes to the thread's channel (the one refusal, of the unarchive, is expected)."""
    general = h.channel("general")
    thread = h.fake.add_channel(h.guild, "our table", kind=11, parent=general, owner_id=h.user("alice").id)
    h._refresh_guild()
    await start_pod(h, thread)
    board = board_of(h, thread)
    await h.advance(hours=25)
    assert thread.archived
    await press_refused(h, board, code=50013)
    moved = board_of(h, "general")
    assert life_on_board(moved)[1] == "2 bob (39)"
    assert (await game(h)).row.channel_id == general.id


async def test_a_refused_board_is_told_to_the_table_once_and_the_game_goes_on(h):
    board = (await start_pod(h)).message
    general = h.channel("general")
    general.overwrites[h.fake.bot_user.id] = (0, PERMISSIONS["embed_links"], 1)  # someone took Embed Links
    h._refresh_guild()
    await press_refused(h, board, code=50013)
    notes = [m for m in h.messages("general") if "can't update this game's board" in m.content]
    assert len(notes) == 1 and not notes[0].ephemeral and "Embed Links" in notes[0].content
    await press(h, board, label="-5")
    assert len([m for m in h.messages("general") if "can't update" in m.content]) == 1  # told once
    assert (await game(h)).state.player(h.user("bob").id).life == 34  # every press is kept
    assert life_on_board(board)[1] == "2 bob (40)"
    del general.overwrites[h.fake.bot_user.id]  # granted again
    h._refresh_guild()
    await h.advance(minutes=5)
    await press(h, board, label="+1")
    assert life_on_board(board)[1] == "2 bob (35)"  # the board caught up


async def test_a_refused_board_catches_up_on_the_clock_once_the_permission_is_granted(h):
    """Nobody needs to press again: the board is tried every few minutes of the bot's clock."""
    board = (await start_pod(h)).message
    general = h.channel("general")
    general.overwrites[h.fake.bot_user.id] = (0, PERMISSIONS["embed_links"], 1)
    h._refresh_guild()
    await press_refused(h, board, code=50013, label="-5")
    h._expect_refusal = 50013  # the timed try is refused too while the permission is missing
    try:
        await h.advance(seconds=REFUSED_RETRY.total_seconds())
    finally:
        h._expect_refusal = None
    assert life_on_board(board)[1] == "2 bob (40)"
    del general.overwrites[h.fake.bot_user.id]  # granted again, and no press follows
    h._refresh_guild()
    await h.advance(seconds=REFUSED_RETRY.total_seconds())
    await h.settle()
    await pods(h).updater.flush()
    assert life_on_board(board)[1] == "2 bob (35)"


async def test_the_timed_tries_of_a_refused_board_stop_after_an_hour(h):
    """A board in a channel that never gets its permission back costs one request per try, for an hour;
    then only a change tries it (Discord counts refused requests against the bot)."""
    board = (await start_pod(h)).message
    h.channel("general").overwrites[h.fake.bot_user.id] = (0, PERMISSIONS["embed_links"], 1)
    h._refresh_guild()
    await press_refused(h, board, code=50013)
    refused_before = len(h.fake.refusals)
    h._expect_refusal = 50013  # each timed try is refused (the harness fails a step that has none)
    try:
        for _ in range(REFUSED_RETRIES):
            await h.advance(seconds=REFUSED_RETRY.total_seconds())
    finally:
        h._expect_refusal = None
    assert len(h.fake.refusals) - refused_before == REFUSED_RETRIES
    for _ in range(5):  # no more tries: a refusal now would fail the step as unexpected
        await h.advance(seconds=REFUSED_RETRY.total_seconds())
    assert len(h.fake.refusals) - refused_before == REFUSED_RETRIES


async def test_the_refusal_is_told_in_the_tables_language(h):
    await h.slash("config locale", user="admin", options={"locale": "ja"})
    board = (await start_pod(h)).message
    h.channel("general").overwrites[h.fake.bot_user.id] = (0, PERMISSIONS["embed_links"], 1)
    h._refresh_guild()
    await press_refused(h, board, code=50013)
    (note,) = [m for m in h.messages("general") if "ボードを更新できません" in m.content]
    assert "埋め込みリンク" in note.content
