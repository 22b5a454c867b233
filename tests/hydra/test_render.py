"""The Hydra board as text (CLI, embeds) and as a real PNG decoded with Pillow."""

from __future__ import annotations

import io

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
    """Head 1 is indestructible (Hide); head 2, a Ravenous Brute Head revealed after Hide resolved
    when the other head was exiled, is not."""
    game = new_game(battlefield=[HH, HH], top=[C.IMPENETRABLE_HIDE, C.TORN_BETWEEN_HEADS, BRUTE, LUNGE])
    hydra_turn(game)  # Hide: both heads indestructible
    game.apply("exile 2")  # exiled anyway (H9): Torn and Brute are revealed; the Brute enters
    return game


def test_board_text_numbers_the_heads_with_their_marks() -> None:
    game = marked_game()
    text = board_text(game)
    assert "1. Hydra Head (0/3 damage, indestructible)" in text
    assert "2. Ravenous Brute Head (0/6 damage, elite)" in text
    assert "Library: 55   Graveyard: 3" in text and "P1: 20 life" in text
    ja = board_text(game, "ja")
    assert "破壊不能" in ja and "ライフ20" in ja


def test_board_image_is_a_readable_png_with_marks() -> None:
    game = marked_game()
    game.apply("tap 2")
    image = Image.open(io.BytesIO(board_png(game)))
    assert image.format == "PNG" and image.size[0] == WIDTH and image.size[1] > 350
    assert image.getpixel((1, 1)) == BACKGROUND
    top = 70
    first = (GAP + HEAD_W // 2, top + HEAD_H - 6)  # inside tile 1, below the text
    second = (GAP + HEAD_W + GAP + HEAD_W // 2, top + HEAD_H - 6)
    assert image.convert("RGB").getpixel(first) == HEAD_FILL
    assert image.convert("RGB").getpixel((GAP + 1, top + HEAD_H // 2)) == SHIELD  # indestructible outline
    assert image.convert("RGB").getpixel(second) == TAPPED_FILL
    assert image.convert("RGB").getpixel((2 * GAP + HEAD_W + 1, top + HEAD_H // 2)) == TAPPED_FILL  # no shield
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
        "The Protector: {T}: Prevent the next 1 damage that would be dealt to any target this turn."]
    assert "P1: 27 life — The Slayer, The Protector" in board_text(game)
