"""The sandbox's command language: slash commands as typed in Discord, plus client commands.

Slash commands: ``/deck check decklist:"1 Sol Ring\\n1 Command Tower" ruleset:commander``,
``/pod start players:@alice @bob``: an option's value runs until the next ``name:`` of that
command; quotes are optional and ``\\n`` is a line break. In text options ``@alice``/``#games``
become mentions, as Discord's client does; member/role/channel options take names.

Client commands (``:`` prefix, or ``/`` when the bot has no command of that name) are the ``_cmd_*``
methods registered with ``@client_command(usage)``; ``:help`` is built from them and from the bot's synced
command tree (``bot.sandbox.guide``), so it cannot describe an option the bot does not have.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.sandbox import guide
from bot.sandbox.render import Renderer, modal_inputs
from bot.sandbox.session import SandboxSession
from bot.testing.fakediscord.commands import ATTACHMENT, STRING, CommandCatalog, CommandError, FoundCommand
from bot.testing.fakediscord.driver import HarnessError, Reply, UploadFile
from bot.testing.fakediscord.model import FakeMessage

log = logging.getLogger(__name__)
_USAGE: dict[str, str] = {}  # client command name -> usage shown by :help, in definition order


def client_command(usage: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``_cmd_<name>`` as the client command ``:<name>`` with ``usage`` for ``:help``."""

    def register(handler: Callable[..., Any]) -> Callable[..., Any]:
        _USAGE[handler.__name__.removeprefix("_cmd_")] = usage
        return handler

    return register


CLIENT_COMMANDS = (
    "as",
    "in",
    "locale",
    "click",
    "select",
    "submit",
    "restart",
    "messages",
    "users",
    "channels",
    "wait",
    "help",
    "tour",
    "quit",
    "exit",
)


class ClientError(Exception):
    """A line the sandbox cannot run; shown to the user, nothing happens."""


class SandboxClient:
    def __init__(self, session: SandboxSession, files_dir: Path, *, open_images: bool = False) -> None:
        self.session = session
        self.renderer = Renderer(files_dir, {}, on_saved=open_image if open_images else None)
        self.modals: dict[str, Reply] = {}  # user name -> the reply that opened their pending modal
        self.quit_requested = False
        self.failures = 0  # lines that could not run or made the bot fail (script mode exits 1)

    # -- entry ------------------------------------------------------------------------------------

    async def execute(self, line: str) -> list[str]:
        """Run one line; return what to print."""
        line = line.strip()
        if not line or line.startswith("#"):
            return []
        log.info(
            "sandbox line as %s in #%s: %s", self.session.current_user, self.session.current_channel, line
        )
        try:
            if line.startswith(":") or (line.startswith("/") and self._is_client_command(line)):
                out = await self._client_command(line[1:])
            elif line.startswith("/"):
                out = await self._slash(line)
            else:
                raise ClientError("start with / for a slash command or : for a client command (:help)")
        except (ClientError, HarnessError, CommandError, LookupError, ValueError) as error:
            self.failures += 1
            out = self.shown() + [f"! {line_}" for line_ in str(error).splitlines()]
        return out

    def _is_client_command(self, line: str) -> bool:
        word = line[1:].split(maxsplit=1)[0] if line[1:].strip() else ""
        if word not in CLIENT_COMMANDS:
            return False
        try:
            bot_roots = {s["name"] for s in self.catalog().roots()}
        except HarnessError:
            bot_roots = set()
        return word not in bot_roots

    def catalog(self) -> CommandCatalog:
        return self.session.driver.catalog()

    # -- slash commands ----------------------------------------------------------------------------

    def parse_slash(self, line: str) -> tuple[FoundCommand, dict[str, Any]]:
        found, rest = self.split_command(line)
        names = [o["name"] for o in found.options]
        values: dict[str, Any] = {}
        if not names:
            if rest.strip():
                raise ClientError(f"/{found.qualified_name} takes no options")
            return found, values
        matches = list(_option_pattern(found).finditer(rest))
        if rest.strip() and (not matches or rest[: matches[0].start()].strip()):
            raise ClientError(
                f"options are written name:value; /{found.qualified_name} has: "
                f"{', '.join(n + ':' for n in names)}"
            )
        for i, match in enumerate(matches):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
            values[match.group(1)] = self._value(
                found.option(match.group(1)), _unquote(rest[match.end() : end])
            )
        return found, values

    def split_command(self, line: str) -> tuple[FoundCommand, str]:
        """The longest command path at the start of the line, and the rest."""
        words = line.strip().lstrip("/").split(" ")
        for size in (3, 2, 1):
            if len(words) < size or any(":" in w for w in words[:size]):
                continue
            try:
                return self.catalog().find(" ".join(words[:size])), " ".join(words[size:])
            except CommandError as error:
                if size == 1:
                    raise ClientError(str(error)) from None
        raise ClientError("type a command after /")

    def _value(self, option: dict[str, Any], text: str) -> Any:
        if option["type"] == ATTACHMENT:
            path = Path(text).expanduser()
            if not path.is_file():
                raise ClientError(f"option {option['name']}: no file {text!r}")
            return UploadFile(path.name, path.read_bytes())
        if option["type"] == STRING:
            return self._mentions(text)
        return text

    def _mentions(self, text: str) -> str:
        """``@alice`` → ``<@id>``, ``@Role`` → ``<@&id>``, ``#games`` → ``<#id>``, as Discord's client inserts them."""
        guild = self.session.guild

        def member_or_role(match: re.Match[str]) -> str:
            name = match.group(1)
            for member in guild.members.values():
                if member.name == name:
                    return f"<@{member.id}>"
            for role in guild.roles.values():
                if role.name == name:
                    return f"<@&{role.id}>"
            return match.group(0)

        def channel(match: re.Match[str]) -> str:
            for found in guild.channels.values():
                if found.name == match.group(1):
                    return f"<#{found.id}>"
            return match.group(0)

        text = re.sub(r"(?<![\w<])@([\w.-]+)", member_or_role, text)
        return re.sub(r"(?<![\w<])#([\w-]+)", channel, text)

    async def _slash(self, line: str) -> list[str]:
        found, values = self.parse_slash(line)
        reply = await self.session.driver.slash(
            found.qualified_name,
            user=self.session.current_user,
            channel=self.session.channel(),
            options=values,
            locale=self.session.locale_of(),
        )
        return self._after(reply)

    # -- client commands ----------------------------------------------------------------------------

    async def _client_command(self, text: str) -> list[str]:
        words = split_words(text)
        if not words:
            raise ClientError("a client command follows ':' (try :help)")
        name, args = words[0], words[1:]
        handler: Callable[[list[str]], Any] | None = getattr(self, f"_cmd_{name}", None)
        if name not in CLIENT_COMMANDS or handler is None:
            raise ClientError(f"unknown client command :{name} (try :help)")
        return await handler(args)

    def client_commands(self) -> list[tuple[str, Callable[..., Any]]]:
        """(usage, handler) of every client command, for ``:help``."""
        return [(usage, getattr(self, f"_cmd_{name}")) for name, usage in _USAGE.items()]

    @client_command("help")
    async def _cmd_help(self, args: list[str]) -> list[str]:
        """this list"""
        return guide.help_text(self.catalog(), self.client_commands())

    @client_command("tour")
    async def _cmd_tour(self, args: list[str]) -> list[str]:
        """the guided tour again"""
        return guide.tour(self.catalog(), self.session.locale_of())

    @client_command("quit")
    async def _cmd_quit(self, args: list[str]) -> list[str]:
        """leave (or Ctrl-D)"""
        self.quit_requested = True
        return ["bye"]

    _cmd_exit = _cmd_quit

    @client_command("as NAME")
    async def _cmd_as(self, args: list[str]) -> list[str]:
        """act as another user (alice, bob, carol, admin = the owner; a new name joins the server)"""
        if len(args) != 1:
            raise ClientError(":as NAME")
        name = args[0].lstrip("@")
        created = not any(m.name == name for m in self.session.guild.members.values())
        self.session.add_user(name)
        self.session.current_user = name
        return [f"now acting as {name}" + (" (new member)" if created else "")]

    @client_command("in CHANNEL")
    async def _cmd_in(self, args: list[str]) -> list[str]:
        """switch channel (general, games, or a thread the bot opened)"""
        if len(args) < 1:
            raise ClientError(":in CHANNEL")
        channel = self.session.channel(" ".join(args))
        self.session.current_channel = channel.name
        return [f"now in #{channel.name}"]

    @client_command("locale [LANG]")
    async def _cmd_locale(self, args: list[str]) -> list[str]:
        """set your Discord language: en, ja, zh-Hans, zh-Hant (or a Discord code such as fr)"""
        user = self.session.current_user
        if args:
            self.session.set_locale(user, args[0])
        return [f"{user}'s Discord language: {self.session.locale_of(user)}"]

    @client_command("users")
    async def _cmd_users(self, args: list[str]) -> list[str]:
        """who is in the server"""
        names = [
            m.name + (" (owner)" if m.id == self.session.guild.owner_id else "")
            for m in self.session.guild.members.values()
            if not m.user.bot
        ]
        return [f"users: {', '.join(names)}; you are {self.session.current_user}"]

    @client_command("channels")
    async def _cmd_channels(self, args: list[str]) -> list[str]:
        """the server's channels and threads"""
        return [
            f"channels: {', '.join('#' + n for n in self.session.channel_names())}; "
            f"you are in #{self.session.current_channel}"
        ]

    @client_command("restart")
    async def _cmd_restart(self, args: list[str]) -> list[str]:
        """restart the bot (the database is kept)"""
        await self.session.restart()
        return self.shown() + ["bot restarted (same database); old buttons should still work"]

    @client_command("wait SECONDS")
    async def _cmd_wait(self, args: list[str]) -> list[str]:
        """let time pass (timers)"""
        import asyncio

        seconds = float(args[0]) if args else 1.0
        await asyncio.sleep(min(seconds, 600))
        await self.session.driver.wait_quiet()
        return self.shown()

    @client_command("messages [N]")
    async def _cmd_messages(self, args: list[str]) -> list[str]:
        """show the last N messages of the channel again"""
        count = int(args[0]) if args else 5
        channel = self.session.channel()
        messages = [
            m
            for m in self.session.fake.channel_messages(channel, include_ephemeral=True)
            if self.session.visible(m)
        ][-count:]
        out: list[str] = []
        for message in messages:
            out += self.renderer.message(
                message, number=self.session.number(message), header=self._header(message)
            )
        return out or [f"no messages in #{channel.name}"]

    def _target(self, args: list[str], kinds: tuple[int, ...]) -> tuple[FakeMessage, list[str]]:
        if args and args[0].startswith("#") and args[0][1:].isdigit():
            return self.session.message_by_number(int(args[0][1:])), args[1:]
        return self.session.latest_with_components(kinds), args

    @client_command("click [#M] N|LABEL")
    async def _cmd_click(self, args: list[str]) -> list[str]:
        """press button N, or the one whose label is, starts with or contains LABEL, on the newest message (or #M)"""
        message, rest = self._target(args, (2,))
        if not rest:
            raise ClientError(":click N or :click LABEL")
        which = " ".join(rest)
        buttons = message.buttons
        if which.isdigit() and 1 <= int(which) <= len(buttons):
            button = buttons[int(which) - 1]
        elif which.isdigit() and not _matching(buttons, which, key="label"):
            raise ClientError(f"message #{self.session.number(message)} has buttons 1–{len(buttons)}")
        else:
            button = _pick(buttons, which, key="label", what="button")
        reply = await self.session.driver.click(
            message,
            custom_id=button.get("custom_id"),
            label=None if button.get("custom_id") else button.get("label"),
            user=self.session.current_user,
            locale=self.session.locale_of(),
        )
        return self._after(reply)

    @client_command("select [#M] [K] V…")
    async def _cmd_select(self, args: list[str]) -> list[str]:
        """choose options in menu K (default 1) by number, then by value or (part of) the label"""
        message, rest = self._target(args, (3, 5, 6, 7, 8))
        menus = message.selects
        index = 1
        if len(rest) > 1 and rest[0].isdigit() and len(menus) > 1:
            index, rest = int(rest[0]), rest[1:]
        if not 1 <= index <= len(menus):
            raise ClientError(f"message #{self.session.number(message)} has menus 1–{len(menus)}")
        menu = menus[index - 1]
        values = [menu_value(menu, word) for word in rest]
        reply = await self.session.driver.select(
            message,
            menu["custom_id"],
            values,
            user=self.session.current_user,
            locale=self.session.locale_of(),
        )
        return self._after(reply)

    @client_command("submit F=V …")
    async def _cmd_submit(self, args: list[str]) -> list[str]:
        """fill and send the form the bot opened; fields by number or id (words after a value belong to it)"""
        opened = self.modals.get(self.session.current_user)
        if opened is None or opened.modal is None:
            raise ClientError(f"{self.session.current_user} has no open form; a button opens one")
        inputs = modal_inputs(opened.modal)
        values: dict[str, Any] = {}
        for field, value in _field_values(args):
            if field.isdigit() and 1 <= int(field) <= len(inputs):
                field = inputs[int(field) - 1]["custom_id"]
            item = next((i for i in inputs if i["custom_id"] == field), None)
            if item is None:
                raise ClientError(f"the form has no field {field!r}")
            values[field] = (
                value.split(",") if item.get("type") not in (4, None) else value.replace("\\n", "\n")
            )
        reply = await self.session.driver.submit_modal(
            opened, values, user=self.session.current_user, locale=self.session.locale_of()
        )
        del self.modals[self.session.current_user]
        return self._after(reply)

    # -- output -------------------------------------------------------------------------------------

    def _after(self, reply: Reply) -> list[str]:
        out = self.shown()
        if reply.modal is not None:
            self.modals[self.session.current_user] = reply
            out += self.renderer.modal(reply.modal)
        if not out:
            out = ["(the bot acknowledged; nothing visible changed)"]
        return out

    def _header(self, message: FakeMessage) -> str:
        channel = self.session.fake.channels.get(message.channel_id)
        where = f"#{channel.name}" if channel else "?"
        who = message.author.name
        if message.ephemeral and message.interaction_user is not None:
            return f"{who} in {where} (only {message.interaction_user.name} can see this)"
        return f"{who} in {where}"

    def shown(self) -> list[str]:
        """Everything that changed since the last output: new messages, updates, deletions."""
        self.renderer.names = self._names()
        out: list[str] = []
        for entry in self.session.new_log_entries():
            number = self.session.number(entry.message)
            if entry.action == "delete":
                out.append(f"#{number} deleted")
                continue
            header = self._header(entry.message) + (" — updated" if entry.action == "edit" else "")
            out += self.renderer.message(entry.message, number=number, header=header)
        return out

    def _names(self) -> dict[int, str]:
        guild = self.session.guild
        names = {m.id: m.name for m in guild.members.values()}
        names.update({r.id: r.name for r in guild.roles.values()})
        names.update({c.id: c.name for c in guild.channels.values()})
        return names

    # -- completion ---------------------------------------------------------------------------------

    def complete_static(self, line: str) -> list[str] | None:
        """Completions that need no bot round trip; ``None`` when the bot's autocomplete is needed."""
        if line.startswith(":") or (line.startswith("/") and " " not in line):
            prefix = line[:1]
            words = [f"{prefix}{c} " for c in CLIENT_COMMANDS] if prefix == ":" else []
            if prefix == "/":
                with contextlib.suppress(HarnessError):
                    words += sorted({f"/{leaf.path[0]} " for leaf in self.catalog().leaves()})
            return [w for w in words if w.startswith(line)]
        if not line.startswith("/"):
            return []
        try:
            found, rest = self.split_command(line)
        except ClientError:
            return self._complete_path(line)
        if not rest and not line.endswith(" "):
            return [f"/{found.qualified_name} "]
        current = rest.split(" ")[-1]
        head = line[: len(line) - len(current)]
        if ":" not in current:
            words = [f"{o['name']}:" for o in found.options]
            paths = self._complete_path(line)
            return [head + w for w in words if w.startswith(current)] + paths
        name, _, typed = current.partition(":")
        try:
            option = found.option(name)
        except CommandError:
            return []
        if option.get("choices"):
            return [
                f"{head}{name}:{c['value']} " for c in option["choices"] if str(c["value"]).startswith(typed)
            ]
        if option["type"] in (6, 9):
            return [
                f"{head}{name}:{m.name} "
                for m in self.session.guild.members.values()
                if m.name.startswith(typed.lstrip("@")) and not m.user.bot
            ]
        if option.get("autocomplete"):
            return None
        return []

    def _complete_path(self, line: str) -> list[str]:
        try:
            leaves = self.catalog().leaves()
        except HarnessError:
            return []
        typed = line.lstrip("/")
        return sorted(
            {
                f"/{leaf.qualified_name} "
                for leaf in leaves
                if leaf.qualified_name.startswith(typed) and leaf.qualified_name != typed.strip()
            }
        )

    async def complete_with_bot(self, line: str) -> list[str]:
        """The bot's own autocomplete for the option being typed at the end of ``line``."""
        found, rest = self.split_command(line)
        matches = list(_option_pattern(found).finditer(rest)) if found.options else []
        if not matches:
            return []
        last = matches[-1]
        name, typed = last.group(1), rest[last.end() :]
        head = line[: len(line) - len(typed)]
        others: dict[str, Any] = {}
        with contextlib.suppress(ClientError, CommandError):
            _, others = self.parse_slash(f"/{found.qualified_name} {rest[: last.start()]}")
        choices = await self.session.driver.autocomplete(
            found.qualified_name,
            name,
            _unquote(typed),
            user=self.session.current_user,
            channel=self.session.channel(),
            options=others,
            locale=self.session.locale_of(),
        )
        return [f"{head}{_quote(str(c['value']))} " for c in choices]


def _option_pattern(found: FoundCommand) -> re.Pattern[str]:
    names = sorted((o["name"] for o in found.options), key=len, reverse=True)
    return re.compile(r"(?:^|\s)(" + "|".join(map(re.escape, names)) + r"):")


def open_image(path: Path) -> None:
    """Show a saved image in the system's viewer (``--open-images``); other files are left alone."""
    import webbrowser

    if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".gif", ".webp"):
        webbrowser.open(path.resolve().as_uri())


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    return text.replace("\\n", "\n")


def _quote(text: str) -> str:
    return f'"{text}"' if " " in text else text


# Words of a client command: whitespace-separated; "double" or 'single' quotes group words only when a whole
# word is quoted, so an apostrophe inside a word (``:click I'm here``, ``1=Urza's Saga``) is just a letter.
_WORD = re.compile(r"""(?:"([^"]*)"|'([^']*)')(?=\s|$)|(\S+)""")


def split_words(text: str) -> list[str]:
    return [next(group for group in match.groups() if group is not None) for match in _WORD.finditer(text)]


def menu_value(menu: dict[str, Any], word: str) -> Any:
    """An option by its number first (what the sandbox shows), then its value, then its label or part of it."""
    if menu.get("type") != 3:
        return word  # members/roles/channels by name
    options = menu.get("options", [])
    if word.isdigit() and 1 <= int(word) <= len(options):
        return options[int(word) - 1]["value"]
    exact = [o for o in options if word == o["value"]]
    if exact:
        return exact[0]["value"]
    return _pick(options, word, key="label", what="option")["value"]


def _field_values(args: list[str]) -> list[tuple[str, str]]:
    """``1=Urza's Saga name=x`` → [("1", "Urza's Saga"), ("name", "x")]: a word without ``=`` continues a value."""
    pairs: list[tuple[str, str]] = []
    for arg in args:
        field, sep, value = arg.partition("=")
        if sep and field:
            pairs.append((field, value))
        elif pairs:
            pairs[-1] = (pairs[-1][0], f"{pairs[-1][1]} {arg}")
        else:
            raise ClientError("fields are written field=value (field by number or id)")
    return pairs


def _matching(items: list[dict[str, Any]], text: str, *, key: str) -> list[dict[str, Any]]:
    """Items whose ``key`` is ``text``, else starts with it, else contains it (ignoring case): the first
    rule that matches anything wins, so "Keep" picks "Keep" even beside "Keep 6"."""
    wanted = text.casefold()
    labels = [(item, str(item.get(key) or "").casefold()) for item in items]
    for rule in (str.__eq__, str.startswith, str.__contains__):
        found = [item for item, label in labels if rule(label, wanted)]
        if found:
            return found
    return []


def _pick(items: list[dict[str, Any]], text: str, *, key: str, what: str) -> dict[str, Any]:
    found = _matching(items, text, key=key)
    labels = [str(item.get(key)) for item in items]
    if not found:
        raise ClientError(f"no {what} {text!r}; {what}s: {labels}")
    if len({str(item.get(key)).casefold() for item in found}) > 1:
        raise ClientError(f"{text!r} matches several {what}s: {[str(item.get(key)) for item in found]}")
    return found[0]
