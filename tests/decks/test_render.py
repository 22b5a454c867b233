"""The verdict's look: localized messages in all four languages and the summary image (real PNG decoded)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.domain.decklist import parse_decklist
from bot.domain.rules import resolve_decklist, summarise
from bot.i18n import LANGUAGES
from bot.render.deck import BAR, IMAGE_SIZE, PIP_COLOURS, problem_message, summary_image, verdict_json

from .helpers import deck_text

DECKS = Path(__file__).parent.parent / "data" / "decks"


def test_summary_counts_types_and_curve(index) -> None:
    deck = resolve_decklist(parse_decklist((DECKS / "heavenly_inferno_cmd2011.txt").read_bytes()), index)
    summary = summarise(deck)
    assert summary.types == {
        "Creature": 29,
        "Instant": 12,
        "Sorcery": 7,
        "Artifact": 7,
        "Enchantment": 7,
        "Land": 38,
    }
    assert sum(summary.types.values()) == 100 and summary.lands == 38
    assert summary.curve == (0, 5, 10, 8, 17, 7, 6, 9) and summary.spells == 62


def _has_colour(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(pixel == colour for _, pixel in image.getcolors(maxcolors=1 << 20))


def _bar_top(image: Image.Image, value: int) -> int | None:
    """The highest bar-coloured pixel in the middle of mana value ``value``'s slot."""
    left, right = 40, image.width - 24
    x = int(left + (value + 0.5) * (right - left) / 8)
    return next((y for y in range(image.height) if image.getpixel((x, y)) == BAR), None)


def test_summary_image_is_a_real_png_with_bars_and_pips(index) -> None:
    deck = resolve_decklist(parse_decklist((DECKS / "heavenly_inferno_cmd2011.txt").read_bytes()), index)
    image = Image.open(io.BytesIO(summary_image(summarise(deck), "WBR", "ja"))).convert("RGB")
    assert image.size == IMAGE_SIZE
    assert _has_colour(image, BAR)
    for letter in "WBR":
        assert _has_colour(image, PIP_COLOURS[letter])
    assert not _has_colour(image, PIP_COLOURS["U"]) and not _has_colour(image, PIP_COLOURS["G"])
    # bar heights follow the counts: mana value 4 (17 cards) > 2 (10) > 1 (5); nothing at 0
    tops = [_bar_top(image, value) for value in range(8)]
    assert tops[0] is None
    assert tops[4] < tops[2] < tops[1]


def test_colourless_deck_gets_a_grey_pip(index) -> None:
    image = Image.open(
        io.BytesIO(summary_image(summarise(resolve_decklist(parse_decklist("1 Sol Ring"), index)), ""))
    )
    assert _has_colour(image.convert("RGB"), PIP_COLOURS["C"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_problem_reads_in_every_language(check, language) -> None:
    text = (
        deck_text(
            "Bushi Tenderfoot // Kenzo the Hardhearted",
            ["Goblin Piker", "Sol Ring", "Black Lotus", "Esper Panoramma", '"Ach! Hans, Run!"'],
            sideboard=["Duress"],
        )
        + "\n0 Island\n1 Sol Ring"
    )
    for ruleset in ("commander", "edh-2010"):
        verdict = check(text, ruleset)
        messages = [problem_message(p, language) for p in verdict.problems]
        assert len(messages) >= 6 and all(m and "{" not in m for m in messages)


def test_json_uses_english_names_and_rule_ids(check) -> None:
    verdict = check("Commander: 仙儿女王欧娜\n1 Goblin Piker\n98 Island", "edh-2010")
    assert verdict_json(verdict) == {
        "legal": False,
        "ruleset": "edh-2010",
        "commanders": ["Oona, Queen of the Fae"],
        "color_identity": "UB",
        "card_count": 100,
        "problems": [
            {
                "rule": "D4",
                "card": "Goblin Piker",
                "message": "Goblin Piker is outside the colour identity blue/black: red in the mana cost.",
            }
        ],
    }


def test_summary_counts_unknown_copies_apart_and_other_types_last(index) -> None:
    """Unknown names count their copies (2 + 3), on any line, and stay out of types and curve; a type
    outside TYPE_ORDER (Backup Plan, a Conspiracy: mana value 0) is "Other", listed last."""
    text = (
        "Commander\n1 Kaalia of the Vast\nDeck\n2 Nobody Atall\n1 Backup Plan\n3 Unknownium Golem\n"
        "1 Sol Ring\n4 Mountain\n"
    )
    summary = summarise(resolve_decklist(parse_decklist(text), index))
    assert summary.types == {"Creature": 1, "Artifact": 1, "Land": 4, "Other": 1}
    assert list(summary.types) == ["Creature", "Artifact", "Land", "Other"]
    assert (summary.curve, summary.lands, summary.unknown) == ((1, 1, 0, 0, 1, 0, 0, 0), 4, 5)
