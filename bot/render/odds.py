"""Opening-hand odds as text (CLI, embeds) and as a bar chart (Pillow), in the reader's language."""

from __future__ import annotations

from bot.domain.mulligan import MulliganStyle
from bot.domain.mulligan.odds import DeckOdds, Hypergeometric, StyleOdds
from bot.i18n import t
from bot.render.fonts import fit_text, font
from bot.render.layout import TextBox, TextLayout
from bot.render.pil import Image, ImageDraw, ImageFont

STYLE_ORDER = (MulliganStyle.PARTIAL_PARIS, MulliganStyle.LONDON, MulliganStyle.VANCOUVER)


def percent(p: float) -> str:
    """12.3% — but never "0.0%" for a possible event, nor "100.0%" for one that can fail."""
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 <= p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def style_row(odds: StyleOdds, language: str) -> str:
    """ "London mulligan: 7 → 96.2% · 6 → 3.1% · … · keepable 100.0%"."""
    sizes = " · ".join(f"{size} → {percent(p)}" for size, p in odds.by_size() if p >= 0.0005)
    row = t(
        "mulligan.odds.style_row",
        language,
        style=t(f"mulligan.style.{odds.style.value}", language),
        sizes=sizes,
        total=percent(odds.total),
    )
    if odds.samples is not None and odds.total_interval:
        low, high = odds.total_interval
        row += " " + t(
            "mulligan.odds.monte_carlo", language, samples=odds.samples, low=percent(low), high=percent(high)
        )
    return row


def odds_lines(odds: DeckOdds, language: str) -> list[str]:
    """The whole table as lines of plain text (the CLI prints them; embeds put them in fields)."""
    low, high = odds.keep
    counts = odds.counts
    lines = [t("mulligan.odds.library", language, deck_size=counts.deck_size, lands=counts.lands)]
    if counts.half_lands:
        lines.append(
            t(
                "mulligan.odds.half_lands",
                language,
                count=counts.half_lands,
                equivalent=f"{counts.land_equivalent:g}",
            )
        )
    lines.append(t("mulligan.odds.lands_in_7", language))
    lines += [f"  {k}: {percent(p):>6}" for k, p in enumerate(odds.p_lands_in_opening)]
    lines.append(
        t(
            "mulligan.odds.keepable_first",
            language,
            low=low,
            high=high,
            percent=percent(odds.p_keepable_opening),
        )
    )
    lines.append(t("mulligan.odds.styles_header", language, low=low, high=high, players=odds.player_count))
    lines += ["  " + style_row(odds.styles[style], language) for style in STYLE_ORDER if style in odds.styles]
    lines.append(t("mulligan.odds.policy", language))
    return lines


def calculator_text(result: Hypergeometric, language: str) -> str:
    """The free calculator's answer, one sentence each for exactly and at least."""
    return t(
        "mulligan.calc.result",
        language,
        deck_size=result.population,
        copies=result.successes,
        drawn=result.draws,
        want=result.want,
        exactly=percent(result.exactly),
        at_least=percent(result.at_least),
    )


# -- chart -----------------------------------------------------------------------------------------
# Drawn for a phone: 720 px wide (shown at about half size), one panel above the other, no text under
# 24 px, and every share of a stacked bar named in a legend under it (a sliver cannot hold its label).

WIDTH = 720
MARGIN = 24
MAX_HEIGHT = 1600  # drawn on a canvas this tall, then cut to what was used
TITLE_SIZE, HEADING_SIZE, TEXT_SIZE = 36, 28, 24
LANDS_TOP, BARS_TOP, BARS_BASE = 76, 190, 440  # the lands panel: heading, tallest bar, baseline
STYLE_BAR_HEIGHT = 44
LINE = 34  # a line of 24 px text
BACKGROUND = (24, 26, 32)
TEXT = (235, 235, 240)
MUTED = (150, 155, 170)
GRID = (60, 64, 76)
KEEPABLE = (76, 175, 110)
OTHER = (110, 120, 140)
STYLE_COLOURS = {
    MulliganStyle.PARTIAL_PARIS: (230, 160, 60),
    MulliganStyle.LONDON: (80, 150, 230),
    MulliganStyle.VANCOUVER: (190, 110, 210),
}


def odds_chart(odds: DeckOdds, language: str, *, boxes: list[TextBox] | None = None) -> Image.Image:
    """Two panels, one above the other: lands in the opening 7 (keepable counts in green), and per style
    the chance to end keepable at 7, 6, 5 and fewer cards (stacked bars with a legend). ``boxes`` collects
    where each text went (see ``bot.render.layout``)."""
    image = Image.new("RGB", (WIDTH, MAX_HEIGHT), BACKGROUND)
    layout = TextLayout(ImageDraw.Draw(image), boxes)
    title = t("mulligan.odds.chart_title", language, deck_size=odds.counts.deck_size, lands=odds.counts.lands)
    layout.text((MARGIN, 16), title, _fit(title, TITLE_SIZE, language, bold=True), TEXT)
    _lands_panel(layout, odds, language)
    bottom = _styles_panel(layout, odds, language, top=BARS_BASE + 60)
    return image.crop((0, 0, WIDTH, bottom + MARGIN))


def _fit(
    text: str, size: int, language: str, *, bold: bool = False, width: int = WIDTH - 2 * MARGIN
) -> ImageFont.FreeTypeFont:
    return fit_text(text, width, size, bold=bold, language=language, min_size=TEXT_SIZE)


def _lands_panel(layout: TextLayout, odds: DeckOdds, language: str) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    heading = t("mulligan.odds.lands_in_7", language)
    layout.text((left, LANDS_TOP), heading, _fit(heading, HEADING_SIZE, language, bold=True), TEXT)
    legend = t(
        "mulligan.odds.chart_keepable",
        language,
        low=odds.keep[0],
        high=odds.keep[1],
        percent=percent(odds.p_keepable_opening),
    )
    layout.text((left, LANDS_TOP + 42), legend, _fit(legend, TEXT_SIZE, language), KEEPABLE)
    highest = max(odds.p_lands_in_opening) or 1.0
    slot = (right - left) / len(odds.p_lands_in_opening)
    label_font = font(TEXT_SIZE + 2, language=language)
    value_font = font(TEXT_SIZE, language=language)
    layout.draw.line((left, BARS_BASE, right, BARS_BASE), fill=GRID, width=2)
    for k, p in enumerate(odds.p_lands_in_opening):
        x0, x1 = left + k * slot + 6, left + (k + 1) * slot - 6
        y0 = BARS_BASE - (BARS_BASE - BARS_TOP) * p / highest
        colour = KEEPABLE if odds.keep[0] <= k <= odds.keep[1] else OTHER
        layout.draw.rectangle((x0, y0, x1, BARS_BASE), fill=colour)
        centre = (x0 + x1) / 2
        layout.text((centre, BARS_BASE + 6), str(k), label_font, TEXT, anchor="mt")
        layout.text((centre, y0 - 4), f"{p * 100:.0f}%", value_font, MUTED, anchor="mb")


def _styles_panel(layout: TextLayout, odds: DeckOdds, language: str, top: int) -> int:
    """One stacked bar per style (keepable at 7, 6, 5, ≤4; the rest grey), its total, and a legend naming
    every share with its colour. Returns the bottom of what was drawn."""
    left, right = MARGIN, WIDTH - MARGIN
    heading = t("mulligan.odds.chart_styles", language)
    layout.text((left, top), heading, _fit(heading, HEADING_SIZE, language, bold=True), TEXT)
    y = top + 52
    small = font(TEXT_SIZE, language=language)
    for style in (odds.styles[s] for s in STYLE_ORDER if s in odds.styles):
        colour = STYLE_COLOURS[style.style]
        name = t(f"mulligan.style.{style.style.value}", language)
        layout.text((left, y), name, _fit(name, HEADING_SIZE, language, bold=True), colour)
        bar_top = y + 42
        _stacked_bar(layout, style, (left, bar_top, right, bar_top + STYLE_BAR_HEIGHT), small)
        summary = t(
            "mulligan.odds.chart_total", language, total=percent(style.total), seven=percent(style.keep_at[7])
        )
        y = bar_top + STYLE_BAR_HEIGHT + 8
        layout.text((left, y), summary, _fit(summary, TEXT_SIZE, language), MUTED)
        y = _legend(layout, style, left, right, y + LINE, small) + 22
    return y


def _stacked_bar(
    layout: TextLayout, style: StyleOdds, box: tuple[int, int, int, int], label_font: ImageFont.FreeTypeFont
) -> None:
    left, top, right, bottom = box
    layout.draw.rectangle(box, fill=GRID)
    x = float(left)
    for size, share in _size_groups(style):
        width = (right - left) * share
        if width >= 1:
            layout.draw.rectangle((x, top, x + width, bottom), fill=_shade(STYLE_COLOURS[style.style], size))
            if label_font.getlength(size) + 12 <= width:  # a label only where it fits; the legend has all
                layout.text((x + width / 2, (top + bottom) / 2), size, label_font, BACKGROUND, anchor="mm")
        x += width


def _legend(
    layout: TextLayout, style: StyleOdds, left: int, right: int, top: int, text_font: ImageFont.FreeTypeFont
) -> int:
    """ "■ 7: 96.6%  ■ 6: 3.2% …" in the bar's shades, wrapping at ``right``. Returns the bottom."""
    x, y, swatch = left, top, 18
    for size, share in _size_groups(style):
        if share <= 0:
            continue
        label = f"{size}: {percent(share)}"
        width = swatch + 8 + text_font.getlength(label)
        if x + width > right and x > left:
            x, y = left, y + LINE
        layout.draw.rectangle(
            (x, y + 6, x + swatch, y + 6 + swatch), fill=_shade(STYLE_COLOURS[style.style], size)
        )
        layout.text((x + swatch + 8, y), label, text_font, TEXT)
        x += int(width) + 24
    return y + LINE


def _size_groups(style: StyleOdds) -> list[tuple[str, float]]:
    """7, 6, 5 and "≤4" shares of ending keepable, in that order."""
    keep_at = style.keep_at
    return [("7", keep_at[7]), ("6", keep_at[6]), ("5", keep_at[5]), ("≤4", sum(keep_at[:5]))]


def _shade(colour: tuple[int, int, int], size: str) -> tuple[int, int, int]:
    """The full colour for 7 cards, darker for smaller hands."""
    factor = {"7": 1.0, "6": 0.8, "5": 0.62, "≤4": 0.48}[size]
    return tuple(int(c * factor) for c in colour)  # type: ignore[return-value]
