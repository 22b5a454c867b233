"""The leaderboard texts and image: decoded PNGs checked for size and drawn pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.domain.hydra_events import LOST, ONGOING, WON, PlayerLine, TableLine, build_leaderboard, summarize
from bot.i18n import Translate
from bot.render.fonts import png_bytes
from bot.render.leaderboard import (
    COLUMN_HEADER_HEIGHT,
    DROPPED_TEXT,
    MAX_IMAGE_ROWS,
    MAX_TEXT_ROWS,
    SECTION_GAP,
    SUMMARY_LINE,
    TITLE_SIZE,
    TITLE_TOP,
    WIDTH,
    players_text,
    render_leaderboard,
    summary_text,
    tables_text,
)
from bot.render.leaderboard import ROW_HEIGHT as LEADERBOARD_ROW
from bot.render.standings import ACCENT, BACKGROUND, ROW_HEIGHT


def header_height(image: Image.Image, rows: int) -> int:
    """The title and summary band: the image less its two sections of ``rows`` rows in all; checked to be
    the title plus whole summary lines, so the sections sit where the renderer says."""
    header = image.height - (4 * SECTION_GAP + 2 * COLUMN_HEADER_HEIGHT + rows * LEADERBOARD_ROW)
    summary = header - (TITLE_TOP + TITLE_SIZE + 18)
    assert summary >= SUMMARY_LINE and summary % SUMMARY_LINE == 0, header
    return header


def board(tables: int = 3):
    lines = []
    for no in range(1, tables + 1):
        outcome = (WON, LOST, ONGOING)[no % 3]
        players = tuple(
            PlayerLine(no * 10 + i, f"プレイヤー{no}-{i}", no, i, outcome != LOST) for i in range(4)
        )
        lines.append(TableLine(no, outcome, 3 + no, sum(p.severed for p in players), 2, players))
    return summarize(build_leaderboard(lines), over=False)


@pytest.mark.parametrize("language", ["en", "ja", "zh-Hans", "zh-Hant"])
def test_image_has_a_row_per_table_and_player_and_draws_the_title(language: str) -> None:
    image = Image.open(io.BytesIO(png_bytes(render_leaderboard("Hydra night", board(3), language))))
    assert image.width == 720
    rows = 3 + 12
    assert image.height >= rows * ROW_HEIGHT
    assert image.getpixel((5, 5)) == BACKGROUND
    title = image.crop((0, 15, 600, 75))
    colours = {colour for _, colour in title.convert("RGB").getcolors(maxcolors=title.width * title.height)}
    assert tuple(ACCENT)[:3] in colours  # the title is drawn in the accent colour


def test_long_events_are_cut_to_a_phone_sized_image_and_the_texts_say_how_many_more() -> None:
    big = board(40)
    image = render_leaderboard("Hydra night", big, "en")
    header_height(image, 2 * MAX_IMAGE_ROWS)  # 15 tables and 15 players drawn
    last_player_row = image.crop(
        (0, image.height - SECTION_GAP - LEADERBOARD_ROW, WIDTH, image.height - SECTION_GAP)
    )
    assert len(last_player_row.getcolors(maxcolors=100_000)) > 5  # the 15th player's row has text
    tr = Translate("en")
    assert f"and {40 - MAX_TEXT_ROWS} more" in tables_text(big, tr)
    assert f"and {160 - MAX_TEXT_ROWS} more" in players_text(big, tr)
    assert "Fastest win: table" in summary_text(big, tr)


def test_empty_leaderboard_reads_as_such() -> None:
    empty = summarize(build_leaderboard([]), over=True)
    tr = Translate("en")
    assert tables_text(empty, tr) == "—" and "Fastest" not in summary_text(empty, tr)
    image = render_leaderboard("Hydra night", empty, "en")
    top = header_height(image, 0) + SECTION_GAP + COLUMN_HEADER_HEIGHT  # where tables would start: "empty"
    band = image.crop((0, top, WIDTH // 2, top + 46)).getcolors(maxcolors=100_000)
    assert tuple(DROPPED_TEXT)[:3] in {colour for _, colour in band}, "the empty message is drawn"
