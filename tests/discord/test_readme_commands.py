"""Every slash command the README and the manual (docs/) name exists, with the option names they show, and
every button their worked examples press is one the bot shows: the documentation is how players learn the
commands, so a renamed command or option must not leave it behind.

The documentation writes a command as `` `/group sub option: [optional:]` `` (an option may also be written
``[option]`` or ``option: value``); ``a|b`` names several subcommands at once. The commands are the ones
the real bot registers (every cog loaded, ``/hydra event`` and ``/challenge event`` included)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from discord import app_commands

from bot.testing import DiscordHarness

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
NOT_APP_COMMANDS = {"as"}  # the sandbox client's own `/as NAME` (docs/players/sandbox.md: "Client commands")


def documentation() -> str:
    """The README and every page of the manual, one after the other."""
    pages = [README, *sorted(DOCS.rglob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


_SPAN = re.compile(r"`(/[a-z][^`]*)`", re.S)
_NAME = re.compile(r"^[a-z][a-z0-9_-]*(\|[a-z][a-z0-9_-]*)*$")
_OPTION = re.compile(r"^\[?([a-z][a-z0-9_]*)(?::\S*|\]:?)\]?$")


def readme_commands(text: str) -> list[tuple[list[str], list[str], str]]:
    """(command path, option names, the span as written) of every `` `/…` `` span naming a command."""
    found = []
    for span in _SPAN.findall(text):
        words = span[1:].split()
        path: list[str] = []
        while words and _NAME.match(words[0]) and not words[0].startswith("["):
            path.append(words.pop(0))
        options = [match.group(1) for word in words if (match := _OPTION.match(word))]
        if path and path[0] not in NOT_APP_COMMANDS:
            found.append((path, options, span))
    return found


def resolve(tree: dict[str, app_commands.Command | app_commands.Group], path: list[str]) -> list[object]:
    """The commands (or groups) ``path`` names; "" where a part does not exist."""
    nodes: list[object] = [tree.get(path[0], "")]
    for part in path[1:]:
        nodes = [
            node.get_command(name) or "" if isinstance(node, app_commands.Group) else ""
            for node in nodes
            for name in part.split("|")
        ]
    return nodes


async def test_every_command_and_option_in_the_documentation_is_registered(tmp_path) -> None:
    text = documentation()
    spans = readme_commands(text)
    assert any(path == ["challenge", "start"] and "deck" in options for path, options, _ in spans)
    async with DiscordHarness.start(tmp_path) as h:
        tree = {command.name: command for command in h.bot.tree.get_commands()}
        assert "challenge" in tree and "hydra" in tree
        wrong = []
        for path, options, span in spans:
            for node in resolve(tree, path):
                if not node:
                    wrong.append(f"`{span}`: no such command")
                elif isinstance(node, app_commands.Command):
                    names = {parameter.display_name for parameter in node.parameters}  # as Discord shows them
                    wrong += [f"`{span}`: no option {option}:" for option in options if option not in names]
        assert wrong == []


def test_the_readme_parser_reads_every_way_a_command_is_written() -> None:
    text = (
        "`/hydra start heads: [window:]` `/deck delete name:… [owner]` `/challenge event join|leave` "
        "`/tournament create name: … format: 1-vs-1 matches (best of three)` `/as bob` `/` `// Commander`"
    )
    assert readme_commands(text) == [
        (["hydra", "start"], ["heads", "window"], "/hydra start heads: [window:]"),
        (["deck", "delete"], ["name", "owner"], "/deck delete name:… [owner]"),
        (["challenge", "event", "join|leave"], [], "/challenge event join|leave"),
        (
            ["tournament", "create"],
            ["name", "format"],
            "/tournament create name: … format: 1-vs-1 matches (best of three)",
        ),
    ]


def test_every_button_the_documented_walkthroughs_press_is_a_button_label() -> None:
    """The worked examples of the challenge decks (tables "| Who | Does | The bot shows |") press
    buttons by their English labels: each one must be a label the bot uses."""
    section = "\n".join(
        (DOCS / "players" / page).read_text(encoding="utf-8") for page in ("hydra.md", "challenges.md")
    )
    labels = set()
    for name in ("hydra", "challenge", "hydra_events"):
        messages = tomllib.loads(
            (ROOT / "bot" / "i18n" / "messages" / f"{name}.toml").read_text(encoding="utf-8")
        )
        labels |= {value["en"] for key, value in messages.items() if ".ui." in key}
    pressed = [
        bold
        for line in section.splitlines()
        if line.startswith("| ") and line.count("|") >= 3
        for bold in re.findall(r"\*\*([^*]+)\*\*", line.split("|")[-3])
    ]
    assert {"Join", "Start", "End our turn", "Undo", "Concede", "Take the damage", "Hit the Horde…"} <= set(
        pressed
    )
    assert sorted(set(pressed) - labels) == []
