"""Slash-command schemas → the ``data`` of an INTERACTION_CREATE, as a Discord client builds it.

A ``CommandCatalog`` is built from command schemas: the JSON the bot synced (end-to-end tests,
the sandbox: exactly what a real Discord client knows) or ``Command.to_dict`` of the bot's tree
(in-process harness, where nothing is synced). It finds ``"deck check"``-style paths, checks option
names, converts values by option type and nests subcommands and groups the way Discord does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
ENTITY_TYPES = (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT)
TYPE_NAMES = {
    STRING: "text",
    INTEGER: "integer",
    BOOLEAN: "true/false",
    USER: "member",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "member or role",
    NUMBER: "number",
    ATTACHMENT: "file",
}


class CommandError(LookupError):
    """A command line that names no command, an unknown option, or a value of the wrong type."""


@dataclass
class FoundCommand:
    root: dict[str, Any]
    leaf: dict[str, Any]
    path: list[str]

    @property
    def qualified_name(self) -> str:
        return " ".join(self.path)

    @property
    def options(self) -> list[dict[str, Any]]:
        return list(self.leaf.get("options") or [])

    def option(self, name: str) -> dict[str, Any]:
        for option in self.options:
            if option["name"] == name:
                return option
        raise CommandError(
            f"/{self.qualified_name} has no option {name!r}; options: "
            f"{[o['name'] for o in self.options] or 'none'}"
        )


@dataclass
class CommandCatalog:
    schemas: list[dict[str, Any]]
    aliases: dict[str, dict[str, str]] = field(default_factory=dict)  # qualified name -> {python name: name}

    def roots(self) -> list[dict[str, Any]]:
        return [s for s in self.schemas if s.get("type", 1) == 1]

    def leaves(self) -> list[FoundCommand]:
        """Every invocable command, e.g. for completion and help."""
        found: list[FoundCommand] = []

        def walk(root: dict[str, Any], node: dict[str, Any], path: list[str]) -> None:
            children = [
                o for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            if not children:
                found.append(FoundCommand(root, node, path))
            for child in children:
                walk(root, child, [*path, child["name"]])

        for root in self.roots():
            walk(root, root, [root["name"]])
        return sorted(found, key=lambda f: f.qualified_name)

    def find(self, command: str) -> FoundCommand:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise CommandError("no command given")
        root = next((s for s in self.roots() if s["name"] == parts[0]), None)
        if root is None:
            raise CommandError(
                f"no slash command /{parts[0]}; the bot has: "
                f"{', '.join(sorted(s['name'] for s in self.roots()))}"
            )
        node = root
        for part in parts[1:]:
            children = [
                o for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            child = next((c for c in children if c["name"] == part), None)
            if child is None:
                raise CommandError(
                    f"/{command.strip()}: no subcommand {part!r}; have {[c['name'] for c in children]}"
                )
            node = child
        if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options") or []):
            subs = [o["name"] for o in node["options"]]
            raise CommandError(f"/{' '.join(parts)} needs a subcommand: {', '.join(subs)}")
        return FoundCommand(root, node, parts)

    def option_name(self, found: FoundCommand, name: str) -> str:
        return self.aliases.get(found.qualified_name, {}).get(name, name)

    def interaction_data(
        self,
        found: FoundCommand,
        options: list[dict[str, Any]],
        *,
        command_id: int,
        resolved: dict[str, Any] | None = None,
        guild_id: int | None = None,
    ) -> dict[str, Any]:
        """Nest ``options`` under the subcommand (group) path, as Discord sends them."""
        nested = options
        path = found.path
        if len(path) == 3:
            nested = [
                {
                    "type": SUB_COMMAND_GROUP,
                    "name": path[1],
                    "options": [{"type": SUB_COMMAND, "name": path[2], "options": options}],
                }
            ]
        elif len(path) == 2:
            nested = [{"type": SUB_COMMAND, "name": path[1], "options": options}]
        data: dict[str, Any] = {"id": str(command_id), "name": path[0], "type": 1, "options": nested}
        if resolved:
            data["resolved"] = resolved
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data


def convert_scalar(option: dict[str, Any], value: Any) -> Any:
    """A string/number/boolean option value, checked like Discord's client does (choices, ranges)."""
    kind = option["type"]
    converted = _typed(option, value)
    choices = option.get("choices")
    if choices:
        by_name = {c["name"].lower(): c["value"] for c in choices}
        values = [c["value"] for c in choices]
        if converted not in values:
            if str(value).lower() in by_name:
                return by_name[str(value).lower()]
            raise CommandError(f"option {option['name']} must be one of {values}, got {value!r}")
    for key, check in (("min_value", lambda v, b: v >= b), ("max_value", lambda v, b: v <= b)):
        if key in option and option[key] is not None and not check(converted, option[key]):
            raise CommandError(
                f"option {option['name']}: {converted} is out of range "
                f"{option.get('min_value')}..{option.get('max_value')}"
            )
    if kind == STRING:
        low, high = option.get("min_length"), option.get("max_length")
        if (low is not None and len(converted) < low) or (high is not None and len(converted) > high):
            raise CommandError(f"option {option['name']}: length must be {low or 0}..{high or '∞'}")
    return converted


def _typed(option: dict[str, Any], value: Any) -> Any:
    """``value`` as the option's type (a typed option from a test, or text as a user would type it)."""
    kind = option["type"]
    try:
        if kind == STRING:
            return str(value)
        if kind == INTEGER:
            return int(value)
        if kind == NUMBER:
            return float(value)
        if kind == BOOLEAN:
            return value if isinstance(value, bool) else _parse_bool(str(value))
    except (TypeError, ValueError):
        raise CommandError(
            f"option {option['name']} needs {TYPE_NAMES.get(kind, kind)}, got {value!r}"
        ) from None
    raise CommandError(f"option {option['name']} is not a scalar")


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1", "y"):
        return True
    if lowered in ("false", "no", "off", "0", "n"):
        return False
    raise ValueError(text)
