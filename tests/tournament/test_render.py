"""The standings image: real Pillow output, decoded and checked for size, colours and row count."""

from __future__ import annotations

import io

from PIL import Image

from bot.domain.tournament import DEMOCRATIC
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.matches import MatchRecord, match_standings
from bot.domain.tournament.prizes import PrizeStats
from bot.domain.tournament.standings import compute_standings
from bot.render.fonts import png_bytes
from bot.render.layout import TextBox
from bot.render.standings import (
    ACCENT,
    BACKGROUND,
    COLUMN_HEADER_HEIGHT,
    DROPPED_TEXT,
    FOOTER_HEIGHT,
    HEADER_HEIGHT,
    MAX_ROWS,
    ROW_HEIGHT,
    ROW_SHADES,
    TEXT,
    WIDTH,
    render_match_standings,
    render_standings,
)


def decoded(image: Image.Image) -> Image.Image:
    return Image.open(io.BytesIO(png_bytes(image))).convert("RGB")


def test_one_row_per_player_in_cjk_and_latin():
    games = [checked_game(1, ["アトラクサ使い", "Ben", "魔判官之声", "Dan"], {"Ben"}, {"Ben": "Dan"})]
    standings = compute_standings(games, DEMOCRATIC, seed=1, prizes={"Ben": PrizeStats(12, 1, 18, 9)})
    image = decoded(render_standings("金曜 EDH", standings, str, "ja"))
    assert image.size == (WIDTH, HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + 4 * ROW_HEIGHT + FOOTER_HEIGHT)
    first_row = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT
    # zebra stripes at the right edge (no text there), one band per player
    for index in range(4):
        assert image.getpixel((WIDTH - 2, first_row + index * ROW_HEIGHT + 2)) == ROW_SHADES[index % 2]
    # the title is drawn in the accent colour
    title_band = image.crop((0, 0, WIDTH, HEADER_HEIGHT))
    assert ACCENT in {colour for _, colour in title_band.getcolors(maxcolors=100_000)}
    # text is drawn inside each row (not just the background)
    row = image.crop((0, first_row, WIDTH, first_row + ROW_HEIGHT))
    assert len(row.getcolors(maxcolors=100_000)) > 10


def test_large_fields_are_capped_with_a_note():
    players = [f"player {i}" for i in range(MAX_ROWS + 25)]
    standings = compute_standings([], DEMOCRATIC, seed=1, players=players)
    image = decoded(render_standings("Big", standings, str, "en"))
    # a line for "… and 25 more", a line naming the CSV for the columns a phone has no room for
    assert image.height == HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + MAX_ROWS * ROW_HEIGHT + 2 * FOOTER_HEIGHT
    first_row = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT
    for index in range(MAX_ROWS):  # every row drawn up to the cap, with its stripe
        assert image.getpixel((WIDTH - 2, first_row + index * ROW_HEIGHT + 2)) == ROW_SHADES[index % 2]
    for note in range(2):  # both notes are written
        top = first_row + MAX_ROWS * ROW_HEIGHT + note * FOOTER_HEIGHT
        band = image.crop((0, top, WIDTH // 2, top + FOOTER_HEIGHT))
        assert DROPPED_TEXT in {colour for _, colour in band.getcolors(maxcolors=100_000)}


def test_empty_standings_still_render():
    image = decoded(render_standings("Empty", [], str, "zh-Hans"))
    assert image.size == (WIDTH, HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + ROW_HEIGHT + FOOTER_HEIGHT)
    first_row = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT
    assert image.getpixel((WIDTH - 2, first_row + 2)) == BACKGROUND  # no player stripe
    line = image.crop((0, first_row, WIDTH // 2, first_row + ROW_HEIGHT))
    assert TEXT in {colour for _, colour in line.getcolors(maxcolors=100_000)}  # "no games yet" is written
    title_band = image.crop((0, 0, WIDTH, HEADER_HEIGHT))
    assert ACCENT in {colour for _, colour in title_band.getcolors(maxcolors=100_000)}


def test_a_tournament_of_matches_draws_its_own_columns():
    """Match points, W-L-D and the three MTR tie-breakers; a dropped player in the dim colour."""
    records = [MatchRecord("Ann", "魔判官之声", (2, 1)), MatchRecord("Cid", "Dan", (1, 1), draws=1)]
    table = match_standings(records, seed=1, byes=["Eve"], dropped=["Dan"])
    boxes: list[TextBox] = []
    image = decoded(render_match_standings("Duels", table, str, "zh-Hant", boxes=boxes))
    assert image.size == (WIDTH, HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + 5 * ROW_HEIGHT + FOOTER_HEIGHT)
    texts = [box.text for box in boxes]
    assert "積分" in texts and "勝-負-平" in texts and "1-0-0" in texts and "0-0-1" in texts
    assert "67%" in texts and "33%" in texts  # Ann's game-win %: 2 of 3 games; the 33% floor
    assert not [text for text in texts if text.endswith("…")]  # every cell fits its column
    dan = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + ROW_HEIGHT * [s.player for s in table].index("Dan")
    row = image.crop((0, dan, WIDTH, dan + ROW_HEIGHT))
    assert DROPPED_TEXT in {colour for _, colour in row.getcolors(maxcolors=100_000)}
