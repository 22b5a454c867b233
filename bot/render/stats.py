"""The statistics' chart: win rate by commander as horizontal bars, and games per month as columns.

A table of rates reads slower than bars of one length scale, and a month column shows a group's rhythm at
a glance. Drawn 720 px wide (shown about 360 px on a phone) with no text under 24 px, like the standings.
The geometry is module constants so the tests can find each bar's pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.stats.figures import Tally
from bot.render.fonts import font
from bot.render.layout import ellipsize
from bot.render.pil import Image, ImageDraw

CHART = "stats.png"  # the attachment's file name under the embed
WIDTH = 720
MARGIN = 20
TITLE_SIZE, TEXT_SIZE = 36, 24
TITLE_HEIGHT = 64
PANEL_TITLE_HEIGHT = 48
PANEL_GAP = 24
MAX_BARS = 8
BAR_ROW = 48
BAR_HEIGHT = 30
BAR_LEFT, BAR_RIGHT = 300, 620  # a win rate of 100 % fills BAR_LEFT..BAR_RIGHT
MAX_MONTHS = 12
COLUMN_AREA = 200  # the tallest month's column
COLUMN_LABEL = 34
BACKGROUND = (24, 26, 32)
TEXT = (236, 236, 240)
MUTED = (150, 155, 170)
TRACK = (52, 56, 68)
WIN = (76, 175, 110)
COLUMN = (80, 150, 230)


def chart_height(rates: Sequence[Tally], months: Sequence[Tally]) -> int:
    height = TITLE_HEIGHT
    if rates:
        height += PANEL_TITLE_HEIGHT + BAR_ROW * min(len(rates), MAX_BARS) + PANEL_GAP
    if months:
        height += PANEL_TITLE_HEIGHT + TEXT_SIZE + 8 + COLUMN_AREA + COLUMN_LABEL + PANEL_GAP
    return height


def render_stats_chart(
    title: str,
    *,
    rates_title: str,
    rates: Sequence[Tally],
    months_title: str,
    months: Sequence[Tally],
    language: str,
) -> Image.Image:
    """The chart of one ``/stats`` answer. ``rates``: up to ``MAX_BARS`` bars (label, games, wins);
    ``months``: the last ``MAX_MONTHS`` months' games ("YYYY-MM" labels, oldest first)."""
    rates, months = list(rates)[:MAX_BARS], list(months)[-MAX_MONTHS:]
    image = Image.new("RGB", (WIDTH, chart_height(rates, months)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    heading = font(TITLE_SIZE, bold=True, language=language)
    draw.text((MARGIN, 12), ellipsize(title, WIDTH - 2 * MARGIN, heading), font=heading, fill=TEXT)
    top = TITLE_HEIGHT
    if rates:
        top = _rate_bars(draw, rates_title, rates, top, language)
    if months:
        _month_columns(draw, months_title, months, top, language)
    return image


def bar_box(index: int, top: int) -> tuple[int, int, int, int]:
    """Where the ``index``-th bar's track lies, in a panel starting at ``top``."""
    row_top = top + PANEL_TITLE_HEIGHT + index * BAR_ROW
    return BAR_LEFT, row_top + (BAR_ROW - BAR_HEIGHT) // 2, BAR_RIGHT, row_top + (BAR_ROW + BAR_HEIGHT) // 2


def _rate_bars(draw: ImageDraw.ImageDraw, title: str, rates: list[Tally], top: int, language: str) -> int:
    text = font(TEXT_SIZE, language=language)
    draw.text(
        (MARGIN, top + 8),
        ellipsize(title, WIDTH - 2 * MARGIN, font(28, bold=True, language=language)),
        font=font(28, bold=True, language=language),
        fill=TEXT,
    )
    for index, tally in enumerate(rates):
        left, bar_top, right, bar_bottom = bar_box(index, top)
        draw.text(
            (MARGIN, bar_top), ellipsize(tally.label, BAR_LEFT - MARGIN - 12, text), font=text, fill=TEXT
        )
        draw.rectangle((left, bar_top, right, bar_bottom), fill=TRACK)
        filled = left + round(tally.rate * (right - left))
        if filled > left:
            draw.rectangle((left, bar_top, filled, bar_bottom), fill=WIN)
        draw.text((right + 10, bar_top), f"{round(tally.rate * 100)}%", font=text, fill=TEXT)
    return top + PANEL_TITLE_HEIGHT + BAR_ROW * len(rates) + PANEL_GAP


def column_box(index: int, count: int, tallest: int, months: int, top: int) -> tuple[int, int, int, int]:
    """The ``index``-th month's column (of ``months``) for ``count`` games, the tallest being ``tallest``."""
    pitch = (WIDTH - 2 * MARGIN) // MAX_MONTHS
    left = MARGIN + index * pitch + (MAX_MONTHS - months) * pitch // 2
    bottom = top + PANEL_TITLE_HEIGHT + TEXT_SIZE + 8 + COLUMN_AREA
    height = round(COLUMN_AREA * count / tallest) if tallest else 0
    return left + 8, bottom - height, left + pitch - 8, bottom


def _month_columns(
    draw: ImageDraw.ImageDraw, title: str, months: list[Tally], top: int, language: str
) -> None:
    heading = font(28, bold=True, language=language)
    text = font(TEXT_SIZE, language=language)
    span = f"{months[0].label} – {months[-1].label}" if len(months) > 1 else months[0].label
    draw.text(
        (MARGIN, top + 8),
        ellipsize(f"{title} ({span})", WIDTH - 2 * MARGIN, heading),
        font=heading,
        fill=TEXT,
    )
    tallest = max(m.games for m in months)
    for index, month in enumerate(months):
        left, column_top, right, bottom = column_box(index, month.games, tallest, len(months), top)
        if column_top < bottom:
            draw.rectangle((left, column_top, right, bottom), fill=COLUMN)
        middle = (left + right) // 2
        draw.text((middle, column_top - 4), str(month.games), font=text, fill=TEXT, anchor="mb")
        draw.text((middle, bottom + 4), month.label[5:7] or month.label, font=text, fill=MUTED, anchor="mt")
