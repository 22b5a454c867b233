"""The press journal through the real bot: a press is recorded before it is acknowledged, and what a
crash left recorded but unstored is applied when the bot starts again - once, never twice - or, when it
can no longer be applied, its presser is told on the press's own interaction. (The kill -9 measurement
is tests/e2e/test_crash.py.)

A crash is reproduced by writing the journal as the killed process left it (its lines are what
``PressJournal`` wrote for real presses of this test) and restarting the bot on the same database.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace

from bot.domain import pod
from bot.i18n import t
from bot.storage.press_journal import PressJournal, RecordedPress
from bot.testing import DiscordHarness


def journal_lines(h: DiscordHarness) -> list[dict]:
    return [json.loads(line) for line in h.bot.config.press_journal_path.read_text().splitlines()]


def recorded(h: DiscordHarness) -> list[RecordedPress]:
    return [RecordedPress(**entry["press"]) for entry in journal_lines(h) if "press" in entry]


def crash_left(h: DiscordHarness, *presses: RecordedPress) -> None:
    """The journal as a process killed before these presses' outcomes were written leaves it."""
    text = "".join(json.dumps({"press": asdict(press)}) + "\n" for press in presses)
    h.bot.config.press_journal_path.write_text(
        text + '{"press": {"press_id": 1, "gam'
    )  # and a torn last line


async def life_events(h: DiscordHarness, game_id: int) -> list[pod.Event]:
    return [e for e in (await h.bot.get_cog("Pods").service.repo.events(game_id)) if e.kind == pod.LIFE]


async def test_a_press_is_recorded_then_marked_done_once_stored(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        reply = await h.click(board, label="+1", user="bob")
        lines = journal_lines(h)
        assert lines[0]["press"]["press_id"] == reply.record.id and lines[0]["press"]["action"] == "life"
        assert lines[1] == {"done": reply.record.id}
        assert PressJournal(h.bot.config.press_journal_path).pending() == []


async def test_after_a_crash_unstored_presses_are_applied_and_stored_ones_not_again(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.click(board, label="+1", user="bob")  # stored: the crash came before its "done" line
        (stored,) = recorded(h)
        # alice's press was acknowledged, then the process died before its change was committed.
        unstored = replace(
            stored, press_id=stored.press_id + 1, user_id=h.user("alice").id, user_name="alice"
        )
        crash_left(h, stored, unstored)
        await h.restart()
        events = await life_events(h, stored.game_id)
        assert [(e.actor, e.data["player"], e.data["amount"]) for e in events] == [
            (h.user("bob").id, h.user("bob").id, 1),
            (h.user("alice").id, h.user("alice").id, 1),
        ]
        assert PressJournal(h.bot.config.press_journal_path).pending() == []  # a fresh journal
        await h.restart()  # and a second start applies nothing again
        assert len(await life_events(h, stored.game_id)) == 2


async def test_a_press_that_can_no_longer_be_applied_is_told_to_its_presser(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.click(board, label="Start turn 1", user="alice")
        await h.click(board, label="Concede", user="alice")  # the game is over: bob won
        refused = await h.click(board, label="+1", user="bob")  # a real press, acknowledged, refused
        press = next(p for p in recorded(h) if p.press_id == refused.record.id)
        crash_left(h, press)  # as if it had been cut short by a crash instead
        await h.restart()
        await h.settle()
        told = [
            m.content for m in h.fake.messages.values() if "restarted before your press" in (m.content or "")
        ]
        assert told == [
            f"The bot restarted before your press on game #{press.game_id} was saved, and it could not "
            f"be applied afterwards: {t('pod.error.game_over', 'en')}"
        ]
        assert len(await life_events(h, press.game_id)) == 0


async def test_a_journal_held_by_a_live_process_is_neither_replayed_nor_emptied(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.click(board, label="+1", user="bob")
        (press,) = recorded(h)
        other = PressJournal(h.bot.config.press_journal_path)
        assert not other.acquire()  # this bot holds it
        other.close()
        unstored = replace(press, press_id=press.press_id + 1)
        crash_left(h, unstored)
        h.bot.get_cog("Pods").journal.close()  # the "other process" now holds the file ...
        holder = PressJournal(h.bot.config.press_journal_path)
        assert holder.acquire()
        try:
            await h.restart()  # ... so the new bot leaves its records alone
            assert len(await life_events(h, press.game_id)) == 1
            assert [p.press_id for p in PressJournal(h.bot.config.press_journal_path).pending()] == [
                unstored.press_id
            ]
            assert h.bot.get_cog("Pods").journal is None
        finally:
            holder.close()


async def test_a_recorded_press_on_another_servers_game_is_not_applied(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.click(board, label="+1", user="bob")
        (press,) = recorded(h)
        crash_left(h, replace(press, press_id=press.press_id + 1, guild_id=press.guild_id + 1))  # a forged id
        await h.restart()
        assert len(await life_events(h, press.game_id)) == 1
