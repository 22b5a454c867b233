"""Messages as readable terminal text: content, embeds as boxes, numbered buttons and menus, files saved.

The numbers printed next to buttons and menus are what ``:click N`` / ``:select N ...`` take;
``#N`` before a message is its short number (``:click #N 2`` presses button 2 of message N).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.testing.fakediscord.model import FakeMessage

_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")
BUTTON_STYLES = {1: "", 2: "", 3: "✓ ", 4: "✗ ", 5: "↗ "}


class Renderer:
    def __init__(
        self, files_dir: Path, names: dict[int, str], on_saved: Callable[[Path], None] | None = None
    ) -> None:
        self.files_dir = files_dir
        self.on_saved = on_saved  # e.g. open images in the system viewer
        self.names = names  # snowflake -> readable name, for mentions
        self.saved: dict[int, Path] = {}  # attachment id -> saved path
        self._counter = 0

    def mentions(self, text: str) -> str:
        """``<@123>`` → ``@alice``, ``<#456>`` → ``#games``, ``<@&789>`` → ``@Judge``."""

        def name(match: re.Match[str]) -> str:
            sigil = "#" if match.group(1) == "#" else "@"
            return sigil + self.names.get(int(match.group(2)), match.group(2))

        return _MENTION.sub(name, text)

    def save_files(self, message: FakeMessage) -> list[Path]:
        paths = []
        for attachment in message.attachments:
            if attachment.id not in self.saved:
                self.files_dir.mkdir(parents=True, exist_ok=True)
                self._counter += 1
                safe = re.sub(r"[^\w.-]", "_", attachment.filename)
                path = self.files_dir / f"{self._counter:03d}-{safe}"
                path.write_bytes(attachment.data)
                self.saved[attachment.id] = path
                if self.on_saved is not None:
                    self.on_saved(path)
            paths.append(self.saved[attachment.id])
        return paths

    def message(self, message: FakeMessage, *, number: int, header: str) -> list[str]:
        lines = [f"#{number} {header}"]
        if message.loading:
            lines.append("  … thinking")
        if message.content:
            lines += ["  " + line for line in self.mentions(message.content).splitlines()]
        files = {
            a.filename: path for a, path in zip(message.attachments, self.save_files(message), strict=True)
        }
        for embed in message.embeds:
            lines += self.embed(embed, files)
        lines += self.components(message.components)
        shown_in_embeds = {name for e in message.embeds for name in _embed_files(e)}
        for name, path in files.items():
            if name not in shown_in_embeds:
                lines.append(f"  📎 {name} → {path}")
        return lines

    def embed(self, embed: dict[str, Any], files: dict[str, Path]) -> list[str]:
        out: list[str] = []
        if embed.get("author", {}).get("name"):
            out.append(self.mentions(embed["author"]["name"]))
        if embed.get("title"):
            out.append(f"**{self.mentions(embed['title'])}**")
        if embed.get("description"):
            out += self.mentions(embed["description"]).splitlines()
        for field in embed.get("fields", []):
            value = self.mentions(str(field.get("value", ""))).splitlines() or [""]
            out.append(f"{self.mentions(str(field.get('name', '')))}: {value[0]}")
            out += ["    " + v for v in value[1:]]
        for key in ("image", "thumbnail"):
            url = embed.get(key, {}).get("url", "")
            if url:
                name = url.removeprefix("attachment://")
                out.append(f"[{key}: {files.get(name, url)}]")
        if embed.get("footer", {}).get("text"):
            out.append(f"— {self.mentions(embed['footer']['text'])}")
        if not out:
            return []
        return ["  ┌─"] + ["  │ " + line for line in out] + ["  └─"]

    def components(self, components: list[dict[str, Any]]) -> list[str]:
        lines: list[str] = []
        buttons: list[str] = []
        button_number = menu_number = 0
        for row in components:
            for item in _interactive(row):
                kind = item.get("type")
                if kind == 2:
                    button_number += 1
                    label = item.get("label") or item.get("emoji", {}).get("name") or "?"
                    state = " (disabled)" if item.get("disabled") else ""
                    link = f" {item['url']}" if item.get("url") else ""
                    buttons.append(
                        f"[{button_number}] {BUTTON_STYLES.get(item.get('style', 2), '')}{label}{state}{link}"
                    )
                elif kind in (3, 5, 6, 7, 8):
                    menu_number += 1
                    what = item.get("placeholder") or item.get("custom_id")
                    count = f" (pick {item.get('min_values', 1)}–{item.get('max_values', 1)})"
                    lines.append(f"  menu {menu_number}: {what}{count}")
                    for i, option in enumerate(item.get("options", []), 1):
                        desc = f" — {option['description']}" if option.get("description") else ""
                        value = option["value"]
                        shown = "" if value == option["label"] or _looks_like_id(value) else f" [{value}]"
                        lines.append(f"      {i}. {option['label']}{shown}{desc}")
                    if kind != 3:
                        lines.append("      (choose members, roles or channels by name)")
            if buttons:
                lines.append("  " + "  ".join(buttons))
                buttons = []
        return lines

    def modal(self, modal: dict[str, Any]) -> list[str]:
        lines = [
            f"  ▣ form: {modal.get('title', '')} — fill it with :submit field=value … (fields by number or id)"
        ]
        for i, item in enumerate(_modal_inputs(modal.get("components", [])), 1):
            label = item.get("label") or item.get("placeholder") or item["custom_id"]
            value = f" = {item['value']!r}" if item.get("value") else ""
            required = "" if item.get("required", True) else " (optional)"
            lines.append(f"      {i}. {label} [{item['custom_id']}]{required}{value}")
        return lines


def _looks_like_id(value: str) -> bool:
    return value.isdigit() and len(value) > 12


def modal_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    return _modal_inputs(modal.get("components", []))


def _modal_inputs(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        if component.get("type") == 18 and isinstance(component.get("component"), dict):
            inner = dict(component["component"])
            inner.setdefault("label", component.get("label"))
            found.append(inner)
        elif component.get("custom_id"):
            found.append(component)
        elif isinstance(component.get("components"), list):
            found += _modal_inputs(component["components"])
    return found


def _interactive(component: dict[str, Any]):
    if component.get("type") in (2, 3, 5, 6, 7, 8):
        yield component
    for key in ("components", "accessory"):
        child = component.get(key)
        if isinstance(child, list):
            for c in child:
                yield from _interactive(c)
        elif isinstance(child, dict):
            yield from _interactive(child)


def _embed_files(embed: dict[str, Any]) -> list[str]:
    return [
        embed.get(k, {}).get("url", "").removeprefix("attachment://")
        for k in ("image", "thumbnail")
        if embed.get(k, {}).get("url", "").startswith("attachment://")
    ]
