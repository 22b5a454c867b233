"""A Hydra event's leaderboard: short texts for the live embed and an image for the results.

The live message is text (cheap to edit every few seconds while up to hundreds of players play);
the image is drawn once at the end, in the same style as the tournament standings (shared row
drawing) so it reads on a phone: the tables ranked (wins first, fastest first) and the players
ranked by heads severed.
"""

from __future__ import annotations

from bot.domain.hydra_events import EventSummary, PlayerLine, TableSummary
from bot.i18n import EventTranslate, Translate
from bot.render.fonts import fit_text, font
from bot.render.layout import TextBox, TextLayout, ellipsize, wrap
from bot.render.pil import Image, ImageDraw
from bot.render.standings import (
    ACCENT,
    BACKGROUND,
    COLUMN_HEADER_HEIGHT,
    DROPPED_TEXT,
    MARGIN,
    ROW_HEIGHT,
    ROW_SHADES,
    TEXT,
    _draw_row,
)

WIDTH = 720  # shown about 360 px wide on a phone: no text under 24 px (see bot.render.layout)
TITLE_TOP, TITLE_SIZE = 20, 44
SUMMARY_SIZE, SUMMARY_LINE = 24, 34
SECTION_GAP = 30
MAX_IMAGE_ROWS = 15  # per section; the embed and /hydra event status list the rest
MAX_TEXT_ROWS = 10
TABLE_COLUMNS = (56, 90, 170, 100, 110, 150)  # rank, table, outcome, turns, heads, players standing
PLAYER_COLUMNS = (56, 356, 100, 160)  # rank, player, table, heads severed


def outcome_text(line: TableSummary, tr: Translate) -> str:
    return tr(f"hydra_events.outcome.{line.outcome}")


def summary_text(board: EventSummary, tr: Translate) -> str:
    """One line: tables won / lost / still playing (or unfinished, once over), players standing, the fastest win.
    Every number is a sum over the same table lines ``tables_text`` shows."""
    if board.over:
        text = tr(
            "hydra_events.board.summary_over",
            won=board.won,
            lost=board.lost,
            unfinished=board.unfinished,
            standing=board.standing,
        )
    else:
        text = tr(
            "hydra_events.board.summary",
            won=board.won,
            lost=board.lost,
            running=board.playing,
            standing=board.standing,
        )
    if board.fastest_win is not None:
        text += "\n" + tr(
            "hydra_events.board.fastest", table=board.fastest_win.table_no, turns=board.fastest_win.turns
        )
    return text


def results_text(board: EventSummary, tr: Translate, event: str, winners: str) -> str:
    """The results message: the winners, or why there are none (the Hydra won every table, or the event was
    ended while tables still played, or no table was played)."""
    if winners:
        return tr("hydra_events.ui.results", event=event, winners=winners)
    return tr(f"hydra_events.ui.results_{board.result}", event=event, unfinished=board.unfinished)


def tables_text(board: EventSummary, tr: Translate, limit: int = MAX_TEXT_ROWS) -> str:
    lines = [
        tr(
            "hydra_events.board.table_line",
            table=line.table_no,
            outcome=outcome_text(line, tr),
            turns=line.turns,
            heads=line.severed,
            standing=line.standing,
            seated=line.seated,
        )
        for line in board.tables[:limit]
    ]
    if len(board.tables) > limit:
        lines.append(tr("hydra_events.board.more", count=len(board.tables) - limit))
    return "\n".join(lines) or "—"


def players_text(board: EventSummary, tr: Translate, limit: int = MAX_TEXT_ROWS) -> str:
    lines = [
        f"{rank}. <@{p.user_id}> · "
        + tr("hydra_events.board.player_line", table=p.table_no, heads=p.severed)
        + ("" if p.standing else " ✝")
        for rank, p in enumerate(board.players[:limit], start=1)
    ]
    if len(board.players) > limit:
        lines.append(tr("hydra_events.board.more", count=len(board.players) - limit))
    return "\n".join(lines) or "—"


def render_leaderboard(
    title: str, board: EventSummary, language: str, *, deck: str = "hydra", boxes: list[TextBox] | None = None
) -> Image.Image:
    """The final leaderboard as an RGB image (``png_bytes`` encodes it); ``boxes`` collects where each
    text went (see ``bot.render.layout``). ``deck``: the event's challenge deck (its words)."""
    tr = EventTranslate(language, deck)
    tables = board.tables[:MAX_IMAGE_ROWS]
    players = board.players[:MAX_IMAGE_ROWS]
    summary_font = font(SUMMARY_SIZE, language=language)
    summary = [
        line
        for part in summary_text(board, tr).split("\n")
        for line in wrap(part.split(" · "), " · ", summary_font, WIDTH - 2 * MARGIN)
    ]
    header = TITLE_TOP + TITLE_SIZE + 18 + SUMMARY_LINE * len(summary)
    height = (
        header
        + 2 * (SECTION_GAP + COLUMN_HEADER_HEIGHT)
        + ROW_HEIGHT * (len(tables) + len(players))
        + 2 * SECTION_GAP
    )
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    layout = TextLayout(ImageDraw.Draw(image), boxes)
    title_font = fit_text(
        title, WIDTH - 2 * MARGIN, TITLE_SIZE, bold=True, language=language, min_size=SUMMARY_SIZE
    )
    layout.text((MARGIN, TITLE_TOP), ellipsize(title, WIDTH - 2 * MARGIN, title_font), title_font, ACCENT)
    for index, line in enumerate(summary):
        layout.text((MARGIN, TITLE_TOP + TITLE_SIZE + 18 + index * SUMMARY_LINE), line, summary_font, TEXT)
    headers = (
        "#",
        tr("hydra_events.column.table"),
        tr("hydra_events.column.outcome"),
        tr("hydra_events.column.turns"),
        tr("hydra_events.column.heads"),
        tr("hydra_events.column.standing"),
    )
    top = _section(
        layout,
        header,
        headers,
        TABLE_COLUMNS,
        [_table_cells(line, tr) for line in tables],
        [line.outcome == "lost" for line in tables],
        language,
    )
    player_headers = (
        "#",
        tr("hydra_events.column.player"),
        tr("hydra_events.column.table"),
        tr("hydra_events.column.heads"),
    )
    _section(
        layout,
        top + SECTION_GAP,
        player_headers,
        PLAYER_COLUMNS,
        [_player_cells(p) for p in players],
        [not p.standing for p in players],
        language,
    )
    if not board.tables:
        layout.text(
            (MARGIN, header + SECTION_GAP + COLUMN_HEADER_HEIGHT + 10),
            tr("hydra_events.board.empty"),
            font(28, language=language),
            DROPPED_TEXT,
        )
    return image


def _table_cells(line: TableSummary, tr: Translate) -> list[str]:
    return [
        str(line.table_no),
        outcome_text(line, tr),
        str(line.turns),
        str(line.severed),
        f"{line.standing}/{line.seated}",
    ]


def _player_cells(player: PlayerLine) -> list[str]:
    return [player.name, str(player.table_no), str(player.severed)]


def _section(
    layout: TextLayout,
    top: int,
    headers: tuple[str, ...],
    widths: tuple[int, ...],
    rows: list[list[str]],
    greyed: list[bool],
    language: str,
) -> int:
    top += SECTION_GAP
    _draw_row(layout, top, list(zip(headers, widths, strict=True)), language, bold=True, colour=ACCENT)
    top += COLUMN_HEADER_HEIGHT
    for rank, (cells, grey) in enumerate(zip(rows, greyed, strict=True), start=1):
        layout.draw.rectangle((0, top, WIDTH, top + ROW_HEIGHT), fill=ROW_SHADES[rank % 2])
        _draw_row(
            layout,
            top,
            list(zip([str(rank), *cells], widths, strict=True)),
            language,
            colour=DROPPED_TEXT if grey else TEXT,
        )
        top += ROW_HEIGHT
    return top
