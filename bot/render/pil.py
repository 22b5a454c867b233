"""Pillow for the renderers, imported when the first image is drawn.

Every cog imports its renderer, and so Pillow, at start; yet a bot that has drawn nothing needs none of
it, and Pillow with its image libraries (libtiff, openjpeg, libjpeg, FreeType, HarfBuzz...) is ~5 MB of
each idle process's RSS. The renderers import ``Image``, ``ImageDraw`` and ``ImageFont`` from here: to
them and to mypy they are Pillow's modules, but each is loaded on its first use (``importlib``'s
``LazyLoader``); once loaded they are the very modules ``from PIL import ...`` gives (pickled images
reach the workers as before).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType
from typing import TYPE_CHECKING

_loading = threading.Lock()


def lazy_module(name: str) -> ModuleType:
    """``name`` as a module that is executed on its first attribute access (or the module itself when it
    is already imported)."""
    with _loading:
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:  # pragma: no cover - Pillow is a dependency
            raise ImportError(f"no module named {name!r}", name=name)
        loader = importlib.util.LazyLoader(spec.loader)
        spec.loader = loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loader.exec_module(module)
        return module


if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont
else:
    Image = lazy_module("PIL.Image")
    ImageDraw = lazy_module("PIL.ImageDraw")
    ImageFont = lazy_module("PIL.ImageFont")

__all__ = ["Image", "ImageDraw", "ImageFont"]
