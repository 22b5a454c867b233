"""Responsiveness under load: nobody can stall the bot. Run by hand:

    python benchmarks/bench_responsiveness.py [--seconds 4] [--burst 1000] [--games 60]

The real bot on the full bundled card data (assets/cards/cards.jsonl.gz, ~24k cards), in process, with
only Discord faked (bot.testing). Every interaction is a real INTERACTION_CREATE payload parsed by
discord.py; its *first response* time is when the bot's acknowledgement (or reply) reached the fake
Discord, measured from the moment the user sent it. Users send on a fixed schedule, so a stalled event
loop shows up as latency (a late send counts from when it was due, not from when it went out).

1. Mixed load. One user checks an attached list of 1,000 unknown card names; another registers two such
   decks and then changes the server's ruleset (re-checking both); meanwhile other users send /ping and
   press pod buttons on 60 running games. Target: /ping and presses p99 < 250 ms, none after 3 s.
2. Burst: 1,000 presses over 60 games sent at once. Target: 0 answered after 3 s, 0 lost, 0 applied twice.
3. Why a thread pool: loop lag (a 2 ms probe) while six 1,000-name checks run inline, in the 2-thread
   pool the bot uses, and in a 2-process pool.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import paths  # noqa: E402
from bot.domain import pod  # noqa: E402
from bot.testing import DiscordHarness  # noqa: E402
from bot.testing.fakediscord import payloads as P  # noqa: E402
from bot.testing.fakediscord.driver import UploadFile  # noqa: E402

DEADLINE = 3.0
TARGET_P99 = 0.250
PLAYERS_PER_GAME = 2
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")


def unknown_list(lines: int, seed: int) -> bytes:
    """``lines`` names no card has: Latin nonsense and kana/kanji strings (like cards newer than the data)."""
    rng = random.Random(seed)
    latin, kana = "bcdfghjklmnpqrstvwxz", "アイウエオカキクケコサシスセソタチツテトナニヌネノ竜炎剣"
    rows = []
    for index in range(lines):
        if index % 2:
            name = " ".join(
                "".join(rng.choice(latin) for _ in range(rng.randint(4, 9))).title() for _ in range(2)
            )
        else:
            name = "".join(rng.choice(kana) for _ in range(rng.randint(4, 10)))
        rows.append(f"1 {name} {index}")
    return "\n".join(rows).encode("utf-8")


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


@dataclass
class Clock:
    """When each interaction was due to be sent and when the fake Discord got its first response."""

    due: dict[int, float] = field(default_factory=dict)
    answered: dict[int, float] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)
    double_acks: int = 0

    def install(self, h: DiscordHarness) -> None:
        handle = h.fake.handle

        def timed(method: str, path: str, **kwargs: Any) -> Any:
            response = handle(method, path, **kwargs)
            found = _CALLBACK.search(path)
            if found and method == "POST":
                interaction_id = int(found[1])
                if response.status < 300 and interaction_id not in self.answered:
                    self.answered[interaction_id] = time.monotonic()
                elif response.status == 400:
                    self.double_acks += 1
            return response

        h.fake.handle = timed  # type: ignore[method-assign]

    def latencies(self, kind: str) -> tuple[list[float], int]:
        """First-response latencies of ``kind`` and how many were never answered."""
        ids = [i for i, k in self.kinds.items() if k == kind]
        done = [self.answered[i] - self.due[i] for i in ids if i in self.answered]
        return done, len(ids) - len(done)


def send(h: DiscordHarness, clock: Clock, kind: str, due: float, payload: dict[str, Any]) -> None:
    interaction_id = int(payload["id"])
    clock.due[interaction_id], clock.kinds[interaction_id] = due, kind
    h.bot._connection.parse_interaction_create(payload)


def slash_payload(h: DiscordHarness, command: str, user: str, **options: Any) -> dict[str, Any]:
    return h.fake.new_interaction(
        kind=P.APPLICATION_COMMAND,
        data=h.command_data(command, options),
        channel=h.channel(),
        actor=h.user(user),
    )


def press_payload(h: DiscordHarness, game_id: int, message: Any, user: str, amount: int) -> dict[str, Any]:
    return h.fake.new_interaction(
        kind=P.MESSAGE_COMPONENT,
        channel=h.channel(),
        actor=h.user(user),
        data=P.component_data(f"pod:{game_id}:life:{amount}", 2),
        message=message,
    )


async def start_games(h: DiscordHarness, count: int) -> list[tuple[int, Any, tuple[str, ...]]]:
    cog = h.bot.get_cog("Pods")
    channel = h.bot.get_channel(h.channel().id)
    games = []
    for index in range(count):
        names = tuple(f"p{index * PLAYERS_PER_GAME + seat}" for seat in range(PLAYERS_PER_GAME))
        members = [Player(h.user(name).id, name) for name in names]  # no members intent: no member cache
        loaded, sent = await cog.start_linked_game(channel, members, ruleset="commander")
        games.append((loaded.game_id, h.fake.messages[sent.id], names))
    return games


@dataclass(frozen=True)
class Player:
    id: int
    display_name: str


class Presses:
    """Every press sent in one phase, to check afterwards that each was applied exactly once.

    Each player's presses go down when at or above their starting total and up when below, so nobody dies and
    no game ends mid-phase (a press on a finished game is refused, which is right but not what we count)."""

    def __init__(self) -> None:
        self.expected: Counter[tuple[int, int]] = Counter()  # (game, user id) -> life change
        self.count: Counter[int] = Counter()  # game -> presses
        self.before: dict[int, tuple[int, dict[int, int]]] = {}

    async def baseline(self, h: DiscordHarness, games: list[tuple[int, Any, tuple[str, ...]]]) -> None:
        """What is stored before the phase: life events and totals per game."""
        for game_id, _, _ in games:
            self.before[game_id] = await self._stored(h, game_id)

    def amount(self, game_id: int, user_id: int, size: int) -> int:
        """The next press of this player: down when at or above the start, else up (stays within ±5)."""
        amount = -size if self.expected[(game_id, user_id)] >= 0 else size
        self.expected[(game_id, user_id)] += amount
        self.count[game_id] += 1
        return amount

    @staticmethod
    async def _stored(h: DiscordHarness, game_id: int) -> tuple[int, dict[int, int]]:
        events = await h.bot.get_cog("Pods").service.repo.events(game_id)
        state = pod.replay(events)
        return sum(1 for e in events if e.kind == pod.LIFE), {p.user_id: p.life for p in state.players}

    async def verify(self, h: DiscordHarness) -> tuple[int, int]:
        """(lost, doubled): presses missing from, or stored more than once in, the stored events; a
        game whose event count is right but whose totals are not counts its wrong totals as lost."""
        lost = doubled = 0
        for game_id, presses in self.count.items():
            stored_before, life_before = self.before[game_id]
            stored, life = await self._stored(h, game_id)
            lost += max(0, presses - (stored - stored_before))
            doubled += max(0, (stored - stored_before) - presses)
            if stored - stored_before == presses:
                lost += sum(
                    1
                    for user, total in life.items()
                    if total != life_before[user] + self.expected[(game_id, user)]
                )
        return lost, doubled


async def mixed_load(
    h: DiscordHarness, games: list[tuple[int, Any, tuple[str, ...]]], seconds: float, presses: Presses
) -> Clock:
    clock = Clock()
    clock.install(h)
    big = unknown_list(1_000, seed=1)
    started = time.monotonic()
    heavy_done = asyncio.Event()

    async def heavy() -> None:
        await asyncio.sleep(0.2)
        send(
            h,
            clock,
            "deck check",
            time.monotonic(),
            slash_payload(h, "deck check", "checker", file=UploadFile("unknown.txt", big)),
        )
        for number in (1, 2):
            send(
                h,
                clock,
                "deck register",
                time.monotonic(),
                slash_payload(
                    h,
                    "deck register",
                    "registrar",
                    name=f"Junk {number}",
                    file=UploadFile(f"junk{number}.txt", unknown_list(1_000, seed=10 + number)),
                ),
            )
        await wait_answered(clock, "deck register", 2)
        await until_saved(h, 2)
        send(
            h,
            clock,
            "config ruleset",
            time.monotonic(),
            slash_payload(h, "config ruleset", "registrar", ruleset="edh-2010"),
        )
        await until_rechecked(h, "edh-2010", 2)
        heavy_done.set()

    async def traffic(kind: str, every: float) -> None:
        """Send on a fixed schedule; a send that is due while the loop is stalled counts from when it was due."""
        index = 0
        while time.monotonic() - started < seconds or not heavy_done.is_set():
            due = started + index * every
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if kind == "ping":
                send(h, clock, "ping", due, slash_payload(h, "ping", f"pinger{index % 10}"))
            else:
                game_id, message, names = games[index % len(games)]
                user = names[(index // len(games)) % len(names)]
                amount = presses.amount(game_id, h.user(user).id, (1, 5)[index % 2])
                send(h, clock, "press", due, press_payload(h, game_id, message, user, amount))
            index += 1

    await asyncio.gather(heavy(), traffic("ping", 0.02), traffic("press", 0.01))
    await wait_all_answered(clock)
    await h.settle(timeout=60)  # presses are acknowledged first and applied right after
    await h.bot.get_cog("Pods").updater.flush()
    return clock


async def wait_answered(clock: Clock, kind: str, count: int, timeout: float = 60.0) -> None:
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        if sum(1 for i, k in clock.kinds.items() if k == kind and i in clock.answered) >= count:
            return
        await asyncio.sleep(0.01)


async def wait_all_answered(clock: Clock, timeout: float = 60.0) -> None:
    ends = time.monotonic() + timeout
    while time.monotonic() < ends and any(i not in clock.answered for i in clock.kinds):
        await asyncio.sleep(0.01)


async def until_saved(h: DiscordHarness, count: int, timeout: float = 60.0) -> None:
    ends = time.monotonic() + timeout
    while time.monotonic() < ends and await h.bot.db.scalar("SELECT COUNT(*) FROM decks") < count:
        await asyncio.sleep(0.01)


async def until_rechecked(h: DiscordHarness, ruleset: str, count: int, timeout: float = 60.0) -> None:
    ends = time.monotonic() + timeout
    while (
        time.monotonic() < ends
        and await h.bot.db.scalar("SELECT COUNT(*) FROM decks WHERE ruleset = ?", (ruleset,)) < count
    ):
        await asyncio.sleep(0.01)


async def burst(
    h: DiscordHarness, games: list[tuple[int, Any, tuple[str, ...]]], total: int, presses: Presses
) -> Clock:
    clock = Clock()
    clock.install(h)
    payloads = []
    for index in range(total):
        game_id, message, names = games[index % len(games)]
        user = names[(index // len(games)) % len(names)]
        amount = presses.amount(game_id, h.user(user).id, (1, 5)[index % 2])
        payloads.append(press_payload(h, game_id, message, user, amount))
    sent = time.monotonic()
    for payload in payloads:
        send(h, clock, "burst press", sent, payload)
    await wait_all_answered(clock)
    await h.settle(timeout=60)
    await h.bot.get_cog("Pods").updater.flush()
    return clock


def report(label: str, clock: Clock, kind: str) -> tuple[float, int, int]:
    done, unanswered = clock.latencies(kind)
    late = sum(1 for s in done if s > DEADLINE) + unanswered
    p99 = percentile(done, 0.99)
    print(
        f"  {label:<28} n={len(done) + unanswered:<5} first response p50 {percentile(done, 0.5) * 1000:6.1f} ms  "
        f"p99 {p99 * 1000:6.1f} ms  max {max(done, default=0) * 1000:6.1f} ms  late (> 3 s) {late}"
    )
    return p99, late, unanswered


# -- 3. thread pool or process pool -------------------------------------------------------------------

_INDEX: Any = None  # the card index, for the process-pool workers (inherited by fork)
_LIST = b""


def _one_check() -> int:
    from bot.render.deck import summary_image
    from bot.services.decks import check_deck_text

    result = check_deck_text(_LIST, _INDEX, "commander")
    return len(summary_image(result.summary, result.verdict.colour_identity, "en"))


async def _lag_while(run_jobs: Any) -> tuple[float, float, float]:
    stop = asyncio.Event()
    gaps: list[float] = []

    async def probe() -> None:
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            gaps.append(now - last - 0.002)
            last = now

    task = asyncio.create_task(probe())
    started = time.perf_counter()
    await run_jobs()
    elapsed = time.perf_counter() - started
    stop.set()
    await task
    return percentile(gaps, 0.99), max(gaps, default=0.0), elapsed


async def pool_comparison(index: Any, jobs: int = 6) -> None:
    global _INDEX, _LIST
    _INDEX, _LIST = index, unknown_list(1_000, seed=99)
    loop = asyncio.get_running_loop()

    async def inline() -> None:
        for _ in range(jobs):
            _one_check()
            await asyncio.sleep(0)

    def in_pool(executor: concurrent.futures.Executor):
        async def run() -> None:
            await asyncio.gather(*(loop.run_in_executor(executor, _one_check) for _ in range(jobs)))

        return run

    threads = concurrent.futures.ThreadPoolExecutor(2)
    processes = concurrent.futures.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
    await loop.run_in_executor(processes, _one_check)  # fork the workers before timing
    for label, run in (
        ("inline (on the event loop)", inline),
        ("2-thread pool", in_pool(threads)),
        ("2-process pool (the bot's)", in_pool(processes)),
    ):
        p99, worst, elapsed = await _lag_while(run)
        print(
            f"  {label:<28} {jobs} checks in {elapsed:.2f} s; loop lag p99 {p99 * 1000:5.1f} ms, "
            f"max {worst * 1000:5.1f} ms"
        )
    threads.shutdown()
    processes.shutdown()


async def main(seconds: float, burst_size: int, game_count: int) -> None:
    members = (
        "checker",
        *(f"pinger{i}" for i in range(10)),
        *(f"p{i}" for i in range(game_count * PLAYERS_PER_GAME)),
    )
    with tempfile.TemporaryDirectory() as tmp:
        booted = time.perf_counter()
        async with DiscordHarness.start(
            Path(tmp), cards_path=paths.BUNDLED_CARDS, members=members, interaction_deadline=None
        ) as h:
            h.add_member("registrar", permissions="manage_guild")  # may change the server's ruleset
            print(
                f"bot up on {len(h.bot.cards):,} cards in {time.perf_counter() - booted:.1f} s "
                f"(work pool: {h.bot.workers.workers} {'processes' if h.bot.workers.processes else 'threads'}, "
                f"{h.bot.workers.per_user} heavy jobs per user)"
            )
            games = await start_games(h, game_count)
            await h.settle()

            print(
                f"1. mixed load for >= {seconds:.0f} s: a 1,000-unknown-name check, two such registrations and "
                f"a ruleset change, with /ping every 20 ms and a pod press every 10 ms on {game_count} games"
            )
            presses = Presses()
            await presses.baseline(h, games)
            started = time.perf_counter()
            clock = await mixed_load(h, games, seconds, presses)
            elapsed = time.perf_counter() - started
            worst_p99 = 0.0
            late_total = 0
            for label, kind in (("/ping", "ping"), ("pod press", "press")):
                p99, late, _ = report(label, clock, kind)
                worst_p99, late_total = max(worst_p99, p99), late_total + late
            for label, kind in (
                ("/deck check (deferred)", "deck check"),
                ("/deck register (deferred)", "deck register"),
                ("/config ruleset", "config ruleset"),
            ):
                report(label, clock, kind)
            lost, doubled = await presses.verify(h)
            statuses = await h.bot.db.fetchall("SELECT name, ruleset, status FROM decks ORDER BY name")
            print(
                f"  window {elapsed:.1f} s; presses lost {lost}, applied twice {doubled}; double acks "
                f"{clock.double_acks}; decks after the ruleset change: "
                f"{', '.join(f'{r[0]} ({r[1]}, {r[2]})' for r in statuses)}; pool jobs {dict(h.bot.workers.ran)}"
            )
            ok_mixed = worst_p99 < TARGET_P99 and late_total == 0 and lost == doubled == 0

            print(f"2. burst: {burst_size:,} presses over {game_count} games, sent at once")
            presses = Presses()
            await presses.baseline(h, games)
            clock = await burst(h, games, burst_size, presses)
            _, late, _ = report("burst press", clock, "burst press")
            lost, doubled = await presses.verify(h)
            print(
                f"  answered late {late}, lost {lost}, applied twice {doubled}, double acks {clock.double_acks}"
            )
            ok_burst = late == 0 and lost == doubled == 0
            index = h.bot.cards.index

            print("3. loop lag while six 1,000-unknown-name checks (with summary image) run:")
            await pool_comparison(index)
    print(
        f"targets (p99 < 250 ms, none late, none lost or doubled): mixed {'MET' if ok_mixed else 'MISSED'}, "
        f"burst {'MET' if ok_burst else 'MISSED'}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="minimum length of the mixed-load window")
    parser.add_argument("--burst", type=int, default=1_000, help="presses in the burst")
    parser.add_argument("--games", type=int, default=60, help="running pod games")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.seconds, arguments.burst, arguments.games))
