"""Live pages under load. Run: .venv/bin/python benchmarks/bench_pages.py [--clients 500]

One pod game, its stream overlay open in ``--clients`` server-sent-event connections (500), and the
game changed ``--rate`` times a second (10) for ``--seconds`` (10) through the pod service, exactly as a
button press commits a change. The viewers run in a separate process (as browsers would), each
connection recording when it received which life total; the bot process records when each change was
committed. Printed:

* update delay: from a change's commit to each viewer's first update showing it (or a later state:
  updates coalesce) — p50 / p99 / max over every (viewer, change) pair; goal p99 < 200 ms;
* bot commands during the load: how late the event loop runs a 20 ms timer (what any command waits
  before its handler runs) and ``/ping`` round trips through the real command tree via the in-process
  harness (p50 / p99; the harness's own task bookkeeping grows with the 500 connection tasks, so this
  overstates what a real Discord command would see), each against the same without viewers.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bot.domain import pod  # noqa: E402
from bot.testing import DiscordHarness  # noqa: E402

LIFE = re.compile(r'data-testid="life">(-?\d+)<')
FIRST_TOTAL = 1_000


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


# -- the viewers (another process) ------------------------------------------------------------------


async def _viewer(
    session: aiohttp.ClientSession,
    url: str,
    seen: dict[int, float],
    ready: asyncio.Event,
    counter: list[int],
    clients: int,
) -> None:
    async with session.get(url + "/events") as response:
        data: list[str] = []
        first = True
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                lives = LIFE.findall("\n".join(data))
                data = []
                if first:
                    first = False
                    counter[0] += 1
                    if counter[0] == clients:
                        ready.set()
                    continue
                if len(lives) >= 2:
                    seen.setdefault(int(lives[1]), time.monotonic())


async def _viewers(url: str, clients: int, duration: float, queue: multiprocessing.Queue) -> None:
    seen: list[dict[int, float]] = [{} for _ in range(clients)]
    ready, counter = asyncio.Event(), [0]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        tasks = [
            asyncio.create_task(_viewer(session, url, seen[i], ready, counter, clients))
            for i in range(clients)
        ]
        await asyncio.wait_for(ready.wait(), 60)
        queue.put(("ready", None))
        await asyncio.sleep(duration)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    queue.put(("seen", seen))


def viewers_process(url: str, clients: int, duration: float, queue: multiprocessing.Queue) -> None:
    asyncio.run(_viewers(url, clients, duration, queue))


# -- the bot ------------------------------------------------------------------------------------------


async def ping_times(h: DiscordHarness, count: int, pause: float) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        reply = await h.slash("ping")
        times.append(time.perf_counter() - started)
        assert reply.ephemeral or reply.content
        await asyncio.sleep(pause)
    return times


async def loop_lag(seconds: float, tick: float = 0.02) -> list[float]:
    """How late the event loop runs a 20 ms timer: the wait any command's handler has before it starts."""
    lags = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        await asyncio.sleep(tick)
        lags.append(time.perf_counter() - started - tick)
    return lags


async def main(clients: int, rate: float, seconds: float, ping: bool = True) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordHarness.start(Path(tmp), web__enabled=True, web__port=0) as h:
            await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
            url_reply = await h.slash("pod overlay", user="alice")
            url = re.search(r"http://\S+", url_reply.content).group(0)
            service = h.bot.get_cog("Pods").service
            game_id = (await service.open_in_channel(h.channel("general").id))[0].game_id
            bob = h.user("bob").id
            baseline = await ping_times(h, 40, 0.02)
            idle_lag = await loop_lag(2.0)

            queue: multiprocessing.Queue = multiprocessing.get_context("spawn").Queue()
            process = multiprocessing.get_context("spawn").Process(
                target=viewers_process, args=(url, clients, seconds + 2.0, queue)
            )
            opened = time.perf_counter()
            process.start()
            while queue.empty():
                await asyncio.sleep(0.05)
            assert queue.get()[0] == "ready"
            print(
                f"{clients} overlay connections open in {time.perf_counter() - opened:.1f} s "
                f"(hub subscribers on the game: {h.bot.db.changes.subscriber_count(f'pod:{game_id}')})"
            )

            committed: dict[int, float] = {}
            pings: list[float] = []
            lags: list[float] = []

            async def changes() -> None:
                begin = time.monotonic()
                for i in range(int(rate * seconds)):
                    await asyncio.sleep(max(0.0, begin + i / rate - time.monotonic()))  # a steady rate
                    total = FIRST_TOTAL + i
                    committed[total] = time.monotonic()  # the press; its commit and publish follow
                    await service.change(game_id, bob, pod.SET_LIFE, manager=True, player=bob, total=total)

            async def pinging() -> None:
                if ping:
                    pings.extend(await ping_times(h, int(seconds * 4), 0.25))

            async def lagging() -> None:
                lags.extend(await loop_lag(seconds))

            started = time.perf_counter()
            await asyncio.gather(changes(), pinging(), lagging())
            elapsed = time.perf_counter() - started
            while True:
                kind, seen = await asyncio.to_thread(queue.get)
                if kind == "seen":
                    break
            process.join(10)

    delays, missing = deliveries(seen, committed)
    print(
        f"{len(committed)} changes in {elapsed:.1f} s ({len(committed) / elapsed:.1f}/s), "
        f"{len(delays)} (viewer, change) deliveries, {missing} never seen"
    )
    print(
        f"update delay: p50 {percentile(delays, 0.5) * 1000:.1f} ms · p99 {percentile(delays, 0.99) * 1000:.1f} ms"
        f" · max {max(delays) * 1000:.1f} ms  (goal p99 < 200 ms)"
    )
    print(f"event-loop lag without viewers: {spread(idle_lag)}; during the load: {spread(lags)}")
    print(f"/ping without viewers: {spread(baseline)}")
    if pings:
        print(f"/ping during the load:  {spread(pings)}")


def deliveries(seen: list[dict[int, float]], committed: dict[int, float]) -> tuple[list[float], int]:
    """How long after each change's press every viewer first showed it (or a later total), and how many
    (viewer, change) pairs never showed it."""
    delays, missing = [], 0
    for viewer in seen:
        received = sorted(viewer.items())
        for total, at in committed.items():
            later = [t for value, t in received if value >= total]
            if later:
                delays.append(min(later) - at)
            else:
                missing += 1
    return delays, missing


def spread(samples: list[float]) -> str:
    return f"p50 {percentile(samples, 0.5) * 1000:.1f} ms · p99 {percentile(samples, 0.99) * 1000:.1f} ms"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-ping", action="store_true", help="no /ping during the load (the delay alone)")
    args = parser.parse_args()
    asyncio.run(main(args.clients, args.rate, args.seconds, not args.no_ping))
