"""Benchmark: a server-wide Hydra event with 100 tables (400 players) against ``podkeeper run`` in a
process of its own.

The bot is ``podkeeper run`` exactly (as in ``bench_startup.py``: discord.py's REST base and gateway pointed
at the stand-in), on the full bundled card data, in its own process; this process is Discord: the stand-in
server (``bot.testing.fakediscord.server``), 400 members and the benchmark driving them. So the memory
measured is the bot's alone: the stand-in keeps every image the bot uploads and every request it makes
(Discord's side), which counted in the bot's figure when both ran in one process.

400 members press the announcement's Join button, an organiser types ``/hydra event begin`` (100 threads,
100 Hydra tables), then every table plays at once: each player presses an action button on the Hydra board
(destroy / tap the selected head), then one presses "End our turn" and the Hydra's questions are answered
with the turn message's "default" button, with a think time between presses. Interactions are delivered
through the gateway without waiting for each other, as Discord would. The driver reads each table's state
(whose question, which message) from the bot's database file, as a second reader.

Figures:
- latency from the press of "End our turn" to the first message of that Hydra turn in the table's
  thread (p50 / p95 / max; the issue's bar: every one within 1 s);
- lost actions: presses the bot acknowledged as accepted (deferred update) and never refused afterwards
  whose action is not in the table's stored action log (must be 0). A button is acknowledged before its
  action waits for the table's lock; when the action is then refused (the question was answered meanwhile
  by another player or by its default) the refusal comes as a private followup: those are counted apart;
- late acknowledgements (after Discord's 3 s); peak RSS (``VmHWM``) of the bot process, after it has
  started (< 180 MiB), and its RSS as the event goes.

``--tracemalloc`` traces the bot's Python allocations from the moment the tables are open to the end and
prints the lines that hold the most (the bot runs slower then: not for the latency figures).

Run: ``python benchmarks/bench_hydra_events.py [--tables 100] [--turns 3] [--think 6] [--tracemalloc]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _process import status_mb, stop  # noqa: E402  (benchmarks/ is the script's folder)
from bench_startup import TOKEN, run_bot  # noqa: E402

from bot.testing.fakediscord import payloads as P  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ACCEPTED = 6  # deferred update: the Hydra cog took the action
BUTTON = 2
NO_ANSWER_SECONDS = 15.0
PEAK_RSS_GOAL_MIB = 180
TRACE_TOP = 25
RATE_LIMIT = (5, 0.05)  # the test harness's: Discord's channel bucket with time compressed 100x


class Driver:
    """The members: presses delivered through the stand-in's gateway, the tables' state read from the
    bot's database (``hydra``: a ``HydraService`` of this process on the bot's file, read afresh each time)."""

    def __init__(self, server: Any, hydra: Any, think: float, rng: random.Random) -> None:
        self.server, self.fake, self.hydra, self.think, self.rng = server, server.fake, hydra, think, rng
        self.created: dict[int, list[float]] = defaultdict(list)  # channel -> creation times
        self.latencies: list[float] = []
        self.accepted: dict[int, list[Any]] = defaultdict(
            list
        )  # game -> interaction records acknowledged as taken
        self.presses = 0
        self.refused = 0
        self.late = 0
        self.unanswered = 0  # "This interaction failed"
        self.turns_done = 0
        self.missing_turn_messages = 0
        self._watch_messages()

    def _watch_messages(self) -> None:
        original = self.fake._new_message

        def recording(channel_id: int, *args: Any, **kwargs: Any) -> Any:
            self.created[channel_id].append(time.perf_counter())
            return original(channel_id, *args, **kwargs)

        self.fake._new_message = recording  # type: ignore[method-assign]

    async def load(self, game_id: int) -> Any:
        """The table as the bot last stored it (a load reads the stored log: what changed is replayed)."""
        return await self.hydra.load(game_id)

    async def press(self, message_id: int, custom_id: str, user_id: int, game_id: int) -> bool:
        """Deliver one button press like Discord does and wait for its acknowledgement."""
        fake = self.fake
        message = fake.messages[message_id]
        guild = fake.guilds[fake.channels[message.channel_id].guild_id]
        payload = fake.new_interaction(
            kind=P.MESSAGE_COMPONENT,
            data=P.component_data(custom_id, BUTTON),
            channel=fake.channels[message.channel_id],
            actor=guild.members[user_id],
            message=message,
        )
        record = fake.interactions[int(payload["id"])]
        await self.server.dispatch("INTERACTION_CREATE", payload)
        self.presses += 1
        give_up = time.perf_counter() + NO_ANSWER_SECONDS
        while not record.acknowledged and not record.late and time.perf_counter() < give_up:
            await asyncio.sleep(0.005)
        if record.late:  # answered after Discord's 3 s: the user saw "This interaction failed"
            self.late += 1
            return False
        if not record.acknowledged:
            self.unanswered += 1
            return False
        if record.response_type == ACCEPTED:
            self.accepted[game_id].append(record)
            return True
        self.refused += 1
        return False

    async def pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)

    async def answer_questions(self, game_id: int) -> None:
        """Answer each pending question of the Hydra with the turn message's default button."""
        for _ in range(20):
            table = await self.load(game_id)
            game = table.game
            if game is None or game.over or game.pending is None or table.row.turn_message_id is None:
                return
            who = table.user_to_answer() or table.seats[0].user_id
            await self.press(
                table.row.turn_message_id,
                f"hydra:{game_id}:answer:{game.pending.topic}:default",
                who,
                game_id,
            )
            await self.pause()

    async def play_table(self, game_id: int, turns: int) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.think))  # tables do not start in lockstep
        for turn in range(turns):
            table = await self.load(game_id)
            for index, seat in enumerate(table.seats):
                await self.answer_questions(game_id)
                table = await self.load(game_id)
                if table.game is None or table.game.over or table.game.players[seat.seat - 1].lost:
                    continue
                verb = "destroy" if (turn + index) % 2 == 0 else "tap"
                await self.press(table.row.message_id, f"hydra:{game_id}:{verb}", seat.user_id, game_id)
                await self.pause()
            await self.answer_questions(game_id)
            table = await self.load(game_id)
            if table.game is None or table.game.over:
                return
            thread = table.row.channel_id
            before = len(self.created[thread])
            started = time.perf_counter()
            ender = next(s.user_id for s in table.seats if not table.game.players[s.seat - 1].lost)
            if await self.press(table.row.message_id, f"hydra:{game_id}:end", ender, game_id):
                deadline = started + 10
                while len(self.created[thread]) == before and time.perf_counter() < deadline:
                    await asyncio.sleep(0.005)
                if len(self.created[thread]) == before:
                    self.missing_turn_messages += 1
                else:
                    self.latencies.append(self.created[thread][before] - started)
            self.turns_done += 1
            await self.pause()
            await self.answer_questions(game_id)

    async def progress(self, pid: int, trace_file: Path | None) -> None:
        """Every 30 s: presses so far and the bot's memory (with ``trace_file``, where its allocations are)."""
        while True:
            await asyncio.sleep(30)
            print(
                f"  … {self.presses} presses, {self.turns_done} turns ended, {self.unanswered} unanswered; "
                f"{memory(pid)}; load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            if trace_file is not None:
                print("\n".join((await traced(pid, trace_file)).splitlines()[: 1 + 9 * 5]), flush=True)

    def refused_after_acknowledging(self) -> list[str]:
        """Presses acknowledged as taken whose action the bot then refused in a private followup (the
        question was answered meanwhile): what each refusal said."""
        return [
            _text(self.fake.messages[record.followup_ids[0]])
            for records in self.accepted.values()
            for record in records
            if record.followup_ids
        ]

    async def logged(self) -> int:
        stored = 0
        for game_id in self.accepted:
            stored += len(await self.hydra.repo.actions(game_id))
        return stored

    async def settle(self, quiet: float = 5.0, limit: float = 120.0) -> float:
        """Wait until the bot has stored every action it is still working on (a loaded bot can be many
        seconds behind its acknowledgements): the stored logs unchanged for ``quiet`` seconds."""
        started = time.perf_counter()
        count, since = await self.logged(), time.perf_counter()
        while time.perf_counter() - since < quiet and time.perf_counter() - started < limit:
            await asyncio.sleep(0.5)
            now = await self.logged()
            if now != count:
                count, since = now, time.perf_counter()
        return time.perf_counter() - started

    async def lost_actions(self) -> int:
        """Presses acknowledged as taken, and not refused afterwards, whose action is missing from the
        stored log (must be 0)."""
        lost = 0
        for game_id, records in self.accepted.items():
            taken = sum(1 for record in records if not record.followup_ids)
            rows = await self.hydra.repo.actions(game_id)
            logged = sum(1 for row in rows if row.actor_id is not None)
            lost += max(0, taken - logged)
        return lost


def _text(message: Any) -> str:
    embeds = " ".join(str(e.get("description") or e.get("title") or "") for e in message.embeds)
    return f"{message.content} {embeds}".strip()[:100]


def memory(pid: int) -> str:
    """The bot process's RSS now and its peak so far (where in the event the peak comes from)."""
    return f"bot RSS now {status_mb(pid, 'VmRSS'):.0f} MiB, peak so far {status_mb(pid, 'VmHWM'):.0f} MiB"


# -- the bot process -------------------------------------------------------------------------------


def bot_process(base_url: str, gateway_url: str, seed: int, trace: str) -> int:
    """``podkeeper run`` with the event's Hydra seeds fixed (``seed`` + table number, as the tests do) and,
    with ``trace`` (a file), tracemalloc started on SIGUSR1 and its top lines written there on SIGUSR2."""
    from bot.services.hydra_events import HydraEventService

    plain_init = HydraEventService.__init__

    def seeded(self: HydraEventService, *args: Any, **kwargs: Any) -> None:
        plain_init(self, *args, **kwargs)
        self.seed_for = lambda event, table: seed + table

    HydraEventService.__init__ = seeded  # type: ignore[method-assign]
    if trace:
        import tracemalloc

        def dump(*_: Any) -> None:
            snapshot = tracemalloc.take_snapshot()
            stats = snapshot.statistics("traceback")
            lines = [
                f"traced now {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MiB, "
                f"peak {tracemalloc.get_traced_memory()[1] / 2**20:.1f} MiB"
            ]
            for stat in stats[:TRACE_TOP]:
                lines.append(f"{stat.size / 2**20:7.2f} MiB in {stat.count:7d} blocks")
                lines.extend(f"      {line}" for line in stat.traceback.format()[-8:])
            Path(trace + ".part").write_text("\n".join(lines) + "\n")
            Path(trace + ".part").rename(trace)

        signal.signal(signal.SIGUSR1, lambda *_: tracemalloc.start(8))
        signal.signal(signal.SIGUSR2, dump)
    return run_bot(base_url, gateway_url)


# -- the run ---------------------------------------------------------------------------------------


async def start_bot(server: Any, env: dict[str, str], args: list[str], log: Path) -> subprocess.Popen:
    """A bot process, once its gateway session identified and it answered the guild's commands."""
    identified = server.identify_count
    bot = spawn([sys.executable, __file__, "--bot", server.url, server.gateway_url, *args], env, log)
    deadline = time.perf_counter() + 300
    while server.identify_count == identified or not server.fake.synced_commands:
        if bot.poll() is not None or time.perf_counter() > deadline:
            raise RuntimeError(f"the bot did not start; see {log}")
        await asyncio.sleep(0.05)
    return bot


def spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("a") as errors:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=errors)


def written(path: Path) -> str | None:
    """The file's text once complete (the bot writes it whole, then renames it here), else None."""
    return path.read_text() if path.exists() else None


def ask_trace(pid: int, trace_file: Path) -> None:
    trace_file.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR2)


async def traced(pid: int, trace_file: Path) -> str:
    """The bot's tracemalloc top lines, asked for now (SIGUSR2)."""
    ask_trace(pid, trace_file)
    while (text := written(trace_file)) is None:
        await asyncio.sleep(0.2)
    return text


async def run(tables: int, turns: int, think: float, seed: int, trace: bool, log_file: str) -> None:
    from bot.testing import FakeDiscord
    from bot.testing.fakediscord.server import FakeDiscordServer
    from bot.testing.harness import standard_world

    players = tables * 4
    names = [f"p{i:03d}" for i in range(players)]
    print(f"machine load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(rate_limit=RATE_LIMIT)
        guild = standard_world(fake, members=names)
        server = FakeDiscordServer(fake, token=TOKEN)
        await server.start()
        database = Path(tmp) / "podkeeper.sqlite3"
        log = Path(log_file) if log_file else Path(tmp) / "bot.log"
        trace_file = Path(tmp) / "tracemalloc.txt" if trace else None
        env = {
            **os.environ,
            "PODKEEPER_DISCORD_TOKEN": TOKEN,
            "PODKEEPER_DATABASE_PATH": str(database),
            "PODKEEPER_LOGGING_LEVEL": "WARNING",
            "PYTHONPATH": str(REPO),
        }
        bot_args = [str(seed), str(trace_file or "")]
        try:
            t0 = time.perf_counter()
            stop(await start_bot(server, env, bot_args, log))  # the first start imports the card data
            print(f"card data imported by a first start in {time.perf_counter() - t0:.1f} s (not measured)")
            bot = await start_bot(server, env, bot_args, log)
            try:
                print(f"bot process {bot.pid} serving; {memory(bot.pid)}")
                await play(server, guild, bot, database, names, turns, think, seed, trace_file)
            finally:
                stop(bot)
            lines = log.read_text().splitlines()
            errors = [line for line in lines if " ERROR " in line]
            raised = [line for line in lines if re.match(r"^[\w.]+(Error|Exception|Found|Forbidden)\b", line)]
            print(f"errors logged by the bot: {len(errors)}")
            for line in sorted(set(raised), key=raised.count, reverse=True)[:5]:
                print(f"  {raised.count(line)}x {line[:200]}")
        finally:
            await server.stop()


async def play(
    server: Any,
    guild: Any,
    bot: subprocess.Popen,
    database: Path,
    names: list[str],
    turns: int,
    think: float,
    seed: int,
    trace_file: Path | None,
) -> None:
    from bot.services.hydra import HydraService
    from bot.services.hydra_events import HydraEventService
    from bot.storage.db import Database
    from bot.testing.fakediscord.server import RemoteDriver

    users = RemoteDriver(server, guild, quiet=0.3, min_quiet=0.05)
    db = await Database.open(database, migrate=False)
    try:
        hydra = HydraService(db)
        events = HydraEventService(db, hydra)
        t0 = time.perf_counter()
        announcement = await users.slash(
            "hydra event create", user="admin", name="Benchmark night", start="in 1h", heads=3, table_size=4
        )
        for name in names:
            await users.click(announcement, label="Join", user=name)
        joined = time.perf_counter() - t0
        t0 = time.perf_counter()
        await users.slash("hydra event begin", user="admin", event=1)
        status = await events.status(1)
        while len(status.tables) * 4 < len(names) or any(t.game_id is None for t in status.tables):
            await asyncio.sleep(0.2)
            status = await events.status(1)
        seated = time.perf_counter() - t0
        print(
            f"{len(names)} players joined in {joined:.1f} s; {len(status.tables)} tables opened "
            f"(threads + Hydra boards) in {seated:.1f} s; {memory(bot.pid)}"
        )
        if trace_file is not None:
            bot.send_signal(signal.SIGUSR1)
        driver = Driver(server, hydra, think, random.Random(seed))
        t0 = time.perf_counter()
        reporter = asyncio.create_task(driver.progress(bot.pid, trace_file))
        await asyncio.gather(*(driver.play_table(t.game_id, turns) for t in status.tables))
        reporter.cancel()
        played = time.perf_counter() - t0
        await asyncio.sleep(6.0)  # the live leaderboard's last edit (it looks every 5 s)
        settled = await driver.settle()
        lost = await driver.lost_actions()
        refusals = driver.refused_after_acknowledging()
        board = (await events.status(1)).board
        lat = sorted(driver.latencies)
        peak = status_mb(bot.pid, "VmHWM")
        print(
            f"played {turns} player turns per table in {played:.1f} s (think time ~{think} s per press); "
            f"load average {os.getloadavg()[0]:.2f}"
        )
        print(
            f"presses: {driver.presses} ({driver.refused} refused by the rules at once, {len(refusals)} "
            f"acknowledged then refused privately), answered too late (> 3 s, 'This interaction failed'): "
            f"{driver.late}, never answered: {driver.unanswered}"
        )
        for text in sorted(set(refusals))[:5]:
            print(f"  refused after the acknowledgement ({refusals.count(text)}x): {text}")
        if lat:
            p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
            print(
                f"end of players' turn -> first Hydra turn message: n={len(lat)} "
                f"p50 {statistics.median(lat) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
                f"max {lat[-1] * 1000:.0f} ms; within 1 s: {sum(x <= 1.0 for x in lat)}/{len(lat)}; "
                f"no message: {driver.missing_turn_messages}"
            )
        print(
            f"lost actions: {lost} (counted once the stored log had not grown for 5 s: {settled:.0f} s after "
            f"the last press)"
        )
        print(
            f"leaderboard: won {board.won}, lost {board.lost}, running {board.running}, "
            f"heads severed {sum(t.severed for t in board.tables)}"
        )
        print(
            f"bot process: RSS now {status_mb(bot.pid, 'VmRSS'):.0f} MiB ({status_mb(bot.pid, 'RssAnon'):.0f} MiB "
            f"private + {status_mb(bot.pid, 'RssFile'):.0f} MiB mapped files); peak RSS {peak:.0f} MiB "
            f"(goal < {PEAK_RSS_GOAL_MIB} MiB: {'PASS' if peak < PEAK_RSS_GOAL_MIB else 'FAIL'})"
        )
        if trace_file is not None:
            print("tracemalloc, the bot's Python allocations still held, by where they were made:")
            print(await traced(bot.pid, trace_file))
    finally:
        users.close()
        await db.close()


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--bot":
        sys.exit(bot_process(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--turns", type=int, default=3, help="players' turns per table")
    parser.add_argument("--think", type=float, default=6.0, help="mean seconds between a table's presses")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tracemalloc", action="store_true", help="trace the bot's allocations (slower)")
    parser.add_argument("--log", default="", help="keep the bot's log (stderr) in this file")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.turns, args.think, args.seed, args.tracemalloc, args.log))


if __name__ == "__main__":
    main()
