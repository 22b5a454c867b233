"""The standings as an image: a table readable on a phone (large type, zebra rows, few columns).

Columns: rank, player, points, opponents' average, votes (T3), survivals and the four T2 prize
figures. At most ``MAX_ROWS`` rows are drawn (a note says how many more); the CSV export has all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from bot.domain.tournament.prizes import PRIZE_GOALS
from bot.domain.tournament.standings import Standing
from bot.i18n import Translate
from bot.render.fonts import fit_text, font

WIDTH = 1100
ROW_HEIGHT = 48
HEADER_HEIGHT = 100
COLUMN_HEADER_HEIGHT = 50
FOOTER_HEIGHT = 70
MARGIN = 20
MAX_ROWS = 40
TEXT_SIZE = 30
MIN_TEXT_SIZE = 20  # smaller is hard to read on a phone: long names are cut with "…" instead
BACKGROUND = (24, 26, 32)
ROW_SHADES = ((34, 37, 46), (42, 46, 57))
DROPPED_TEXT = (140, 140, 150)
TEXT = (236, 236, 240)
ACCENT = (255, 196, 64)
RANK_WIDTH = 60
NAME_WIDTH = 300
# (short header key, width in pixels) after rank and name; the values come from ``_cells``. Short
# headers keep the table narrow enough to read on a phone; the legend below names the prize goals.
NUMBER_COLUMNS: tuple[tuple[str, int], ...] = (
    ("tournament.column.points", 90), ("tournament.column.opponents", 100), ("tournament.column.votes", 80),
    ("tournament.column.survivals", 80), *((f"tournament.prize_short.{goal}", 90) for goal in PRIZE_GOALS))


def _cells(row: Standing) -> list[str]:
    return [str(row.points), f"{float(row.opponents_average):.2f}", str(row.tally.votes),
            str(row.tally.survivals), *(str(getattr(row.prizes, goal)) for goal in PRIZE_GOALS)]


def render_standings(title: str, standings: Sequence[Standing], name: Callable[[object], str],
                     language: str) -> Image.Image:
    """The standings table as an RGB image (``png_bytes`` encodes it)."""
    tr = Translate(language)
    shown = list(standings[:MAX_ROWS])
    height = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + ROW_HEIGHT * max(len(shown), 1) + FOOTER_HEIGHT
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title_font = fit_text(title, WIDTH - 2 * MARGIN, 48, bold=True, language=language)
    draw.text((MARGIN, 28), title, font=title_font, fill=ACCENT)
    top = HEADER_HEIGHT
    headers = [(tr("tournament.column.rank"), RANK_WIDTH), (tr("tournament.column.player"), NAME_WIDTH),
               *((tr(key), width) for key, width in NUMBER_COLUMNS)]
    _draw_row(draw, top, headers, language, bold=True, colour=ACCENT)
    top += COLUMN_HEADER_HEIGHT
    if not shown:
        draw.text((MARGIN, top + 6), tr("tournament.standings.empty"), font=font(TEXT_SIZE, language=language),
                  fill=TEXT)
    for index, row in enumerate(shown):
        draw.rectangle((0, top, WIDTH, top + ROW_HEIGHT), fill=ROW_SHADES[index % 2])
        label = name(row.player) + (f" ({tr('tournament.dropped')})" if row.dropped else "")
        cells = [(str(row.rank), RANK_WIDTH), (label, NAME_WIDTH),
                 *zip(_cells(row), (width for _, width in NUMBER_COLUMNS), strict=True)]
        _draw_row(draw, top, cells, language, colour=DROPPED_TEXT if row.dropped else TEXT)
        top += ROW_HEIGHT
    small = font(TEXT_SIZE - 10, language=language)
    if len(standings) > len(shown):
        draw.text((MARGIN, top + 4), tr("tournament.standings.more", count=len(standings) - len(shown)),
                  font=small, fill=DROPPED_TEXT)
    legend = " · ".join(f"{tr(f'tournament.prize_short.{goal}')} = {tr(f'tournament.prize.{goal}')}"
                        for goal in PRIZE_GOALS)
    draw.text((MARGIN, height - FOOTER_HEIGHT // 2 - 4), legend, fill=DROPPED_TEXT,
              font=fit_text(legend, WIDTH - 2 * MARGIN, TEXT_SIZE - 10, language=language, min_size=14))
    return image


def _draw_row(draw: ImageDraw.ImageDraw, top: int, cells: Sequence[tuple[str, int]], language: str, *,
              bold: bool = False, colour: tuple[int, int, int] = TEXT) -> None:
    left = MARGIN
    for text, width in cells:
        cell_font = fit_text(text, width - 10, TEXT_SIZE if not bold else TEXT_SIZE - 6, bold=bold,
                             language=language, min_size=MIN_TEXT_SIZE)
        text = _ellipsize(text, width - 10, cell_font)
        draw.text((left, top + (ROW_HEIGHT - cell_font.size) // 2 - 2), text, font=cell_font, fill=colour)
        left += width


def _ellipsize(text: str, width: int, cell_font) -> str:
    if cell_font.getlength(text) <= width:
        return text
    while text and cell_font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"
