"""What syncing the press journal costs (bot/storage/press_journal.py): a press is on the disk before it is
acknowledged, so its ``fdatasync`` is part of the time to Discord's 3 s.

Three figures, each with the sync and without (what the journal did before):

- one press at a time: the latency of one acknowledged press on an idle bot;
- a burst of presses at once (the whole table pressing): they share syncs, so the burst's time and the
  number of syncs it took matter, not presses x one sync;
- a steady ~20 presses/s for a few seconds (the crash test's rate): each press's wait, p50 and p99.

Run it on the disk the bot's database is on (``--dir``); an SD card or a network disk syncs much slower than
an SSD. ``nice python benchmarks/bench_press_journal.py [--dir PATH] [--presses N]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.storage.press_journal import PressJournal, RecordedPress


def press(number: int) -> RecordedPress:
    return RecordedPress(
        press_id=number,
        game_id=1,
        action="life",
        arg=1,
        user_id=10**17 + number % 4,
        user_name="alice",
        manager=False,
        selected=None,
        guild_id=10**17,
        application_id=10**17,
        token="t" * 80,
        at=time.time(),
    )


def opened(directory: Path, name: str, sync: bool) -> PressJournal:
    journal = PressJournal(directory / name, sync=sync)
    journal.open()
    return journal


async def one_at_a_time(journal: PressJournal, count: int) -> list[float]:
    waits = []
    for number in range(count):
        started = time.perf_counter()
        await journal.record(press(number))
        waits.append(time.perf_counter() - started)
        journal.done(number)
    return waits


async def burst(journal: PressJournal, count: int) -> float:
    started = time.perf_counter()
    await asyncio.gather(*(journal.record(press(10**6 + n)) for n in range(count)))
    return time.perf_counter() - started


async def steady(journal: PressJournal, rate: float, seconds: float) -> list[float]:
    waits: list[float] = []

    async def one(number: int) -> None:
        started = time.perf_counter()
        await journal.record(press(number))
        waits.append(time.perf_counter() - started)
        journal.done(number)

    tasks = []
    for number in range(int(rate * seconds)):
        tasks.append(asyncio.create_task(one(2 * 10**6 + number)))
        await asyncio.sleep(1 / rate)
    await asyncio.gather(*tasks)
    return waits


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a temporary folder)")
    parser.add_argument("--presses", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        for sync in (False, True):
            journal = opened(directory, f"presses-{sync}.journal", sync)
            try:
                single = await one_at_a_time(journal, args.presses)
                whole = await burst(journal, 200)
                rated = sorted(await steady(journal, 20.0, 5.0))
            finally:
                journal.close()
            what = "synced (fdatasync)" if sync else "not synced (before)"
            print(
                f"{what}: one at a time: median {ms(statistics.median(single))}, p99 "
                f"{ms(sorted(single)[int(len(single) * 0.99)])}; a burst of 200 at once: {ms(whole)} in all; "
                f"20 presses/s for 5 s: median {ms(statistics.median(rated))}, p99 "
                f"{ms(rated[int(len(rated) * 0.99)])}"
            )


if __name__ == "__main__":
    asyncio.run(main())
