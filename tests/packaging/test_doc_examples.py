"""Every example of the manual is run, so the documentation cannot drift from the bot.

Two kinds of example, found in the pages themselves:

- **Console examples** (fenced ``console`` blocks): each ``$ command`` runs in a scratch folder with a shell,
  and what it prints must be the lines under it. A line ``...`` stands for any number of lines, and ``...``
  inside a line for any text. A fenced block right after ``<!-- file: NAME -->`` is written to that file in
  the scratch folder first (a Hydra script, a JSON file of games), for the commands after it to use.
- **Every other ``podkeeper`` command line** in a code block must be one the command line accepts (parsed by
  the real argument parser; run it where it needs no network, server or token). Synopsis lines (with
  ``[--option]``, ``FILE``, ``N``) describe a command and are left out.

The deck files the pages name are the project's real deck files (``tests/data/decks``)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DECKS = ROOT / "tests" / "data" / "decks"
# The names the pages give deck files, and the real files behind them.
DECK_FILES = {
    "heads_i_win.txt": "heads_i_win_tails_you_lose_sld2021_partners.txt",
    "my_deck.txt": "kaalia_arena.txt",
    "deck.txt": "kaalia_sideboard.txt",
}
FENCE = re.compile(
    r"^(?:<!-- file: (?P<file>[\w.-]+) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)^```$", re.M | re.S
)
SYNOPSIS = re.compile(r"\[--|\bFILE\b|\bURL\b|\bN\b|\bPATH\b|\bID\b|\.\.\.|\|")


@dataclass
class Example:
    """One page's examples, in page order: files to write and console commands with their output."""

    page: Path
    steps: list[tuple[str, str, str]] = field(
        default_factory=list
    )  # ("file", name, text) / ("run", command, out)


def examples(page: Path) -> Example:
    found = Example(page)
    for match in FENCE.finditer(page.read_text(encoding="utf-8")):
        if match["file"]:
            found.steps.append(("file", match["file"], match["body"]))
        elif match["lang"] == "console":
            for chunk in re.split(r"^\$ ", match["body"], flags=re.M)[1:]:
                command, _, output = chunk.partition("\n")
                found.steps.append(("run", command, output))
    return found


def pages_with_console_examples() -> list[Path]:
    return [
        page for page in sorted(DOCS.rglob("*.md")) if any(k == "run" for k, _, _ in examples(page).steps)
    ]


def expected_pattern(output: str) -> re.Pattern[str]:
    lines = []
    for line in output.rstrip("\n").splitlines():
        lines.append(
            r"(?:.*\n)*?"
            if line.strip() == "..."
            else ".*?".join(map(re.escape, line.rstrip().split("..."))) + r"\n"
        )
    return re.compile("".join(lines))


def matches(output: str, actual: str) -> bool:
    text = "".join(line.rstrip() + "\n" for line in actual.splitlines())
    return expected_pattern(output).fullmatch(text) is not None


def test_the_output_matcher_reads_ellipses() -> None:
    assert (
        matches("a\n...\nd\n", "a\nb\nc\nd\n")
        and matches("a\n...\n", "a\n")
        and matches("x ... z", "x y z\n")
    )
    assert not matches("a\nd\n", "a\nb\nd\n") and not matches("x ... z", "x y\n")


@pytest.fixture(scope="module")
def card_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with the bundled card data imported once; each page's examples start from a copy."""
    folder = tmp_path_factory.mktemp("cards")
    database = folder / "podkeeper.sqlite3"
    subprocess.run(
        [sys.executable, "-m", "bot", "cards", "lookup", "Sol Ring"],
        cwd=folder,
        check=True,
        env=environment(database),
        capture_output=True,
    )
    return database


def environment(database: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PODKEEPER_")}
    env.update(
        PODKEEPER_DATABASE_PATH=str(database),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}",
        XDG_DATA_HOME=str(database.parent / "data"),
        COLUMNS="110",
    )
    env.pop("DISCORD_TOKEN", None)
    return env


@pytest.mark.slow
@pytest.mark.parametrize("page", pages_with_console_examples(), ids=lambda page: str(page.relative_to(DOCS)))
def test_the_console_examples_print_what_the_page_says(
    page: Path, card_database: Path, tmp_path: Path
) -> None:
    shutil.copy(card_database, tmp_path / "podkeeper.sqlite3")
    for name, real in DECK_FILES.items():
        shutil.copy(DECKS / real, tmp_path / name)
    env = environment(tmp_path / "podkeeper.sqlite3")
    for kind, what, text in examples(page).steps:
        if kind == "file":
            (tmp_path / what).write_text(text, encoding="utf-8")
            continue
        done = subprocess.run(
            ["bash", "-c", what], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert matches(text, done.stdout), (
            f"$ {what}\n--- the page says:\n{text}--- it printed:\n{done.stdout}"
        )


def command_lines() -> list[tuple[str, str]]:
    """(page, line) of every `podkeeper …` line in a code block that is not a console example or a synopsis."""
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        blocks = [m["body"] for m in FENCE.finditer(text) if m["lang"] != "console"]
        blocks += re.findall(r"(?:^    .*\n)+", text, re.M)  # indented code blocks
        for block in blocks:
            for line in block.splitlines():
                line = line.strip()
                if line.startswith("podkeeper ") and not SYNOPSIS.search(line.split("#")[0]):
                    found.append((str(page.relative_to(DOCS)), line))
    return found


def test_every_documented_command_line_is_one_the_cli_accepts() -> None:
    lines = command_lines()
    assert ("operators/backups.md", "podkeeper db backup backups/podkeeper-$(date +%F).sqlite3") in lines
    parser = build_parser()
    refused = []
    for page, line in lines:
        words = shlex.split(line.replace("$(date +%F)", "2026-12-01"), comments=True)
        try:
            parser.parse_args(words[1:])
        except SystemExit:
            refused.append(f"{page}: {line}")
    assert refused == []


def test_every_documented_config_file_is_one_the_bot_loads(tmp_path: Path) -> None:
    """A ``toml`` block of the manual is a config file: the bot must load it as it is (no unknown key, no
    wrong type), or an operator copying it gets a refusal the page did not warn about. The translators'
    page shows catalogue and glossary entries, which are TOML of their own (checked by the catalogue and
    glossary tests)."""
    from bot.config import load_config

    blocks = [
        (page, m["body"])
        for page in sorted(DOCS.rglob("*.md"))
        if page.name != "translating.md"
        for m in FENCE.finditer(page.read_text(encoding="utf-8"))
        if m["lang"] == "toml"
    ]
    assert len(blocks) >= 2
    for n, (page, body) in enumerate(blocks):
        config = tmp_path / f"{n}.toml"
        config.write_text(body, encoding="utf-8")
        assert load_config(config, environ={}).source.endswith(str(config)), page
