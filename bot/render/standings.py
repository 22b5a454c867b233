"""The standings as an image: a table readable on a phone (large type, zebra rows, few columns).

Discord shows the image about 360 px wide, so it is drawn 720 px wide with no text under 24 px, and only
the columns that decide the ranking fit. A tournament of pods: rank, player, points, opponents' average
(the tiebreak) and votes (T3); survivals and the four T2 prize figures are in the CSV export. A tournament
of 1-vs-1 matches: rank, player, match points, match record and the three MTR tie-breakers (OMW%, GW%,
OGW%, whole percents; the embed and the CSV give one decimal); games won and played are in the CSV. The note under the table names the CSV. At most ``MAX_ROWS``
rows are drawn (a note says how many more).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.domain.tournament.matches import MatchStanding
from bot.domain.tournament.standings import Standing
from bot.i18n import Translate
from bot.render.fonts import fit_text, font
from bot.render.layout import TextBox, TextLayout, ellipsize
from bot.render.pil import Image, ImageDraw

WIDTH = 720
ROW_HEIGHT = 48
HEADER_HEIGHT = 100
COLUMN_HEADER_HEIGHT = 50
FOOTER_HEIGHT = 70
MARGIN = 20
MAX_ROWS = 40
TEXT_SIZE = 30
MIN_TEXT_SIZE = 24  # 12 px on a phone: long names are cut with "…" instead of shrinking further
BACKGROUND = (24, 26, 32)
ROW_SHADES = ((34, 37, 46), (42, 46, 57))
DROPPED_TEXT = (140, 140, 150)
TEXT = (236, 236, 240)
ACCENT = (255, 196, 64)
RANK_WIDTH = 60
NAME_WIDTH = 300
# (short header key, width in pixels) after rank and name; the values come from ``_cells``.
NUMBER_COLUMNS: tuple[tuple[str, int], ...] = (
    ("tournament.column.points", 100),
    ("tournament.column.opponents", 110),
    ("tournament.column.votes", 110),
)
MATCH_NAME_WIDTH = 200
MATCH_COLUMNS: tuple[tuple[str, int], ...] = (
    ("tournament.column.match_points", 65),
    ("tournament.column.record", 105),
    ("tournament.column.omw", 85),
    ("tournament.column.gw", 85),
    ("tournament.column.ogw", 85),
)


@dataclass(frozen=True)
class Row:
    """One drawn row: the rank, the player's label, the number cells and whether they dropped out."""

    rank: int
    label: str
    cells: Sequence[str]
    dropped: bool = False


def _cells(row: Standing) -> list[str]:
    return [str(row.points), f"{float(row.opponents_average):.2f}", str(row.tally.votes)]


def _match_cells(row: MatchStanding) -> list[str]:
    wins, losses, draws = row.record
    return [
        str(row.match_points),
        f"{wins}-{losses}-{draws}",
        *(
            f"{round(float(value) * 100)}%"
            for value in (row.opponents_match_win, row.game_win, row.opponents_game_win)
        ),
    ]


def render_standings(
    title: str,
    standings: Sequence[Standing],
    name: Callable[[object], str],
    language: str,
    *,
    boxes: list[TextBox] | None = None,
) -> Image.Image:
    """A tournament of pods' standings as an RGB image (``png_bytes`` encodes it); ``boxes`` collects where
    each text went (see ``bot.render.layout``)."""
    rows = [Row(s.rank, name(s.player), _cells(s), s.dropped) for s in standings]
    return render_table(
        title, rows, NAME_WIDTH, NUMBER_COLUMNS, "tournament.standings.csv_note", language, boxes=boxes
    )


def render_match_standings(
    title: str,
    standings: Sequence[MatchStanding],
    name: Callable[[object], str],
    language: str,
    *,
    boxes: list[TextBox] | None = None,
) -> Image.Image:
    """A tournament of 1-vs-1 matches' standings: match points, record and the MTR tie-breakers."""
    rows = [Row(s.rank, name(s.player), _match_cells(s), s.dropped) for s in standings]
    return render_table(
        title, rows, MATCH_NAME_WIDTH, MATCH_COLUMNS, "tournament.matches.csv_note", language, boxes=boxes
    )


def render_table(
    title: str,
    rows: Sequence[Row],
    name_width: int,
    columns: Sequence[tuple[str, int]],
    note_key: str,
    language: str,
    *,
    boxes: list[TextBox] | None = None,
) -> Image.Image:
    """The table: a title, column headers (i18n keys), zebra rows, then the notes (more rows, the CSV)."""
    tr = Translate(language)
    shown = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown)
    height = (
        HEADER_HEIGHT
        + COLUMN_HEADER_HEIGHT
        + ROW_HEIGHT * max(len(shown), 1)
        + FOOTER_HEIGHT * (1 + (more > 0))
    )
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    layout = TextLayout(ImageDraw.Draw(image), boxes)
    title_font = fit_text(title, WIDTH - 2 * MARGIN, 48, bold=True, language=language, min_size=MIN_TEXT_SIZE)
    layout.text((MARGIN, 28), ellipsize(title, WIDTH - 2 * MARGIN, title_font), title_font, ACCENT)
    top = HEADER_HEIGHT
    headers = [
        (tr("tournament.column.rank"), RANK_WIDTH),
        (tr("tournament.column.player"), name_width),
        *((tr(key), width) for key, width in columns),
    ]
    _draw_row(layout, top, headers, language, bold=True, colour=ACCENT)
    top += COLUMN_HEADER_HEIGHT
    if not shown:
        layout.text(
            (MARGIN, top + 6), tr("tournament.standings.empty"), font(TEXT_SIZE, language=language), TEXT
        )
    for index, row in enumerate(shown):
        layout.draw.rectangle((0, top, WIDTH, top + ROW_HEIGHT), fill=ROW_SHADES[index % 2])
        label = row.label + (f" ({tr('tournament.dropped')})" if row.dropped else "")
        cells = [
            (str(row.rank), RANK_WIDTH),
            (label, name_width),
            *zip(row.cells, (width for _, width in columns), strict=True),
        ]
        _draw_row(layout, top, cells, language, colour=DROPPED_TEXT if row.dropped else TEXT)
        top += ROW_HEIGHT
    notes = ([tr("tournament.standings.more", count=more)] if more > 0 else []) + [tr(note_key)]
    for note in notes:
        note_font = fit_text(
            note, WIDTH - 2 * MARGIN, MIN_TEXT_SIZE, language=language, min_size=MIN_TEXT_SIZE
        )
        layout.text(
            (MARGIN, top + 18), ellipsize(note, WIDTH - 2 * MARGIN, note_font), note_font, DROPPED_TEXT
        )
        top += FOOTER_HEIGHT
    return image


def _draw_row(
    layout: TextLayout | ImageDraw.ImageDraw,
    top: int,
    cells: Sequence[tuple[str, int]],
    language: str,
    *,
    bold: bool = False,
    colour: tuple[int, int, int] = TEXT,
) -> None:
    """One row of cells, each in the largest size down to ``MIN_TEXT_SIZE`` that fits, else cut with "…"."""
    if not isinstance(layout, TextLayout):
        layout = TextLayout(layout)
    left = MARGIN
    for text, width in cells:
        cell_font = fit_text(
            text,
            width - 10,
            TEXT_SIZE if not bold else TEXT_SIZE - 6,
            bold=bold,
            language=language,
            min_size=MIN_TEXT_SIZE,
        )
        text = ellipsize(text, width - 10, cell_font)
        layout.text((left, top + (ROW_HEIGHT - cell_font.size) // 2 - 2), text, cell_font, colour)
        left += width
