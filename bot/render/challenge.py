"""Showing a Horde or God game: log lines, questions, the text board (CLI) and the board image (Discord).

Card names and texts stay English; the bot's own words go through ``challenge.*`` messages. The image
uses the Hydra board's geometry (720 px, two tiles a row, 26 px text at least: readable 360 px wide).
"""

from __future__ import annotations

from bot.domain.challenge.core import Decision, Event
from bot.domain.challenge.creatures import CreatureDeckGame, Permanent
from bot.i18n import t
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
    draw_damage,
    draw_tile_top,
    draw_tiles,
    draw_zone_counts,
    wrap_text,
)
from bot.render.layout import TextBox, TextLayout, ellipsize
from bot.render.pil import Image, ImageDraw


def log_lines(events: list[Event], language: str = "en") -> list[str]:
    return [t(event.key, language, **event.values) for event in events]


def decision_text(game: CreatureDeckGame, decision: Decision, language: str = "en") -> str:
    player = game.seats[decision.player].name if decision.player is not None else ""
    kind = t(f"challenge.trigger_kind.{decision.detail}", language) if decision.detail else ""
    question = t(f"challenge.decision.{decision.topic}", language, card=decision.card or "", player=player,
                 kind=kind)
    return question + "\n" + t("hydra.decision.default", language, default=decision.default)


def board_text(game: CreatureDeckGame, language: str = "en") -> str:
    lines = [t("challenge.board.permanents", language, turn=game.turn)]
    lines += [f"  {line}" for line in game.board_lines()] or ["  " + t("challenge.board.none", language)]
    lines.append(t("hydra.board.library", language, count=len(game.library)) + "   "
                 + t("hydra.board.graveyard", language, count=len(game.graveyard)))
    lines.append(t("challenge.board.life", language, life=game.life))
    rule = life_rule_text(game, language)
    if rule:
        lines.append(rule)
    return "\n".join(lines)


def life_rule_text(game: CreatureDeckGame, language: str = "en") -> str:
    """The shared-life rule of a multiplayer table, said plainly: the printed one (20 for the whole
    table, "each player" damage counted once per player) or the house rule (20 per player)."""
    if len(game.seats) < 2:
        return ""
    if game.life_per_player:
        return t("challenge.board.house_rule_life", language, players=len(game.seats), life=game.starting_life)
    return t("challenge.board.printed_shared_life", language, players=len(game.seats))


# ---------------------------------------------------------------- the board image
TILE_H = 200
TEXT_LINES = 3  # marks and rules text under the stats: 98 + 3 x 30 px fits the tile
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


def board_image(game: CreatureDeckGame, language: str = "en", *, boxes: list[TextBox] | None = None) -> Image.Image:
    """One tile per permanent of the deck (numbered as in the action language) with its name, power/
    toughness and damage, its marks in words and the first line of its text; then library and
    graveyard counts and the players' life. ``boxes`` collects where each text went (phone checks)."""
    rows = max(1, -(-len(game.battlefield) // PER_ROW))
    height = HEADER_H + rows * (TILE_H + GAP) + 56 + 56 + 16
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    layout = TextLayout(draw, boxes)
    layout.text((MARGIN, 14), t("hydra.board.turn", language, turn=game.turn),
                font=font(40, bold=True, language=language), fill=TEXT)
    y = draw_tiles(layout, len(game.battlefield), HEADER_H, TILE_H, t("challenge.board.none", language), language,
                   lambda index, x, y: _draw_tile(draw, layout, game, game.battlefield[index], x, y, language))
    draw_zone_counts(layout, len(game.library), len(game.graveyard), y, language)
    life = t("challenge.board.life", language, life=game.life)
    layout.text((MARGIN, y + 52), life, font=fit_text(life, WIDTH - 2 * MARGIN, 36, bold=True, language=language,
                                                        min_size=MIN_TEXT), fill=TEXT)
    return image


def _draw_tile(draw: ImageDraw.ImageDraw, layout: TextLayout, game: CreatureDeckGame, permanent: Permanent,
               x: int, y: int, language: str) -> None:
    fill = tile_fill(permanent)
    draw_tile_top(draw, layout, x, y, TILE_H, fill, SHIELD if permanent.attacking else fill,
                  game.number_of(permanent), permanent.name)
    if permanent.card.is_creature:
        draw_damage(draw, layout, x, y, f"{permanent.power}/{permanent.toughness}", permanent.damage,
                    permanent.toughness)
    marks = [t(key, language) for key, on in (("hydra.board.tapped", permanent.tapped),
                                                ("hydra.board.skips_untap", permanent.frozen_for > game.deck_turns),
                                                ("challenge.board.stolen", permanent.stolen),
                                                ("challenge.board.cant_attack", game.cant_attack_now(permanent)))
             if on]
    small = font(MIN_TEXT, language=language)
    inner = HEAD_W - 24
    first_rule = permanent.card.oracle_text.split("\n")[0]
    lines = [(line, FROZEN) for line in wrap_text(", ".join(marks), small, inner)] + [
        (line, DIM) for line in wrap_text(first_rule, font(MIN_TEXT), inner)]
    if len(lines) > TEXT_LINES:  # the full text is in the card; say there is more
        lines = lines[:TEXT_LINES]
        lines[-1] = (ellipsize(lines[-1][0] + " …", inner, small), lines[-1][1])
    line_y = y + 98
    for text, colour in lines:
        layout.text((x + 12, line_y), text, fill=colour, font=small)
        line_y += 30


def board_png(game: CreatureDeckGame, language: str = "en") -> bytes:
    return png_bytes(board_image(game, language))
