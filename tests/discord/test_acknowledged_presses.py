"""The shared journal (cogs/_acknowledged.py): a press acknowledged before its change is stored is written
down first, for every cog - here the pod board's Undo, which the board's own journal leaves out - and one
a crash cut short is replayed when the bot starts again: once, never twice, and its presser is told when it
can no longer be applied.

A crash is reproduced as in tests/pods/test_press_journal.py: the journal as the killed process left it
(its lines are what the journal wrote for real presses of this test), then a restart on the same database.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.i18n import t
from bot.storage.press_journal import PressJournal, RecordedInteraction
from bot.testing import DiscordHarness

pytestmark = pytest.mark.both_engines  # the press's mark is stored with its change: SQLite, then PostgreSQL


def journal_lines(h: DiscordHarness) -> list[dict[str, Any]]:
    return [json.loads(line) for line in h.bot.config.interaction_journal_path.read_text().splitlines()]


def recorded(h: DiscordHarness) -> list[RecordedInteraction]:
    return [
        RecordedInteraction(**entry["interaction"]) for entry in journal_lines(h) if "interaction" in entry
    ]


def another_press(press: RecordedInteraction, offset: int) -> RecordedInteraction:
    """The same press pressed again (a new interaction id), as Discord would send it."""
    payload = dict(press.payload, id=str(press.press_id + offset))
    return RecordedInteraction(press.press_id + offset, payload, press.at)


def crash_left(h: DiscordHarness, *presses: RecordedInteraction) -> None:
    """The journal of a process killed before these presses' "done" lines were written (and a torn line)."""
    lines = "".join(json.dumps({"interaction": vars(press)}) + "\n" for press in presses)
    h.bot.config.interaction_journal_path.write_text(lines + '{"interaction": {"press_id": 1, "pay')


async def life_of(h: DiscordHarness, name: str) -> int:
    return (await h.bot.get_cog("Pods").service.get(1)).state.player(h.user(name).id).life


async def started_with_three_gains(h: DiscordHarness):
    board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    for _ in range(3):
        await h.click(board, label="+1", user="alice")
    return board


async def test_an_undo_press_is_journaled_before_it_is_acknowledged_and_marked_done(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await started_with_three_gains(h)
        reply = await h.click(board, label="Undo", user="alice")
        assert reply.record.response_type == 6  # acknowledged before the undo was stored
        lines = journal_lines(h)
        assert lines[0]["interaction"]["press_id"] == reply.record.id
        assert lines[0]["interaction"]["payload"]["data"]["custom_id"].endswith(":undo")
        assert lines[1] == {"done": reply.record.id}
        assert [entry for entry in lines if "interaction" in entry][
            1:
        ] == []  # the +1 presses: the board's own
        assert PressJournal(h.bot.config.interaction_journal_path).pending_interactions() == []


async def test_after_a_crash_an_unstored_press_is_replayed_once_and_a_stored_one_not_again(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await started_with_three_gains(h)
        await h.click(board, label="Undo", user="alice")  # stored: the crash came before its "done" line
        (stored,) = recorded(h)
        assert await life_of(h, "alice") == 42
        unstored = another_press(stored, 1)  # acknowledged, then the process died before storing it
        crash_left(h, stored, unstored)
        await h.restart()
        await h.settle()
        assert await life_of(h, "alice") == 41  # the second undo, applied once; the first not again
        assert PressJournal(h.bot.config.interaction_journal_path).pending_interactions() == []
        await h.restart()
        await h.settle()
        assert await life_of(h, "alice") == 41  # and not again


async def test_a_replayed_press_that_can_no_longer_be_applied_is_told_to_its_presser(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.click(board, label="+1", user="alice")
        await h.click(board, label="Undo", user="alice", locale="ja")
        (stored,) = recorded(h)
        crash_left(h, another_press(stored, 1))  # a second undo: nothing is left to undo
        await h.restart()
        await h.settle()
        told = [
            m
            for m in h.fake.messages.values()
            if m.ephemeral and m.content == t("pod.error.nothing_to_undo", "ja")
        ]
        assert len(told) == 1 and await life_of(h, "alice") == 40
