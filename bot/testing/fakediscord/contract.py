"""Discord's request contract: what real Discord refuses with 400 / 50035 "Invalid Form Body".

Two layers:

* **Schema.** Every JSON body is validated against the request-body schema of its route in
  Discord's own OpenAPI description (``bot/testing/data/discord-openapi.json``, discord/discord-api-spec,
  MIT), with ``jsonschema`` + ``referencing``. A validator is compiled once per route template and
  shared by every ``FakeDiscord`` of the process (the suite builds hundreds of them).
* **Rules the schema can't express** (``cross_field_errors``): content ≤ 2,000 for a bot (the spec
  says 4,000: that is Nitro's), all embeds of a message ≤ 6,000 characters, custom_ids unique in a
  message, a select alone in its row, ≤ 5 rows, autocomplete values ≤ 100, ≤ 8,000 characters per
  command, command names lowercase and of Discord's alphabet, localisation keys that are Discord locales.

Errors come back in Discord's shape: ``{"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
"message": ...}]}}`` (nested by field path; list indices are keys too).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).resolve().parents[1] / "data" / "discord-openapi.json"
SPEC_URI = "urn:discord:openapi"

CONTENT_LIMIT = 2000  # a bot's message content (the spec's 4,000 is for Nitro users)
EMBED_TOTAL_LIMIT = 6000
MAX_ROWS = 5
MODAL_MAX_ROWS = 5
AUTOCOMPLETE_VALUE_LIMIT = 100
COMMAND_TOTAL_LIMIT = 8000
GLOBAL_CHAT_COMMANDS_LIMIT = 100
SELECT_TYPES = {3, 5, 6, 7, 8}

Path_ = tuple[str | int, ...]
Problem = tuple[Path_, str, str]  # (field path, Discord error code, message)

_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "type": "BASE_TYPE_BAD_TYPE",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "pattern": "STRING_TYPE_REGEX",
    "maxProperties": "BASE_TYPE_MAX_LENGTH",
    "uniqueItems": "BASE_TYPE_DUPLICATE",
}


# -- the spec and its validators (once per process) ---------------------------------------------------


@functools.cache
def spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(
        SPEC_URI, Resource.from_contents(spec(), default_specification=DRAFT202012)
    )


@functools.cache
def discord_locales() -> frozenset[str]:
    """Discord's locales (``ja``, ``zh-CN``, ``zh-TW``, ``en-US``, ...), from the spec's enum."""
    return frozenset(
        item["const"] for item in spec()["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]
    )


@functools.cache
def _templates() -> list[tuple[str, re.Pattern[str], str]]:
    """(method, path regex, path template) for every route with a JSON request body; literal routes first."""
    found = []
    for template, operations in spec()["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            if "application/json" not in operation["requestBody"].get("content", {}):
                continue
            pattern = re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$")
            found.append((method.upper(), pattern, template))
    found.sort(key=lambda item: item[2].count("{"))  # /messages/@original before /messages/{message_id}
    return found


def route_template(method: str, path: str) -> str | None:
    """The spec's path template for a request (``/channels/{channel_id}/messages``), or None."""
    for route_method, pattern, template in _templates():
        if route_method == method and pattern.match(path):
            return template
    return None


@functools.cache
def validator_for(method: str, template: str) -> Any:
    """The compiled validator of a route's JSON body (built on first use, then shared)."""
    operation = spec()["paths"][template][method.lower()]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return _Validator(_Simplifier().node(schema), registry=_registry())


SWITCH = "x-switch-on-type"


def _switch(
    validator: Any, cases: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """Validate against the one union branch whose ``type`` discriminator the instance carries."""
    if isinstance(instance, dict) and "type" in instance:
        branch = cases.get(json.dumps(instance["type"]))
        if branch is not None:
            yield from validator.descend(instance, branch)


_ANY_OF, _ONE_OF = Draft202012Validator.VALIDATORS["anyOf"], Draft202012Validator.VALIDATORS["oneOf"]


def _any_of(
    validator: Any, branches: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``anyOf`` that tries each branch with ``is_valid`` (stops at a branch's first error) and builds
    the full error list only when every branch fails: the untagged unions of the spec (autocomplete
    data: integer | number | string choices) cost 5 ms a body the library's way."""
    if any(validator.evolve(schema=branch).is_valid(instance) for branch in branches):
        return
    yield from _ANY_OF(validator, branches, instance, schema)


def _one_of(
    validator: Any, branches: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``oneOf``, with the same fast path when exactly one branch holds."""
    if sum(validator.evolve(schema=branch).is_valid(instance) for branch in branches) == 1:
        return
    yield from _ONE_OF(validator, branches, instance, schema)


_Validator = validators.extend(Draft202012Validator, {SWITCH: _switch, "anyOf": _any_of, "oneOf": _one_of})


class _Simplifier:
    """Rewrite a schema so validating a body walks one branch per union instead of all of them.

    The spec's unions (``oneOf``/``anyOf`` of components told apart by their ``type``, and
    ``oneOf [null, X]``) make ``jsonschema`` try every branch of every component: ~14 ms for a
    message with 20 buttons. Turned into a switch on the discriminator (a custom keyword), ``if null
    else X``, and enums (references inlined, recursive ones kept), it costs a few times less, and an
    error points at the field of the branch the body meant instead of "not valid under any of the
    given schemas".
    """

    def __init__(self) -> None:
        self.done: dict[str, Any] = {}
        self.stack: list[str] = []

    def node(self, schema: Any) -> Any:
        if isinstance(schema, list):
            return [self.node(v) for v in schema]
        if not isinstance(schema, dict):
            return schema
        if "$ref" in schema and len(schema) == 1:
            return self.ref(schema["$ref"])
        out = {k: self.node(v) for k, v in schema.items()}
        if "$ref" in out:
            # A reference with notes beside it ({"$ref": ..., "description": ...}, as a poll's question has):
            # left as it was, "#/components/..." would point into this route's schema, where no component is.
            out["allOf"] = [*out.get("allOf", []), self.ref(out.pop("$ref"))]
        if "enum" in out and "allOf" in out:
            del out["allOf"]  # enum ∩ the enum type it refers to: the enum alone says it
        for key in ("oneOf", "anyOf"):
            if key in out:
                out = self.union(out, key)
        return out

    def ref(self, ref: str) -> Any:
        if not ref.startswith("#/components/schemas/") or ref in self.stack:
            return {"$ref": SPEC_URI + ref}
        if ref not in self.done:
            self.stack.append(ref)
            name = ref.rsplit("/", 1)[1]
            found = self.node(spec()["components"]["schemas"][name])
            if (
                name == "SnowflakeType"
            ):  # Discord takes snowflakes as JSON numbers too (discord.py sends some)
                found = {**found, "type": ["string", "integer"]}
            self.done[ref] = found
            self.stack.pop()
        return self.done[ref]

    @staticmethod
    def union(schema: dict[str, Any], key: str) -> dict[str, Any]:
        branches = schema[key]
        rest = {k: v for k, v in schema.items() if k not in (key, "x-discord-union")}
        if all(isinstance(b, dict) and "const" in b for b in branches):
            return {**rest, "enum": [b["const"] for b in branches]}  # an enum type spelled as consts
        nulls = [b for b in branches if b == {"type": "null"}]
        others = [b for b in branches if b != {"type": "null"}]
        if nulls and len(others) == 1:
            return {**rest, "if": {"type": "null"}, "else": others[0]}
        tags = [_type_tag(b) for b in others]
        if nulls or not others or any(t is None for t in tags):
            return schema
        flat = [v for t in tags for v in t]  # type: ignore[union-attr]
        if len(flat) != len(set(flat)):
            return schema
        cases = {
            json.dumps(value): branch for tag, branch in zip(tags, others, strict=True) for value in tag or ()
        }
        guard = {"type": "object", "properties": {"type": {"enum": flat}}, "required": ["type"]}
        return {**rest, "allOf": [*rest.get("allOf", []), guard], SWITCH: cases}


def _type_tag(branch: Any) -> list[Any] | None:
    """The ``type`` values that pick this union branch (``enum``/``const`` of its ``type`` property)."""
    if not isinstance(branch, dict) or "type" not in (branch.get("required") or []):
        return None
    prop = (branch.get("properties") or {}).get("type") or {}
    if "enum" in prop:
        return list(prop["enum"])
    if "const" in prop:
        return [prop["const"]]
    return None


# -- schema errors in Discord's shape -------------------------------------------------------------------


def _branch_errors(error: ValidationError) -> list[ValidationError]:
    """The errors of the union branch the body was meant for (its ``type`` discriminator matched)."""
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
    plausible = []
    for index, subs in branches.items():
        mismatched = any(
            s.validator in ("enum", "const", "type") and list(s.path) in ([], ["type"]) for s in subs
        )
        if not mismatched:
            plausible.append((len(subs), index, subs))
    if not plausible:
        return []
    plausible.sort(key=lambda item: item[0])
    return plausible[0][2]


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    if error.validator in ("oneOf", "anyOf") and error.context:
        chosen = _branch_errors(error)
        if chosen:
            for sub in chosen:
                yield from _leaves(sub)
            return
    yield error


def _message(error: ValidationError) -> str:
    value = error.validator_value
    if error.validator == "maxLength":
        return f"Must be {value} or fewer in length."
    if error.validator == "minLength":
        return f"Must be {value} or more in length."
    if error.validator == "maxItems":
        return f"Must be {value} or fewer in length."
    if error.validator == "minItems":
        return f"Must be {value} or more in length."
    if error.validator == "required":
        return "This field is required"
    return error.message[:200]


def schema_problems(method: str, path: str, body: Any) -> list[Problem]:
    template = route_template(method, path)
    if template is None:
        return []
    problems: list[Problem] = []
    for error in validator_for(method, template).iter_errors(body):
        for leaf in _leaves(error):
            where: Path_ = tuple(leaf.absolute_path)
            if leaf.validator == "required":
                missing = re.findall(r"'([^']+)' is a required property", leaf.message)
                where = where + tuple(missing[:1])
            problems.append((where, _CODES.get(str(leaf.validator), "BASE_TYPE_INVALID"), _message(leaf)))
    return problems


# -- rules the schema can't express ---------------------------------------------------------------------


def _too_long(where: Path_, limit: int) -> Problem:
    return where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def _text_length(value: Any) -> int:
    """A text's length; anything else counts nothing here (the schema refuses it with its own error)."""
    return len(value) if isinstance(value, str) else 0


def embed_text_length(embed: dict[str, Any]) -> int:
    """Characters Discord counts toward the 6,000 of a message: title, description, fields, footer, author."""
    footer, author = embed.get("footer"), embed.get("author")
    total = _text_length(embed.get("title")) + _text_length(embed.get("description"))
    total += _text_length(footer.get("text") if isinstance(footer, dict) else None)
    total += _text_length(author.get("name") if isinstance(author, dict) else None)
    for item in embed.get("fields") or []:
        if isinstance(item, dict):
            total += len(str(item.get("name") or "")) + len(str(item.get("value") or ""))
    return total


def message_problems(body: dict[str, Any], prefix: Path_ = ()) -> list[Problem]:
    """Message bodies (create, edit, callback data, follow-up): the limits across fields."""
    problems: list[Problem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_LIMIT:
        problems.append(_too_long(prefix + ("content",), CONTENT_LIMIT))
    embeds = [e for e in body.get("embeds") or [] if isinstance(e, dict)]
    if sum(map(embed_text_length, embeds)) > EMBED_TOTAL_LIMIT:
        problems.append(
            (prefix + ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
        )
    problems += component_problems(body.get("components") or [], prefix + ("components",), MAX_ROWS)
    problems += allowed_mentions_problems(body.get("allowed_mentions"), prefix + ("allowed_mentions",))
    return problems


def allowed_mentions_problems(mentions: Any, where: Path_) -> list[Problem]:
    """``parse: ["users"]`` together with a ``users`` list (or the same for roles) is contradictory."""
    if not isinstance(mentions, dict):
        return []
    parse = mentions.get("parse") or []
    return [
        (
            where + ("parse",),
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
        )
        for kind in ("users", "roles")
        if kind in parse and mentions.get(kind)
    ]


LINK_STYLE, PREMIUM_STYLE = 5, 6


def button_problems(button: dict[str, Any], where: Path_) -> list[Problem]:
    """A link button has a url and no custom_id; every other (non-premium) button needs a custom_id."""
    style = button.get("style")
    if style == LINK_STYLE and button.get("custom_id") is not None:
        return [
            (
                where + ("custom_id",),
                "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID",
                "A link button cannot have a custom id",
            )
        ]
    if style == LINK_STYLE and not button.get("url"):
        return [(where + ("url",), "BASE_TYPE_REQUIRED", "A link button needs a url")]
    if style not in (LINK_STYLE, PREMIUM_STYLE) and not button.get("custom_id"):
        return [(where + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")]
    return []


def component_problems(rows: list[Any], where: Path_, max_rows: int) -> list[Problem]:
    problems: list[Problem] = []
    if not isinstance(rows, list):
        return problems
    if len(rows) > max_rows:
        problems.append(_too_long(where, max_rows))
    seen: set[str] = set()
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("type") != 1:
            continue
        children = [c for c in row.get("components") or [] if isinstance(c, dict)]
        if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
            problems.append(
                (
                    where + (index, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its action row",
                )
            )
        for position, child in enumerate(children):
            if child.get("type") == 2:
                problems += button_problems(child, where + (index, "components", position))
            custom_id = child.get("custom_id")
            if custom_id is None:
                continue
            if custom_id in seen:
                problems.append(
                    (
                        where + (index, "components", position, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(custom_id)
    return problems


def callback_problems(body: dict[str, Any]) -> list[Problem]:
    """Interaction callbacks: message data, modals, autocomplete choices."""
    data = body.get("data")
    if not isinstance(data, dict):
        return []
    kind = body.get("type")
    if kind in (4, 5, 6, 7):
        return message_problems(data, ("data",))
    if kind == 9:
        return component_problems(data.get("components") or [], ("data", "components"), MODAL_MAX_ROWS)
    if kind == 8:
        return [
            _too_long(("data", "choices", i, "value"), AUTOCOMPLETE_VALUE_LIMIT)
            for i, choice in enumerate(data.get("choices") or [])
            if isinstance(choice, dict)
            and isinstance(choice.get("value"), str)
            and len(choice["value"]) > AUTOCOMPLETE_VALUE_LIMIT
        ]
    return []


def _is_name_char(char: str) -> bool:
    return char in "-_'" or char.isalnum() or "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"


def _localised_length(item: dict[str, Any], key: str) -> int:
    """The longest of a text and its localisations: Discord counts the longest."""
    values = [str(item.get(key) or "")] + [str(v) for v in (item.get(f"{key}_localizations") or {}).values()]
    return max(map(len, values))


def command_length(command: dict[str, Any]) -> int:
    """Characters of one command toward Discord's 8,000: names, descriptions, options, choices."""
    total = _localised_length(command, "name") + _localised_length(command, "description")
    for option in command.get("options") or []:
        if isinstance(option, dict):
            total += command_length(option)
    for choice in command.get("choices") or []:
        if isinstance(choice, dict):
            total += _localised_length(choice, "name") + len(str(choice.get("value", "")))
    return total


def _name_problems(item: dict[str, Any], where: Path_) -> list[Problem]:
    problems: list[Problem] = []
    names = [(where + ("name",), item.get("name"))]
    names += [
        (where + ("name_localizations", k), v) for k, v in (item.get("name_localizations") or {}).items()
    ]
    for at, name in names:
        if isinstance(name, str) and (not all(map(_is_name_char, name)) or name != name.lower()):
            problems.append((at, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}"))
    for key in ("name_localizations", "description_localizations"):
        for locale in item.get(key) or {}:
            if locale not in discord_locales():
                problems.append((where + (key, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}"))
    return problems


def _walk_named(item: dict[str, Any], where: Path_) -> Iterator[tuple[dict[str, Any], Path_]]:
    yield item, where
    for key in ("options", "choices"):
        for index, child in enumerate(item.get(key) or []):
            if isinstance(child, dict):
                yield from _walk_named(child, where + (key, index))


SUBCOMMAND_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def option_problems(item: dict[str, Any], where: Path_, *, is_command: bool) -> list[Problem]:
    """A command's or option's own rules: a description (chat-input commands and every option), choice
    values ≤ 100 characters, no autocomplete together with choices, and among its options unique names
    and required ones first."""
    problems: list[Problem] = []
    needs_description = not is_command or item.get("type", 1) == 1  # user and message commands have none
    if needs_description and not str(item.get("description") or ""):
        problems.append((where + ("description",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
    for index, choice in enumerate(item.get("choices") or []):
        if (
            isinstance(choice, dict)
            and isinstance(choice.get("value"), str)
            and (len(choice["value"]) > AUTOCOMPLETE_VALUE_LIMIT)
        ):
            problems.append(_too_long(where + ("choices", index, "value"), AUTOCOMPLETE_VALUE_LIMIT))
    if item.get("autocomplete") and item.get("choices"):
        problems.append(
            (
                where + ("autocomplete",),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
                "Autocomplete cannot be enabled on an option that has choices",
            )
        )
    options = [o for o in item.get("options") or [] if isinstance(o, dict)]
    seen: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        name = str(option.get("name"))
        if name in seen:
            problems.append(
                (
                    where + ("options", index, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    f"Option name {name!r} is already used",
                )
            )
        seen.add(name)
        if option.get("type") in SUBCOMMAND_TYPES:
            continue
        if option.get("required") and optional_seen:
            problems.append(
                (
                    where + ("options", index, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            )
        optional_seen = optional_seen or not option.get("required")
    return problems


def duplicate_command_problems(commands: list[Any]) -> list[Problem]:
    """Two commands of one type (chat input, user, message) may not share a name."""
    seen: set[tuple[Any, Any]] = set()
    problems: list[Problem] = []
    for index, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        key = (command.get("type", 1), command.get("name"))
        if key in seen:
            problems.append(
                (
                    (index, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {command.get('name')!r}",
                )
            )
        seen.add(key)
    return problems


def commands_problems(commands: Any) -> list[Problem]:
    """A command sync (PUT of the whole list)."""
    if not isinstance(commands, list):
        return []
    problems: list[Problem] = duplicate_command_problems(commands)
    chat_input = [c for c in commands if isinstance(c, dict) and c.get("type", 1) == 1]
    if len(chat_input) > GLOBAL_CHAT_COMMANDS_LIMIT:
        problems.append(_too_long((), GLOBAL_CHAT_COMMANDS_LIMIT))
    for index, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        if command_length(command) > COMMAND_TOTAL_LIMIT:
            problems.append(
                (
                    (index,),
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_TOTAL_LIMIT})",
                )
            )
        for item, where in _walk_named(command, (index,)):
            if "type" in item or where == (
                index,
            ):  # commands and options have names with rules; choices don't
                problems += _name_problems(item, where)
                problems += option_problems(item, where, is_command=where == (index,))
            else:
                problems += [p for p in _name_problems(item, where) if p[1] == "LOCALE_INVALID"]
    return problems


_MESSAGE_ROUTES = re.compile(
    r"^/channels/\d+/messages(/\d+)?$|^/webhooks/\d+/[^/]+(/messages/(@original|\d+))?$"
)
_COMMAND_SYNC = re.compile(r"^/applications/\d+(/guilds/\d+)?/commands$")


def cross_field_problems(method: str, path: str, body: Any) -> list[Problem]:
    if method == "PUT" and _COMMAND_SYNC.match(path):
        return commands_problems(body)
    if not isinstance(body, dict):
        return []
    if method == "POST" and path.startswith("/interactions/"):
        return callback_problems(body)
    if method in ("POST", "PATCH") and _MESSAGE_ROUTES.match(path):
        return message_problems(body)
    return []


_NEW_MESSAGE_ROUTES = re.compile(r"^/channels/\d+/messages$|^/webhooks/\d+/[^/]+$")
MESSAGE_PARTS = ("content", "embeds", "components", "sticker_ids", "poll", "attachments")


def is_empty_message(method: str, path: str, body: Any, has_files: bool) -> bool:
    """A new message with nothing to show (no content, embed, component, sticker, poll or file): Discord
    refuses it with 50006. Covers channel sends, follow-ups and a "send a message" interaction response."""
    if method != "POST" or has_files or not isinstance(body, dict):
        return False
    if path.startswith("/interactions/"):
        if body.get("type") != 4:
            return False
        body = body.get("data") if isinstance(body.get("data"), dict) else {}
    elif not _NEW_MESSAGE_ROUTES.match(path):
        return False
    return not any(body.get(part) for part in MESSAGE_PARTS)


# -- the answer ---------------------------------------------------------------------------------------


def problems_of(method: str, path: str, body: Any) -> list[Problem]:
    """Every reason Discord would refuse this body with 50035 (empty: it accepts it)."""
    if method not in ("POST", "PUT", "PATCH"):
        return []
    found = schema_problems(method, path, body) + cross_field_problems(method, path, body)
    return list({(where, code): (where, code, message) for where, code, message in found}.values())


def error_tree(problems: list[Problem]) -> dict[str, Any]:
    """``[(("embeds", 0, "title"), code, msg)]`` → ``{"embeds": {"0": {"title": {"_errors": [...]}}}}``."""
    tree: dict[str, Any] = {}
    for where, code, message in problems:
        node = tree
        for key in where:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return tree
