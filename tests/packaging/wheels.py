"""The project's wheel built and installed as the packaging tests and ``benchmarks/bench_first_start.py`` need
it: built without network from a copy of the source (so a build never writes into the checkout the other tests
run from), and installed without its dependencies into a folder of its own, which a child Python is pointed at
with ``PYTHONPATH`` (the dependencies are this virtualenv's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What a checkout has beside its tracked files, at its top (``data/`` there is the checkout's database; the
# package's own ``bot/testing/data`` and ``bot/domain/challenge/data`` must travel), and anywhere below.
NOT_IN_A_CLONE_AT_THE_TOP = {".git", ".venv", "venv", "build", "dist", "data", "site", "tests"}
NOT_IN_A_CLONE_ANYWHERE = shutil.ignore_patterns(
    "*.egg-info", "__pycache__", "*.pyc", ".pytest_cache", ".ruff_cache", ".mypy_cache", "prebuilt"
)


def _not_in_a_clone(folder: str, names: list[str]) -> set[str]:
    ignored = set(NOT_IN_A_CLONE_ANYWHERE(folder, names))
    return ignored | (set(names) & NOT_IN_A_CLONE_AT_THE_TOP) if Path(folder) == ROOT else ignored


def source_copy(target: Path) -> Path:
    """The project's files as a fresh clone has them (no virtualenv, build output or test caches)."""
    shutil.copytree(ROOT, target, ignore=_not_in_a_clone)
    return target


def build_wheel(source: Path, dist: Path) -> Path:
    """The wheel of ``source``, built into ``dist`` (the test extra has setuptools: no build isolation)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(dist), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("podkeeper-*.whl")
    return wheel


def install_wheel(wheel: Path, site: Path) -> Path:
    """``wheel`` installed into the folder ``site``, without its dependencies."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    return site


def installed_environment(site: Path, **settings: str) -> dict[str, str]:
    """This process's environment for a child Python that runs the bot installed in ``site``: no setting of
    this run (database, assets, cache) leaks in; ``settings`` are added."""
    kept = {name: value for name, value in os.environ.items() if not name.startswith("PODKEEPER_")}
    return {**kept, "PYTHONPATH": str(site), **settings}
