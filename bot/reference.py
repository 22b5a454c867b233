"""The manual's generated parts: the command reference, the ``/config`` reference and the settings table.

They are written from the real things, never by hand: the slash commands from the command tree the bot
registers (every cog loaded, with the translations Discord gets), the settings from ``bot.config.SETTINGS``.
A hand-written table drifts the day someone adds an option; these cannot, because
``tests/packaging/test_docs.py`` regenerates them and fails when the committed pages differ.

Regenerate after changing a command or a setting::

    python -m bot.reference            # rewrites the generated pages and regions under docs/

A generated region sits between ``<!-- generated: NAME -->`` and ``<!-- end generated -->`` in a page that is
otherwise written by hand; a generated page is the whole file.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.config import SETTINGS, Setting
from bot.paths import REPO_ROOT

DOCS = REPO_ROOT / "docs"
COMMANDS_PAGE = DOCS / "admins" / "commands.md"
LANGUAGES = (
    ("en", "English"),
    ("ja", "日本語"),
    ("zh-CN", "简体中文"),
    ("zh-TW", "繁體中文"),
)  # Discord's locales
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2

# Where each command is explained, by the longest matching start of its name (relative to docs/admins/).
FEATURE_PAGES = {
    "card": "../players/cards.md",
    "challenge": "../players/challenges.md",
    "challenge event": "../players/hydra-events.md",
    "config": "config.md",
    "deck": "../players/decks.md",
    "help": "../index.md",
    "hydra": "../players/hydra.md",
    "hydra event": "../players/hydra-events.md",
    "mulligan": "../players/mulligans.md",
    "odds": "../players/mulligans.md",
    "ping": "../index.md",
    "pod": "../players/pods.md",
    "pod bracket": "../players/brackets.md",
    "privacy": "../operators/data-and-privacy.md",
    "season": "../players/seasons.md",
    "sideboard": "../players/matches.md",
    "stats": "../players/stats.md",
    "tournament": "../players/tournaments.md",
}

WHO_ANYONE = "anyone"
WHO_MANAGERS = "Manage Server"
WHO_ORGANISERS = "organisers (Manage Server, or the role of `/config organiser-role`)"
WHO_MIXED = "anyone; some uses need Manage Server or an organiser (see the feature page)"


@dataclass(frozen=True)
class CommandDoc:
    """One slash command as the reference shows it: its payload (with translations) and who may use it."""

    path: str  # "deck check"
    payload: dict[str, Any]
    parents: tuple[dict[str, Any], ...]  # the group payloads above it, outermost first
    who: str

    @property
    def feature_page(self) -> str:
        matches = [
            prefix for prefix in FEATURE_PAGES if self.path == prefix or self.path.startswith(prefix + " ")
        ]
        return FEATURE_PAGES[max(matches, key=len)]


def who_may_use(command: app_commands.Command[Any, ..., Any]) -> str:
    """Who may use ``command``, read from the command itself: its Discord default permissions or the
    ``managers_only`` check mean Manage Server; a handler that starts with the organiser check (in its own
    body or in the cog method it hands over to) is for organisers; a handler that asks about either for some
    of its uses is open to anyone but says so."""
    group = command.parent
    defaults = command.default_permissions or (group.default_permissions if group else None)
    if defaults is not None or any(
        getattr(check, "__name__", "") == "is_manager" for check in command.checks
    ):
        return WHO_MANAGERS
    source = _handler_source(command)
    if "_require_organiser(" in source:
        return WHO_ORGANISERS
    if "is_manager(" in source or "is_organiser(" in source:
        return WHO_MIXED
    return WHO_ANYONE


# ``self.name(`` or ``self.part.name(``: a call on the cog, or on one of its parts (``self.concede_step.ask``).
_SELF_CALL = re.compile(r"\bself\.(?:([a-z_]+)\.)?([a-z_]+)\(")


def _handler_source(command: app_commands.Command[Any, ..., Any], depth: int = 2) -> str:
    """The source of the command's callback and of the methods it calls on its cog (or a part of it),
    ``depth`` calls deep: a group bound to a cog (``/hydra event``) hands every command over to a cog method,
    and a command may hand over to a helper object, where the checks are."""
    # A command built inside a cog's method (the live pages' ``page`` commands) has no binding: its cog is the
    # ``self`` it closes over.
    binding = command.binding or inspect.getclosurevars(command.callback).nonlocals.get("self")
    cog = getattr(binding, "cog", binding)
    sources: list[str] = []
    seen: set[tuple[str, str]] = set()
    frontier = [inspect.getsource(command.callback)]
    for _ in range(depth + 1):
        sources += frontier
        calls = {call for text in frontier for call in _SELF_CALL.findall(text)} - seen
        seen |= calls
        methods = [
            getattr(type(cog if part in ("", "cog") else getattr(cog, part, None)), name, None)
            for part, name in sorted(calls)
        ]
        frontier = [inspect.getsource(method) for method in methods if inspect.isfunction(method)]
    return "\n".join(sources)


def _walk(
    payload: dict[str, Any], parents: tuple[dict[str, Any], ...] = ()
) -> Iterator[tuple[dict[str, Any], tuple[dict[str, Any], ...]]]:
    children = [o for o in payload.get("options", []) if o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)]
    if not children:
        yield payload, parents
    for child in children:
        yield from _walk(child, (*parents, payload))


async def command_docs() -> list[CommandDoc]:
    """Every slash command of a bot with every cog loaded, with its translated payload, sorted by name."""
    from bot.testing import DiscordHarness

    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordHarness.start(Path(tmp)) as harness:
            tree = harness.bot.tree
            objects = {
                command.qualified_name: command
                for top in tree.get_commands()
                for command in ([top] if isinstance(top, app_commands.Command) else top.walk_commands())
                if isinstance(command, app_commands.Command)
            }
            docs = []
            for top in tree.get_commands():
                payload = await top.get_translated_payload(tree, tree.translator)  # type: ignore[union-attr]
                for leaf, parents in _walk(payload):
                    path = " ".join([p["name"] for p in parents] + [leaf["name"]])
                    docs.append(CommandDoc(path, leaf, parents, who_may_use(objects[path])))
    return sorted(docs, key=lambda doc: doc.path)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _localized(payload: dict[str, Any], locale: str, field: str) -> str:
    return (
        payload.get(f"{field}_localizations", {}).get(locale, payload[field])
        if locale != "en"
        else payload[field]
    )


def _named(payload: dict[str, Any], locale: str) -> str:
    return _cell(f"{_localized(payload, locale, 'name')} — {_localized(payload, locale, 'description')}")


def _option_label(option: dict[str, Any]) -> str:
    label = f"`{option['name']}:`" + (" (required)" if option.get("required") else "")
    choices = [choice["value"] for choice in option.get("choices", [])]
    return label + (f"<br>one of {', '.join(f'`{c}`' for c in choices)}" if choices else "")


def _usage(doc: CommandDoc) -> str:
    options = [
        o["name"] + ":" if o.get("required") else f"[{o['name']}:]" for o in doc.payload.get("options", [])
    ]
    return "/" + " ".join([doc.path, *options])


def _command_section(doc: CommandDoc) -> list[str]:
    head = "| | " + " | ".join(name for _, name in LANGUAGES) + " |"
    rows = [head, "| --- |" + " --- |" * len(LANGUAGES)]
    rows.append(
        f"| `/{doc.path}` | " + " | ".join(_named(doc.payload, locale) for locale, _ in LANGUAGES) + " |"
    )
    for option in doc.payload.get("options", []):
        rows.append(
            f"| {_option_label(option)} | "
            + " | ".join(_named(option, locale) for locale, _ in LANGUAGES)
            + " |"
        )
    return [
        f"### /{doc.path}",
        "",
        f"`{_usage(doc)}`",
        "",
        f"**Who may use it:** {doc.who}. **How it works:** [{_page_title(doc.feature_page)}]"
        f"({doc.feature_page}).",
        "",
        *rows,
        "",
    ]


def _page_title(relative: str) -> str:
    """The first heading of a docs page (given relative to docs/admins/)."""
    text = (DOCS / "admins" / relative).resolve().read_text(encoding="utf-8")
    match = re.search(r"^# (.+)$", text, re.M)
    return match.group(1) if match else relative


def commands_page(docs: list[CommandDoc]) -> str:
    """docs/admins/commands.md: every command grouped by its top-level name, with a table of contents."""
    tops = sorted({doc.path.split()[0] for doc in docs})
    lines = [
        "# Command reference",
        "",
        "Every slash command of Podkeeper, with each option, who may use it and how it reads in the four "
        "languages the bot speaks (Discord shows a member the names in their own client's language). "
        "This page is generated from the command tree the bot registers (`python -m bot.reference`); a "
        "test fails when it is behind the code. Who may use what: [Permissions](permissions.md).",
        "",
        "A value in `[brackets]` is optional. " + " · ".join(f"[/{top}](#{top})" for top in tops),
        "",
    ]
    for top in tops:
        group = [doc for doc in docs if doc.path.split()[0] == top]
        lines += [f"## /{top}", ""]
        lines += [line for doc in group for line in _command_section(doc)]
    return "\n".join(lines).rstrip("\n") + "\n"


def config_region(docs: list[CommandDoc]) -> str:
    """The ``/config`` table of docs/admins/config.md: each setting command, its options and who."""
    rows = ["| command | what it sets | options | who |", "| --- | --- | --- | --- |"]
    for doc in docs:
        if doc.path.split()[0] != "config":
            continue
        options = "<br>".join(
            f"{_option_label(o)} {_cell(o['description'])}" for o in doc.payload.get("options", [])
        )
        anchor = doc.path.replace(" ", "-")
        rows.append(
            f"| [`/{doc.path}`](commands.md#{anchor}) | {_cell(doc.payload['description'])} | "
            f"{options or '—'} | {doc.who} |"
        )
    return "\n".join(rows)


def _default(setting: Setting) -> str:
    if setting.secret:
        return "none"
    if (setting.section, setting.key) == ("database", "path"):
        return "`data/podkeeper.sqlite3` in a checkout; the user's data folder when installed"
    if setting.type is bool:
        return f"`{str(setting.default).lower()}`"
    return f"`{setting.default}`" if setting.default != "" else "empty"


def settings_region() -> str:
    """The settings table of docs/operators/configuration.md, from ``bot.config.SETTINGS``."""
    rows = ["| setting | environment | default | what it does |", "| --- | --- | --- | --- |"]
    for setting in SETTINGS:
        env = f"`{setting.env_name}`" + (" / `DISCORD_TOKEN`" if setting.key == "token" else "")
        choices = f" One of: {', '.join(f'`{c}`' for c in setting.choices)}." if setting.choices else ""
        rows.append(
            f"| `[{setting.section}] {setting.key}` | {env} | {_default(setting)} | "
            f"{_cell(setting.help)}{choices} |"
        )
    return "\n".join(rows)


REGION = re.compile(r"(<!-- generated: (?P<name>[a-z-]+) -->\n)(?:.*?\n)?(<!-- end generated -->)", re.S)


def fill_regions(text: str, regions: dict[str, str]) -> str:
    """``text`` with each generated region replaced by its current content."""
    return REGION.sub(lambda m: m.group(1) + regions[m.group("name")] + "\n" + m.group(3), text)


def generated_pages() -> dict[Path, str]:
    """Every generated page and every page with a generated region, as they should be now."""
    docs = asyncio.run(command_docs())
    regions = {"config-commands": config_region(docs), "settings": settings_region()}
    pages = {COMMANDS_PAGE: commands_page(docs)}
    for path in sorted(DOCS.rglob("*.md")):
        if path == COMMANDS_PAGE:
            continue
        text = path.read_text(encoding="utf-8")
        if REGION.search(text):
            pages[path] = fill_regions(text, regions)
    return pages


BOARD_PICTURE = DOCS / "images" / "pod-board.png"


def example_board() -> bytes:
    """The picture on the manual's front page: a four-player pod board mid-game, drawn by the bot's own
    renderer (``bot.render.board``) from a game's event log, as a table sees it in Discord."""
    from bot.domain import pod
    from bot.render.board import render_board

    players = [{"user_id": n, "name": name} for n, name in enumerate(("Alice", "Bob", "Carol", "Dave"), 1)]
    changes: list[tuple[str, dict[str, Any]]] = [
        (pod.CREATE, {"ruleset": "commander", "players": players}),
        *(
            (pod.COMMANDERS, {"player": n, "names": [name]})
            for n, name in (
                (1, "Atraxa, Praetors' Voice"),
                (2, "Kaalia of the Vast"),
                (3, "Edgar Markov"),
                (4, "Urza, Lord High Artificer"),
            )
        ),
        (pod.NEXT_TURN, {}),
        (pod.CAST, {"commander": pod.commander_key(2, 0)}),
        (pod.CAST, {"commander": pod.commander_key(2, 0)}),
        (pod.COMMANDER_DAMAGE, {"commander": pod.commander_key(2, 0), "target": 1, "amount": 7}),
        (pod.LIFE, {"player": 3, "amount": -12}),
        (pod.POISON, {"player": 4, "amount": 3}),
        (pod.NEXT_TURN, {}),
    ]
    events = [pod.Event(n, kind, 1, "t", data) for n, (kind, data) in enumerate(changes, 1)]
    return render_board(pod.replay(events), "en", title="Friday pod")


def main() -> None:
    BOARD_PICTURE.parent.mkdir(parents=True, exist_ok=True)
    BOARD_PICTURE.write_bytes(example_board())
    for path, text in generated_pages().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main()
