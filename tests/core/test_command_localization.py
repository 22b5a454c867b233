"""Every slash command, option and choice is localised in Japanese and both Chinese scripts.

The payloads are the ones `tree.sync()` would send, produced by discord.py from the real cogs with our
Translator, so a command added without its `app.*` catalogue entries fails here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.testing import DiscordHarness

DISCORD_LOCALES = ("ja", "zh-CN", "zh-TW")
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")


def walk(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any], str]]:
    """(path, node, kind) for a command and everything inside it."""
    found = [(path, node, "command")]
    for option in node.get("options", []):
        found += walk(option, f"{path} {option['name']}")
    for choice in node.get("choices", []):
        found.append((f"{path}={choice['value']}", choice, "choice"))
    return found


async def test_all_commands_options_and_choices_are_localised(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        tree = h.bot.tree
        payloads = [
            await command.get_translated_payload(tree, tree.translator) for command in tree.get_commands()
        ]
    assert len(payloads) >= 2
    problems: list[str] = []
    for payload in payloads:
        for path, node, kind in walk(payload, "/" + payload["name"]):
            for locale in DISCORD_LOCALES:
                name = (node.get("name_localizations") or {}).get(locale)
                if not name:
                    problems.append(f"{path}: no {locale} name")
                elif kind != "choice" and (not NAME_PATTERN.match(name) or name != name.lower()):
                    problems.append(f"{path}: {locale} name {name!r} is not a valid Discord name")
                if (
                    kind != "choice"
                    and "description" in node
                    and not (node.get("description_localizations") or {}).get(locale)
                ):
                    problems.append(f"{path}: no {locale} description")
    assert not problems, f"{len(problems)} missing localisations:\n" + "\n".join(problems)
