"""The one build step pyproject.toml cannot declare: the top-level ``assets/`` folder goes into the wheel.

The repository keeps card data and fonts in ``assets/`` beside the ``bot`` package (the layout the project
was asked for). A wheel installs packages, not top-level data folders, so the build copies ``assets/``
into the built package as ``bot/assets``; ``bot/paths.py`` finds it there through ``importlib.resources``.
An editable install builds nothing: it reads the checkout's ``assets/`` in place.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSETS = Path(__file__).resolve().parent / "assets"


class BuildWithAssets(build_py):
    """``build_py`` that also copies ``assets/`` into the built ``bot`` package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "bot" / "assets"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(ASSETS, target)


setup(cmdclass={"build_py": BuildWithAssets})
