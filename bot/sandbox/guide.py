"""The sandbox's tour and ``:help``, generated from the commands the bot really synced.

Each example names a command and its options; the text shown is built from the bot's synced command tree
(the same schema Discord's client sees), so a renamed option (``list:`` → ``decklist:``) or a removed
command makes the tour fail to build, and the tests, instead of teaching something that does not work.
Client commands are described by their handlers' docstrings, for the same reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.testing.fakediscord.commands import CommandCatalog


@dataclass(frozen=True)
class Example:
    """A slash command line to try: ``command`` with ``options`` (name, value) and an optional hint."""

    command: str
    options: tuple[tuple[str, str], ...] = ()
    hint: str = ""


TOUR_EXAMPLES = (
    Example("help"),
    Example(
        "deck check",
        (("decklist", '"1 Sol Ring\\n1 Command Tower"'), ("commander", "Atraxa, Praetors' Voice")),
    ),
    Example("pod start", (("players", "@alice @bob"),), "then :click -5 or :click 1"),
    Example("pod damage", (("owner", "alice"), ("target", "bob"), ("amount", "7"))),
    Example("hydra start", (("heads", "3"),), "then :as bob, :click Join, :click Start"),
)

INTRO = """\
Welcome to the Podkeeper sandbox: the real bot, talking to a pretend Discord on this computer.
You are alice in #general of the server "Podkeeper Test" (with bob, carol, and admin, the owner).
A short tour — try these (Tab completes commands, options and card names):"""

OUTRO = """\
  :as bob    :in games    :locale ja    :restart     be someone else, go elsewhere, read in Japanese, restart
  :help  for all client commands;  :quit  (or Ctrl-D) to leave."""


def example_line(catalog: CommandCatalog, example: Example) -> str:
    """The line a user types for ``example``; raises ``CommandError`` if the bot has no such command/option."""
    found = catalog.find(example.command)
    parts = [f"/{found.qualified_name}"]
    for name, value in example.options:
        parts.append(f"{found.option(name)['name']}:{value}")
    return " ".join(parts)


def describe(catalog: CommandCatalog, example: Example, discord_locale: str | None = None) -> str:
    """The command's own description (in ``discord_locale`` when the bot localised it) and the hint."""
    leaf = catalog.find(example.command).leaf
    text = (leaf.get("description_localizations") or {}).get(discord_locale or "") or leaf.get(
        "description", ""
    )
    return f"{text}; {example.hint}" if example.hint else text


def tour(catalog: CommandCatalog, discord_locale: str | None = None) -> list[str]:
    lines = INTRO.splitlines()
    for example in TOUR_EXAMPLES:
        line = example_line(catalog, example)
        note = describe(catalog, example, discord_locale)
        lines += [f"  {line:<50} {note}"] if len(line) <= 50 else [f"  {line}", f"  {'':<50} {note}"]
    return lines + OUTRO.splitlines()


def tour_lines(catalog: CommandCatalog) -> list[str]:
    """Just the slash lines of the tour (what the tests run)."""
    return [example_line(catalog, example) for example in TOUR_EXAMPLES]


def help_text(
    catalog: CommandCatalog, client_commands: Iterable[tuple[str, Callable[..., object]]]
) -> list[str]:
    """``:help``: the bot's commands (from its tree), one example with options, then every client command."""
    roots = sorted(f"/{root['name']}" for root in catalog.roots())
    example = example_line(catalog, TOUR_EXAMPLES[1])
    lines = [
        "Type slash commands as in Discord: " + "  ".join(roots),
        f"  options are name:value, e.g.  {example}",
        "  Tab completes commands, options and the bot's own suggestions.",
        "Client commands (prefix ':' — or '/' when the bot has no command of that name):",
    ]
    for usage, handler in client_commands:
        summary = (handler.__doc__ or "").strip().splitlines()[0] if handler.__doc__ else ""
        lines.append(f"  :{usage:<22} {summary}")
    return lines
