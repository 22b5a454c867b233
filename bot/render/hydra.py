"""Showing a Hydra game: log lines, prompts, the text board (CLI) and the board image (Discord).

Card names are shown as players of the reader's language know them (``bot.i18n.card_name``: the printed
Japanese names, else English); card texts stay English. Everything else goes through the ``hydra.*``
messages in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.domain.challenge.core import Decision, Event
from bot.domain.hydra.cards import HEROES
from bot.domain.hydra.engine import WINDOW_TOPICS, HydraGame
from bot.i18n import t
from bot.i18n.glossary import card_name, join_list, localized_values
from bot.render.fonts import fit_text, font, png_bytes
from bot.render.layout import TextBox, TextLayout
from bot.render.pil import Image, ImageDraw, ImageFont


def event_text(event: Event, language: str = "en") -> str:
    return t(event.key, language, **localized_values(event.values, language))


def log_lines(events: list[Event], language: str = "en") -> list[str]:
    return [event_text(event, language) for event in events]


def decision_text(game: HydraGame, decision: Decision, language: str = "en") -> str:
    """The question for a pending decision, with its default and, in windows, Glower's lock."""
    player = game.players[decision.player].name if decision.player is not None else ""
    kind = t(f"hydra.trigger_kind.{decision.detail}", language) if decision.detail else ""
    card = localized_values({"card": decision.card or ""}, language)["card"]
    lines = [t(f"hydra.decision.{decision.topic}", language, card=card, player=player, kind=kind)]
    if decision.topic == "trigger_order":
        lines.append(join_list([card_name(option, language) for option in decision.options], language))
    if decision.topic in WINDOW_TOPICS and game.spells_locked:
        lines.append(t("hydra.decision.spells_locked", language))
    lines.append(
        t(
            "hydra.decision.default",
            language,
            default=answer_label(decision.topic, decision.default, language),
        )
    )
    return "\n".join(lines)


# The answers a decision offers, in the words of their buttons: "pass" in the damage window is "Take the
# damage", in the upkeep "Go on"; elsewhere the answer's own key. Prompts and buttons say the same words.
ANSWER_KEYS = {
    ("prevent", "pass"): "hydra.ui.option.take_damage",
    ("upkeep", "pass"): "hydra.ui.option.go_on",
}
ANSWERS = ("pass", "counter", "prevent", "sacrifice", "decline", "damage", "destroy")


def answer_key(topic: str, option: str) -> str:
    return ANSWER_KEYS.get((topic, option), f"hydra.ui.option.{option}")


def answer_label(topic: str, option: str, language: str = "en") -> str:
    """An answer as its button names it in Japanese and Chinese. English keeps the script's answer word
    (pass, counter), which its prompts list and the command line takes; a head's name is its card name."""
    if option in ANSWERS and language != "en":
        return t(answer_key(topic, option), language)
    return card_name(option, language)


def head_marks(game: HydraGame, index: int, language: str = "en") -> list[str]:
    """Damage and the tapped / indestructible / won't-untap marks of the head at ``index``."""
    head = game.battlefield[index]
    marks = [t("hydra.board.damage", language, damage=head.damage, toughness=head.toughness)]
    if head.card.elite:
        marks.append(t("hydra.board.elite", language))
    if head.tapped:
        marks.append(t("hydra.board.tapped", language))
    if game.is_indestructible(head):
        marks.append(t("hydra.board.indestructible", language))
    if head.frozen_for > game.hydra_turns:
        marks.append(t("hydra.board.skips_untap", language))
    return marks


def player_line(game: HydraGame, index: int, language: str = "en") -> str:
    player = game.players[index]
    if player.lost:
        return t("hydra.board.out", language, player=player.name)
    return t("hydra.board.life", language, player=player.name, life=player.life)


def hero_reminders(game: HydraGame) -> list[str]:
    """Each Hero card in play once, with its text: the bot tracks The Slayer's life itself, the
    others act on the players' own cards and are shown as reminders (card texts stay English)."""
    seen = dict.fromkeys(name for player in game.players for name in player.heroes)
    return [f"{name}: {HEROES[name].text}" for name in seen]


def board_text(game: HydraGame, language: str = "en") -> str:
    """The board as text: numbered heads (the HEAD numbers of the script language), counts, lives."""
    lines = [t("hydra.board.turn", language, turn=game.turn) + " — " + t("hydra.board.heads", language)]
    if not game.battlefield:
        lines.append("  " + t("hydra.board.no_heads", language))
    for index, head in enumerate(game.battlefield):
        marks = join_list(head_marks(game, index, language), language)
        marks = t("core.in_parentheses", language, text=marks)
        lines.append(f"  {game.number_of(head)}. {card_name(head.name, language)} {marks}")
    lines.append(
        t("hydra.board.library", language, count=len(game.library))
        + "   "
        + t("hydra.board.graveyard", language, count=len(game.graveyard))
    )
    for index, player in enumerate(game.players):
        heroes = f" — {join_list(player.heroes, language)}" if player.heroes else ""
        lines.append(player_line(game, index, language) + heroes)
    if game.spells_locked:
        lines.append(t("hydra.board.spells_locked", language))
    swallowed = [f"{game.players[p].name}: {c}" for w in game.swallows for p, c in w.exiled]
    if swallowed:
        lines.append(t("hydra.board.swallowed", language, creatures=swallowed))
    return "\n".join(lines)


# ---------------------------------------------------------------- the board image
# Drawn at 720 px in two columns, like the pod board (bot/render/board.py): Discord shows it about
# 360 px wide on a phone, so every text is at least 26 px here (13 px there) and names/lives 32+.
WIDTH = 720
MARGIN = 16
GAP = MARGIN
PER_ROW = 2
HEAD_W = (WIDTH - (PER_ROW + 1) * MARGIN) // PER_ROW
HEAD_H = 226
HEADER_H = 70
TOP = HEADER_H
BACKGROUND = (24, 28, 36)
HEAD_FILL = (58, 92, 70)
ELITE_FILL = (110, 70, 40)
TAPPED_FILL = (70, 70, 78)
TEXT = (240, 240, 240)
DIM = (200, 200, 200)
DAMAGE = (235, 80, 70)
BAR_BACK = (30, 30, 30)
SHIELD = (240, 200, 60)
FROZEN = (110, 170, 240)
MIN_TEXT = 26  # px at full size: 13 px on a 360 px wide phone screen


def board_image(game: HydraGame, language: str = "en", *, boxes: list[TextBox] | None = None) -> Image.Image:
    """A phone-readable picture of the board: one tile per head (numbered as in the script
    language) with its name, damage, marks in words and what it does (Hero's Reward, end step),
    then library/graveyard counts and each player's life. ``boxes`` collects where each text went
    (``bot.render.layout``), so tests check it reads at a phone's width."""
    rows = max(1, -(-len(game.battlefield) // PER_ROW))
    notice_font = font(MIN_TEXT, language=language)
    result = _result(game, language)  # a won or lost board says so first (the win image had no result)
    result_lines = wrap_text(result, font(MIN_TEXT, bold=True, language=language), WIDTH - 2 * MARGIN)
    notice = (
        wrap_text(t("hydra.board.spells_locked", language), notice_font, WIDTH - 2 * MARGIN)
        if game.spells_locked and not result
        else []
    )
    lines = [(line, True) for line in result_lines] + [(line, False) for line in notice]
    top = TOP + 34 * len(lines)
    height = top + rows * (HEAD_H + GAP) + 56 + 50 * len(game.players) + 16
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    layout = TextLayout(draw, boxes)
    layout.text(
        (MARGIN, 14),
        t("hydra.board.turn", language, turn=game.turn),
        font=font(40, bold=True, language=language),
        fill=TEXT,
    )
    for number, (line, is_result) in enumerate(lines):  # the result, or Disorienting Glower, under the turn
        layout.text(
            (MARGIN, TOP + 34 * number - 4),
            line,
            font=font(MIN_TEXT, bold=True, language=language) if is_result else notice_font,
            fill=(SHIELD if game.outcome == "won" else DAMAGE) if is_result else FROZEN,
        )
    y = draw_tiles(
        layout,
        len(game.battlefield),
        top,
        HEAD_H,
        t("hydra.board.no_heads", language),
        language,
        lambda index, x, y: _draw_head(draw, layout, game, index, x, y, language),
    )
    draw_zone_counts(layout, len(game.library), len(game.graveyard), y, language)
    y += 52
    for index in range(len(game.players)):
        colour = (150, 150, 150) if game.players[index].lost else TEXT
        line = player_line(game, index, language)
        layout.text(
            (MARGIN, y),
            line,
            font=fit_text(line, WIDTH - 2 * MARGIN, 36, bold=True, language=language, min_size=MIN_TEXT),
            fill=colour,
        )
        y += 50
    return image


def _result(game: HydraGame, language: str) -> str:
    """How the game ended, in words ("" while it runs): the players won, or the Hydra did."""
    if game.outcome == "won":
        return t("hydra.log.won", language)
    if game.outcome == "lost":
        return t("hydra.log.lost", language)
    return ""


def head_ability_lines(game: HydraGame, index: int, language: str = "en") -> list[str]:
    """What a head does, in the reader's language: its end-step trigger, then its Hero's Reward."""
    card = game.battlefield[index].card
    lines = []
    if card.name in _END_STEP_KEYS:
        lines.append(t(_END_STEP_KEYS[card.name], language))
    key = "hydra.board.reward_draw" if card.reward_draw else "hydra.board.reward"
    lines.append(t(key, language, life=card.reward_life))
    return lines


_END_STEP_KEYS = {
    "Savage Vigor Head": "hydra.board.end_step_cast",
    "Shrieking Titan Head": "hydra.board.end_step_discard",
    "Snapping Fang Head": "hydra.board.end_step_damage",
}


def _draw_head(
    draw: ImageDraw.ImageDraw, layout: TextLayout, game: HydraGame, index: int, x: int, y: int, language: str
) -> None:
    head = game.battlefield[index]
    fill = TAPPED_FILL if head.tapped else (ELITE_FILL if head.card.elite else HEAD_FILL)
    draw_tile_top(
        draw,
        layout,
        x,
        y,
        HEAD_H,
        fill,
        SHIELD if game.is_indestructible(head) else fill,
        game.number_of(head),
        card_name(head.name, language),
    )
    inner = HEAD_W - 24
    draw_damage(draw, layout, x, y, f"{head.damage}/{head.toughness}", head.damage, head.toughness)
    marks = [
        t(key, language)
        for key, on in (
            ("hydra.board.tapped", head.tapped),
            ("hydra.board.skips_untap", head.frozen_for > game.hydra_turns),
            ("hydra.board.indestructible", game.is_indestructible(head)),
        )
        if on
    ]
    small = font(MIN_TEXT, language=language)
    lines = [(line, SHIELD) for line in wrap_text(join_list(marks, language), small, inner)] + [
        (part, DIM)
        for line in head_ability_lines(game, index, language)
        for part in wrap_text(line, small, inner)
    ]
    line_y = y + 100
    for text, colour in lines[:4]:
        layout.text((x + 12, line_y), text, fill=colour, font=small)
        line_y += 30


def draw_tiles(
    layout: TextLayout,
    count: int,
    top: int,
    tile_h: int,
    empty: str,
    language: str,
    draw_tile: Callable[[int, int, int], None],
) -> int:
    """Tiles two a row from ``top`` (each drawn by ``draw_tile(index, x, y)``), or ``empty`` when there
    are none; returns where the text under them starts. Every deck's board lays out its permanents so."""
    if not count:
        layout.text((MARGIN, top + 60), empty, font=font(34, language=language), fill=TEXT)
    for index in range(count):
        draw_tile(
            index, MARGIN + (index % PER_ROW) * (HEAD_W + GAP), top + (index // PER_ROW) * (tile_h + GAP)
        )
    return top + max(1, -(-count // PER_ROW)) * (tile_h + GAP) + 4


def draw_tile_top(
    draw: ImageDraw.ImageDraw,
    layout: TextLayout,
    x: int,
    y: int,
    tile_h: int,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int],
    number: int,
    name: str,
) -> None:
    """A permanent's tile with its number (as the action language names it) and its name, shrunk to fit."""
    draw.rounded_rectangle((x, y, x + HEAD_W, y + tile_h), radius=14, fill=fill, outline=outline, width=5)
    label = f"{number}."
    number_font = font(36, bold=True)
    layout.text((x + 12, y + 8), label, font=number_font, fill=TEXT)
    name_left = x + 12 + int(number_font.getlength(label)) + 10
    layout.text(
        (name_left, y + 12),
        name,
        fill=TEXT,
        font=fit_text(name, x + HEAD_W - 12 - name_left, 32, bold=True, min_size=MIN_TEXT),
    )


def draw_zone_counts(layout: TextLayout, library: int, graveyard: int, y: int, language: str) -> None:
    counts = (
        t("hydra.board.library", language, count=library)
        + "   "
        + t("hydra.board.graveyard", language, count=graveyard)
    )
    layout.text(
        (MARGIN, y),
        counts,
        font=fit_text(counts, WIDTH - 2 * MARGIN, 32, language=language, min_size=MIN_TEXT),
        fill=DIM,
    )


def draw_damage(
    draw: ImageDraw.ImageDraw, layout: TextLayout, x: int, y: int, label: str, damage: int, toughness: int
) -> None:
    """A tile's ``label`` (damage/toughness, or power/toughness) and, only when damaged, a bar filled in
    proportion (no red sliver at 0 damage)."""
    label_font = font(32, bold=True)
    layout.text((x + 12, y + 58), label, font=label_font, fill=TEXT)
    if damage <= 0:
        return
    bar_left, bar_right = x + 12 + int(label_font.getlength(label)) + 14, x + HEAD_W - 12
    draw.rectangle((bar_left, y + 68, bar_right, y + 86), fill=BAR_BACK)
    filled = bar_left + min(bar_right - bar_left, (bar_right - bar_left) * damage // max(toughness, 1))
    draw.rectangle((bar_left, y + 68, filled, y + 86), fill=DAMAGE)


def wrap_text(text: str, typeface: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy line breaks: between words, or between characters for text without spaces (CJK)."""
    if not text:
        return []
    tokens, joiner = (text.split(" "), " ") if " " in text else (list(text), "")
    lines: list[str] = []
    current = ""
    for token in tokens:
        candidate = f"{current}{joiner}{token}" if current else token
        if current and typeface.getlength(candidate) > width:
            lines.append(current)
            current = token
        else:
            current = candidate
    return [*lines, current]


def board_png(game: HydraGame, language: str = "en") -> bytes:
    return png_bytes(board_image(game, language))
