"""The Hydra board as text (CLI, embeds) and as a real PNG decoded with Pillow."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.domain.hydra import cards as C
from bot.render.hydra import (
    BACKGROUND,
    ELITE_FILL,
    GAP,
    HEAD_FILL,
    HEAD_H,
    HEAD_W,
    SHIELD,
    TAPPED_FILL,
    WIDTH,
    board_png,
    board_text,
    decision_text,
    hero_reminders,
)

from .hydra_helpers import BRUTE, HH, LUNGE, hydra_turn, new_game


def marked_game():
    """Head 1 is indestructible (Hide); head 3, a Ravenous Brute Head revealed after Hide resolved
    when head 2 was exiled, is not (head numbers stay with their heads: 2 is gone)."""
    game = new_game(battlefield=[HH, HH], top=[C.IMPENETRABLE_HIDE, C.TORN_BETWEEN_HEADS, BRUTE, LUNGE])
    hydra_turn(game)  # Hide: both heads indestructible
    game.apply("exile 2")  # exiled anyway (H9): Torn and Brute are revealed; the Brute enters
    return game


def test_board_text_numbers_the_heads_with_their_marks() -> None:
    game = marked_game()
    text = board_text(game)
    assert "1. Hydra Head (0/3 damage, indestructible)" in text
    assert "3. Ravenous Brute Head (0/6 damage, elite)" in text
    assert "Library: 55   Graveyard: 3" in text and "P1: 20 life" in text
    ja = board_text(game, "ja")
    assert "破壊不能" in ja and "ライフ20" in ja


def test_board_image_is_a_readable_png_with_marks() -> None:
    game = marked_game()
    game.apply("tap 3")
    image = Image.open(io.BytesIO(board_png(game)))
    assert image.format == "PNG" and image.size[0] == WIDTH and image.size[1] > 350
    assert image.getpixel((1, 1)) == BACKGROUND
    top = 70
    first = (GAP + HEAD_W // 2, top + HEAD_H - 6)  # inside tile 1, below the text
    second = (GAP + HEAD_W + GAP + HEAD_W // 2, top + HEAD_H - 6)
    assert image.convert("RGB").getpixel(first) == HEAD_FILL
    assert image.convert("RGB").getpixel((GAP + 1, top + HEAD_H // 2)) == SHIELD  # indestructible outline
    assert image.convert("RGB").getpixel(second) == TAPPED_FILL
    assert (
        image.convert("RGB").getpixel((2 * GAP + HEAD_W + 1, top + HEAD_H // 2)) == TAPPED_FILL
    )  # no shield
    assert ELITE_FILL != TAPPED_FILL


def test_board_images_grow_with_heads_and_render_cjk() -> None:
    small = Image.open(io.BytesIO(board_png(new_game(heads=2))))
    large = Image.open(io.BytesIO(board_png(new_game(battlefield=[HH] * 11), "zh-Hant")))
    assert large.size[1] > small.size[1]


def test_a_question_shows_its_default_and_the_glower_lock() -> None:
    game = new_game(battlefield=[HH], top=[C.DISORIENTING_GLOWER, LUNGE])
    hydra_turn(game)
    game.apply("end")
    text = decision_text(game, game.pending)
    assert text.splitlines()[0].startswith("The Hydra casts Unified Lunge.") and "Default: pass" in text
    game.glower_until = game.hydra_turns + 1  # as if a second Glower had resolved this turn
    assert "players can't cast spells" in decision_text(game, game.pending)


def test_hero_cards_are_listed_once_with_their_texts_as_reminders() -> None:
    game = new_game(players=2, heroes=[("The Slayer", "The Protector"), ("The Protector",)])
    assert hero_reminders(game) == [
        "The Slayer: You start the game with an additional 7 life.",
        "The Protector: {T}: Prevent the next 1 damage that would be dealt to any target this turn.",
    ]
    assert "P1: 27 life — The Slayer, The Protector" in board_text(game)


def _colour_count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    counts = image.convert("RGB").getcolors(maxcolors=1 << 22) or []
    return next((n for n, c in counts if c == colour), 0)


def test_the_board_is_readable_on_a_phone_360_px_wide() -> None:
    from bot.render.hydra import DAMAGE, TOP

    game = new_game(battlefield=[HH, C.SHRIEKING_TITAN_HEAD, C.SNAPPING_FANG_HEAD], players=2)
    image = Image.open(io.BytesIO(board_png(game)))
    assert image.format == "PNG" and image.size[0] == WIDTH == 720  # two columns, like the pod board
    assert _colour_count(image, DAMAGE) == 0  # no red sliver at 0 damage
    phone = image.convert("RGB").resize((360, image.size[1] * 360 // WIDTH))
    # the elite's name, shrunk to a phone's width, is still at least 10 px of bright rows tall
    x0, x1 = (GAP + HEAD_W + GAP) // 2, (GAP + 2 * HEAD_W + GAP) // 2
    bright_rows = [
        y
        for y in range((TOP + 8) // 2, (TOP + 50) // 2)
        if any(min(phone.getpixel((x, y))) > 200 for x in range(x0, x1))
    ]
    assert len(bright_rows) >= 10
    game.apply("damage 2 4")
    damaged = Image.open(io.BytesIO(board_png(game)))
    assert _colour_count(damaged, DAMAGE) > 500  # half of the elite's bar


def test_each_head_says_what_it_does_in_the_readers_language() -> None:
    from bot.render.hydra import head_ability_lines

    game = new_game(battlefield=[HH, C.SNAPPING_FANG_HEAD])
    assert head_ability_lines(game, 0) == ["Reward: +2 life"]
    assert head_ability_lines(game, 1) == ["End step: 1 damage to each player", "Reward: +4 life, draw"]
    assert head_ability_lines(game, 1, "ja")[0] == "終了ステップ：各プレイヤーに1点"


@pytest.mark.parametrize("language", ["en", "ja", "zh-Hans", "zh-Hant"])
def test_no_text_is_too_small_overlaps_or_leaves_the_board_at_phone_width(language: str) -> None:
    from bot.render.hydra import board_image
    from bot.render.layout import TextBox, phone_problems

    game = new_game(
        battlefield=[HH, C.SHRIEKING_TITAN_HEAD, C.SNAPPING_FANG_HEAD, C.SAVAGE_VIGOR_HEAD, BRUTE],
        players=4,
        heroes=[("The Slayer",)],
    )
    game.apply("damage 2 5")
    game.apply("tap all")
    game.apply("freeze 3")
    game.battlefield[3].indestructible_through = 1
    game.glower_until = game.hydra_turns + 1
    boxes: list[TextBox] = []
    image = board_image(game, language, boxes=boxes)
    assert len(boxes) >= 20 and image.width == WIDTH
    assert not phone_problems(boxes, image.width), "\n".join(phone_problems(boxes, image.width))


@pytest.mark.parametrize("language", ["en", "ja", "zh-Hans", "zh-Hant"])
def test_a_won_or_lost_board_image_says_how_the_game_ended(language: str) -> None:
    """The image posted when the players had slain the Hydra showed no result at all."""
    from bot.i18n import t
    from bot.render.hydra import board_image
    from bot.render.layout import TextBox, phone_problems

    for outcome in ("won", "lost"):
        game = new_game(battlefield=[] if outcome == "won" else [HH], players=2)
        if outcome == "won":
            game.apply("end")  # no heads at the end of the turn (H7)
        else:
            game.apply("concede")  # every player concedes: no challenger is left
        assert game.outcome == outcome
        boxes: list[TextBox] = []
        image = board_image(game, language, boxes=boxes)
        drawn = "".join(box.text for box in boxes)
        assert t(f"hydra.log.{outcome}", language).replace(" ", "") in drawn.replace(" ", "")
        assert not phone_problems(boxes, image.width), "\n".join(phone_problems(boxes, image.width))
    running = new_game(battlefield=[HH])
    assert not any(t("hydra.log.won", "en") in box.text for box in _boxes_of(running))


def _boxes_of(game) -> list:
    from bot.render.hydra import board_image
    from bot.render.layout import TextBox

    boxes: list[TextBox] = []
    board_image(game, "en", boxes=boxes)
    return boxes
