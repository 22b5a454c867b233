"""Cold first start of an installed wheel, with and without the card index the wheel ships. Run by hand:

    nice python benchmarks/bench_first_start.py [--runs 3] [--wheel dist/podkeeper-*.whl]

"Cold" is what a fresh install meets: an empty database, an empty cache folder (no card index, no message
catalogue cache) and no checkout around the package. The wheel is built from this checkout (or taken from
``--wheel``) and installed with ``pip install --no-deps --target`` (``tests/packaging/wheels.py``) (its dependencies are this virtualenv's);
a second copy of the same install has ``bot/assets/cards/prebuilt/`` removed, which is the wheel as it was
before the build shipped the index. Each start is ``podkeeper run`` against the local Discord stand-in, as in
``bench_startup.py``: the time until the bot answered its first command and the CPU it used until then (the
figure to compare on a busy shared machine); and ``podkeeper cards lookup``, which also stores the cards in the
database before it answers (the CLI's process ends right after), until it ended. The two installs take turns, so both meet the same load. Each
start's log must say where its cards came from: the shipped index, or a read of the bundled file.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from functools import partial
from pathlib import Path

from bench_startup import REPO, TOKEN, one_start

from tests.packaging.wheels import build_wheel, install_wheel, source_copy

SHIPPED = "using the card index shipped with the package"
RUN = "`podkeeper run` until its first command answered"
LOOKUP = "`podkeeper cards lookup` (stores the cards first) until it ended"
Result = tuple[float, float, str]  # (seconds, CPU seconds, where the cards came from)
READ = "reading cards.jsonl.gz: 100%"


def describe(wheel: Path) -> str:
    entries = zipfile.ZipFile(wheel).infolist()
    index = sum(entry.compress_size for entry in entries if "/prebuilt/" in entry.filename)
    unpacked = sum(entry.file_size for entry in entries if "/prebuilt/" in entry.filename)
    return (
        f"wheel {wheel.name}: {wheel.stat().st_size / 1e6:.2f} MB, of which the shipped card index "
        f"{index / 1e6:.2f} MB ({unpacked / 1e6:.2f} MB installed)"
    )


def cold_environment(site: Path, scratch: Path) -> dict[str, str]:
    """A fresh install's surroundings: nothing of this run's settings, an empty data and cache folder."""
    scratch.mkdir()
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("PODKEEPER_") and name != "PYTHONDONTWRITEBYTECODE"
    }
    return {
        **env,
        "PODKEEPER_DISCORD_TOKEN": TOKEN,
        "PODKEEPER_DATABASE_PATH": str(scratch / "podkeeper.sqlite3"),
        "PODKEEPER_CACHE_DIR": str(scratch / "cache"),
        "PODKEEPER_LOGGING_LEVEL": "INFO",
        "XDG_DATA_HOME": str(scratch / "data"),
        "PYTHONPATH": str(site),
    }


def cards_from(log: str, site: Path) -> str:
    if str(site) not in log:
        raise RuntimeError(f"the bot did not run from {site}:\n{log}")
    return "shipped index" if SHIPPED in log else "read the bundled file" if READ in log else "?"


def cold_start(stand_in: subprocess.Popen, urls: list[str], site: Path, scratch: Path) -> Result:
    """``podkeeper run``: (seconds to the first command answered, CPU seconds until then, cards from)."""
    said: list[str] = []
    answered, _ready, _idle, _peak, cpu = one_start(
        stand_in, urls, cold_environment(site, scratch), cwd=scratch, said=said
    )
    return answered, cpu, cards_from("".join(said), site)


def cold_lookup(site: Path, scratch: Path) -> Result:
    """``podkeeper cards lookup``, which stores the cards before it answers (its process ends right after):
    (seconds until it ended, its CPU seconds, cards from)."""
    env = cold_environment(site, scratch)
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "cards", "lookup", "Lightning Bolt"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, cards_from(done.stderr, site)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="cold starts of each install")
    parser.add_argument("--wheel", type=Path, help="a built wheel (default: build one from this checkout)")
    args = parser.parse_args()
    results: dict[tuple[str, str], list[Result]] = {}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        wheel = args.wheel or build_wheel(source_copy(scratch / "src"), scratch / "dist")
        print(describe(wheel))
        with_index = install_wheel(wheel, scratch / "with-index")
        without_index = scratch / "without-index"
        shutil.copytree(with_index, without_index, symlinks=True)
        shutil.rmtree(without_index / "bot" / "assets" / "cards" / "prebuilt", ignore_errors=True)
        stand_in = subprocess.Popen(
            [sys.executable, str(REPO / "benchmarks" / "bench_startup.py"), "--stand-in"],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert stand_in.stdout is not None
            urls = stand_in.stdout.readline().split()
            for run in range(args.runs):
                for label, site in (("without", without_index), ("with", with_index)):
                    here = scratch / f"{label}-{run}"
                    for what, measured in (
                        (RUN, partial(cold_start, stand_in, urls, site, here / "run")),
                        (LOOKUP, partial(cold_lookup, site, here / "lookup")),
                    ):
                        here.mkdir(exist_ok=True)
                        load = os.getloadavg()[0]
                        results.setdefault((what, label), []).append(measured())
                        print(
                            f"  load {load:.1f}, {what}, {label} the index: {results[what, label][-1]}",
                            flush=True,
                        )
        finally:
            stand_in.communicate("", timeout=15)
    print(
        f"cold first start of the installed wheel, {args.runs} of each (load now {os.getloadavg()[0]:.1f}):"
    )
    for (what, label), runs in results.items():
        print(
            f"  {what}, {label:7} the shipped index: median {statistics.median(r[0] for r in runs):.2f} s "
            f"(max {max(r[0] for r in runs):.2f} s), CPU median {statistics.median(r[1] for r in runs):.2f} s; "
            f"cards from: {', '.join(sorted({r[2] for r in runs}))}"
        )


if __name__ == "__main__":
    main()
