"""The board PNG (bot/render/board.py), decoded and checked for size and pixels."""

from __future__ import annotations

import io

from PIL import Image

from bot.domain import pod
from bot.domain.pod import Event, commander_key, replay
from bot.render import board

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi"]


def _state(player_count: int, *changes: tuple[str, dict]) -> pod.PodState:
    events = [
        Event(
            1,
            pod.CREATE,
            1,
            "t",
            {
                "ruleset": "commander",
                "players": [{"user_id": i + 1, "name": NAMES[i]} for i in range(player_count)],
            },
        )
    ]
    for kind, data in changes:
        events.append(Event(len(events) + 1, kind, 1, "t", data))
    return replay(events)


def _decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def _count(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    counts = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return sum(count for count, found in counts if found == colour)


def test_size_grows_with_players_and_the_matrix():
    no_commanders = [(pod.COMMANDERS, {"player": i, "names": []}) for i in (1, 2)]
    two = _decode(board.render_board(_state(2, *no_commanders)))
    assert two.size == (
        board.WIDTH,
        board.HEADER_HEIGHT + board.MARGIN + board.CARD_HEIGHT + board.GAP + board.MARGIN,
    )
    eight = _state(8, *[(pod.COMMANDERS, {"player": i, "names": ["A", "B"]}) for i in range(1, 9)])
    image = _decode(board.render_board(eight))
    assert image.size == (800, board.image_height(eight))
    assert image.size[1] == board.matrix_top(eight) + 44 + board.MATRIX_ROW * 9 + board.MARGIN


def test_active_player_stripe_and_eliminated_player():
    state = _state(3, (pod.NEXT_TURN, {}), (pod.NEXT_TURN, {}), (pod.LIFE, {"player": 3, "amount": -40}))
    image = _decode(board.render_board(state))
    assert image.getpixel((1, 1)) == board.BACKGROUND

    def stripe(index: int) -> tuple[int, int, int]:
        left, top, _, bottom = board.card_box(index)
        return image.getpixel((left + 4, (top + bottom) // 2))

    assert stripe(1) == board.ACTIVE  # turn 2 is Bob's
    assert stripe(0) == board.SEAT
    assert stripe(2) == board.OUT  # Carol is out at 0 life
    left, top, right, _ = board.card_box(2)
    # Her life total is drawn in red, Alice's in white.
    assert _count(image, (right - 160, top + 20, right, top + 95), board.OUT) > 200
    a_left, a_top, a_right, _ = board.card_box(0)
    assert _count(image, (a_right - 160, a_top + 20, a_right, a_top + 95), board.TEXT) > 200


def test_life_change_redraws_only_that_card():
    before = _decode(board.render_board(_state(4, (pod.NEXT_TURN, {}))))
    after = _decode(
        board.render_board(_state(4, (pod.NEXT_TURN, {}), (pod.LIFE, {"player": 4, "amount": -13})))
    )
    changed = [
        index
        for index in range(4)
        if before.crop(board.card_box(index)).tobytes() != after.crop(board.card_box(index)).tobytes()
    ]
    assert changed == [3]


def test_commander_damage_matrix_marks_21_in_red():
    state = _state(
        2,
        (pod.COMMANDERS, {"player": 1, "names": ["Tymna the Weaver", "Thrasios, Triton Hero"]}),
        (pod.COMMANDERS, {"player": 2, "names": ["Atraxa, Praetors' Voice"]}),
        (pod.NEXT_TURN, {}),
        (pod.COMMANDER_DAMAGE, {"commander": commander_key(1, 1), "target": 2, "amount": 21}),
    )
    image = _decode(board.render_board(state))
    assert [board.seat_label(state, c) for c in state.all_commanders()] == ["1a", "1b", "2"]
    cell = (board.WIDTH - 2 * board.MARGIN - board.MATRIX_LABEL_WIDTH) // 3
    row_top = (
        board.matrix_top(state, board.snapshot(state).card_height) + 44 + board.MATRIX_ROW * 2
    )  # Bob's row
    column_left = board.MARGIN + board.MATRIX_LABEL_WIDTH + cell  # second column: Thrasios (1b)
    assert image.getpixel((column_left + 5, row_top + 6)) == board.OUT
    # The other cells in Bob's row stay unfilled.
    assert image.getpixel((column_left - cell + 5, row_top + 6)) == board.BACKGROUND


def test_header_texts_follow_the_game_and_language():
    assert board.header_text(_state(2), "en") == "Before turn 1"
    assert board.header_text(_state(2, (pod.NEXT_TURN, {})), "ja") == "ターン1 · Alice"
    over = _state(2, (pod.NEXT_TURN, {}), (pod.CONCEDE, {"player": 1}))
    assert board.header_text(over, "zh-Hans") == "Bob获胜"


def test_cjk_names_render_in_every_language():
    state = _state(2)
    state.players[0].name = "張三"
    for language in ("en", "ja", "zh-Hans", "zh-Hant"):
        image = _decode(board.render_board(state, language, title="#1"))
        left, top, _, _ = board.card_box(0)
        assert _count(image, (left + 20, top + 8, left + 200, top + 44), board.TEXT) > 50
