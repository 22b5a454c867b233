"""Start-up benchmark: time to ready and idle RSS of ``podkeeper run`` against the local
Discord stand-in, with the full bundled card data. Run by hand:

    python benchmarks/bench_startup.py [--runs 5]

The stand-in (``bot.testing.fakediscord.server``) runs in a process of its own, so only the bot's
memory is counted. The bot process is ``podkeeper run`` exactly (``bot.cli.main(["run"])``), with
discord.py's REST base and gateway pointed at the stand-in first (what ``redirect_discord_py`` does,
without importing the test harness into the measured process). Each run is a new process on the same
database: the first one imports the card data (reported on its own, not a start-up), the others are
the starts a restart or a new shard pays. They find the bot's modules compiled, as an installed bot does
(a bytecode cache in the run's folder, even where ``PYTHONDONTWRITEBYTECODE`` is set; ``--no-bytecode-cache``
starts without). Figures:

- time to ready: from spawning the process until the bot has answered a ``/ping`` the stand-in sends
  as soon as the bot's gateway session identified (interpreter start, imports, database and card data,
  every cog, command sync, gateway login, one command); goal < 1.5 s. discord.py's own ``ready`` event
  comes a fixed 2 s later (its ``guild_ready_timeout`` wait for more guilds) and is shown apart;
- idle RSS: ``VmRSS`` of the bot process 2 s after ready; goal < 100 MB. Peak (``VmHWM``) is shown too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# After PYTHONPATH: a bot started with PYTHONPATH set to an installed wheel (bench_first_start.py) runs that.
sys.path.append(str(REPO))

from _process import cpu_seconds, status_mb, stop  # noqa: E402  (benchmarks/ is the script's folder)

TOKEN = "fake-token"
READY_GOAL_SECONDS = 1.5
last_split = (float("nan"), float("nan"))  # (RssAnon, RssFile) of the last measured start
RSS_GOAL_MB = 100.0


def verdict(value: float, goal: float) -> str:
    return "PASS" if value < goal else f"FAIL (by {value - goal:.2f})"


# -- the two child processes ------------------------------------------------------------------------


def serve_stand_in() -> None:
    """The stand-in: one guild, its URL printed on stdout, until stdin closes. Whenever a new bot
    session has identified, a member types ``/ping``; the moment (epoch seconds) the bot acknowledged
    it is printed: the bot is serving."""
    from bot.testing import FakeDiscord
    from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
    from bot.testing.harness import standard_world

    async def ping_each_new_session(server: FakeDiscordServer, driver: RemoteDriver) -> None:
        seen = 0
        while True:
            await asyncio.sleep(0.002)
            if server.identify_count == seen:
                continue
            seen = server.identify_count
            known = set(server.fake.interactions)
            asking = asyncio.create_task(driver.slash("ping"))
            while not any(
                record.acknowledged for key, record in server.fake.interactions.items() if key not in known
            ):
                await asyncio.sleep(0.002)
            print("answered", time.time(), flush=True)
            await asking

    async def main() -> None:
        fake = FakeDiscord()
        guild = standard_world(fake)
        server = FakeDiscordServer(fake, token=TOKEN)
        await server.start()
        print(server.url, server.gateway_url, flush=True)
        pinging = asyncio.create_task(ping_each_new_session(server, RemoteDriver(server, guild)))
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        pinging.cancel()
        await server.stop()

    asyncio.run(main())


def run_bot(base_url: str, gateway_url: str) -> int:
    """``podkeeper run`` pointed at the stand-in (configuration from the environment)."""
    import discord.gateway
    import discord.http
    import yarl

    from bot.cli import main

    discord.http.Route.BASE = f"{base_url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return main(["run"])


# -- measuring ------------------------------------------------------------------------------------


def one_start(
    stand_in: subprocess.Popen,
    urls: list[str],
    env: dict[str, str],
    cwd: Path = REPO,
    said: list[str] | None = None,
) -> tuple[float, float, float, float, float]:
    """(seconds to the first command answered, seconds to discord.py's ready event, idle RSS MB,
    peak RSS MB, CPU seconds the process used until it answered) of one ``podkeeper run`` process
    started in ``cwd``; its log lines until ready go into ``said``."""
    started, started_epoch = time.perf_counter(), time.time()
    bot = subprocess.Popen(
        [sys.executable, __file__, "--bot", *urls],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stderr is not None and stand_in.stdout is not None
        answered = float(stand_in.stdout.readline().split()[1]) - started_epoch
        cpu = cpu_seconds(bot.pid)
        ready = float("nan")
        for line in bot.stderr:
            if said is not None:
                said.append(line)
            if "ready as" in line:
                ready = time.perf_counter() - started
                break
        if ready != ready:  # nan: never ready
            raise RuntimeError("the bot never logged 'ready'")
        time.sleep(2.0)
        global last_split
        last_split = status_mb(bot.pid, "RssAnon"), status_mb(bot.pid, "RssFile")
        return answered, ready, status_mb(bot.pid, "VmRSS"), status_mb(bot.pid, "VmHWM"), cpu
    finally:
        stop(bot, grace_seconds=15)


def with_bytecode_cache(env: dict[str, str], folder: Path) -> dict[str, str]:
    """Environment for a bot that finds its modules compiled, as an installed one does (pip writes the
    ``.pyc`` files at install; a checkout writes them at its first run). Development machines here set
    ``PYTHONDONTWRITEBYTECODE=1``, so every start compiled the ~200 modules of bot/ and cogs/ from source:
    ~0.2 s of CPU, a quarter of the start. The cache goes to ``folder`` (``PYTHONPYCACHEPREFIX``), written
    by the first (importing) start, not into the checkout. ``--no-bytecode-cache`` measures without."""
    kept = {name: value for name, value in env.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**kept, "PYTHONPYCACHEPREFIX": str(folder)}


def main() -> None:
    if len(sys.argv) >= 2 and sys.argv[1] == "--stand-in":
        serve_stand_in()
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--bot":
        sys.exit(run_bot(sys.argv[2], sys.argv[3]))
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="measured starts after the first (importing) one")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="start the bot as this environment says (PYTHONDONTWRITEBYTECODE) instead of with a "
        "bytecode cache, as an installed bot has",
    )
    args = parser.parse_args()
    print(
        f"machine load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
        f"(wall-clock figures include waiting for a core); bytecode "
        f"{'as the environment says' if args.no_bytecode_cache else 'cached, as an installed bot has it'}"
    )
    with tempfile.TemporaryDirectory() as folder:
        stand_in = subprocess.Popen(
            [sys.executable, __file__, "--stand-in"],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert stand_in.stdout is not None
            urls = stand_in.stdout.readline().split()
            env = {
                **os.environ,
                "PODKEEPER_DISCORD_TOKEN": TOKEN,
                "PODKEEPER_DATABASE_PATH": str(Path(folder) / "startup.sqlite3"),
                "PODKEEPER_LOGGING_LEVEL": "INFO",
                "PYTHONPATH": str(REPO),
            }
            if not args.no_bytecode_cache:
                env = with_bytecode_cache(env, Path(folder) / "pycache")
            first = one_start(stand_in, urls, env)
            print(
                f"first start on an empty database (imports the full card data): serving in {first[0]:.2f} s, "
                f"{first[4]:.2f} s CPU until then (cards stored in the background after), "
                f"idle RSS {first[2]:.0f} MB (peak {first[3]:.0f} MB)"
            )
            runs = [one_start(stand_in, urls, env) for _ in range(args.runs)]
        finally:
            stand_in.communicate("", timeout=15)
    serving = [r[0] for r in runs]
    ready = [r[1] for r in runs]
    idle = [r[2] for r in runs]
    peak = [r[3] for r in runs]
    cpu = [r[4] for r in runs]
    print(f"start-up of `podkeeper run` with the full card data, {len(runs)} starts:")
    print(
        f"  time to ready (first command answered): median {statistics.median(serving):.2f} s, "
        f"max {max(serving):.2f} s (goal < {READY_GOAL_SECONDS} s): "
        f"{verdict(statistics.median(serving), READY_GOAL_SECONDS)}"
    )
    print(
        f"  CPU time the bot process used until then: median {statistics.median(cpu):.2f} s "
        f"(what the start costs without waiting for a shared core)"
    )
    print(
        f"  discord.py's 'ready' event: median {statistics.median(ready):.2f} s (it waits guild_ready_timeout,"
        f" 2 s, after the last GUILD_CREATE for more servers to stream in)"
    )
    print(
        f"  idle RSS, one process: median {statistics.median(idle):.0f} MB, max {max(idle):.0f} MB "
        f"(goal < {RSS_GOAL_MB:.0f} MB): {verdict(statistics.median(idle), RSS_GOAL_MB)}"
    )
    print(
        f"  peak RSS while starting: median {statistics.median(peak):.0f} MB; the last idle RSS was "
        f"{last_split[0]:.0f} MB private memory + {last_split[1]:.0f} MB mapped files (shared libraries)"
    )


if __name__ == "__main__":
    main()
