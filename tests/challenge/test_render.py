"""The Horde and God board images: real PNGs decoded with Pillow, checked by size and pixel, and
readable on a phone 360 px wide (every text at least 13 px there, nothing overlapping)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import THRONG, XENAGOS, GodGame
from bot.domain.challenge.horde import ALTAR, HordeGame
from bot.i18n import LANGUAGES
from bot.render.challenge import (
    BACKGROUND,
    CREATURE_FILL,
    GOD_FILL,
    HEADER_H,
    NONCREATURE_FILL,
    TILE_H,
    board_image,
    board_png,
)
from bot.render.hydra import DAMAGE, GAP, HEAD_W, MARGIN, TAPPED_FILL, WIDTH
from bot.render.layout import TextBox, phone_problems

from .helpers import rig

MINOTAUR = "Minotaur Younghorn"


def _tile_pixel(column: int, row: int, dy: int = TILE_H - 6) -> tuple[int, int]:
    """A point near the bottom of tile (column, row), below its text."""
    return MARGIN + column * (HEAD_W + GAP) + HEAD_W // 2, HEADER_H + row * (TILE_H + GAP) + dy


def _decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def test_the_god_board_is_a_png_with_one_coloured_tile_per_permanent() -> None:
    game = rig(GodGame([Seat("A")], 1), battlefield=[XENAGOS, THRONG, THRONG])
    game.apply("tap 3")
    game.apply("damage 2 2")
    image = _decode(board_png(game))
    assert image.size[0] == WIDTH and image.size[1] >= HEADER_H + 2 * TILE_H
    assert image.getpixel((1, 1)) == BACKGROUND
    assert image.getpixel(_tile_pixel(0, 0)) == GOD_FILL  # 1. Xenagos
    assert image.getpixel(_tile_pixel(1, 0)) == CREATURE_FILL  # 2. a Throng with 2 damage
    assert image.getpixel(_tile_pixel(0, 1)) == TAPPED_FILL  # 3. the tapped Throng
    bar = (MARGIN + HEAD_W + GAP + HEAD_W - 20, HEADER_H + 77)  # the damage bar of tile 2, filled 2/3
    assert image.getpixel(bar) != DAMAGE
    assert image.getpixel((MARGIN + HEAD_W + GAP + HEAD_W // 2 + 40, HEADER_H + 77)) == DAMAGE


def test_the_horde_board_shows_artifacts_apart_from_minotaurs_and_grows_with_the_board() -> None:
    small = rig(HordeGame([Seat("A")], 1), battlefield=[ALTAR, MINOTAUR])
    large = rig(HordeGame([Seat("A")], 1), battlefield=[ALTAR, MINOTAUR, MINOTAUR, MINOTAUR, MINOTAUR])
    image = _decode(board_png(small))
    assert image.getpixel(_tile_pixel(0, 0)) == NONCREATURE_FILL
    assert image.getpixel(_tile_pixel(1, 0)) == CREATURE_FILL
    row = (
        image.size[1] - HEADER_H - 128
    )  # one row of tiles (as tall as the longest rules text needs) and its gap
    assert row >= TILE_H + GAP and _decode(board_png(large)).size[1] == image.size[1] + 2 * row


def test_an_empty_board_is_still_a_picture() -> None:
    game = rig(HordeGame([Seat("A")], 1), battlefield=[])
    image = _decode(board_png(game))
    assert image.size[0] == WIDTH and image.getpixel(_tile_pixel(0, 0)) == BACKGROUND


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("deck", ["horde", "god"])
def test_the_boards_read_on_a_phone_in_every_language(deck: str, language: str) -> None:
    game = HordeGame([Seat("A")], 3) if deck == "horde" else GodGame([Seat("A"), Seat("B")], 3)
    for _ in range(5):
        game.apply("end")
        game.play_until_players()
        if game.over:
            break
    boxes: list[TextBox] = []
    image = board_image(game, language, boxes=boxes)
    assert image.width == WIDTH and len(boxes) >= 3 + len(game.battlefield)
    assert not phone_problems(boxes, image.width), "\n".join(phone_problems(boxes, image.width))


@pytest.mark.parametrize("deck", ["horde", "god"])
def test_every_permanents_whole_rules_text_is_on_its_tile(deck: str) -> None:
    """Rules text was cut after three lines with "…": what a permanent does was hidden."""
    game = (
        rig(HordeGame([Seat("A")], 1), battlefield=[ALTAR, MINOTAUR])
        if deck == "horde"
        else rig(GodGame([Seat("A")], 1), battlefield=[XENAGOS, THRONG])
    )
    boxes: list[TextBox] = []
    image = board_image(game, "en", boxes=boxes)
    drawn = " ".join(box.text for box in boxes)
    for permanent in game.battlefield:
        for word in permanent.card.oracle_text.split():
            assert word in drawn, f"{permanent.name}: {word!r} is missing"
    assert "…" not in drawn
    assert not phone_problems(boxes, image.width), "\n".join(phone_problems(boxes, image.width))
