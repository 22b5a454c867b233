"""How a deck verdict looks: one-line localized messages, the CLI's JSON, and the summary image
(colour identity pips and a mana-curve chart, drawn with Pillow and readable on a phone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cards.messages import maybe_newer_text, sentence_gap
from bot.cards.model import WUBRG
from bot.domain.decklist import DecklistRefused
from bot.domain.rules.identity import ColourOrigin
from bot.domain.rules.legality import Note, Problem, Verdict
from bot.domain.rules.rulesets import Check
from bot.domain.rules.summary import CURVE_TOP, DeckSummary
from bot.i18n import has, t
from bot.i18n.glossary import join_list, ruleset_name
from bot.render.fonts import font, png_bytes
from bot.render.layout import TextBox, TextLayout, ellipsize
from bot.render.pil import Image, ImageDraw

NameFor = Callable[[str], str]


def _same(name: str) -> str:
    return name


def _join(items: list[str], language: str) -> str:
    return join_list(items, language)


def colour_names(colours: str, language: str) -> str:
    """ "WU" -> "white/blue" in the user's language; "" -> "colourless"."""
    if not colours:
        return t("deck.colourless", language)
    return "/".join(t(f"deck.colour.{c}", language) for c in colours if c in WUBRG)


def _origin_text(origin: ColourOrigin, language: str, name_for: NameFor) -> str:
    text = t(
        f"deck.source.{origin.source.value}", language, colour=t(f"deck.colour.{origin.colour}", language)
    )
    if origin.face:
        text = t("deck.source.on_face", language, source=text, face=name_for(origin.face))
    return text


def _from_option(key: str, values: dict[str, Any]) -> str:
    """A name from the commander option has no line in the list (its "line" is 0): its message names
    the option instead ("Line 0: unknown card" read as a bug)."""
    return f"{key}_option" if values.get("line") == 0 else key


def problem_message(problem: Problem, language: str = "en", name_for: NameFor = _same) -> str:
    """The one-line reason for ``problem`` in ``language``; card names through ``name_for``."""
    values: dict[str, Any] = dict(problem.values)
    key = problem.key
    if problem.card is not None:
        values["card"] = name_for(problem.card) if problem.check is not Check.UNKNOWN else problem.card
    if key == "deck.problem.parse":
        values["reason"] = t(f"deck.parse.{values['reason']}", language)
    elif key == "deck.problem.unknown":
        suggestions = values.pop("suggestions", ())
        newer = values.pop("newer", None)
        if newer is not None:  # close to no card: maybe newer than the data, the guesses come after
            return sentence_gap(language).join(
                (t(key, language, **values), maybe_newer_text(newer, suggestions, language, name_for))
            )
        if suggestions:
            key = "deck.problem.unknown_suggest"
            values["suggestions"] = _join([f"“{name_for(s)}”" for s in suggestions], language)
        key = _from_option(key, values)
    elif key == "deck.problem.ambiguous":
        values["candidates"] = _join([name_for(c) for c in values["candidates"]], language)
        key = _from_option(key, values)
    elif key == "deck.problem.commander_ineligible":
        values["reason"] = t(f"deck.commander.{values['reason']}", language)
    elif key == "deck.problem.not_legal":
        values["reason"] = t(f"deck.legality.{values['reason']}", language)
    elif key == "deck.problem.colour_identity":
        values["identity"] = colour_names(values["identity"], language)
        values["sources"] = _join([_origin_text(o, language, name_for) for o in problem.origins], language)
        values.pop("colours", None)
    elif key == "deck.problem.invalid_pair":
        values["other"] = name_for(values["other"])
    return t(key, language, **values)


def note_message(note: Note, language: str = "en") -> str:
    return t(f"deck.note.{note.key}", language, **note.values)


def refusal_message(refusal: DecklistRefused, language: str = "en") -> str:
    values = dict(refusal.values)
    if "format" in values:  # "no_cards": name the format the list looked like, in the reader's language
        values["format"] = t(f"deck.format.{values['format']}", language)
    return t(f"deck.refused.{refusal.reason}", language, **values)


def verdict_headline(verdict: Verdict, language: str = "en") -> str:
    return t(
        f"deck.verdict.{verdict.status}",
        language,
        ruleset=ruleset_name(verdict.ruleset, language),
        count=len(verdict.problems),
    )


def verdict_json(verdict: Verdict, language: str = "en") -> dict[str, Any]:
    """The one JSON shape of ``podkeeper deck check --json``, which scripts rely on."""
    return {
        "legal": verdict.legal,
        "ruleset": verdict.ruleset,
        "commanders": list(verdict.commanders),
        "color_identity": verdict.colour_identity,
        "card_count": verdict.card_count,
        "problems": [
            {"rule": p.rule, "card": p.card, "message": problem_message(p, language)}
            for p in verdict.problems
        ],
    }


def verdict_lines(verdict: Verdict, language: str = "en", name_for: NameFor = _same) -> list[str]:
    """Every problem as ``[rule] message``: the full list, for paging (nothing is cut)."""
    return [
        f"[{rule_tag(p.rule, language)}] {problem_message(p, language, name_for)}" for p in verdict.problems
    ]


# -- the summary image ----------------------------------------------------------------------------

PIP_COLOURS = {
    "W": (248, 246, 216),
    "U": (14, 104, 171),
    "B": (21, 11, 0),
    "R": (211, 32, 42),
    "G": (0, 115, 62),
    "C": (204, 194, 192),
}
PIP_LETTER = {
    "W": (40, 40, 40),
    "U": (255, 255, 255),
    "B": (230, 230, 230),
    "R": (255, 255, 255),
    "G": (255, 255, 255),
    "C": (40, 40, 40),
}
BACKGROUND = (43, 45, 49)
BAR = (88, 101, 242)
TEXT = (235, 235, 235)
MUTED = (160, 163, 170)
IMAGE_SIZE = (720, 360)


PIP_LETTER_SIZE = 24  # the image is 720 px wide: 12 px on a 360 px phone
TEXT_SIZE = 24


def draw_pips(
    draw: ImageDraw.ImageDraw,
    colours: str,
    right: int,
    top: int,
    radius: int = 20,
    layout: TextLayout | None = None,
) -> int:
    """Mana pips, right-aligned: one per colour in WUBRG order, a grey C for colourless. Returns the left
    edge of the first pip."""
    letters = list(colours) or ["C"]
    letter_font = font(max(PIP_LETTER_SIZE, radius), bold=True)
    layout = layout or TextLayout(draw)
    x = left = right - len(letters) * (2 * radius + 8) + 8
    for letter in letters:
        box = (x, top, x + 2 * radius, top + 2 * radius)
        draw.ellipse(box, fill=PIP_COLOURS[letter], outline=(200, 200, 200), width=2)
        layout.text((x + radius, top + radius), letter, letter_font, PIP_LETTER[letter], anchor="mm")
        x += 2 * radius + 8
    return left


def summary_image(summary: DeckSummary, colours: str, language: str = "en") -> bytes:
    """A PNG: title, colour identity pips, and the mana curve of the non-land cards (0..6, 7+)."""
    return png_bytes(summary_picture(summary, colours, language))


def summary_picture(
    summary: DeckSummary, colours: str, language: str = "en", boxes: list[TextBox] | None = None
) -> Image.Image:
    """The summary image; ``boxes``, when given, receives where every text went (phone-width checks).
    Every text is at least 24 px: 12 px once a phone shows the 720 px image 360 px wide."""
    width, height = IMAGE_SIZE
    image = Image.new("RGB", IMAGE_SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    layout = TextLayout(draw, boxes)
    pips_left = draw_pips(draw, colours, right=width - 24, top=18, layout=layout)
    title_font = font(28, bold=True, language=language)
    title = (
        f"{t('deck.summary.curve', language)} · {t('deck.summary.spells', language, count=summary.spells)}"
    )
    layout.text((24, 20), ellipsize(title, pips_left - 24 - 16, title_font), title_font, TEXT)
    left, right, top, bottom = 40, width - 24, 90, height - 50
    slots = CURVE_TOP + 1
    slot = (right - left) / slots
    tallest = max(max(summary.curve), 1)
    label_font = font(TEXT_SIZE, language=language)
    count_font = font(TEXT_SIZE, bold=True)
    for value, count in enumerate(summary.curve):
        x0 = left + value * slot + slot * 0.15
        x1 = left + (value + 1) * slot - slot * 0.15
        bar_top = bottom - (bottom - top) * count / tallest
        if count:
            draw.rectangle((x0, bar_top, x1, bottom), fill=BAR)
        layout.text(((x0 + x1) / 2, bar_top - 4), str(count), count_font, TEXT, anchor="md")
        label = f"{CURVE_TOP}+" if value == CURVE_TOP else str(value)
        layout.text(((x0 + x1) / 2, bottom + 8), label, label_font, MUTED, anchor="ma")
    draw.line((left, bottom, right, bottom), fill=MUTED, width=2)
    return image


def rule_tag(rule: str, language: str) -> str:
    """A problem's tag: the rule it cites (CR 903.5b, D4), or a word for the checks no rule numbers
    (UNKNOWN, BANNED, LEGALITY, PARSE) in the reader's language."""
    key = f"deck.tag.{rule.lower()}"
    return t(key, language) if has(key) else rule
