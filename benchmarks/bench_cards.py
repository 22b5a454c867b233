"""Card database benchmarks. Run by hand:

    /work/venv/bin/python benchmarks/bench_cards.py

Prints:
- import of the full bundled data into a fresh database: wall time and peak RSS (target < 10 s, < 300 MB),
  measured in a child process so nothing else in this process counts;
- name resolution over the full data, p50/p99 in ms: exact, normalised, Japanese/Chinese (target p99
  < 1 ms), fuzzy "did you mean" (goal p99 < 5 ms), autocomplete (< 10 ms);
- idle RSS of a process with the full card database loaded, both the card database alone and the real
  bot set-up (``PodkeeperBot.setup_hook`` with every cog, no login): the start-up goals, set-up < 1.5 s
  and idle RSS < 100 MB (``bench_startup.py`` measures the same for a whole ``podkeeper run``).

PASS/FAIL of lookups is judged on CPU time (what the lookup costs); on a shared machine the
wall-clock p99 mostly measures other people's processes.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot import paths  # noqa: E402


def pass_fail(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def current_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- child processes -------------------------------------------------------------------------------


async def child_import(db_path: str) -> dict:
    from bot.cards.database import CardDatabase
    from bot.storage.db import Database

    started, started_cpu = time.perf_counter(), cpu_seconds()
    db = await Database.open(db_path)
    cards = await CardDatabase.open(db, paths.BUNDLED_CARDS)
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - started_cpu
    count = len(cards)
    await db.close()
    return {"seconds": seconds, "cpu": cpu, "peak_mb": peak_rss_mb(), "cards": count}


async def child_idle(db_path: str) -> dict:
    from bot.cards.database import CardDatabase
    from bot.storage.db import Database

    db = await Database.open(db_path)
    started = time.perf_counter()
    cards = await CardDatabase.open(db, paths.BUNDLED_CARDS)
    load = time.perf_counter() - started
    gc.collect()
    await asyncio.sleep(0.2)
    out = {"idle_mb": current_rss_mb(), "peak_mb": peak_rss_mb(), "load_seconds": load, "cards": len(cards)}
    await db.close()
    return out


async def child_bot(db_path: str) -> dict:
    from bot.client import PodkeeperBot
    from bot.config import load_config

    config = load_config(None, environ={}).with_values(database__path=db_path)
    bot = PodkeeperBot(config, sync_commands=False)
    started, started_cpu = time.perf_counter(), cpu_seconds()
    await bot.setup_hook()
    load, cpu = time.perf_counter() - started, cpu_seconds() - started_cpu
    gc.collect()
    await asyncio.sleep(0.2)
    out = {
        "idle_mb": current_rss_mb(),
        "peak_mb": peak_rss_mb(),
        "load_seconds": load,
        "cpu": cpu,
        "cards": len(bot.cards),
    }
    await bot.close()
    return out


CHILDREN = {"import": child_import, "idle": child_idle, "bot": child_bot}


def run_child(kind: str, db_path: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, db_path],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    if done.returncode != 0:
        return {
            "error": done.stderr.strip().splitlines()[-1]
            if done.stderr.strip()
            else f"exit {done.returncode}"
        }
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- lookups ----------------------------------------------------------------------------------------


def timings(function: Callable[[str], object], queries: Sequence[str]) -> tuple[float, float, float, float]:
    """p50 and p99 in ms of wall time and of this process's CPU time.

    On a shared machine the wall-clock p99 mostly measures other people's processes; CPU time
    (``time.process_time``) is what the lookup itself costs.
    """
    wall, cpu = [], []
    for query in queries:
        started, started_cpu = time.perf_counter(), time.process_time()
        function(query)
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)

    def p50_p99(samples: list[float]) -> tuple[float, float]:
        samples.sort()
        return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]

    return (*p50_p99(wall), *p50_p99(cpu))


def typo(name: str, rng: random.Random) -> str:
    """One deleted, doubled or swapped letter, as people type."""
    i = rng.randrange(1, max(2, len(name) - 1))
    kind = rng.choice(("delete", "double", "swap"))
    if kind == "delete":
        return name[:i] + name[i + 1 :]
    if kind == "double":
        return name[:i] + name[i] + name[i:]
    return name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :]


def lookup_benchmarks() -> None:
    from bot.cards.importers import read_cards
    from bot.cards.index import CardIndex

    cards = read_cards(paths.BUNDLED_CARDS).cards
    started = time.perf_counter()
    index = CardIndex.from_cards(cards)
    print(f"index build over {len(cards)} cards: {time.perf_counter() - started:.2f} s")
    rng = random.Random(2)
    sample = rng.sample(cards, 2000)
    names = [c.name for c in sample]
    normalised = [n.upper().replace("-", " ").replace("'", "").replace("û", "u") for n in names]
    printed = [name for c in sample for name in c.printed_names.values()]
    fuzzy = [typo(n, rng) for n in names[:500]]
    prefixes = [n[: rng.randint(1, 6)] for n in names]
    printed_prefixes = [
        (lang, name[: rng.randint(1, 3)]) for c in sample for lang, name in c.printed_names.items()
    ]
    misses = sum(1 for q in fuzzy if index.resolve(q).card is None and not index.resolve(q).suggestions)
    newer = newer_card_names()
    scan = scan_floor(index)
    rows = [
        ("exact", timings(index.resolve, names), 1.0),
        ("normalised", timings(index.resolve, normalised), 1.0),
        ("Japanese/Chinese", timings(index.resolve, printed), 1.0),
        ("fuzzy (typos)", timings(index.resolve, fuzzy), 5.0),
        ("fuzzy (newer cards)", timings(index.resolve, newer * 5), 5.0),
        ("floor: one ratio scan", timings(scan, fuzzy), 5.0),
        ("autocomplete en", timings(lambda q: index.autocomplete(q, "en"), prefixes), 10.0),
        (
            "autocomplete ja/zh",
            timings(
                lambda q: index.autocomplete(q[1], q[0]),  # type: ignore[arg-type]
                printed_prefixes,
            ),
            10.0,
        ),
    ]
    print(
        f"{'resolution':22} {'wall p50':>9} {'wall p99':>9} {'cpu p50':>9} {'cpu p99':>9}  goal p99 (judged on cpu)"
    )
    for label, (p50, p99, cpu50, cpu99), target in rows:
        print(
            f"{label:22} {p50:9.3f} {p99:9.3f} {cpu50:9.3f} {cpu99:9.3f}  < {target:g} ms: "
            f"{pass_fail(cpu99 < target)} (wall: {'ok' if p99 < target else 'missed'})"
        )
    print(f"fuzzy queries with no suggestion at all: {misses}/{len(fuzzy)}")
    floor = {label: values for label, values, _ in rows}["floor: one ratio scan"]
    for label in ("fuzzy (typos)", "fuzzy (newer cards)"):
        _, _, cpu50, cpu99 = {name: values for name, values, _ in rows}[label]
        print(
            f"{label}: cpu p50 {cpu50 / floor[2]:.2f}x, p99 {cpu99 / floor[3]:.2f}x the floor (one rapidfuzz "
            f"ratio scan of all {len(index._search['en'].keys)} English keys, measured in this run)"
        )
    closeness(index, fuzzy, newer)


def newer_card_names() -> list[str]:
    """Real cards printed after the bundled data (the cases behind CLOSE_RATIO, kept with the tests)."""
    text = (REPO / "tests" / "cards" / "data" / "newer_card_names.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def scan_floor(index: object) -> Callable[[str], object]:
    """What any whole-data fuzzy search costs at least: one rapidfuzz ``ratio`` pass over every English
    key (the suggestion's own first step), so the ratio against it holds across machine loads."""
    from rapidfuzz import fuzz, process

    from bot.cards.index import normalise

    keys = index._search["en"].keys  # type: ignore[attr-defined]
    return lambda query: process.extract(normalise(query), keys, scorer=fuzz.ratio, limit=30, score_cutoff=50)


def closeness(index: object, typos: Sequence[str], newer: Sequence[str]) -> None:
    """How often a typo would be called "maybe newer than the data" and a newer card would not, at the
    chosen CLOSE_RATIO (bot/cards/index.py); the resolve the bot uses decides."""
    from bot.cards.index import CLOSE_RATIO

    unknown = [r for r in map(index.resolve, typos) if r.card is None and not r.ambiguous]  # type: ignore[attr-defined]
    typo_newer = sum(1 for r in unknown if r.newer is not None)
    missed = sum(1 for r in map(index.resolve, newer) if r.newer is None)  # type: ignore[attr-defined]
    print(
        f"closeness at CLOSE_RATIO {CLOSE_RATIO:g}: typos called 'may be newer' {typo_newer}/{len(unknown)}, "
        f"newer cards not called so {missed}/{len(newer)}"
    )


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(asyncio.run(CHILDREN[sys.argv[2]](sys.argv[3]))))
        return
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(
        f"machine load average {load} on {os.cpu_count()} cores (wall-clock figures include waiting for a core)"
    )
    print(f"bundled data: {paths.BUNDLED_CARDS} ({paths.BUNDLED_CARDS.stat().st_size / 1e6:.1f} MB)")
    with tempfile.TemporaryDirectory() as folder:
        db_path = str(Path(folder) / "bench.sqlite3")
        imported = run_child("import", db_path)
        print(
            f"import of the full bundled data: {imported.get('seconds', float('nan')):.2f} s wall "
            f"({imported.get('cpu', float('nan')):.2f} s CPU), "
            f"peak RSS {imported.get('peak_mb', float('nan')):.0f} MB, {imported.get('cards')} cards "
            f"(targets < 10 s, < 300 MB) {imported.get('error', '')}"
        )
        idle = run_child("idle", db_path)
        print(
            f"card database loaded from SQLite: {idle.get('load_seconds', float('nan')):.2f} s; idle RSS "
            f"{idle.get('idle_mb', float('nan')):.0f} MB (peak {idle.get('peak_mb', float('nan')):.0f} MB) "
            f"{idle.get('error', '')}"
        )
        bot = run_child("bot", db_path)
        seconds, idle_mb = bot.get("load_seconds", float("nan")), bot.get("idle_mb", float("nan"))
        cpu = bot.get("cpu", float("nan"))
        print(
            f"bot set-up with every cog and the full card database: {seconds:.2f} s wall, {cpu:.2f} s CPU "
            f"(goal < 1.5 s): {pass_fail(cpu < 1.5)} (wall: {'ok' if seconds < 1.5 else 'missed'}); idle RSS {idle_mb:.0f} MB (goal < 100 MB): {pass_fail(idle_mb < 100)}"
            f" (peak {bot.get('peak_mb', float('nan')):.0f} MB) {bot.get('error', '')}"
        )
    lookup_benchmarks()
    # The bulk files' streaming reader against ijson: benchmarks/bench_bulk_reader.py.


if __name__ == "__main__":
    main()
