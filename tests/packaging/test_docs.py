"""The README is a front door and the manual under docs/ is whole: the generated pages are current, every rule
ID the code cites is defined in the repository, and every link the README gives leads to a page that exists."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from bot import reference

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
RULES = ROOT / "docs" / "rules" / "RULES.md"
CHALLENGE_DECKS = ROOT / "docs" / "rules" / "CHALLENGE_DECKS.md"
RULE_ID = re.compile(r"\b[DGMTH][0-9]{1,2}[a-e]?\b")
SECTION = re.compile(r"CHALLENGE_DECKS\.md §(\d+[a-z]?)")


def code_texts() -> list[tuple[Path, str]]:
    return [
        (path, path.read_text(encoding="utf-8"))
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".toml")
    ]


def test_the_generated_pages_are_current() -> None:
    """Regenerate with `python -m bot.reference` after changing a command, an option or a setting."""
    stale = [
        str(path.relative_to(ROOT))
        for path, text in reference.generated_pages().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run `python -m bot.reference`"


def test_the_command_reference_has_every_command_with_who_may_use_it() -> None:
    text = reference.COMMANDS_PAGE.read_text(encoding="utf-8")
    for path in (
        "deck check",
        "config ruleset",
        "hydra event create",
        "challenge event join",
        "tournament pair",
        "privacy delete",
        "sideboard wish",
        "card",
    ):
        assert f"\n### /{path}\n" in text
    section = text.split("\n### /config ruleset\n", 1)[1].split("\n### ", 1)[0]
    assert "**Who may use it:** Manage Server." in section
    assert "| `/config ruleset` | ruleset — Choose the ruleset" in section and "ルールセット — " in section
    section = text.split("\n### /tournament pair\n", 1)[1].split("\n### ", 1)[0]
    assert f"**Who may use it:** {reference.WHO_ORGANISERS}." in section


def test_the_front_page_picture_is_the_bot_drawing_a_board() -> None:
    committed = Image.open(reference.BOARD_PICTURE)
    drawn = Image.open(io.BytesIO(reference.example_board()))
    assert committed.format == drawn.format == "PNG" and committed.size == drawn.size


def test_every_rule_id_the_code_cites_is_defined_in_the_repository() -> None:
    defined = set(re.findall(r"\*\*([DGMTH][0-9]{1,2}[a-e]?)\*\*", RULES.read_text(encoding="utf-8")))
    cited = {rule: path for path, text in code_texts() for rule in RULE_ID.findall(text)}
    assert {"D7", "G3b", "M1", "T3", "H13"} <= set(cited)
    assert {rule: str(path.relative_to(ROOT)) for rule, path in cited.items() if rule not in defined} == {}


def test_every_challenge_deck_section_the_code_cites_exists() -> None:
    headings = set(re.findall(r"^#{2,3} (\d+[a-z]?)\. ", CHALLENGE_DECKS.read_text(encoding="utf-8"), re.M))
    cited = {section for _, text in code_texts() for section in SECTION.findall(text)}
    assert {"5a", "5b"} <= cited and cited - headings == set()


def test_the_code_cites_rules_at_their_place_in_the_repository() -> None:
    """`RULES.md` alone (or the old `shared/` copy, which a clone does not have) names no file a maintainer has."""
    loose = [
        str(path.relative_to(ROOT))
        for path, text in code_texts()
        if re.search(r"(?<![\w/])(RULES\.md|CHALLENGE_DECKS\.md|RULES-TODAY)", text)
    ]
    assert loose == []


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= 20_000
    assert (
        "pip install -e . && podkeeper run" in text
        and "pip install -e '.[test]' && python -m pytest -n auto" in text
    )
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert [link for link in links if not (ROOT / link).exists()] == []
    assert (ROOT / "docs" / "images" / "pod-board.png").name in text


def test_every_command_is_one_click_from_the_readme() -> None:
    """The README's command table links each top-level command to its place in the command reference."""
    text = README.read_text(encoding="utf-8")
    page = reference.COMMANDS_PAGE.read_text(encoding="utf-8")
    tops = set(re.findall(r"^## /([a-z-]+)$", page, re.M))
    linked = set(re.findall(r"\]\(docs/admins/commands\.md#([a-z-]+)\)", text))
    assert tops and tops <= linked
