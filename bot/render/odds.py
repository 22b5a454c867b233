"""Opening-hand odds as text (CLI, embeds) and as a bar chart (Pillow), in the reader's language."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.domain.mulligan import MulliganStyle
from bot.domain.mulligan.odds import DeckOdds, Hypergeometric, StyleOdds
from bot.i18n import t
from bot.render.fonts import font

STYLE_ORDER = (MulliganStyle.PARTIAL_PARIS, MulliganStyle.LONDON, MulliganStyle.VANCOUVER)


def percent(p: float) -> str:
    """12.3% — but never "0.0%" for a possible event, nor "100.0%" for one that can fail."""
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 <= p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def style_row(odds: StyleOdds, language: str) -> str:
    """"London mulligan: 7 → 96.2% · 6 → 3.1% · … · keepable 100.0%"."""
    sizes = " · ".join(f"{size} → {percent(p)}" for size, p in odds.by_size() if p >= 0.0005)
    row = t("mulligan.odds.style_row", language, style=t(f"mulligan.style.{odds.style.value}", language),
            sizes=sizes, total=percent(odds.total))
    if odds.samples is not None and odds.total_interval:
        low, high = odds.total_interval
        row += " " + t("mulligan.odds.monte_carlo", language, samples=odds.samples, low=percent(low),
                       high=percent(high))
    return row


def odds_lines(odds: DeckOdds, language: str) -> list[str]:
    """The whole table as lines of plain text (the CLI prints them; embeds put them in fields)."""
    low, high = odds.keep
    counts = odds.counts
    lines = [t("mulligan.odds.library", language, deck_size=counts.deck_size, lands=counts.lands)]
    if counts.half_lands:
        lines.append(t("mulligan.odds.half_lands", language, count=counts.half_lands,
                       equivalent=f"{counts.land_equivalent:g}"))
    lines.append(t("mulligan.odds.lands_in_7", language))
    lines += [f"  {k}: {percent(p):>6}" for k, p in enumerate(odds.p_lands_in_opening)]
    lines.append(t("mulligan.odds.keepable_first", language, low=low, high=high,
                   percent=percent(odds.p_keepable_opening)))
    lines.append(t("mulligan.odds.styles_header", language, low=low, high=high, players=odds.player_count))
    lines += ["  " + style_row(odds.styles[style], language) for style in STYLE_ORDER if style in odds.styles]
    lines.append(t("mulligan.odds.policy", language))
    return lines


def calculator_text(result: Hypergeometric, language: str) -> str:
    """The free calculator's answer, one sentence each for exactly and at least."""
    return t("mulligan.calc.result", language, deck_size=result.population, copies=result.successes,
             drawn=result.draws, want=result.want, exactly=percent(result.exactly),
             at_least=percent(result.at_least))


# -- chart -----------------------------------------------------------------------------------------

WIDTH, HEIGHT = 960, 600
BACKGROUND = (24, 26, 32)
TEXT = (235, 235, 240)
MUTED = (150, 155, 170)
GRID = (60, 64, 76)
KEEPABLE = (76, 175, 110)
OTHER = (110, 120, 140)
STYLE_COLOURS = {MulliganStyle.PARTIAL_PARIS: (230, 160, 60), MulliganStyle.LONDON: (80, 150, 230),
                 MulliganStyle.VANCOUVER: (190, 110, 210)}


def odds_chart(odds: DeckOdds, language: str) -> Image.Image:
    """Two panels, readable on a phone: lands in the opening 7 (keepable counts in green), and per
    style the chance to end keepable at 7, 6, 5 and fewer cards (stacked bars)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title = t("mulligan.odds.chart_title", language, deck_size=odds.counts.deck_size, lands=odds.counts.lands)
    draw.text((24, 16), title, font=font(30, bold=True, language=language), fill=TEXT)
    _lands_panel(draw, odds, language, (24, 80, 470, HEIGHT - 24))
    _styles_panel(draw, odds, language, (500, 80, WIDTH - 24, HEIGHT - 24))
    return image


def _lands_panel(draw: ImageDraw.ImageDraw, odds: DeckOdds, language: str, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    draw.text((left, top), t("mulligan.odds.lands_in_7", language), font=font(22, bold=True, language=language),
              fill=TEXT)
    base, ceiling = bottom - 36, top + 90
    highest = max(odds.p_lands_in_opening) or 1.0
    slot = (right - left) / len(odds.p_lands_in_opening)
    label_font, value_font = font(22, language=language), font(18, language=language)
    draw.line((left, base, right, base), fill=GRID, width=2)
    for k, p in enumerate(odds.p_lands_in_opening):
        x0 = left + k * slot + 6
        x1 = left + (k + 1) * slot - 6
        y0 = base - (base - ceiling) * p / highest
        colour = KEEPABLE if odds.keep[0] <= k <= odds.keep[1] else OTHER
        draw.rectangle((x0, y0, x1, base), fill=colour)
        centre = (x0 + x1) / 2
        draw.text((centre, base + 6), str(k), font=label_font, fill=TEXT, anchor="mt")
        draw.text((centre, y0 - 4), f"{p * 100:.0f}%", font=value_font, fill=MUTED, anchor="mb")
    legend = t("mulligan.odds.chart_keepable", language, low=odds.keep[0], high=odds.keep[1],
               percent=percent(odds.p_keepable_opening))
    draw.text((left, top + 34), legend, font=font(18, language=language), fill=KEEPABLE)


def _styles_panel(draw: ImageDraw.ImageDraw, odds: DeckOdds, language: str,
                  box: tuple[int, int, int, int]) -> None:
    """One horizontal stacked bar per style: the share ending keepable at 7, 6, 5, ≤4; the rest is grey."""
    left, top, right, bottom = box
    draw.text((left, top), t("mulligan.odds.chart_styles", language), font=font(22, bold=True, language=language),
              fill=TEXT)
    styles = [odds.styles[s] for s in STYLE_ORDER if s in odds.styles]
    row_height = (bottom - top - 60) / max(1, len(styles))
    name_font, small = font(20, bold=True, language=language), font(17, language=language)
    for row, style in enumerate(styles):
        y = top + 50 + row * row_height
        draw.text((left, y), t(f"mulligan.style.{style.style.value}", language), font=name_font,
                  fill=STYLE_COLOURS[style.style])
        bar_top, bar_bottom = y + 32, y + 32 + min(48, row_height - 70)
        x = float(left)
        draw.rectangle((left, bar_top, right, bar_bottom), fill=GRID)
        for size, share in _size_groups(style):
            width = (right - left) * share
            if width >= 1:
                draw.rectangle((x, bar_top, x + width, bar_bottom), fill=_shade(STYLE_COLOURS[style.style], size))
                if width > 44:
                    draw.text((x + width / 2, (bar_top + bar_bottom) / 2), size, font=small, fill=BACKGROUND,
                              anchor="mm")
            x += width
        summary = t("mulligan.odds.chart_total", language, total=percent(style.total),
                    seven=percent(style.keep_at[7]))
        draw.text((left, bar_bottom + 6), summary, font=small, fill=MUTED)


def _size_groups(style: StyleOdds) -> list[tuple[str, float]]:
    """7, 6, 5 and "≤4" shares of ending keepable, in that order."""
    keep_at = style.keep_at
    return [("7", keep_at[7]), ("6", keep_at[6]), ("5", keep_at[5]), ("≤4", sum(keep_at[:5]))]


def _shade(colour: tuple[int, int, int], size: str) -> tuple[int, int, int]:
    """The full colour for 7 cards, darker for smaller hands."""
    factor = {"7": 1.0, "6": 0.8, "5": 0.62, "≤4": 0.48}[size]
    return tuple(int(c * factor) for c in colour)  # type: ignore[return-value]
