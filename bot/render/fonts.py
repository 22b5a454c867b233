"""Fonts for rendered images: Noto Sans CJK (SIL OFL 1.1), shipped in assets/fonts/.

One collection draws Latin, Japanese and Chinese; the face index picks the regional glyph forms
(Japanese kanji and Simplified/Traditional Chinese hanzi differ in detail), so images follow the
reader's language.
"""

from __future__ import annotations

import io
from functools import lru_cache

from bot.paths import FONT_BOLD, FONT_REGULAR
from bot.render.pil import Image, ImageFont

# Face order inside NotoSansCJK-*.ttc: JP, KR, SC, TC, HK.
_FACE_INDEX = {"ja": 0, "en": 0, "zh-Hans": 2, "zh-Hant": 3}


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False, language: str = "en") -> ImageFont.FreeTypeFont:
    """A cached font of ``size`` pixels for text in ``language``."""
    path = FONT_BOLD if bold else FONT_REGULAR
    return ImageFont.truetype(str(path), size, index=_FACE_INDEX.get(language, 0))


def png_bytes(image: Image.Image, *, compress_level: int = 3) -> bytes:
    """Encode an image as PNG (fast settings: boards are re-rendered often; level 2 is ~40% faster
    than 3 for flat-colour boards at a slightly larger file)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


def fit_text(
    text: str, max_width: int, size: int, *, bold: bool = False, language: str = "en", min_size: int = 10
) -> ImageFont.FreeTypeFont:
    """The largest font (down to ``min_size``) in which ``text`` fits ``max_width`` pixels."""
    while size > min_size:
        candidate = font(size, bold=bold, language=language)
        if candidate.getlength(text) <= max_width:
            return candidate
        size -= 1
    return font(min_size, bold=bold, language=language)
