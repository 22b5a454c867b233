"""The build steps pyproject.toml cannot declare: the top-level ``assets/`` folder goes into the wheel, with
the ready-built index of its card data.

The repository keeps card data and fonts in ``assets/`` beside the ``bot`` package (the layout the project
was asked for). A wheel installs packages, not top-level data folders, so the build copies ``assets/``
into the built package as ``bot/assets``; ``bot/paths.py`` finds it there through ``importlib.resources``.

The build then indexes the bundled card data once (``python -m bot.cards.index_file``, standard library
only, so it runs in pip's isolated build environment too) into ``bot/assets/cards/prebuilt/``: the first
start of a fresh install reads that index in a fraction of a second instead of reading and indexing
24,000 cards. The index is built anew by every build, so a change of the card data or of the index
format is simply in the next wheel; the file's name carries both, and the Python that built it, so a bot
on another Python ignores it and reads the data. An editable install builds nothing: it reads the
checkout's ``assets/`` in place.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSETS = Path(__file__).resolve().parent / "assets"
BUNDLED_CARDS = Path("cards") / "cards.jsonl.gz"
PREBUILT = Path("cards") / "prebuilt"


class BuildWithAssets(build_py):
    """``build_py`` that also copies ``assets/`` into the built ``bot`` package and indexes its cards."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib).resolve() / "bot" / "assets"
        shutil.rmtree(target, ignore_errors=True)
        # A prebuilt index lying in the checkout is never shipped: the build makes its own.
        shutil.copytree(ASSETS, target, ignore=shutil.ignore_patterns(PREBUILT.name))
        self.index_card_data(target)

    def index_card_data(self, assets: Path) -> None:
        """Run the index step on the built package itself (the code being shipped, not an installed one)."""
        subprocess.run(
            [
                sys.executable,
                "-m",
                "bot.cards.index_file",
                str(assets / BUNDLED_CARDS),
                str(assets / PREBUILT),
            ],
            cwd=self.build_lib,
            check=True,
        )


setup(cmdclass={"build_py": BuildWithAssets})
