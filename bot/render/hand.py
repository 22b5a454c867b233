"""A hand of cards as an image: one row per card with its name (in the reader's language when the data
has a printed name), its mana cost as coloured pips and its type line. Rows are numbered like the
practice select menu, and big enough to read on a phone: 720 px wide (shown at about half size), no text
under 24 px, the subtitle on its own line below the title.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.cards.mana import symbols
from bot.cards.model import Card
from bot.render.deck import PIP_COLOURS, PIP_LETTER
from bot.render.fonts import fit_text, font, png_bytes
from bot.render.layout import TextBox, TextLayout, ellipsize
from bot.render.pil import Image, ImageDraw

WIDTH = 720
MARGIN = 16
TITLE_SIZE, NAME_SIZE, TEXT_SIZE = 32, 28, 24
SUBTITLE_TOP = 60  # below a 32 px title with room to breathe
HEADER = 104
ROW = 96
ROW_GAP = 8
PIP_RADIUS = 19
PIP_GAP = 4
STRIPE = 10

BACKGROUND = (30, 31, 34)
ROW_FILL = (49, 51, 56)
ROW_MARKED = (70, 52, 40)  # cards chosen to set aside / put on the bottom
TEXT = (242, 243, 245)
MUTED = (160, 165, 175)
GENERIC = PIP_COLOURS["C"]
LAND = (150, 110, 70)
GOLD = (214, 176, 64)
COLOURLESS = (150, 150, 160)


def hand_image(
    cards: Sequence[Card],
    language: str = "en",
    *,
    title: str = "",
    subtitle: str = "",
    marked: Collection[int] = (),
    boxes: list[TextBox] | None = None,
) -> Image.Image:
    """The hand, ``marked`` rows (0-based) tinted. ``title``/``subtitle`` go in the header; ``boxes``
    collects where each text went (see ``bot.render.layout``)."""
    height = HEADER + max(1, len(cards)) * (ROW + ROW_GAP) + MARGIN
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    layout = TextLayout(ImageDraw.Draw(image), boxes)
    width = WIDTH - 2 * MARGIN
    _fitted(layout, (MARGIN, 12), title, width, TITLE_SIZE, language, TEXT, bold=True)
    _fitted(layout, (MARGIN, SUBTITLE_TOP), subtitle, width, TEXT_SIZE, language, MUTED)
    for position, card in enumerate(cards):
        top = HEADER + position * (ROW + ROW_GAP)
        _card_row(layout, card, position, top, language, position in marked)
    return image


def _fitted(
    layout: TextLayout,
    xy: tuple[int, int],
    text: str,
    width: int,
    size: int,
    language: str,
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
) -> None:
    """``text`` in the largest size down to 24 px that fits ``width``, cut with "…" if even that is too wide."""
    text_font = fit_text(text, width, size, bold=bold, language=language, min_size=TEXT_SIZE)
    layout.text(xy, ellipsize(text, width, text_font), text_font, fill)


def render_hand(
    cards: Sequence[Card],
    language: str = "en",
    *,
    title: str = "",
    subtitle: str = "",
    marked: Collection[int] = (),
) -> bytes:
    """``hand_image`` as PNG bytes, ready for a ``discord.File``."""
    return png_bytes(hand_image(cards, language, title=title, subtitle=subtitle, marked=marked))


def stripe_colour(card: Card) -> tuple[int, int, int]:
    """Brown for lands, the colour for mono-coloured cards, gold for several colours, grey for none."""
    if card.is_land:
        return LAND
    identity = card.colors or card.color_identity
    if len(identity) > 1:
        return GOLD
    if len(identity) == 1:
        return PIP_COLOURS[identity]
    return COLOURLESS


def _card_row(layout: TextLayout, card: Card, position: int, top: int, language: str, marked: bool) -> None:
    draw = layout.draw
    left, right, bottom = MARGIN, WIDTH - MARGIN, top + ROW
    draw.rounded_rectangle((left, top, right, bottom), radius=8, fill=ROW_MARKED if marked else ROW_FILL)
    draw.rectangle((left, top, left + STRIPE, bottom), fill=stripe_colour(card))
    layout.text(
        (left + STRIPE + 22, top + ROW // 2),
        str(position + 1),
        font(NAME_SIZE, bold=True),
        MUTED,
        anchor="mm",
    )
    text_left = left + STRIPE + 44
    cost = (
        card.front.mana_cost
        if card.layout in ("transform", "modal_dfc", "adventure", "flip")
        else card.mana_cost
    )
    cost_width = pips_width(cost)
    _fitted(
        layout,
        (text_left, top + 10),
        card.printed_name(language),
        right - text_left - cost_width - 24,
        NAME_SIZE,
        language,
        TEXT,
        bold=True,
    )
    _fitted(layout, (text_left, top + 56), card.type_line, right - text_left - 12, TEXT_SIZE, language, MUTED)
    draw_cost(draw, cost, right=right - 12, top=top + 10)


def pips_width(cost: str) -> int:
    count = len(symbols(cost))
    separators = cost.count("//")
    return count * (2 * PIP_RADIUS + PIP_GAP) + separators * 24


def draw_cost(
    draw: ImageDraw.ImageDraw, cost: str, *, right: int, top: int, radius: int = PIP_RADIUS
) -> None:
    """A mana cost as pips, right-aligned: coloured circles for W U B R G, grey ones with the number for
    generic and X, split circles for hybrid symbols, ``//`` between the halves of a split card."""
    x = right - pips_width(cost)
    for half, part in enumerate(cost.split("//")):
        if half:
            draw.text((x + 12, top + radius), "/", font=font(2 * radius, bold=True), fill=MUTED, anchor="mm")
            x += 24
        for symbol in symbols(part):
            _pip(draw, symbol, (x, top, x + 2 * radius, top + 2 * radius))
            x += 2 * radius + PIP_GAP


def _pip(draw: ImageDraw.ImageDraw, symbol: str, box: tuple[int, int, int, int]) -> None:
    parts = symbol.split("/")
    colours = [p for p in parts if p in PIP_COLOURS and p != "C"]
    radius = (box[2] - box[0]) // 2
    centre = (box[0] + radius, box[1] + radius)
    if len(colours) == 2:  # hybrid: each half in its colour
        draw.pieslice(box, 135, 315, fill=PIP_COLOURS[colours[0]])
        draw.pieslice(box, 315, 135, fill=PIP_COLOURS[colours[1]])
        draw.ellipse(box, outline=(200, 200, 200), width=2)
        return
    if colours:
        colour, label = colours[0], ("P" if "P" in parts else colours[0])
        fill, ink = PIP_COLOURS[colour], PIP_LETTER[colour]
    else:
        label = "/".join(p for p in parts if p != "P") or symbol
        fill, ink = GENERIC, PIP_LETTER["C"]
    draw.ellipse(box, fill=fill, outline=(200, 200, 200), width=2)
    size = radius + 5 if len(label) == 1 else radius + 1
    draw.text(centre, label, font=font(size, bold=True), fill=ink, anchor="mm")
