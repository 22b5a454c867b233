"""Nobody can stall the bot , through the real command tree and the real work pool.

Heavy work runs in the bot's worker processes. To see what happens *while* it runs, a test fills both
workers with jobs that wait for a file ("the gate"): whatever is queued behind them is provably not
running on the event loop, and a probe task shows the loop keeps turning meanwhile.

Nothing here waits against the wall clock: a busy machine (the suite shares two cores with others) only
makes these tests slower. Each waits *until* what it means has happened (``eventually``; pytest's per-test
timeout bounds a hang), and the pool's time limits run on the bot's fake clock, so a test that wants a
job to time out moves that clock past the limit instead of shrinking it and racing the machine.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.testing import DiscordHarness, UploadFile
from bot.testing.fakediscord import payloads as P
from bot.workers import JOB_SECONDS

DATA = Path(__file__).resolve().parent.parent / "data"
KAALIA = (DATA / "decks" / "heavenly_inferno_cmd2011.txt").read_bytes()
PARTNERS = (DATA / "decks" / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_bytes()
TYPOS = ("Sol Rign", "Lightnig Bolt", "Kalia of the Vast")
LANGUAGES = {"en-US": "en", "ja": "ja", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}


def unknown_names(count: int) -> bytes:
    """``count`` distinct names no card has, each a typo with a "did you mean"."""
    return "\n".join(f"1 {TYPOS[i % len(TYPOS)]} {i}" for i in range(count)).encode()


GATE_SECONDS = 3600.0  # a gate job's time limit on the bot's clock: no test moves the clock that far
GATES_LEFT_OPEN: list[Path] = []  # opened after every test, so no worker outlives a failed one


def wait_for(path: str, limit: float = 120.0) -> str:
    """A worker job that holds its worker until ``path`` exists (at most ``limit`` seconds: a worker
    of a test that never opened its gate, were the clean-up skipped, gives up by itself)."""
    ends = time.monotonic() + limit
    while not os.path.exists(path) and time.monotonic() < ends:
        time.sleep(0.01)
    return "released"


def wait_then_die(path: str) -> None:
    """A worker that dies (as if killed for memory) once ``path`` exists."""
    wait_for(path)
    os._exit(70)


class Gate:
    """Both workers held by ``job`` until ``open()``."""

    def __init__(self, h: DiscordHarness, path: Path, job: Callable[[str], Any] = wait_for) -> None:
        self.path = path
        GATES_LEFT_OPEN.append(path)
        self.jobs = [
            asyncio.create_task(h.bot.workers.run(job, str(path), timeout=GATE_SECONDS))
            for _ in range(h.bot.workers.workers)
        ]

    async def open(self) -> None:
        self.path.touch()
        await asyncio.gather(*self.jobs, return_exceptions=True)


class Probe:
    """Counts event-loop turns (10 ms sleeps) and the longest gap between two."""

    def __init__(self) -> None:
        self.ticks, self.longest = 0, 0.0
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            self.ticks, self.longest, last = self.ticks + 1, max(self.longest, now - last), now

    def stop(self) -> None:
        self._task.cancel()


@pytest.fixture(autouse=True)
def gates_open_after_the_test() -> Any:
    yield
    for path in GATES_LEFT_OPEN:
        path.touch()
    GATES_LEFT_OPEN.clear()


async def eventually(condition: Callable[[], bool], between: Callable[[], Any] | None = None) -> None:
    """Until ``condition()`` holds, however long a busy machine takes (the suite's per-test timeout
    bounds a hang): for what must happen, not what must happen within a wall-clock time."""
    while True:
        if between is not None:
            await between()
        if condition():
            return
        await asyncio.sleep(0.01)


def deferred_commands(h: DiscordHarness, user: str) -> list[Any]:
    """The slash commands of ``user`` that were answered with "thinking…" (type 5)."""
    who = h.user(user).id
    return [
        r
        for r in h.fake.interactions.values()
        if r.kind == P.APPLICATION_COMMAND and r.actor.id == who and r.response_type == 5
    ]


async def saved_decks(h: DiscordHarness) -> list[tuple[str, str]]:
    return [tuple(row) for row in await h.bot.db.fetchall("SELECT name, ruleset FROM decks ORDER BY name")]


async def turns_of_the_loop(probe: Probe, count: int) -> None:
    """Until the loop has turned ``count`` more times: however slow the machine, it went on answering."""
    start = probe.ticks
    await eventually(lambda: probe.ticks >= start + count)


def checks_submitted(h: DiscordHarness) -> int:
    """Deck checks handed to the pool (queued or running): counted once the job is in the executor."""
    return h.bot.workers.ran["check_deck_text"]


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=DATA / "deck_cards.jsonl") as harness:
        # A first start stores its cards in the background, and the stored data is a new version: the
        # pool forks new workers for the next job that takes the cards. Were that after a gate, the
        # gate would hold the old workers while the job ran on new ones (seen under load).
        await harness.bot.cards.stored()
        yield harness


async def test_a_1000_name_check_is_deferred_and_runs_in_the_pool_while_others_are_answered(
    h, tmp_path
) -> None:
    gate = Gate(h, tmp_path / "go")
    probe = Probe()
    check = asyncio.create_task(
        h.slash("deck check", user="alice", file=UploadFile("new.txt", unknown_names(1_000)))
    )
    await eventually(lambda: len(deferred_commands(h, "alice")) == 1)  # "thinking…" at once, before any work
    ping = await h.slash("ping", user="bob")  # answered in time (the harness enforces 3 s)
    assert ping.response_type == 4 and ping.ephemeral
    await turns_of_the_loop(probe, 5)
    assert not check.done()  # the check waits for a worker; the loop turns on meanwhile
    await gate.open()
    reply = await check
    probe.stop()
    assert reply.deferred and h.bot.workers.ran["check_deck_text"] == 1
    embed = reply.embed
    assert "Did you mean “Sol Ring”?" in embed["description"]
    kept = h.bot.get_cog(
        "Decks"
    ).kept.values()  # the reply's pages (the cog module is loaded as an extension)
    pages = next(v.pages for v in kept if type(v).__name__ == "PagedReply")
    assert "Did you mean" not in pages[2]  # problems 25–36: past the first 20, listed without suggestions
    assert "Line 1000: unknown card “Sol Rign 999”." in "".join(pages)
    assert "“Did you mean” was looked up for the first 20 unknown names only; the other 980" in pages[-1]


async def test_one_user_may_run_two_heavy_jobs_and_a_third_is_refused_not_queued(h, tmp_path) -> None:
    gate = Gate(h, tmp_path / "go")
    mine = [
        asyncio.create_task(h.slash("deck check", user="alice", file=UploadFile("a.txt", KAALIA)))
        for _ in range(2)
    ]
    await eventually(lambda: h.bot.workers.heavy_jobs(h.user("alice").id) == 2)  # both hold a slot
    for locale, language in LANGUAGES.items():
        refused = await h.slash("deck check", user="alice", locale=locale, file=UploadFile("a.txt", KAALIA))
        assert refused.response_type == 4 and refused.ephemeral
        assert refused.content == t("deck.busy", language, limit=2)
    theirs = asyncio.create_task(h.slash("deck check", user="bob", file=UploadFile("b.txt", KAALIA)))
    await eventually(lambda: len(deferred_commands(h, "bob")) == 1)  # someone else is queued, not refused
    await gate.open()
    for reply in await asyncio.gather(*mine, theirs):
        assert "Legal under commander." in reply.embed["description"]
    again = await h.slash("deck check", user="alice", file=UploadFile("a.txt", KAALIA))  # slots are back
    assert "Legal under commander." in again.embed["description"]


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_registration_whose_check_times_out_saves_nothing_and_says_so(h, tmp_path, locale) -> None:
    gate = Gate(h, tmp_path / "go")  # the check waits in the queue however long the test looks
    register = asyncio.create_task(
        h.slash(
            "deck register", locale=locale, name="Kaalia", file=UploadFile("k.txt", KAALIA), expect_error=True
        )
    )
    await eventually(lambda: checks_submitted(h) == 1)
    await h.clock.advance(seconds=JOB_SECONDS - 1)
    for _ in range(10):
        await asyncio.sleep(0)
    assert h.bot.workers.pending == h.bot.workers.workers + 1  # within its limit the check is waited for
    await h.clock.advance(seconds=1)
    reply = await register  # the pool logs a warning for the job it gave up on
    assert reply.deferred and reply.ephemeral
    assert reply.content == t("deck.error.check_timeout", LANGUAGES[locale])  # fills the "thinking…" message
    assert await saved_decks(h) == []
    await gate.open()
    saved = await h.slash("deck register", locale=locale, name="Kaalia", file=UploadFile("k.txt", KAALIA))
    assert saved.deferred and await saved_decks(h) == [("Kaalia", "commander")]


async def test_a_registration_whose_worker_dies_saves_nothing_and_the_next_one_works(h, tmp_path) -> None:
    gate = Gate(h, tmp_path / "go", wait_then_die)
    register = asyncio.create_task(
        h.slash(
            "deck register", locale="ja", name="Kaalia", file=UploadFile("k.txt", KAALIA), expect_error=True
        )
    )
    await eventually(lambda: checks_submitted(h) == 1)  # queued behind the workers that are about to die
    await gate.open()
    reply = await register
    assert reply.content == t("deck.error.check_failed", "ja")
    assert await saved_decks(h) == []
    await h.slash("deck register", name="Kaalia", file=UploadFile("k.txt", KAALIA))
    assert await saved_decks(h) == [("Kaalia", "commander")]


def answered_commands(h: DiscordHarness, user: str) -> list[Any]:
    who = h.user(user).id
    return [
        r
        for r in h.fake.interactions.values()
        if r.kind == P.APPLICATION_COMMAND and r.actor.id == who and r.acknowledged
    ]


async def test_a_ruleset_change_rechecks_decks_in_the_pool_not_on_the_loop(h, tmp_path) -> None:
    await h.slash("deck register", name="Kaalia", file=UploadFile("k.txt", KAALIA))
    await h.slash("deck register", user="bob", name="Partners", file=UploadFile("p.txt", PARTNERS))
    submitted = h.bot.workers.ran["check_deck_text"]
    gate = Gate(h, tmp_path / "go")
    probe = Probe()
    # The harness waits for the re-check (a listener task) before returning, so send and watch.
    change = asyncio.create_task(h.slash("config ruleset", user="admin", ruleset="edh-2010"))
    await eventually(lambda: len(answered_commands(h, "admin")) == 1)
    await turns_of_the_loop(probe, 5)
    assert await saved_decks(h) == [
        ("Kaalia", "commander"),
        ("Partners", "commander"),
    ]  # waiting for a worker
    assert not change.done()
    await gate.open()
    changed = await change
    probe.stop()
    assert changed.response_type == 4 and "edh-2010" in changed.content
    assert await saved_decks(h) == [("Kaalia", "edh-2010"), ("Partners", "edh-2010")]
    assert h.bot.workers.ran["check_deck_text"] == submitted + 2


async def test_a_recheck_that_fails_keeps_the_old_verdict(h, tmp_path) -> None:
    await h.slash("deck register", name="Kaalia", file=UploadFile("k.txt", KAALIA))
    before = await h.bot.db.fetchone("SELECT ruleset, status, verdict FROM decks")
    gate = Gate(h, tmp_path / "go", wait_then_die)
    change = asyncio.create_task(
        h.slash("config ruleset", user="admin", ruleset="edh-2010", expect_error=True)
    )
    await eventually(lambda: len(answered_commands(h, "admin")) == 1)
    await gate.open()
    await change
    assert tuple(await h.bot.db.fetchone("SELECT ruleset, status, verdict FROM decks")) == tuple(before)


# -- pod presses -----------------------------------------------------------------------------------------


def press(h: DiscordHarness, message: Any, user: str, custom_id: str) -> Any:
    """Send one press the way Discord does (no waiting for the bot) and return what Discord records."""
    payload = h.fake.new_interaction(
        kind=P.MESSAGE_COMPONENT,
        data=P.component_data(custom_id, 2),
        channel=h.channel(),
        actor=h.user(user),
        message=message,
    )
    h.bot._connection.parse_interaction_create(payload)
    return h.fake.interactions[int(payload["id"])]


async def test_a_press_is_acknowledged_before_the_database_work(h) -> None:
    board = await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
    async with h.bot.db.transaction():  # the database's one writer is busy elsewhere
        record = press(h, board.message, "alice", "pod:1:life:-5")
        await eventually(lambda: record.acknowledged)
        assert record.response_type == 6 and not record.late  # answered, change still waiting
        assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'") == 0
    await h.settle()
    state = (await h.bot.get_cog("Pods").service.get(1)).state
    assert state.player(h.user("alice").id).life == 35


async def test_a_burst_of_presses_is_answered_in_time_and_applied_exactly_once(tmp_path) -> None:
    """400 presses on 10 boards at once. "In time" rests on the bot answering each press before its
    change queues for the game's lock and the database's one writer (Discord allows 3 s, and a burst's
    queue is longer). Measured as that, not as wall time (on a shared machine wall time measures the
    machine: the 3 s deadline failed under load with nothing wrong in the bot): the writer is held for the
    whole burst, so every answer provably comes before any change is stored. Then each press is applied
    exactly once."""
    players = [f"p{i}" for i in range(20)]
    async with DiscordHarness.start(tmp_path, members=players, interaction_deadline=None) as h:
        boards = []
        for game in range(10):
            pair = players[2 * game : 2 * game + 2]
            reply = await h.slash(
                "pod start", user=pair[0], players=" ".join(h.user(p).mention for p in pair)
            )
            boards.append((game + 1, reply.message, pair))
        async with h.bot.db.transaction():  # the database's one writer is busy elsewhere the whole burst
            records = [
                press(h, message, pair[i % 2], f"pod:{game}:life:{(-1, 1)[(i // 2) % 2]}")
                for i in range(40)
                for game, message, pair in boards
            ]
            await eventually(lambda: all(r.acknowledged for r in records))
            assert {r.response_type for r in records} == {6}  # answered silently (deferred update)
            assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'") == 0
        stored: list[int] = [0]

        async def count() -> None:
            stored[0] = await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'")

        await eventually(
            lambda: stored[0] >= len(records), between=count
        )  # the queue drains at the machine's pace
        await h.settle()
        service = h.bot.get_cog("Pods").service
        for game, _, pair in boards:
            assert (
                await h.bot.db.scalar(
                    "SELECT COUNT(*) FROM pod_events WHERE game_id = ? AND kind = 'life'", (game,)
                )
                == 40
            )
            state = (await service.get(game)).state
            assert [state.player(h.user(p).id).life for p in pair] == [40, 40]  # -1 +1 -1 +1 …
