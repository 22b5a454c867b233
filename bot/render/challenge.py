"""Showing a Horde or God game: log lines, questions, the text board (CLI) and the board image (Discord).

Card names read as players of the language know them (``bot.i18n.card_name``), card texts stay English; the
bot's own words go through ``challenge.*`` messages. The image
uses the Hydra board's geometry (720 px, two tiles a row, 26 px text at least: readable 360 px wide).
"""

from __future__ import annotations

from bot.domain.challenge.core import Decision, Event
from bot.domain.challenge.creatures import CreatureDeckGame, Permanent
from bot.i18n import t
from bot.i18n.glossary import card_name, join_list, localized_values
from bot.render.fonts import fit_text, font, png_bytes
from bot.render.hydra import (
    BACKGROUND,
    DIM,
    FROZEN,
    GAP,
    HEAD_W,
    MARGIN,
    MIN_TEXT,
    PER_ROW,
    SHIELD,
    TAPPED_FILL,
    TEXT,
    WIDTH,
    answer_label,
    draw_damage,
    draw_tile_top,
    draw_tiles,
    draw_zone_counts,
    wrap_text,
)
from bot.render.layout import TextBox, TextLayout
from bot.render.pil import Image, ImageDraw


def log_lines(events: list[Event], language: str = "en") -> list[str]:
    return [t(event.key, language, **localized_values(event.values, language)) for event in events]


def decision_text(game: CreatureDeckGame, decision: Decision, language: str = "en") -> str:
    player = game.seats[decision.player].name if decision.player is not None else ""
    kind = t(f"challenge.trigger_kind.{decision.detail}", language) if decision.detail else ""
    card = localized_values({"card": decision.card or ""}, language)["card"]
    question = t(f"challenge.decision.{decision.topic}", language, card=card, player=player, kind=kind)
    default = answer_label(decision.topic, decision.default, language)
    return question + "\n" + t("hydra.decision.default", language, default=default)


def board_text(game: CreatureDeckGame, language: str = "en") -> str:
    lines = [t("challenge.board.permanents", language, turn=game.turn)]
    lines += [f"  {line}" for line in board_lines(game, language)] or [
        "  " + t("challenge.board.none", language)
    ]
    lines.append(
        t("hydra.board.library", language, count=len(game.library))
        + "   "
        + t("hydra.board.graveyard", language, count=len(game.graveyard))
    )
    lines.append(t("challenge.board.life", language, life=game.life))
    rule = life_rule_text(game, language)
    if rule:
        lines.append(rule)
    return "\n".join(lines)


def board_lines(game: CreatureDeckGame, language: str = "en") -> list[str]:
    """The permanents as numbered in the action language, with their names and marks in the reader's words."""
    lines = []
    for permanent in game.battlefield:
        stats = f" {permanent.power}/{permanent.toughness}" if permanent.card.is_creature else ""
        marks = [
            t(key, language, damage=permanent.damage)
            for key, on in (
                ("hydra.board.tapped", permanent.tapped),
                ("challenge.board.damage", permanent.damage),
            )
            if on
        ]
        shown = " " + t("core.in_parentheses", language, text=marks) if marks else ""
        lines.append(f"{game.number_of(permanent)}. {card_name(permanent.name, language)}{stats}{shown}")
    return lines


def life_rule_text(game: CreatureDeckGame, language: str = "en") -> str:
    """The shared-life rule of a multiplayer table, said plainly: the printed one (20 for the whole
    table, "each player" damage counted once per player) or the house rule (20 per player)."""
    if len(game.seats) < 2:
        return ""
    if game.life_per_player:
        return t(
            "challenge.board.house_rule_life", language, players=len(game.seats), life=game.starting_life
        )
    return t("challenge.board.printed_shared_life", language, players=len(game.seats))


# ---------------------------------------------------------------- the board image
TILE_H = 200  # the least a tile is: 98 + 3 lines of 30 px; a longer rules text makes every tile taller
LINES_TOP = 98  # the first line of marks and rules text, under the name and stats
LINE_STEP = 30
HEADER_H = 70
CREATURE_FILL = (120, 52, 44)  # the Horde's Minotaurs, the God's Revelers
GOD_FILL = (150, 118, 40)  # Xenagos Ascended
NONCREATURE_FILL = (60, 72, 96)  # artifacts, enchantments


def tile_fill(permanent: Permanent) -> tuple[int, int, int]:
    """The tile's colour says what a permanent is at a glance: tapped, a God, a creature, or not."""
    if permanent.tapped:
        return TAPPED_FILL
    if permanent.card.has_subtype("God"):
        return GOD_FILL
    return CREATURE_FILL if permanent.card.is_creature else NONCREATURE_FILL


def board_image(
    game: CreatureDeckGame, language: str = "en", *, boxes: list[TextBox] | None = None
) -> Image.Image:
    """One tile per permanent of the deck (numbered as in the action language) with its name, power/
    toughness and damage, its marks in words and its rules text; then library and graveyard counts and
    the players' life. The tiles grow together to hold the longest rules text (cut after three lines,
    it hid what a permanent does). ``boxes`` collects where each text went (phone checks)."""
    rows = max(1, -(-len(game.battlefield) // PER_ROW))
    texts = [_tile_lines(game, permanent, language) for permanent in game.battlefield]
    tile_h = max([TILE_H] + [LINES_TOP + LINE_STEP * len(lines) + 12 for lines in texts])
    height = HEADER_H + rows * (tile_h + GAP) + 56 + 56 + 16
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    layout = TextLayout(draw, boxes)
    layout.text(
        (MARGIN, 14),
        t("hydra.board.turn", language, turn=game.turn),
        font=font(40, bold=True, language=language),
        fill=TEXT,
    )
    y = draw_tiles(
        layout,
        len(game.battlefield),
        HEADER_H,
        tile_h,
        t("challenge.board.none", language),
        language,
        lambda index, x, y: _draw_tile(
            draw, layout, game, game.battlefield[index], texts[index], x, y, tile_h, language
        ),
    )
    draw_zone_counts(layout, len(game.library), len(game.graveyard), y, language)
    life = t("challenge.board.life", language, life=game.life)
    layout.text(
        (MARGIN, y + 52),
        life,
        font=fit_text(life, WIDTH - 2 * MARGIN, 36, bold=True, language=language, min_size=MIN_TEXT),
        fill=TEXT,
    )
    return image


def _draw_tile(
    draw: ImageDraw.ImageDraw,
    layout: TextLayout,
    game: CreatureDeckGame,
    permanent: Permanent,
    lines: list[tuple[str, tuple[int, int, int]]],
    x: int,
    y: int,
    tile_h: int,
    language: str,
) -> None:
    fill = tile_fill(permanent)
    draw_tile_top(
        draw,
        layout,
        x,
        y,
        tile_h,
        fill,
        SHIELD if permanent.attacking else fill,
        game.number_of(permanent),
        card_name(permanent.name, language),
    )
    if permanent.card.is_creature:
        draw_damage(
            draw,
            layout,
            x,
            y,
            f"{permanent.power}/{permanent.toughness}",
            permanent.damage,
            permanent.toughness,
        )
    small = font(MIN_TEXT, language=language)
    for number, (text, colour) in enumerate(lines):
        layout.text((x + 12, y + LINES_TOP + number * LINE_STEP), text, fill=colour, font=small)


def _tile_lines(
    game: CreatureDeckGame, permanent: Permanent, language: str
) -> list[tuple[str, tuple[int, int, int]]]:
    """A tile's lines under its stats: its marks in words, then every line of its rules text, wrapped."""
    marks = [
        t(key, language)
        for key, on in (
            ("hydra.board.tapped", permanent.tapped),
            ("hydra.board.skips_untap", permanent.frozen_for > game.deck_turns),
            ("challenge.board.stolen", permanent.stolen),
            ("challenge.board.cant_attack", game.cant_attack_now(permanent)),
        )
        if on
    ]
    small = font(MIN_TEXT, language=language)
    inner = HEAD_W - 24
    rules = [
        part
        for paragraph in permanent.card.oracle_text.split("\n")
        for part in wrap_text(paragraph, font(MIN_TEXT), inner)
    ]
    return [(line, FROZEN) for line in wrap_text(join_list(marks, language), small, inner)] + [
        (line, DIM) for line in rules
    ]


def board_png(game: CreatureDeckGame, language: str = "en") -> bytes:
    return png_bytes(board_image(game, language))
