"""Every refusal the code raises with a literal key has a message in the catalogue: a key with
no message makes the refusal itself fail (``MissingMessage``) where it should be told to the member.

The source of ``bot/`` is read (``ast``): each call ``SomeError("key", ...)`` of a ``DomainError`` subclass
with a literal key is looked up under the class's prefix, as ``DomainError`` builds it."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import bot
from bot.domain.errors import DomainError
from bot.i18n import catalogue

ROOT = Path(bot.__file__).resolve().parent


def _domain_error_classes() -> dict[str, type[DomainError]]:
    for module in pkgutil.walk_packages([str(ROOT)], "bot."):
        if not module.name.startswith("bot.testing") and not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found: dict[str, type[DomainError]] = {}
    pending: list[type[DomainError]] = [DomainError]
    while pending:
        cls = pending.pop()
        found[cls.__name__] = cls
        pending.extend(cls.__subclasses__())
    return found


def _raised_keys() -> list[tuple[str, str]]:
    """(where, full key) of every literal key given to a DomainError subclass in bot/."""
    classes = _domain_error_classes()
    keys = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in classes
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                error = classes[node.func.id]
                key = node.args[0].value
                full = key if "." in key or not error.prefix else f"{error.prefix}{key}"
                keys.append((f"{path.relative_to(ROOT.parent)}:{node.lineno}", full))
    return keys


def test_every_literal_refusal_key_has_a_message() -> None:
    keys = _raised_keys()
    assert len(keys) > 200  # the scan finds the refusals (a broken scan would pass with none)
    messages = catalogue()
    assert [(where, key) for where, key in keys if key not in messages] == []
