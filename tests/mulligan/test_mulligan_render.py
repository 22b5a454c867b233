"""Hand and odds images: real Pillow PNGs decoded and checked for size and pixels."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.domain.mulligan import MulliganStyle
from bot.domain.mulligan.odds import DeckCounts, deck_odds
from bot.render import hand as hand_render
from bot.render import odds as odds_render
from bot.render.deck import PIP_COLOURS


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def row_top(position: int) -> int:
    return hand_render.HEADER + position * (hand_render.ROW + hand_render.ROW_GAP)


def test_hand_image_rows_stripes_and_pips(cards):
    hand = [cards["Path to Exile"], cards["Mountain"], cards["Fire // Ice"], cards["Boros Guildmage"]]
    image = decode(hand_render.render_hand(hand, "en", title="Opening hand", subtitle="7 cards"))
    assert image.size == (
        hand_render.WIDTH,
        hand_render.HEADER + 4 * (hand_render.ROW + hand_render.ROW_GAP) + hand_render.MARGIN,
    )
    stripe_x = hand_render.MARGIN + 4
    assert image.getpixel((stripe_x, row_top(0) + 40)) == PIP_COLOURS["W"]  # white instant
    assert image.getpixel((stripe_x, row_top(1) + 40)) == hand_render.LAND
    assert image.getpixel((stripe_x, row_top(2) + 40)) == hand_render.GOLD  # Fire // Ice: red and blue
    # Path to Exile costs {W}: one white pip at the right edge of its row.
    right = hand_render.WIDTH - hand_render.MARGIN - 12
    pip_left = right - 2 * hand_render.PIP_RADIUS - hand_render.PIP_GAP
    assert image.getpixel((pip_left + 4, row_top(0) + 10 + hand_render.PIP_RADIUS)) == PIP_COLOURS["W"]
    # Boros Guildmage costs {R/W}{R/W}: hybrid pips show both colours.
    hybrid = {
        image.getpixel((x, y))
        for x in range(pip_left, right)
        for y in range(row_top(3) + 10, row_top(3) + 40)
    }
    assert PIP_COLOURS["R"] in hybrid and PIP_COLOURS["W"] in hybrid
    # A land has no cost: its row's right edge is plain row colour.
    assert image.getpixel((pip_left + 4, row_top(1) + 25)) == hand_render.ROW_FILL


def test_hand_names_follow_the_language_and_marked_rows_are_tinted(cards):
    hand = [cards["Sol Ring"]]
    english = decode(hand_render.render_hand(hand, "en"))
    japanese = decode(hand_render.render_hand(hand, "ja", marked={0}))
    name_box = (80, row_top(0) + 8, 400, row_top(0) + 44)
    assert ImageChops.difference(english.crop(name_box), japanese.crop(name_box)).getbbox() is not None
    assert japanese.getpixel((700, row_top(0) + 60)) == hand_render.ROW_MARKED
    assert english.getpixel((700, row_top(0) + 60)) == hand_render.ROW_FILL
    # A card without a Japanese name falls back to English: same pixels as the English image.
    plain = cards["Agadeem's Awakening"]  # only a Simplified Chinese name in the data
    assert plain.printed_name("ja") == plain.name


def test_odds_chart_bars(inferno_library):
    odds = deck_odds(DeckCounts.of(inferno_library))
    boxes: list = []
    image = odds_render.odds_chart(odds, "zh-Hans", boxes=boxes)
    assert image.width == odds_render.WIDTH
    decoded = decode(__import__("bot.render.fonts", fromlist=["png_bytes"]).png_bytes(image))
    left, right, base = odds_render.MARGIN, odds_render.WIDTH - odds_render.MARGIN, odds_render.BARS_BASE
    slot = (right - left) / 8
    for k in range(8):
        x = int(left + k * slot + slot / 2)
        expected = odds_render.KEEPABLE if 2 <= k <= 5 else odds_render.OTHER
        if odds.p_lands_in_opening[k] > 0.02:  # tall enough to sample
            assert decoded.getpixel((x, base - 3)) == expected, k
    # … and the highest bar (3 lands) reaches the top of the bar area.
    assert (
        decoded.getpixel((int(left + 3 * slot + slot / 2), odds_render.BARS_TOP + 2)) == odds_render.KEEPABLE
    )
    # London's stacked bar, under its name, starts with its 7-card share in the full London colour.
    london = next(b for b in boxes if b.text == "伦敦调度")
    assert decoded.getpixel((left + 5, london.box[3] + 20)) == odds_render.STYLE_COLOURS[MulliganStyle.LONDON]
    # Every share of every bar is named in a legend, even a sliver too thin for a label.
    texts = [b.text for b in boxes]
    for style in odds.styles.values():
        for size, share in odds_render._size_groups(style):
            if share > 0:
                assert f"{size}: {odds_render.percent(share)}" in texts, (style.style, size)
