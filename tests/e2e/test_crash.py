"""Crash test: ``podkeeper run`` as a real process against the local Discord stand-in,
killed with SIGKILL at random moments while players change a pod game (board presses and ``/pod life``),
then started again.

After every restart: the SQLite file passes ``PRAGMA integrity_check``; for each player, the changes the
bot confirmed ("Done: game #1.") plus the board presses it acknowledged <= the +1 events stored <= the
changes sent (no acknowledged change lost, none applied twice); every game replays; the board catches
up with its log (the reconcile pass); and a new change is answered. Beside them a fourth player presses
Undo on a second game - a press the shared journal covers (cogs/_acknowledged.py), replayed by handing
it to its handler again - and the same holds for its undos: acknowledged <= stored <= pressed. A press is acknowledged (deferred)
before its change is committed; the press journal (bot/storage/press_journal.py) makes that
acknowledgement a promise: what a kill interrupted is applied at the next start. Before the journal,
about a quarter of the acknowledged presses were lost at ~20 presses/s. On SQLite and PostgreSQL;
3 kills in the normal run, 20 with ``pytest --full``.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.domain import pod
from bot.storage.db import Database
from bot.storage.pods import PodRepository
from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
from bot.testing.harness import standard_world
from tests.e2e.bot_process import TOKEN, BotProcess

pytestmark = [pytest.mark.slow, pytest.mark.both_engines]

PLAYERS = ("alice", "bob", "carol")
UNDOER = "dave"  # presses Undo on game 2, which has UNDOABLE changes to undo
UNDOABLE = 400


async def settle(driver: RemoteDriver, seconds: float = 1.0) -> None:
    """Until the bot has made no request for ``seconds`` (start-up reconcile, coalesced edits)."""
    seen = -1
    while seen != len(driver.fake.requests):
        seen = len(driver.fake.requests)
        await asyncio.sleep(seconds)


class Tally:
    """Per player: changes sent, ``/pod life`` confirmed, board presses acknowledged."""

    def __init__(self) -> None:
        self.sent: Counter[str] = Counter()
        self.confirmed: Counter[str] = Counter()
        self.pressed: Counter[str] = Counter()

    def acknowledged(self, name: str) -> int:
        return self.confirmed[name] + self.pressed[name]


async def press(driver: RemoteDriver, board, user: str, tally: Tally) -> None:
    """One +1 for ``user``: every other one a board press (acknowledged before the commit), the rest
    ``/pod life`` (confirmed after the commit)."""
    tally.sent[user] += 1
    try:
        if tally.sent[user] % 2:
            reply = await driver.click(board, label="+1", user=user, expect_error=True)
            if reply.record.response_type == 6:  # deferred: Discord told the presser it arrived
                tally.pressed[user] += 1
            return
        reply = await driver.slash("pod life", user=user, player=user, amount=1, expect_error=True)
        confirmed = "game #1" in reply.content
    except Exception:  # the bot died under this change: not confirmed
        return
    if confirmed:
        tally.confirmed[user] += 1


async def keep_pressing(driver: RemoteDriver, board, user: str, running: asyncio.Event, tally: Tally) -> None:
    while running.is_set():
        await press(driver, board, user, tally)


async def keep_undoing(driver: RemoteDriver, board, running: asyncio.Event, tally: Tally) -> None:
    """Undo on game 2 (tallied under ``UNDOER``), never more often than it has changes to undo."""
    while running.is_set() and tally.sent[UNDOER] < UNDOABLE - 20:
        tally.sent[UNDOER] += 1
        try:
            reply = await driver.click(board, label="Undo", user=UNDOER, expect_error=True)
        except Exception:  # the bot died under this press: not acknowledged
            continue
        if reply.record.response_type == 6:
            tally.pressed[UNDOER] += 1


async def stored_undos(db_url: str | Path) -> int:
    db = await Database.open(db_url)
    try:
        events = await PodRepository(db).events(2)
        pod.replay(events)
        return sum(1 for e in events if e.kind == pod.UNDO)
    finally:
        await db.close()


async def check_undos(db_url: str | Path, tally: Tally) -> int:
    """Undos applied twice never; returns how many acknowledged undos are not stored."""
    stored = await stored_undos(db_url)
    assert stored <= tally.sent[UNDOER], (stored, tally.sent[UNDOER])
    return max(0, tally.pressed[UNDOER] - stored)


def database() -> str | Path:
    """The bot's database: the test's PostgreSQL schema (``both_engines``) or the SQLite file."""
    return os.environ.get("PODKEEPER_DATABASE_URL") or ""


async def stored_changes(db_url: str | Path, user_ids: dict[str, int]) -> tuple[Counter[str], int]:
    """The +1 events stored per player, and the log's length (checking it is whole and replays)."""
    db = await Database.open(db_url)
    try:
        if db.engine == "sqlite":
            assert await db.scalar("PRAGMA integrity_check") == "ok"
        events = await PodRepository(db).events(1)
        pod.replay(events)  # every game still folds
        by_actor = Counter(e.actor for e in events if e.kind == pod.LIFE)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        return Counter({name: by_actor[user_id] for name, user_id in user_ids.items()}), len(events)
    finally:
        await db.close()


async def check_database(db_url: str | Path, user_ids: dict[str, int], tally: Tally) -> tuple[int, int]:
    """Nothing applied twice, ever. Returns the log's length and how many acknowledged changes are not
    stored (right after a kill, the journal's; once restarted and the journal replayed, none)."""
    stored, length = await stored_changes(db_url, user_ids)
    for name in user_ids:
        assert stored[name] <= tally.sent[name], (name, stored[name], tally.sent[name])
    return length, sum(max(0, tally.acknowledged(name) - stored[name]) for name in user_ids)


async def shown_seq(db_path: str | Path) -> int:
    db = await Database.open(db_path)
    try:
        return int(await db.scalar("SELECT COALESCE(shown_seq, 0) FROM pod_games WHERE game_id = 1"))
    finally:
        await db.close()


async def test_killing_the_bot_under_load_loses_and_repeats_nothing(
    tmp_path: Path, full_run: bool, capsys
) -> None:
    kills = 20 if full_run else 3
    lagging: Counter[bool] = Counter()
    rng = random.Random(13)
    fake = FakeDiscord()
    guild = standard_world(fake, members=(*PLAYERS, UNDOER))
    tally = Tally()
    pressing, lost_at_kills, lost = 0.0, 0, 0
    undos_lost_at_kills, undos_lost = 0, 0
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        bot = BotProcess(server, tmp_path)
        db_url = database() or bot.db_path
        driver = RemoteDriver(server, guild, quiet=0.05, min_quiet=0.02, max_wait=5)
        try:
            await bot.start()
            user_ids = {name: driver.user(name).id for name in PLAYERS}
            board = await driver.slash("pod start", players=" ".join(driver.user(n).mention for n in PLAYERS))
            undo_board = await driver.slash(
                "pod start",
                user=UNDOER,
                channel="games",  # game 1 stays the default
                players=f"{driver.user(UNDOER).mention} {driver.user('alice').mention}",
            )
            for _ in range(UNDOABLE):  # changes to undo, stored before the kills
                await driver.slash("pod life", user=UNDOER, channel="games", player=UNDOER, amount=1, game=2)
            for round_number in range(kills):
                running = asyncio.Event()
                running.set()

                pressers = [
                    asyncio.create_task(keep_pressing(driver, board, name, running, tally))
                    for name in PLAYERS
                ]
                pressers.append(asyncio.create_task(keep_undoing(driver, undo_board, running, tally)))
                pause = rng.uniform(0.1, 1.5)
                await asyncio.sleep(pause)
                pressing += pause
                bot.kill()  # at a random moment, with presses in flight
                running.clear()
                await asyncio.gather(*pressers)
                length, not_stored = await check_database(db_url, user_ids, tally)
                lost_at_kills += not_stored
                undos_lost_at_kills += await check_undos(db_url, tally)
                lagging[await shown_seq(db_url) < length] += 1
                await bot.start()
                last, _ = await check_database(db_url, user_ids, tally)
                for _ in range(150):  # the reconcile pass runs once the bot is ready (~2 s after connecting)
                    if await shown_seq(db_url) == last:
                        break
                    await asyncio.sleep(0.1)
                assert await shown_seq(db_url) == last, f"round {round_number}: the board lags its log"
                await settle(driver, 0.3)
                before = sum(tally.confirmed.values())  # and it is answerable after the restart
                reply = await driver.click(board, label="+1", user="alice")
                assert reply.response_type is not None, f"round {round_number}: the board did not answer"
                tally.sent["alice"] += 1
                tally.pressed["alice"] += 1
                await press(driver, board, "alice", tally)
                if (
                    tally.sent["alice"] % 2
                ):  # that was a press: once more, so a confirmed /pod life is checked
                    await press(driver, board, "alice", tally)
                assert sum(tally.confirmed.values()) == before + 1, (
                    f"round {round_number}: /pod life did not answer"
                )
                await settle(driver, 0.6)
            last, lost = await check_database(db_url, user_ids, tally)  # once all the restarts are behind
            await settle(driver, 0.3)  # the replayed undos' handlers finish
            undos_lost = await check_undos(db_url, tally)
            for _ in range(150):  # the last edit may wait out the channel's rate limit on a busy machine
                if await shown_seq(db_url) == last:
                    break
                await asyncio.sleep(0.1)
            await settle(driver, 0.3)
            db = await Database.open(db_url)
            try:
                state = pod.replay(await PodRepository(db).events(1))
            finally:
                await db.close()
            labels = str(board.message.components)
            for seat, player in enumerate(state.players, 1):
                assert f"{seat} {player.name} ({player.life})" in labels, re.findall(
                    r"\d \w+ \(\d+\)", labels
                )
            assert sum(tally.confirmed.values()) > kills
        finally:
            bot.stop()
            driver.close()
    assert "Traceback" not in (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    with capsys.disabled():
        print(
            f"\ncrash test: {kills} kills, {sum(tally.sent.values())} changes sent (presses and /pod life) in "
            f"{pressing:.1f} s of pressing, {sum(tally.confirmed.values())} /pod life confirmed, "
            f"{sum(tally.pressed.values())} presses acknowledged; acknowledged but not stored when killed: "
            f"{lost_at_kills}, lost after the restarts: {lost}; boards lagging at a kill: {lagging[True]} "
            f"(all caught up on restart); Undo presses (the shared journal): {tally.sent[UNDOER]} sent, "
            f"{tally.pressed[UNDOER]} acknowledged, {await stored_undos(db_url)} applied; acknowledged but not "
            f"stored when killed: {undos_lost_at_kills}, lost after the restarts: {undos_lost}"
        )
    assert lost == 0, f"{lost} acknowledged changes were lost"
    assert undos_lost == 0, f"{undos_lost} acknowledged undos were lost"
