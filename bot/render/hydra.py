"""Showing a Hydra game: log lines, prompts, the text board (CLI) and the board image (Discord).

Card names and card texts stay English (they are printed that way); everything else goes
through the ``hydra.*`` messages in the reader's language.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.domain.hydra.cards import HEROES
from bot.domain.hydra.engine import WINDOW_TOPICS, Decision, Event, HydraGame
from bot.i18n import t
from bot.render.fonts import fit_text, font, png_bytes


def event_text(event: Event, language: str = "en") -> str:
    return t(event.key, language, **event.values)


def log_lines(events: list[Event], language: str = "en") -> list[str]:
    return [event_text(event, language) for event in events]


def decision_text(game: HydraGame, decision: Decision, language: str = "en") -> str:
    """The question for a pending decision, with its default and, in windows, Glower's lock."""
    player = game.players[decision.player].name if decision.player is not None else ""
    kind = t(f"hydra.trigger_kind.{decision.detail}", language) if decision.detail else ""
    lines = [t(f"hydra.decision.{decision.topic}", language, card=decision.card or "", player=player, kind=kind)]
    if decision.topic == "trigger_order":
        lines.append(" / ".join(decision.options))
    if decision.topic in WINDOW_TOPICS and game.spells_locked:
        lines.append(t("hydra.decision.spells_locked", language))
    lines.append(t("hydra.decision.default", language, default=decision.default))
    return "\n".join(lines)


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
        lines.append(f"  {index + 1}. {head.name} ({', '.join(head_marks(game, index, language))})")
    lines.append(t("hydra.board.library", language, count=len(game.library)) + "   "
                 + t("hydra.board.graveyard", language, count=len(game.graveyard)))
    for index, player in enumerate(game.players):
        heroes = f" — {', '.join(player.heroes)}" if player.heroes else ""
        lines.append(player_line(game, index, language) + heroes)
    if game.spells_locked:
        lines.append(t("hydra.board.spells_locked", language))
    swallowed = [f"{game.players[p].name}: {c}" for w in game.swallows for p, c in w.exiled]
    if swallowed:
        lines.append(t("hydra.board.swallowed", language, creatures=", ".join(swallowed)))
    return "\n".join(lines)


# ---------------------------------------------------------------- the board image
WIDTH = 960
HEAD_W, HEAD_H, GAP = 172, 150, 14
BACKGROUND = (24, 28, 36)
HEAD_FILL = (58, 92, 70)
ELITE_FILL = (110, 70, 40)
TAPPED_FILL = (70, 70, 78)
TEXT = (240, 240, 240)
DAMAGE = (235, 80, 70)
SHIELD = (240, 200, 60)
FROZEN = (110, 170, 240)
PER_ROW = 5


def board_image(game: HydraGame, language: str = "en") -> Image.Image:
    """A phone-readable picture of the board: one tile per head (numbered as in the script
    language) with damage bar and marks, then library/graveyard counts and each player's life."""
    rows = max(1, -(-len(game.battlefield) // PER_ROW))
    height = 70 + rows * (HEAD_H + GAP) + 60 + 44 * len(game.players) + 60
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((GAP, 16), t("hydra.board.turn", language, turn=game.turn), font=font(34, bold=True,
              language=language), fill=TEXT)
    if game.spells_locked:
        label = t("hydra.board.spells_locked", language)
        draw.text((WIDTH - GAP, 24), label, anchor="ra", fill=FROZEN,
                  font=fit_text(label, WIDTH // 2, 24, language=language))
    top = 70
    if not game.battlefield:
        draw.text((GAP, top + 40), t("hydra.board.no_heads", language), font=font(30, language=language),
                  fill=TEXT)
    for index in range(len(game.battlefield)):
        x = GAP + (index % PER_ROW) * (HEAD_W + GAP)
        y = top + (index // PER_ROW) * (HEAD_H + GAP)
        _draw_head(draw, game, index, x, y, language)
    y = top + rows * (HEAD_H + GAP) + 10
    counts = (t("hydra.board.library", language, count=len(game.library)) + "    "
              + t("hydra.board.graveyard", language, count=len(game.graveyard)))
    draw.text((GAP, y), counts, font=font(30, language=language), fill=TEXT)
    y += 50
    for index in range(len(game.players)):
        colour = (150, 150, 150) if game.players[index].lost else TEXT
        draw.text((GAP, y), player_line(game, index, language), font=font(32, bold=True, language=language),
                  fill=colour)
        y += 44
    legend = (f"T = {t('hydra.board.tapped', language)}   Z = {t('hydra.board.skips_untap', language)}   "
              f"I = {t('hydra.board.indestructible', language)}")
    draw.text((GAP, y + 12), legend, font=fit_text(legend, WIDTH - 2 * GAP, 24, language=language), fill=FROZEN)
    return image


def _draw_head(draw: ImageDraw.ImageDraw, game: HydraGame, index: int, x: int, y: int, language: str) -> None:
    head = game.battlefield[index]
    fill = TAPPED_FILL if head.tapped else (ELITE_FILL if head.card.elite else HEAD_FILL)
    draw.rounded_rectangle((x, y, x + HEAD_W, y + HEAD_H), radius=14, fill=fill,
                           outline=SHIELD if game.is_indestructible(head) else fill, width=5)
    draw.text((x + 10, y + 6), str(index + 1), font=font(36, bold=True), fill=TEXT)
    draw.text((x + 10, y + 50), head.name, font=fit_text(head.name, HEAD_W - 20, 24, bold=True), fill=TEXT)
    toughness = head.card.toughness or 1
    bar = HEAD_W - 20
    draw.rectangle((x + 10, y + 88, x + 10 + bar, y + 102), fill=(30, 30, 30))
    draw.rectangle((x + 10, y + 88, x + 10 + min(bar, bar * head.damage // toughness), y + 102), fill=DAMAGE)
    draw.text((x + 10, y + 108), f"{head.damage}/{toughness}", font=font(26, bold=True), fill=TEXT)
    marks = []
    if head.tapped:
        marks.append(("T", TEXT))
    if head.frozen_for > game.hydra_turns:
        marks.append(("Z", FROZEN))
    if game.is_indestructible(head):
        marks.append(("I", SHIELD))
    mx = x + HEAD_W - 12
    for letter, colour in reversed(marks):
        draw.text((mx, y + 108), letter, anchor="ra", font=font(28, bold=True), fill=colour)
        mx -= 26


def board_png(game: HydraGame, language: str = "en") -> bytes:
    return png_bytes(board_image(game, language))
