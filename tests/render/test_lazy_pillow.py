"""Pillow is loaded when the first image is drawn, not when the bot starts (bot/render/pil.py):
an idle bot process does not carry Pillow's image libraries."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from bot.render.pil import Image


@pytest.mark.slow  # a subprocess
def test_every_cog_loads_without_pillow_and_the_first_image_loads_it() -> None:
    script = textwrap.dedent("""
        import importlib, pkgutil, sys
        import bot.client, cogs
        for module in pkgutil.iter_modules(cogs.__path__):
            importlib.import_module(f"cogs.{module.name}")
        loaded = sorted(name for name in sys.modules if name.startswith("PIL._imaging"))
        print("before", loaded)
        from bot.render.fonts import png_bytes
        from bot.render.pil import Image
        png = png_bytes(Image.new("RGB", (4, 3), (200, 10, 10)))
        print("after", "PIL._imaging" in sys.modules, png[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert "before []" in out, out
    assert "after True True" in out, out


def test_the_lazy_modules_are_pillows_own() -> None:
    from PIL import Image as pillow_image

    image = Image.new("RGB", (2, 2), (0, 128, 255))
    assert Image is pillow_image and isinstance(image, pillow_image.Image)
    assert image.getpixel((1, 1)) == (0, 128, 255)
