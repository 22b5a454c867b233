"""The bundled font draws Latin, Japanese and both Chinese scripts (no tofu boxes)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.render.fonts import fit_text, font, png_bytes

MISSING_GLYPH = "\U0010fffd"  # a private-use code point no font covers: draws .notdef (the tofu box)


def glyph_bitmap(text: str, language: str) -> bytes:
    image = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(image).text((4, 4), text, font=font(40, language=language), fill=255)
    return image.tobytes()


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("統", "ja"),
        ("率", "ja"),
        ("者", "ja"),
        ("マ", "ja"),
        ("指", "zh-Hans"),
        ("挥", "zh-Hans"),
        ("官", "zh-Hans"),
        ("揮", "zh-Hant"),
        ("龍", "zh-Hant"),
        ("W", "en"),
    ],
)
def test_every_script_draws_a_real_glyph(text: str, language: str) -> None:
    drawn = glyph_bitmap(text, language)
    assert any(drawn), f"{text!r} drew nothing"
    assert drawn != glyph_bitmap(MISSING_GLYPH, language), f"{text!r} drew the missing-glyph box"


def test_regional_faces_differ_for_the_same_character() -> None:
    # 骨 is drawn differently in Japanese and Simplified Chinese typography.
    assert glyph_bitmap("骨", "ja") != glyph_bitmap("骨", "zh-Hans")


def test_png_roundtrip_and_fit_text() -> None:
    image = Image.new("RGB", (300, 60), "white")
    chosen = fit_text("多頭龍 Face the Hydra", 200, 40, language="zh-Hant")
    ImageDraw.Draw(image).text((0, 0), "多頭龍 Face the Hydra", font=chosen, fill="black")
    assert chosen.getlength("多頭龍 Face the Hydra") <= 200
    decoded = Image.open(io.BytesIO(png_bytes(image)))
    assert decoded.size == (300, 60)
    assert decoded.convert("L").getextrema()[0] < 50  # some dark text pixels exist
