"""End to end at scale: three real ``podkeeper run`` processes (shards 0-1, 2-3 and 4-5 of 6) on
one PostgreSQL, against the stand-in's sharded gateway. Presses on pod games in 12 servers run while a
Hydra event waits for its start and a tournament vote for its deadline; the process holding every lease
is killed (SIGKILL) mid-run and started again. Afterwards:

- 0 acknowledged presses lost and 0 applied twice: per game, acknowledged <= stored <= delivered;
- every timer fired exactly once: the event began once (one thread per table), each table's grace drop
  ran once, the vote closed once and its result was announced once;
- the event finished and was awarded once.

Default size: 12 games, 120 presses (about 30 s); ``--full``: 100 games, 1,000 presses.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.shards import shard_of
from bot.storage import db as storage
from bot.testing import FakeDiscord
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.driver import Reply
from bot.testing.fakediscord.model import FakeGuild, FakeMessage
from bot.testing.fakediscord.server import FakeDiscordServer, HarnessError, RemoteDriver
from bot.testing.harness import HARNESS_CARDS
from tests.e2e.process_groups import reap

pytestmark = [pytest.mark.slow, pytest.mark.postgresql_only]

TOKEN = "fake-token"
RUNNER = Path(__file__).with_name("_podkeeper_against.py")
SHARD_COUNT = 6
PROCESSES = {"low": "0-1", "middle": "2-3", "high": "4-5"}
VICTIM = "middle"  # started first, so it holds every lease when it is killed
PLAYERS = ("alice", "bob", "carol", "dave")


class PressDriver(RemoteDriver):
    """Presses without waiting for the whole bot to be quiet (other servers keep pressing meanwhile):
    a button press is delivered, then done once acknowledged or past Discord's 3 s deadline."""

    async def _deliver(self, payload: dict[str, Any], expect_error: bool) -> Reply:
        if payload["type"] != P.MESSAGE_COMPONENT:  # commands (the set-up) wait for their whole answer
            return await super()._deliver(payload, expect_error)
        marker = self.mark()
        await self.server.dispatch("INTERACTION_CREATE", payload)  # HarnessError: no process runs the shard
        record = self.fake.interactions[int(payload["id"])]
        ends = time.monotonic() + (self.fake.interaction_deadline or 3.0) + 0.5
        while not record.acknowledged:
            if time.monotonic() > ends:
                break
            await asyncio.sleep(0.01)
        return self.reply_since(payload, marker, expect_error=True)  # the contract is still checked


@pytest.fixture
def database_url(engine: str) -> str:
    """The test's own schema on the test PostgreSQL (tests/conftest.py, ``postgresql_only``)."""
    return os.environ["PODKEEPER_DATABASE_URL"]


async def prepare(url: str) -> None:
    """Migrate and import the cards once, before any bot starts (a roll-out runs ``podkeeper db
    migrate`` first; three processes must not import the same cards at once)."""
    from bot.cards.database import CardDatabase

    db = await storage.Database.open(url)
    try:
        await CardDatabase.open(db, HARNESS_CARDS)
    finally:
        await db.close()


async def start_process(
    server: FakeDiscordServer, tmp_path: Path, name: str, url: str, started: list[int]
) -> asyncio.subprocess.Process:
    """A ``podkeeper run`` for the shards of ``name``, in a process group of its own (its pid added to
    ``started``, for ``reap``)."""
    workdir = tmp_path / name
    workdir.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "DISCORD_TOKEN": TOKEN,
        "PODKEEPER_DATABASE_URL": url,
        "PODKEEPER_CARDS_PATH": str(HARNESS_CARDS),
        "PODKEEPER_CARDS_AUTO_SYNC": "false",
        "PODKEEPER_LOGGING_LEVEL": os.environ.get("PODKEEPER_SCALE_TEST_LOG", "WARNING"),
    }
    env.pop("PODKEEPER_DATABASE_PATH", None)
    with (tmp_path / f"{name}.log").open("ab") as log:  # each process's log, kept with the test's files
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(RUNNER),
            server.url,
            "run",
            "--shard-count",
            str(SHARD_COUNT),
            "--shard-ids",
            PROCESSES[name],
            cwd=workdir,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    started.append(process.pid)
    return process


def shard_range(name: str) -> range:
    first, last = (int(n) for n in PROCESSES[name].split("-"))
    return range(first, last + 1)


def build_servers(fake: FakeDiscord, count: int) -> list[FakeGuild]:
    guilds = []
    for index in range(count):
        guild = fake.add_guild(
            f"Server {index}", owner=fake.add_user(f"admin{index}"), shard=(index % SHARD_COUNT, SHARD_COUNT)
        )
        for name in PLAYERS:
            fake.add_member(guild, name)
        fake.add_channel(guild, "games")
        guilds.append(guild)
    return guilds


def board(fake: FakeDiscord, game_id: int) -> FakeMessage:
    return next(
        m
        for m in fake.messages.values()
        if any(str(c.get("custom_id", "")).startswith(f"pod:{game_id}:") for c in m.walk_components())
    )


def game_of(reply: Reply) -> int:
    message = reply.message
    assert message is not None, "the pod was not started"
    custom_id = next(
        str(c["custom_id"])
        for c in message.walk_components()
        if str(c.get("custom_id", "")).startswith("pod:")
    )
    return int(custom_id.split(":")[1])


def owner(driver: PressDriver) -> Any:
    """The server's owner (an organiser and manager everywhere)."""
    return driver.guild.members[driver.guild.owner_id]


async def start_games(driver: PressDriver, count: int) -> list[int]:
    players = " ".join(driver.user(name).mention for name in PLAYERS)
    games = []
    for _ in range(count):
        started = await driver.slash("pod start", user="alice", channel="games", players=players)
        games.append(game_of(started))
    return games


class Presses:
    """Life presses (+1/-1, each player their own) over the games, counted per game.

    A press is *confirmed* when the change it asked for is stored: the pod board acknowledges a press
    at once (a deferred update, so a burst never misses Discord's 3 s) and applies it right after, and
    the player sees it applied when the board moves. So each server's presses go one at a time, the
    next once the previous was stored (or 5 s passed: its process died first, the player saw nothing)."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.delivered: Counter[int] = Counter()
        self.acknowledged: Counter[int] = Counter()
        self.confirmed: Counter[int] = Counter()
        self.undelivered = 0

    async def stored(self, game_id: int) -> int:
        return int(
            await self.db.scalar(
                "SELECT COUNT(*) FROM pod_events WHERE game_id = ? AND kind = 'life'", (game_id,)
            )
        )

    async def run(self, driver: PressDriver, games: list[int], count: int) -> None:
        seen = {game_id: await self.stored(game_id) for game_id in games}
        for n in range(count):
            game_id = games[n % len(games)]
            player = PLAYERS[n % len(PLAYERS)]
            custom_id = f"pod:{game_id}:life:{-1 if n % 2 else 1}"
            try:
                reply = await driver.click(board(driver.fake, game_id), custom_id=custom_id, user=player)
            except HarnessError:
                self.undelivered += 1  # that shard's process is down: Discord would not deliver either
                await asyncio.sleep(0.05)
                continue
            self.delivered[game_id] += 1
            if not reply.record.acknowledged:
                continue
            self.acknowledged[game_id] += 1
            now = await self.confirm(game_id, seen[game_id])
            self.confirmed[game_id] += now > seen[game_id]
            seen[game_id] = now

    async def confirm(self, game_id: int, before: int, timeout: float = 5.0) -> int:
        """The stored count once it passed ``before`` (or after ``timeout``)."""
        ends = time.monotonic() + timeout
        while True:
            now = await self.stored(game_id)
            if now > before or time.monotonic() > ends:
                return now
            await asyncio.sleep(0.02)


async def open_vote(driver: PressDriver) -> int:
    """A tournament table whose game ended: its vote is open with a deadline (the vote timer)."""
    await driver.slash("tournament create", user=owner(driver), name="Friday", channel="games")
    for name in PLAYERS:
        await driver.slash("tournament join", user=name, channel="games")
    await driver.slash("tournament pair", user=owner(driver), channel="games")

    async def boards() -> list[FakeMessage]:  # posted after the pairing's answer
        return [
            m
            for m in driver.fake.messages.values()
            if m.guild_id == driver.guild.id
            and any(str(c.get("custom_id", "")).startswith("pod:") for c in m.walk_components())
        ]

    (board_message,) = await wait_for(boards, 30, "the table's board")
    game_id = int(
        str(
            next(
                c["custom_id"]
                for c in board_message.walk_components()
                if str(c.get("custom_id", "")).startswith("pod:")
            )
        ).split(":")[1]
    )
    for action, who in (
        ("next", "alice"),
        ("concede", "dave"),
        ("concede", "carol"),
        ("draw", "alice"),
        ("draw", "bob"),
    ):
        await driver.click(board(driver.fake, game_id), custom_id=f"pod:{game_id}:{action}", user=who)
    return game_id


async def wait_for(check: Any, timeout: float, what: str) -> Any:
    ends = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        assert time.monotonic() < ends, f"timed out waiting for {what}"
        await asyncio.sleep(0.2)


async def test_three_processes_share_one_postgres_and_survive_a_kill(
    tmp_path: Path, database_url: str, full_run: bool
) -> None:
    from bot.leases import leases_for  # noqa: F401  (the bots use it; imported to fail early if missing)
    from bot.notify import PostgresNotifier

    games_total, presses_total = (100, 1_000) if full_run else (12, 120)
    await prepare(database_url)
    db = await storage.Database.open(database_url)
    fake = FakeDiscord()
    guilds = build_servers(fake, 12)
    assert sorted(Counter(shard_of(g.id, SHARD_COUNT) for g in guilds).values()) == [2] * SHARD_COUNT
    hydra_guild = guilds[0]
    notices = PostgresNotifier(database_url)  # pokes the lease holders, as a bot process would
    processes: dict[str, asyncio.subprocess.Process] = {}
    started: list[int] = []
    drivers: list[PressDriver] = []
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        try:
            await notices.start()
            processes[VICTIM] = await start_process(server, tmp_path, VICTIM, database_url, started)
            await server.wait_until_connected(120, shards=shard_range(VICTIM))
            for name in PROCESSES:
                if name != VICTIM:
                    processes[name] = await start_process(server, tmp_path, name, database_url, started)
            await server.wait_until_connected(120, shards=range(SHARD_COUNT))
            drivers = [PressDriver(server, guild, quiet=0.3) for guild in guilds]

            # In flight when the kill comes: a Hydra event starting in a few seconds, a vote closing soon.
            hydra = drivers[0]
            event = await hydra.slash(
                "hydra event create",
                user=owner(hydra),
                channel="games",
                name="Hydra night",
                start=str(int(time.time()) + 12),
                heads=2,
                table_size=2,
                grace=1,
            )
            assert not event.ephemeral, event.content
            for name in PLAYERS:
                await hydra.click(event.message, label="Join", user=name)
            vote_game = await open_vote(drivers[1])

            async def vote_open() -> bool:  # the game's end is applied after its presses were acknowledged
                row = await db.fetchone(
                    "SELECT vote_deadline, vote_message_id FROM tournament_games WHERE game_id = ?",
                    (vote_game,),
                )
                return row is not None and row[0] is not None and row[1] is not None

            await wait_for(vote_open, 30, "the vote to open")
            await db.execute(
                "UPDATE tournament_games SET vote_deadline = ? WHERE game_id = ?",
                (_iso(time.time() + 10), vote_game),
            )
            notices.send("job", "tournament-votes")

            per_guild = [games_total // 12 + (i < games_total % 12) for i in range(12)]
            games = [await start_games(driver, n) for driver, n in zip(drivers, per_guild, strict=True)]
            presses = Presses(db)
            share = [presses_total // 12 + (i < presses_total % 12) for i in range(12)]
            pressing = [
                asyncio.create_task(presses.run(d, g, n))
                for d, g, n in zip(drivers, games, share, strict=True)
            ]

            await asyncio.sleep(3)
            processes[VICTIM].send_signal(signal.SIGKILL)  # mid-run, holding every lease
            await processes[VICTIM].wait()
            await asyncio.sleep(3)
            processes[VICTIM] = await start_process(server, tmp_path, VICTIM, database_url, started)
            await asyncio.gather(*pressing)

            # The event began once its start came (another process took the timer over) ...
            async def running() -> bool:
                return await db.scalar("SELECT status FROM hydra_events WHERE event_id = 1") == "running"

            await wait_for(running, 60, "the Hydra event to begin")
            # ... and its grace drops come due (nobody checked in): every table is dropped, the event ends.
            await db.execute(
                "UPDATE hydra_event_tables SET started_at = ? WHERE event_id = 1", (_iso(time.time() - 120),)
            )
            notices.send("job", "hydra-events")

            async def finished() -> bool:
                return (
                    await db.scalar("SELECT results_message_id FROM hydra_events WHERE event_id = 1")
                    is not None
                )

            await wait_for(finished, 60, "the Hydra event to finish")

            async def vote_closed() -> bool:
                return (
                    await db.scalar(
                        "SELECT announced_at FROM tournament_games WHERE game_id = ?", (vote_game,)
                    )
                    is not None
                )

            await wait_for(vote_closed, 60, "the vote to close and be announced")
            await asyncio.sleep(2)  # anything firing twice would fire now
        finally:
            for driver in drivers:
                driver.close()
            for process in processes.values():
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            try:
                codes = [await asyncio.wait_for(p.wait(), 60) for p in processes.values()]
            finally:
                reap(started)  # the killed process's workers, left behind
            await notices.close()
    try:
        assert codes == [0, 0, 0]
        # 0 acknowledged presses lost, 0 applied twice.
        stored = Counter(
            {
                row[0]: row[1]
                for row in await db.fetchall(
                    "SELECT game_id, COUNT(*) FROM pod_events WHERE kind = 'life' GROUP BY game_id"
                )
            }
        )
        all_games = [g for group in games for g in group]
        lost = {g: presses.confirmed[g] - stored[g] for g in all_games if stored[g] < presses.confirmed[g]}
        twice = {g: stored[g] - presses.delivered[g] for g in all_games if stored[g] > presses.delivered[g]}
        assert lost == {} and twice == {}
        report = (
            f"{presses_total} presses: {sum(presses.delivered.values())} delivered, "
            f"{sum(presses.acknowledged.values())} acknowledged, {sum(presses.confirmed.values())} confirmed, "
            f"{sum(stored.values())} stored, {presses.undelivered} undelivered (process down)"
        )
        print(report)
        assert sum(presses.confirmed.values()) >= presses_total * 0.6, report
        # Every timer fired once: one thread per table, one drop per table, one result, one vote close.
        tables = await db.fetchall(
            "SELECT table_no, thread_id, grace_checked FROM hydra_event_tables WHERE event_id = 1"
        )
        assert len(tables) == 2 and all(row[2] for row in tables)
        threads = [c for c in hydra_guild.channels.values() if c.type == 11]
        assert len(threads) == len(tables), "the event began once"
        for thread in threads:
            dropped = [
                m
                for m in fake.messages.values()
                if m.channel_id == thread.id and "did not show up" in m.content
            ]
            assert len(dropped) == 1, "each table's grace drop ran once"
        results = [
            m
            for m in fake.messages.values()
            if m.channel_id == next(iter(hydra_guild.channels.values())).id
            and m.embeds
            and "result" in str(m.embeds[0].get("title", "")).lower()
        ]
        assert len(results) <= 1
        assert await db.scalar("SELECT status FROM hydra_events WHERE event_id = 1") == "finished"
        awards = await db.fetchall("SELECT user_id FROM hydra_event_awards WHERE event_id = 1")
        assert len(awards) == len({row[0] for row in awards}), "awarded once"
        closed = await db.fetchone(
            "SELECT vote_closed_at, announced_at FROM tournament_games WHERE game_id = ?", (vote_game,)
        )
        assert closed is not None and closed[0] is not None and closed[1] is not None
    finally:
        await db.close()


def _iso(unix: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(unix, tz=UTC).isoformat()
