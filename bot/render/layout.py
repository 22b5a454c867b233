"""Where a renderer put its text, so images can be checked as a phone shows them.

Discord shows an image at the width of the phone's chat column, about 360 px: a 1000 px image is shrunk
to a third, and 20 px text becomes 7 px, unreadable. Renderers draw text through ``TextLayout`` (when
asked to, by passing a list to collect ``TextBox``es); ``phone_problems`` then says which text would be
too small at that width, and which texts overlap. The tests decode the PNGs and check the boxes hold ink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.render.pil import ImageDraw, ImageFont

PHONE_WIDTH = 360
MIN_PHONE_TEXT_PX = 12  # the font size (em) a text must keep once the image is scaled to PHONE_WIDTH


@dataclass(frozen=True)
class TextBox:
    """A drawn text: its ink box in image pixels (left, top, right, bottom) and its font size."""

    text: str
    box: tuple[int, int, int, int]
    size: int


class TextLayout:
    """Draws text on ``draw`` and, when ``boxes`` is a list, records a ``TextBox`` for each text."""

    def __init__(self, draw: ImageDraw.ImageDraw, boxes: list[TextBox] | None = None) -> None:
        self.draw = draw
        self.boxes = boxes

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        font: ImageFont.FreeTypeFont,
        fill: Any,
        anchor: str | None = None,
    ) -> tuple[int, int, int, int]:
        """Draw ``text``; returns its box (also when not recording, for layouts that flow)."""
        self.draw.text(xy, text, font=font, fill=fill, anchor=anchor)
        box = tuple(round(v) for v in self.draw.textbbox(xy, text, font=font, anchor=anchor))
        if self.boxes is not None and text.strip():
            self.boxes.append(TextBox(text, box, font.size))  # type: ignore[arg-type]
        return box  # type: ignore[return-value]


def ellipsize(text: str, width: float, text_font: ImageFont.FreeTypeFont) -> str:
    """``text`` cut with "…" to fit ``width`` pixels (a long name keeps its size rather than shrinking)."""
    if text_font.getlength(text) <= width:
        return text
    while text and text_font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def wrap(parts: Sequence[str], separator: str, text_font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Join ``parts`` with ``separator`` into as few lines as fit ``width`` (a part never splits)."""
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]}{separator}{part}" if lines else part
        if lines and text_font.getlength(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def phone_problems(
    boxes: Sequence[TextBox], image_width: int, *, width: int = PHONE_WIDTH, min_px: int = MIN_PHONE_TEXT_PX
) -> list[str]:
    """What would not read at ``width``: text smaller than ``min_px`` once scaled, overlapping texts, and
    text outside the image."""
    scale = width / image_width
    problems = [
        f"{b.text!r}: {b.size * scale:.1f} px at {width} px wide (< {min_px})"
        for b in boxes
        if b.size * scale < min_px
    ]
    problems += [
        f"{b.text!r} leaves the image ({b.box}, width {image_width})"
        for b in boxes
        if b.box[0] < 0 or b.box[2] > image_width
    ]
    for index, first in enumerate(boxes):
        problems += [
            f"{first.text!r} {first.box} overlaps {second.text!r} {second.box}"
            for second in boxes[index + 1 :]
            if _overlap(first.box, second.box)
        ]
    return problems
