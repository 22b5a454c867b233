"""Channels never wait on each other. Run: .venv/bin/python benchmarks/bench_channels.py

On the stand-in with Discord's real channel bucket (5 sends/edits per 5 s per channel, real seconds), pod
boards in four quiet channels are pressed one at a time while

- a burst channel takes ~480 presses on four boards in 8 s (its bucket is empty all along, so discord.py
  waits inside each of its edit requests), and
- a throttled channel answers its board's edit with a 429 and ``retry_after`` 8 s (discord.py sleeps it out
  inside the request).

The figure is the quiet boards' edit delay (press sent → edit seen by Discord), as a ratio to the same
presses with nothing else going on, measured in the same run (the floor). The target is at most 1.5x.
The same load is also run with one slot shared by every channel, as the bot had before, to show what the
lanes buy (the issue measured 0.44 s alone, 2.7 s behind a burst, 7.7 s behind an 8 s retry_after).

Reported with the machine's load average, which moves these figures: run it on a quiet machine.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.clock import SYSTEM_CLOCK  # noqa: E402
from bot.testing import DiscordHarness  # noqa: E402
from bot.testing.fakediscord import payloads as P  # noqa: E402
from cogs._updater import ChannelLanes  # noqa: E402

QUIET_CHANNELS = 4
QUIET_PRESSES = 12  # per scenario, one at a time, round-robin over the quiet channels
BURST_BOARDS = 4
BURST_PRESSES = 484
BURST_SECONDS = 8.0
THROTTLE_SECONDS = 8.0
TARGET = 1.5


class OneSlot(ChannelLanes):
    """What the bot had before: one slot for every board of the process, whatever the channel."""

    def lane(self, channel_id: int | None) -> asyncio.Lock:
        return super().lane(None)


class Table:
    """A pod board in a channel of the stand-in, pressed through discord.py's real parser."""

    def __init__(self, h: DiscordHarness, channel, game_id: int, message) -> None:
        self.h, self.channel, self.game_id, self.message = h, channel, game_id, message

    def press(self, user: str, amount: int = -1) -> None:
        payload = self.h.fake.new_interaction(
            kind=P.MESSAGE_COMPONENT,
            data=P.component_data(f"pod:{self.game_id}:life:{amount}", 2),
            channel=self.channel,
            actor=self.h.user(user),
            message=self.message,
        )
        self.h.bot._connection.parse_interaction_create(payload)

    async def edit_delay(self) -> float:
        """Press once; the seconds until the board's edit reached Discord."""
        versions = len(self.message.history)
        started = time.perf_counter()
        self.press("bob")
        while len(self.message.history) == versions:
            await asyncio.sleep(0.002)
        return time.perf_counter() - started


async def open_table(h: DiscordHarness, channel_name: str) -> Table:
    reply = await h.slash(
        "pod start", channel=channel_name, players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>"
    )
    game_id = (await h.bot.get_cog("Pods").service.open_in_channel(reply.message.channel_id))[-1].game_id
    return Table(h, h.channel(channel_name), game_id, reply.message)


async def burst(tables: list[Table]) -> None:
    """``BURST_PRESSES`` presses spread over ``BURST_SECONDS`` on the burst channel's boards."""
    pause = BURST_SECONDS / BURST_PRESSES
    for index in range(BURST_PRESSES):
        tables[index % len(tables)].press("alice" if index % 2 else "bob", 1 if index % 4 < 2 else -1)
        await asyncio.sleep(pause)


async def quiet_delays(quiet: list[Table]) -> list[float]:
    delays = []
    for index in range(QUIET_PRESSES):
        delays.append(await quiet[index % len(quiet)].edit_delay())
        await asyncio.sleep(0.25)  # well inside each quiet channel's own bucket
    return delays


async def scenario(tmp: Path, lanes: ChannelLanes | None, *, loaded: bool) -> list[float]:
    async with DiscordHarness.start(
        tmp, interaction_deadline=None, clock=SYSTEM_CLOCK, rate_limit=(5, 5.0), members=("alice", "bob")
    ) as h:
        cog = h.bot.get_cog("Pods")
        if lanes is not None:
            cog.updater.lanes = lanes
        for name in ("burst", "throttled", *(f"quiet-{i}" for i in range(QUIET_CHANNELS))):
            h.add_channel(name)
        quiet = [await open_table(h, f"quiet-{i}") for i in range(QUIET_CHANNELS)]
        burst_tables = [await open_table(h, "burst") for _ in range(BURST_BOARDS)]
        throttled = await open_table(h, "throttled")
        await asyncio.sleep(5.5)  # every channel's bucket full again after the boards were posted
        if not loaded:
            return await quiet_delays(quiet)
        h.fake.rate_limiter.throttle_next(throttled.channel.id, THROTTLE_SECONDS)
        pressing = asyncio.create_task(burst(burst_tables))
        throttled.press("bob")
        await asyncio.sleep(0.6)  # the throttled edit is asleep inside its request
        delays = await quiet_delays(quiet)
        await pressing
        await cog.updater.flush()
        return delays


def summary(delays: list[float]) -> str:
    return (
        f"median {statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms "
        f"({len(delays)} presses)"
    )


async def main() -> None:
    print(
        f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
        f"on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp:
        idle = await scenario(Path(tmp) / "idle", None, loaded=False)
        lanes = await scenario(Path(tmp) / "lanes", None, loaded=True)
        one_slot = await scenario(Path(tmp) / "slot", OneSlot(), loaded=True)
    floor = statistics.median(idle)
    print(f"quiet channels alone (floor):                 {summary(idle)}")
    for label, delays in (
        ("lanes per channel (now)", lanes),
        ("one slot for every channel (before)", one_slot),
    ):
        ratio = statistics.median(delays) / floor
        worst = max(delays) / max(idle)
        verdict = "within" if ratio <= TARGET and worst <= TARGET else "OVER"
        print(
            f"{label:<36} under burst + 8 s throttle: {summary(delays)}; median {ratio:.2f}x, "
            f"max {worst:.2f}x the floor ({verdict} {TARGET}x)"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
