"""The live pod board as a PNG: life, poison, tax, counters and the commander-damage matrix (G5).

Sized for a phone: 800 px wide, which a phone shows about 360 px wide (``bot.render.layout``), so every
text is at least 32 px here (14.4 px on the phone: a capital or a digit is over 10 px tall there) and life
totals are 72 px. A line that does not fit its card wraps onto the next (a commander's printed name in
Chinese or Japanese is long, and was cut to four characters); the cards of a board grow together to hold
the fullest one. Only a player's own name beside the life total is cut with "…". Players sit in a
two-column grid in seat order; the commander-damage matrix
below has one row per player hit and one column per commander, labelled by seat number (and a/b for
partners) so it stays narrow with eight players and sixteen commanders.

Layout numbers are module constants so tests can find the pixels they check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from bot.domain.pod import COMMANDER_DAMAGE_LIMIT, Commander, Player, PodState
from bot.i18n import t
from bot.render.fonts import font, png_bytes
from bot.render.layout import TextBox
from bot.render.pil import Image, ImageDraw, ImageFont

WIDTH = 800
MARGIN = 12
GAP = 12
HEADER_HEIGHT = 68
CARD_HEIGHT = 236  # the least a card is; a card with more lines makes every card of its board taller
CARD_WIDTH = (WIDTH - 2 * MARGIN - GAP) // 2
STRIPE_WIDTH = 10
MATRIX_ROW = 44
MATRIX_LABEL_WIDTH = 200

BACKGROUND = (30, 31, 34)
CARD = (49, 51, 56)
CARD_OUT = (38, 38, 40)
TEXT = (242, 243, 245)
DIM = (148, 155, 164)
ACTIVE = (240, 178, 50)  # stripe of the player whose turn it is
SEAT = (88, 101, 242)  # stripe of the others
OUT = (237, 66, 69)
POISON = (87, 242, 135)
WARN = (250, 166, 26)
GRID = (64, 66, 72)
WARN_DAMAGE = 15  # amber from here: a few more hits of that commander and the player is out (G5)
LINE_HEIGHT = 40
LIFE_CENTRE = 56  # y of the life total's centre inside a card
LINES_TOP = 104  # the first line under the life total, inside a card
MAX_WRAPPED_LINES = 3  # one card line (a tax with a long commander name) wraps onto at most this many
TEXT_SIZE = 32  # every text but the life totals and the header: 14.4 px on a 360 px phone
HEADER_SIZE = 34


def seat_label(state: PodState, commander: Commander) -> str:
    """ "3" for a single commander of seat 3, "3a"/"3b" for partners."""
    seat = next(i for i, p in enumerate(state.players) if p.user_id == commander.owner) + 1
    partners = len(state.player(commander.owner).commanders) > 1
    return f"{seat}{'ab'[commander.index]}" if partners else str(seat)


def card_box(index: int, card_height: int = CARD_HEIGHT) -> tuple[int, int, int, int]:
    """The rectangle of the player card in seat ``index`` (0-based), on a board whose cards are
    ``card_height`` tall."""
    row, column = divmod(index, 2)
    left = MARGIN + column * (CARD_WIDTH + GAP)
    top = HEADER_HEIGHT + MARGIN + row * (card_height + GAP)
    return left, top, left + CARD_WIDTH, top + card_height


def matrix_top(state: PodState, card_height: int = CARD_HEIGHT) -> int:
    return matrix_top_for(len(state.players), card_height)


def matrix_top_for(player_count: int, card_height: int = CARD_HEIGHT) -> int:
    rows = (player_count + 1) // 2
    return HEADER_HEIGHT + MARGIN + rows * (card_height + GAP)


def image_height(state: PodState, card_height: int = CARD_HEIGHT) -> int:
    return _height(len(state.players), len(state.all_commanders()) > 0, card_height)


def _height(player_count: int, matrix: bool, card_height: int) -> int:
    height = matrix_top_for(player_count, card_height)
    if matrix:
        height += 44 + MATRIX_ROW * (player_count + 1)
    return height + MARGIN


def card_height_for(cards: tuple[CardView, ...]) -> int:
    """How tall every card of a board is: enough for the fullest card's wrapped lines."""
    lines = max((len(wrapped_lines(view)) for view in cards), default=0)
    return max(CARD_HEIGHT, LINES_TOP + lines * LINE_HEIGHT + 8)


@lru_cache(maxsize=1)
def _palette_colours() -> tuple[Colour, ...]:
    """A fixed palette: every text colour blended over every background in 8 steps, which is all the
    board ever draws (anti-aliased text on flat fills). Each cached part is mapped to it once, so a
    board is composed directly in palette mode and its PNG encodes ~5x faster than RGB."""
    colours = {BACKGROUND, CARD, CARD_OUT}
    for back in (BACKGROUND, CARD, CARD_OUT, OUT):
        for fore in (TEXT, DIM, ACTIVE, SEAT, OUT, POISON, WARN, GRID):
            for step in range(8):
                share = step / 7
                colours.add(
                    cast(
                        Colour,
                        tuple(round(b * (1 - share) + f * share) for b, f in zip(back, fore, strict=True)),
                    )
                )
    return tuple(sorted(colours))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    flat = [channel for colour in _palette_colours() for channel in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (768 - len(flat)))
    return palette


def _to_palette(image: Image.Image) -> Image.Image:
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@dataclass(frozen=True)
class BoardSnapshot:
    """Everything the board shows, detached from the live state: taken on the event loop, drawn in a
    worker thread (``render_snapshot``) while more presses keep changing the game."""

    language: str
    title: str
    header: str
    cards: tuple[CardView, ...]
    matrix: MatrixView | None

    @property
    def card_height(self) -> int:
        return card_height_for(self.cards)

    @property
    def height(self) -> int:
        return _height(len(self.cards), self.matrix is not None, self.card_height)


def snapshot(
    state: PodState, language: str = "en", *, title: str = "", commander_names: dict[str, str] | None = None
) -> BoardSnapshot:
    """``commander_names`` (commander key -> name in ``language``) replaces the stored English names."""
    cards = tuple(card_view(state, index, language, commander_names) for index in range(len(state.players)))
    matrix = matrix_view(state, language) if state.all_commanders() else None
    return BoardSnapshot(
        language=language, title=title, header=header_text(state, language), cards=cards, matrix=matrix
    )


def render_board(
    state: PodState, language: str = "en", *, title: str = "", commander_names: dict[str, str] | None = None
) -> bytes:
    """The board of ``state`` as a palette PNG."""
    return render_snapshot(snapshot(state, language, title=title, commander_names=commander_names))


def render_snapshot(board: BoardSnapshot) -> bytes:
    # zlib level 2: for these palette boards ~40% faster than level 3 for a file 3% larger
    # (measured: 4.5 ms vs 7.6 ms, 41 KB vs 40 KB).
    return png_bytes(board_image(board), compress_level=2)


def clear_caches() -> None:
    """Forget every cached part (benchmarks measure the first board of a game this way)."""
    for cached in (_card_image, _matrix_image, _stamp, _figure_font, shorten, wrapped_lines):
        cached.cache_clear()


def board_image(board: BoardSnapshot, boxes: list[TextBox] | None = None) -> Image.Image:
    """The board as a palette image. Player cards and the matrix are drawn from small hashable views
    and cached, so after one press only the card that changed is drawn again. ``boxes``, when given,
    receives where every text went (phone-width checks)."""
    card_height = board.card_height
    image = Image.new("P", (WIDTH, board.height), _palette_colours().index(BACKGROUND))
    image.putpalette(_palette().getpalette() or [])
    header = Image.new("RGB", (WIDTH, HEADER_HEIGHT), BACKGROUND)
    language = board.language
    drawn: list[TextBox] = []
    title_left = WIDTH - MARGIN
    if board.title:
        title_font = font(TEXT_SIZE, language=language)
        title_box = _text(header, (WIDTH - MARGIN, HEADER_HEIGHT // 2), board.title, title_font, DIM, "rm")
        drawn += _boxes(board.title, title_box, title_font)
        title_left = title_box[0] if title_box else title_left
    header_font = font(HEADER_SIZE, bold=True, language=language)
    text = shorten(board.header, header_font, title_left - 2 * MARGIN - 12)
    drawn += _boxes(
        text, _text(header, (MARGIN, HEADER_HEIGHT // 2), text, header_font, TEXT, "lm"), header_font
    )
    image.paste(_to_palette(header), (0, 0))
    for index, view in enumerate(board.cards):
        left, top, _, _ = card_box(index, card_height)
        card, card_texts = _card_image(view, card_height)
        image.paste(card, (left, top))
        drawn += _shifted(card_texts, left, top)
    if board.matrix is not None:
        matrix, matrix_texts = _matrix_image(board.matrix)
        top = matrix_top_for(len(board.cards), card_height)
        image.paste(matrix, (0, top))
        drawn += _shifted(matrix_texts, 0, top)
    if boxes is not None:
        boxes += drawn
    return image


def _boxes(
    text: str, box: tuple[int, int, int, int] | None, typeface: ImageFont.FreeTypeFont
) -> list[TextBox]:
    return [] if box is None else [TextBox(text, box, int(typeface.size))]


def _shifted(texts: tuple[TextBox, ...], dx: int, dy: int) -> list[TextBox]:
    """Boxes of a part (a card, the matrix) moved to where the part is pasted."""
    return [
        TextBox(b.text, (b.box[0] + dx, b.box[1] + dy, b.box[2] + dx, b.box[3] + dy), b.size) for b in texts
    ]


def header_text(state: PodState, language: str) -> str:
    """ "Turn 3 · Bob", "Before turn 1", or the result once the game is over."""
    if state.finished:
        if state.ended == "last_standing" and len(state.alive) == 1:
            return t("pod.board.winner", language, name=state.alive[0].name)
        return t(f"pod.board.ended.{state.ended}", language)
    if not state.started:
        return t("pod.board.before_first_turn", language)
    active = state.active_player
    return t("pod.board.turn", language, turn=state.turn, name=active.name if active else "")


Colour = tuple[int, int, int]


@dataclass(frozen=True)
class CardView:
    """Everything one player card shows; equal views draw identical cards."""

    language: str
    name: str
    life: int
    alive: bool
    stripe: Colour
    lines: tuple[tuple[str, Colour], ...]


def card_view(
    state: PodState, index: int, language: str, commander_names: dict[str, str] | None = None
) -> CardView:
    player = state.players[index]
    active = state.started and not state.finished and state.active_seat == index
    stripe = ACTIVE if active else (OUT if not player.alive else SEAT)
    return CardView(
        language=language,
        name=f"{index + 1} {player.name}",
        life=player.life,
        alive=player.alive,
        stripe=stripe,
        lines=tuple(_card_lines(state, player, language, commander_names or {})),
    )


@lru_cache(maxsize=512)
def _card_image(view: CardView, card_height: int = CARD_HEIGHT) -> tuple[Image.Image, tuple[TextBox, ...]]:
    """One player card and where its texts are (relative to the card)."""
    image = Image.new("RGB", (CARD_WIDTH, card_height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    language = view.language
    draw.rounded_rectangle(
        (0, 0, CARD_WIDTH - 1, card_height - 1), radius=10, fill=CARD if view.alive else CARD_OUT
    )
    draw.rectangle((0, 6, STRIPE_WIDTH, card_height - 6), fill=view.stripe)
    texts: list[TextBox] = []
    life_font = font(72, bold=True, language=language)
    life_box = _text(
        image, (LIFE_RIGHT, LIFE_CENTRE), str(view.life), life_font, TEXT if view.alive else OUT, "rm"
    )
    texts += _boxes(str(view.life), life_box, life_font)
    life_area = int(life_font.getlength(str(view.life))) + 24
    name_font = font(TEXT_SIZE, bold=True, language=language)
    name = shorten(view.name, name_font, LIFE_RIGHT - life_area - TEXT_LEFT)
    texts += _boxes(
        name, _text(image, (TEXT_LEFT, 10), name, name_font, TEXT if view.alive else DIM), name_font
    )
    small = font(TEXT_SIZE, language=language)
    for row, (line, colour) in enumerate(wrapped_lines(view)):
        texts += _boxes(
            line, _text(image, (TEXT_LEFT, LINES_TOP + row * LINE_HEIGHT), line, small, colour), small
        )
    return _to_palette(image), tuple(texts)


TEXT_LEFT = STRIPE_WIDTH + 12  # where a card's texts start
LIFE_RIGHT = CARD_WIDTH - 14  # where its life total ends (and its lines may reach)


@lru_cache(maxsize=512)
def wrapped_lines(view: CardView) -> tuple[tuple[str, Colour], ...]:
    """A card's lines as drawn under the life total: each wrapped to the card's width (at most
    ``MAX_WRAPPED_LINES`` for one line, the last cut with "…" only beyond that)."""
    small = font(TEXT_SIZE, language=view.language)
    return tuple(
        (part, colour)
        for text, colour in view.lines
        for part in wrap_text(text, small, LIFE_RIGHT - TEXT_LEFT, MAX_WRAPPED_LINES)
    )


# A line breaks after a space, after " · ", or between two CJK characters (Chinese and Japanese have no
# spaces); a word longer than the line breaks anywhere.
_BREAKABLE = re.compile(
    r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef][\s]*|[^\s\u3000-\u30ff\u3400-\u9fff"
    r"\uf900-\ufaff\uff00-\uffef]+[\s]*|\s+"
)


def wrap_text(text: str, typeface: ImageFont.FreeTypeFont, width: int, max_lines: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels. Its " · " parts (a tax and a commander's name)
    stay whole on a line where they fit; a part too long for one line wraps where ``_BREAKABLE`` allows."""
    if typeface.getlength(text) <= width:
        return [text]
    lines: list[str] = []
    for part in text.split(" · "):
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and typeface.getlength(joined) <= width:
            lines[-1] = joined
        elif typeface.getlength(part) <= width:
            lines.append(part)
        else:
            lines += _wrapped_part(part, typeface, width)
    if len(lines) > max_lines:
        lines[max_lines - 1 :] = [shorten(" ".join(lines[max_lines - 1 :]), typeface, width)]
    return lines


def _wrapped_part(text: str, typeface: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """One part too long for a line, greedily in lines of at most ``width`` pixels; a name whose comma
    ("法務官の声、アトラクサ", "Atraxa, Praetors' Voice") splits it into two parts that fit breaks there."""
    for comma in ("、", "，", ", "):
        head, found, tail = text.partition(comma)
        if found and tail and all(typeface.getlength(p) <= width for p in (head + found.strip(), tail)):
            return [head + found.strip(), tail]
    lines: list[str] = []
    current = ""
    for piece in _pieces(text, typeface, width):
        if current and typeface.getlength((current + piece).rstrip()) > width:
            lines.append(current.rstrip())
            current = piece.lstrip()
        else:
            current += piece
    if current.strip():
        lines.append(current.rstrip())
    return lines


def _pieces(text: str, typeface: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """The unbreakable pieces of ``text``; one wider than a line is split into characters."""
    pieces: list[str] = []
    for piece in _BREAKABLE.findall(text):
        pieces += list(piece) if typeface.getlength(piece.rstrip()) > width else [piece]
    return pieces


def _text(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    typeface: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
) -> tuple[int, int, int, int] | None:
    """Draw ``text`` from a cached glyph mask: the same names, figures and tax lines recur on every
    board, and rasterising them is most of a board's cost. Returns the box drawn (None: nothing)."""
    mask, (dx, dy) = _stamp(text, typeface, anchor)
    if mask is None:
        return None
    box = (xy[0] + dx, xy[1] + dy, xy[0] + dx + mask.width, xy[1] + dy + mask.height)
    image.paste(fill, box, mask)
    return box


@lru_cache(maxsize=4096)
def _stamp(
    text: str, typeface: ImageFont.FreeTypeFont, anchor: str
) -> tuple[Image.Image | None, tuple[int, int]]:
    """The glyph mask of ``text`` and its offset from the anchor point (what ``ImageDraw.text`` draws,
    kept for reuse; one FreeType pass, no separate measuring)."""
    core, offset = typeface.getmask2(text, mode="L", anchor=anchor)
    if core.size[0] == 0 or core.size[1] == 0:
        return None, (0, 0)
    return Image.new("L", (1, 1))._new(core), offset


@lru_cache(maxsize=2048)
def shorten(text: str, typeface: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels (one size for every line keeps cards tidy);
    a binary search over the cut, since measuring text is costly."""
    if typeface.getlength(text) <= width:
        return text
    low, high = 0, len(text)  # text[:low] + "…" fits; text[:high] + "…" does not (or is the whole)
    while high - low > 1:
        middle = (low + high) // 2
        if typeface.getlength(text[:middle] + "…") <= width:
            low = middle
        else:
            high = middle
    return text[:low].rstrip() + "…"


def _card_lines(
    state: PodState, player: Player, language: str, commander_names: dict[str, str]
) -> list[tuple[str, tuple[int, int, int]]]:
    """The small lines under a player's name: markers, poison, tax per commander, counters, status."""
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if not player.alive and player.eliminated is not None:
        lines.append((t(f"pod.board.out.{player.eliminated.reason}", language), OUT))
    markers = [
        t(f"pod.board.{m}", language)
        for m, holder in (("monarch", state.monarch), ("initiative", state.initiative))
        if holder == player.user_id
    ]
    if markers:
        lines.append((" · ".join(markers), ACTIVE))
    if player.poison:
        lines.append((t("pod.board.poison", language, count=player.poison), POISON))
    for commander in player.commanders:
        label = (
            commander_names.get(commander.key) or commander.name or t("pod.board.unnamed_commander", language)
        )
        lines.append((t("pod.board.tax", language, name=label, tax=state.next_tax(commander)), DIM))
    if player.counters:
        lines.append((" · ".join(f"{name} {value}" for name, value in sorted(player.counters.items())), TEXT))
    lines += bracket_lines(player, language)
    if not state.started and state.mulligan is not None:
        status = {s.player: s for s in state.mulligan.status()}[player.user_id]
        count = status.keeps if status.state == "kept" else status.hand_size
        lines.append((t(f"pod.board.mulligan.{status.state.value}", language, count=count), WARN))
    return lines


def bracket_lines(player: Player, language: str) -> list[tuple[str, Colour]]:
    """The declared bracket (BR7), and in amber when the player's deck checks above it."""
    if player.bracket is None:
        return []
    lines = [
        (
            t(
                "brackets.level",
                language,
                level=player.bracket,
                name=t(f"brackets.name.{player.bracket}", language),
            ),
            DIM,
        )
    ]
    if player.deck_bracket is not None and player.deck_bracket > player.bracket:
        lines.append((t("brackets.board.above", language, level=player.deck_bracket), WARN))
    return lines


@dataclass(frozen=True)
class MatrixView:
    """The commander-damage matrix: column labels, and per row (label, alive, damages by column)."""

    language: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, bool, tuple[int, ...]], ...]


def matrix_view(state: PodState, language: str) -> MatrixView:
    commanders = state.all_commanders()
    rows = tuple(
        (f"{i + 1} {p.name}", p.alive, tuple(p.commander_damage_taken.get(c.key, 0) for c in commanders))
        for i, p in enumerate(state.players)
    )
    return MatrixView(language=language, columns=tuple(seat_label(state, c) for c in commanders), rows=rows)


@lru_cache(maxsize=128)
def _matrix_image(view: MatrixView) -> tuple[Image.Image, tuple[TextBox, ...]]:
    """G5: commander damage taken, per (player hit, commander); 21+ in red, 15+ in amber. Also where
    its texts are (relative to the matrix)."""
    language = view.language
    image = Image.new("RGB", (WIDTH, 44 + MATRIX_ROW * (len(view.rows) + 1)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    texts: list[TextBox] = []
    bold = font(TEXT_SIZE, bold=True, language=language)
    title = shorten(t("pod.board.matrix_title", language), bold, WIDTH - 2 * MARGIN)
    texts += _boxes(title, _text(image, (MARGIN, 4), title, bold, TEXT), bold)
    cell = (WIDTH - 2 * MARGIN - MATRIX_LABEL_WIDTH) // len(view.columns)
    header_y = 44
    for column, label in enumerate(view.columns):
        x = MARGIN + MATRIX_LABEL_WIDTH + column * cell + cell // 2
        texts += _boxes(label, _text(image, (x, header_y + MATRIX_ROW // 2), label, bold, DIM, "mm"), bold)
    regular = font(TEXT_SIZE, language=language)
    for row, (name, alive, damages) in enumerate(view.rows):
        y = header_y + MATRIX_ROW * (row + 1)
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=GRID, width=1)
        label = shorten(name, regular, MATRIX_LABEL_WIDTH - 10)
        texts += _boxes(
            label,
            _text(image, (MARGIN, y + MATRIX_ROW // 2), label, regular, TEXT if alive else DIM, "lm"),
            regular,
        )
        for column, damage in enumerate(damages):
            x = MARGIN + MATRIX_LABEL_WIDTH + column * cell
            centre = (x + cell // 2, y + MATRIX_ROW // 2)
            if not damage:  # a dot, not a glyph: most cells are empty and text is the costly part
                draw.ellipse((centre[0] - 2, centre[1] - 2, centre[0] + 2, centre[1] + 2), fill=GRID)
                continue
            if damage >= COMMANDER_DAMAGE_LIMIT:
                draw.rectangle((x + 2, y + 3, x + cell - 2, y + MATRIX_ROW - 3), fill=OUT)
            colour = WARN if WARN_DAMAGE <= damage < COMMANDER_DAMAGE_LIMIT else TEXT
            figure = _figure_font(str(damage), cell - 4, language)
            texts += _boxes(str(damage), _text(image, centre, str(damage), figure, colour, "mm"), figure)
    return _to_palette(image), tuple(texts)


@lru_cache(maxsize=256)
def _figure_font(text: str, width: int, language: str) -> ImageFont.FreeTypeFont:
    """The damage figure's font: ``TEXT_SIZE`` bold, smaller only when a huge number would spill into
    the next of 16 narrow columns (a figure cut with "…" would mean nothing)."""
    size = TEXT_SIZE
    while size > 12 and font(size, bold=True, language=language).getlength(text) > width:
        size -= 1
    return font(size, bold=True, language=language)
