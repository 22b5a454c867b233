"""``DiscordHarness``: drive the real bot through real ``discord.Interaction`` objects, in-process.

The real ``PodkeeperBot`` runs its real ``setup_hook`` (every cog, the SQLite database, the card
database) and caches a fake guild as GUILD_CREATE would. ``slash``/``autocomplete``/``click``/
``select``/``submit_modal`` build INTERACTION_CREATE payloads and hand them to the real
``ConnectionState.parse_interaction_create``, so the real CommandTree, transformers, checks,
ViewStore and Modal code run. Only Discord's edge is fake (``fakediscord.edge``): every response
lands in a ``FakeDiscord`` that keeps messages and their edits for the test to inspect.

See ``bot/testing/README.md`` for a complete example.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.config import SETTINGS, Config
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.backend import FakeDiscord, InteractionRecord, Request
from bot.testing.fakediscord.edge import InProcessEdge
from bot.testing.fakediscord.model import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)

log = logging.getLogger(__name__)

_DISCORD_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
HARNESS_CARDS = Path(__file__).with_name("data") / "harness_cards.jsonl"  # 60 well-known cards, imports fast
QUIET_PERIOD = 0.02  # seconds without progress after which remaining background tasks are left running


class HarnessError(AssertionError):
    """The bot failed while handling an interaction (exception logged, unknown route, missed deadline)."""


@dataclass
class UploadFile:
    """An attachment a user uploads as a slash-command option (``type 11``)."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Reply:
    """Everything one interaction caused, as Discord saw it.

    ``message`` is the interaction's own response (the original response, or for a component
    the message it updated); ``created``/``edited`` list every message touched while it ran,
    including plain channel messages and followups. Messages are live objects: later edits show.
    """

    record: InteractionRecord
    requests: list[Request]
    created: list[FakeMessage]
    edited: list[FakeMessage]
    fake: FakeDiscord

    @property
    def message(self) -> FakeMessage | None:
        if self.record.original_id is not None:
            return self.fake.messages[self.record.original_id]
        followups = self.followups
        return followups[0] if followups else None

    def _require_message(self) -> FakeMessage:
        if self.message is None:
            raise AssertionError(f"the interaction produced no message (response type {self.record.response_type}; "
                                 f"requests: {[f'{r.method} {r.path}' for r in self.requests]})")
        return self.message

    @property
    def content(self) -> str:
        return self._require_message().content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self._require_message().embeds

    @property
    def embed(self) -> dict[str, Any]:
        embeds = self.embeds
        if len(embeds) != 1:
            raise AssertionError(f"expected exactly one embed, got {len(embeds)}")
        return embeds[0]

    @property
    def ephemeral(self) -> bool:
        return self._require_message().ephemeral

    @property
    def components(self) -> list[dict[str, Any]]:
        return self._require_message().components

    @property
    def files(self) -> dict[str, bytes]:
        return self._require_message().files

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer: handy for ``in`` checks."""
        return "\n".join(message_text(m) for m in ([self.message] if self.message else []) + self.followups)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.messages[i] for i in self.record.followup_ids]

    @property
    def channel_messages(self) -> list[FakeMessage]:
        """Messages sent with plain REST (``channel.send``) while the interaction ran."""
        return [m for m in self.created if m.interaction_id is None]

    @property
    def response_type(self) -> int | None:
        return self.record.response_type

    @property
    def deferred(self) -> bool:
        return self.record.response_type in (5, 6)

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.record.choices or [])

    @property
    def callbacks(self) -> list[Request]:
        return [r for r in self.requests if r.is_callback]


def message_text(message: FakeMessage) -> str:
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        parts += [str(embed.get(k)) for k in ("title", "description") if embed.get(k)]
        for embed_field in embed.get("fields", []):
            parts.append(f"{embed_field.get('name')}: {embed_field.get('value')}")
        if embed.get("footer", {}).get("text"):
            parts.append(embed["footer"]["text"])
        if embed.get("author", {}).get("name"):
            parts.append(embed["author"]["name"])
    return "\n".join(parts)


class _ErrorCollector(logging.Handler):
    """Collects errors logged with a traceback while the bot handles interactions."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


def default_config(tmp_path: Path, cards_path: str | Path | None = None, **overrides: Any) -> Config:
    """Defaults (ignoring any ./config.toml and the environment) with a database in ``tmp_path``."""
    base = Config({(s.section, s.key): s.default for s in SETTINGS}, "test")
    values = {"database__path": str(tmp_path / "podkeeper.sqlite3"), "discord__token": "",
              "cards__path": str(cards_path or HARNESS_CARDS)}
    values.update(overrides)
    return base.with_values(**values)


@dataclass
class DiscordHarness:
    """A running bot plus a fake Discord world: one guild, channels, members.

    Members: ``admin`` (Manage Server), ``alice``, ``bob``, ``carol`` (plain members); channels
    ``general`` and ``games``. ``h.user("alice")``/``h.channel("games")`` look them up.
    """

    config: Config
    fake: FakeDiscord
    guild: FakeGuild
    bot: Any = None
    default_user: str = "alice"
    default_locale: str = "en-US"
    edge: InProcessEdge = field(init=False)
    _errors: _ErrorCollector = field(default_factory=_ErrorCollector)
    _command_ids: dict[str, int] = field(default_factory=dict)
    on_boot: Callable[[Any], Awaitable[None]] | None = None

    def __post_init__(self) -> None:
        self.edge = InProcessEdge(self.fake)

    # -- life cycle -----------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def start(cls, tmp_path: Path, *, cards_path: str | Path | None = None, locale: str = "en-US",
                    guild_locale: str = "en-US", members: Sequence[str] = ("alice", "bob", "carol"),
                    interaction_deadline: float | None = 3.0,
                    on_boot: Callable[[Any], Awaitable[None]] | None = None, **config_overrides: Any,
                    ) -> AsyncIterator[DiscordHarness]:
        """Start the real bot on a fresh database in ``tmp_path``; close everything on exit.

        ``cards_path`` is a card file imported when the card tables are empty; by default a
        60-card file (``bot/testing/data/harness_cards.jsonl``) so start-up stays fast; ``config_overrides`` are ``section__key=value`` settings. ``on_boot(bot)`` runs after
        ``setup_hook`` on every start and restart (e.g. to add a test-only cog).
        """
        fake = FakeDiscord(interaction_deadline=interaction_deadline)
        admin = fake.add_user("admin")
        guild = fake.add_guild("Podkeeper Test", owner=admin, locale=guild_locale)
        for name in members:
            fake.add_member(guild, name)
        fake.add_channel(guild, "general")
        fake.add_channel(guild, "games")
        harness = cls(default_config(tmp_path, cards_path, **config_overrides), fake, guild,
                      default_locale=locale, on_boot=on_boot)
        harness.edge.install()
        logging.getLogger().addHandler(harness._errors)
        try:
            await harness._boot()
            yield harness
        finally:
            try:
                if harness.bot is not None:
                    await harness.bot.close()
            finally:
                logging.getLogger().removeHandler(harness._errors)
                harness.edge.uninstall()

    async def _boot(self) -> None:
        from bot.client import PodkeeperBot

        bot = PodkeeperBot(self.config, sync_commands=False)
        self.edge.attach(bot)
        await bot._async_setup_hook()
        await bot.setup_hook()
        if self.on_boot is not None:
            await self.on_boot(bot)
        state = bot._connection
        state.user = discord.ClientUser(state=state, data=P.user(self.fake.bot_user))
        state.application_id = self.fake.application_id
        for guild in self.fake.guilds.values():
            state._add_guild_from_data(P.guild(guild))
        self._unsubscribe = self.fake.subscribe(self._gateway_event)
        bot._ready.set()
        self.bot = bot
        marker = self._mark()
        bot.dispatch("ready")
        await self._settle(marker[2])
        self._raise_errors(marker[1])

    def _gateway_event(self, event: str, data: dict[str, Any]) -> None:
        parser = self.bot._connection.parsers.get(event) if self.bot else None
        if parser is not None:
            parser(data)

    async def restart(self) -> None:
        """Close the bot (database included) and start a new one on the same database file and world."""
        self._unsubscribe()
        await self.bot.close()
        self.bot = None
        await self._boot()

    # -- the world ------------------------------------------------------------------------------

    def user(self, who: str | FakeMember | FakeUser) -> FakeMember:
        if isinstance(who, FakeMember):
            return who
        if isinstance(who, FakeUser):
            return self.guild.members[who.id]
        return self.guild.member_named(who)

    def channel(self, which: str | FakeChannel | None = None) -> FakeChannel:
        if isinstance(which, FakeChannel):
            return which
        return self.guild.channel_named(which or "general")

    def add_member(self, name: str, *, permissions: int | str | list[str] | None = None,
                   roles: Sequence[FakeRole] = ()) -> FakeMember:
        """A new member (also added to the bot's cache, as GUILD_MEMBER_ADD would with the members intent)."""
        member = self.fake.add_member(self.guild, name, permissions=permissions, roles=list(roles))
        self._refresh_guild()
        return member

    def add_role(self, name: str, permissions: int | str | list[str] | None = None) -> FakeRole:
        role = self.fake.add_role(self.guild, name, permissions)
        self._refresh_guild()
        return role

    def add_channel(self, name: str) -> FakeChannel:
        channel = self.fake.add_channel(self.guild, name)
        self._refresh_guild()
        return channel

    def _refresh_guild(self) -> None:
        if self.bot is not None:
            self.bot._connection._add_guild_from_data(P.guild(self.guild))

    def messages(self, channel: str | FakeChannel | None = None, *, include_ephemeral: bool = False
                 ) -> list[FakeMessage]:
        """Messages in a channel (default ``general``), oldest first, deleted ones left out."""
        return self.fake.channel_messages(self.channel(channel), include_ephemeral=include_ephemeral)

    def threads(self) -> list[FakeChannel]:
        return [c for c in self.guild.channels.values() if c.is_thread]

    # -- interactions ---------------------------------------------------------------------------

    async def slash(self, command: str, *, user: str | FakeMember | None = None,
                    channel: str | FakeChannel | None = None, locale: str | None = None,
                    expect_error: bool = False, options: dict[str, Any] | None = None, **more_options: Any
                    ) -> Reply:
        """Invoke ``/command`` (``"deck check"`` for subcommands) with options by name.

        Options whose names collide with this method's own keywords (``user``, ``channel``,
        ``locale``, ``expect_error``, ``options``) go in ``options={...}``.
        """
        leaf, path = self._find_command(command)
        built, resolved = self._options(leaf, {**(options or {}), **more_options})
        data = self._command_payload(path, leaf, built, resolved)
        return await self._interact(P.APPLICATION_COMMAND, data, user, channel, locale, None, expect_error)

    async def autocomplete(self, command: str, option: str, text: str, *, user: str | FakeMember | None = None,
                           channel: str | FakeChannel | None = None, locale: str | None = None,
                           options: dict[str, Any] | None = None, **other_options: Any) -> list[dict[str, Any]]:
        """The bot's autocomplete choices (``[{"name", "value"}]``) for ``option`` typed as ``text``.

        ``other_options`` are the options already filled in (the namespace the bot sees).
        """
        leaf, path = self._find_command(command)
        built, resolved = self._options(leaf, {**(options or {}), **other_options})
        param = self._param(leaf, option)
        built.append({"name": param.display_name, "type": param.type.value, "value": text, "focused": True})
        data = self._command_payload(path, leaf, built, resolved)
        reply = await self._interact(P.AUTOCOMPLETE, data, user, channel, locale, None, False)
        if reply.record.response_type != 8:
            raise HarnessError(f"autocomplete for {command} {option} was not answered with choices")
        return reply.choices

    async def click(self, message: FakeMessage | Reply, *, custom_id: str | None = None, label: str | None = None,
                    user: str | FakeMember | None = None, locale: str | None = None,
                    expect_error: bool = False) -> Reply:
        """Press a button on ``message`` found by custom_id or label."""
        target = _message_of(message)
        button = target.component(custom_id=custom_id, label=label)
        if button.get("type") != 2:
            raise HarnessError(f"{custom_id or label!r} is not a button")
        if button.get("disabled"):
            raise HarnessError(f"button {button.get('label')!r} is disabled; Discord would not let a user press it")
        if "custom_id" not in button:
            raise HarnessError(f"button {button.get('label')!r} is a link button")
        data = P.component_data(button["custom_id"], 2)
        return await self._interact(P.MESSAGE_COMPONENT, data, user, self._channel_of(target), locale, target,
                                    expect_error)

    async def select(self, message: FakeMessage | Reply, custom_id: str | None = None, values: Sequence[Any] = (),
                     *, label: str | None = None, user: str | FakeMember | None = None, locale: str | None = None,
                     expect_error: bool = False) -> Reply:
        """Choose ``values`` in a select menu (string values, or members/roles/channels for entity selects)."""
        target = _message_of(message)
        menu = target.component(custom_id=custom_id, label=label)
        kind = menu.get("type")
        if menu.get("disabled"):
            raise HarnessError(f"select {menu.get('custom_id')!r} is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise HarnessError(f"select {menu['custom_id']!r} takes {low}..{high} values, got {len(values)}")
        resolved: dict[str, Any] = {}
        if kind == 3:
            allowed = [o["value"] for o in menu.get("options", [])]
            chosen = [str(v) for v in values]
            wrong = [v for v in chosen if v not in allowed]
            if wrong:
                raise HarnessError(f"select {menu['custom_id']!r} has no options {wrong}; options: {allowed}")
        else:
            chosen = [self._resolve_entity(v, resolved) for v in values]
        data = P.component_data(menu["custom_id"], kind, chosen, resolved)
        return await self._interact(P.MESSAGE_COMPONENT, data, user, self._channel_of(target), locale, target,
                                    expect_error)

    async def submit_modal(self, modal_from: Reply, values: dict[str, Any] | None = None, *,
                           user: str | FakeMember | None = None, locale: str | None = None,
                           expect_error: bool = False) -> Reply:
        """Submit the modal that ``modal_from`` opened, with ``values`` by input custom_id."""
        modal = modal_from.modal
        if modal is None:
            raise HarnessError("that interaction did not open a modal")
        data = P.modal_submit_data(modal, dict(values or {}))
        origin = modal_from.record
        message = self.fake.messages.get(origin.message_id) if origin.message_id else None
        channel = self.fake.channels[origin.channel_id]
        actor = user if user is not None else self.guild.members.get(origin.actor.id) or origin.actor
        return await self._interact(P.MODAL_SUBMIT, data, actor, channel, locale, message, expect_error)

    async def settle(self) -> None:
        """Let pending bot tasks finish (e.g. after a cog's timer fires)."""
        await self._settle(set(asyncio.all_tasks()))

    # -- internals ------------------------------------------------------------------------------

    def _channel_of(self, message: FakeMessage) -> FakeChannel:
        return self.fake.channels[message.channel_id]

    def _find_command(self, command: str) -> tuple[app_commands.Command, list[str]]:
        parts = command.strip().lstrip("/").split()
        tree = self.bot.tree
        found = tree.get_command(parts[0], guild=discord.Object(self.guild.id)) or tree.get_command(parts[0])
        if found is None:
            names = sorted(c.name for c in tree.get_commands())
            raise HarnessError(f"no slash command /{parts[0]}; the bot has: {', '.join(names)}")
        for part in parts[1:]:
            if not isinstance(found, app_commands.Group):
                raise HarnessError(f"/{command}: {found.qualified_name} has no subcommands")
            child = found.get_command(part)
            if child is None:
                raise HarnessError(f"/{command}: no subcommand {part!r} in {found.qualified_name}; have "
                                   f"{[c.name for c in found.commands]}")
            found = child
        if not isinstance(found, app_commands.Command):
            raise HarnessError(f"/{command} is a group; add a subcommand: {[c.name for c in found.commands]}")
        return found, parts

    @staticmethod
    def _param(command: app_commands.Command, name: str) -> app_commands.Parameter:
        for param in command.parameters:
            if name in (param.name, param.display_name):
                return param
        raise HarnessError(f"/{command.qualified_name} has no option {name!r}; options: "
                           f"{[p.display_name for p in command.parameters]}")

    def _options(self, command: app_commands.Command, options: dict[str, Any]
                 ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        built: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if value is None:
                continue
            param = self._param(command, name)
            built.append({"name": param.display_name, "type": param.type.value,
                          "value": self._option_value(param.type, value, resolved)})
        return built, resolved

    def _option_value(self, kind: discord.AppCommandOptionType, value: Any, resolved: dict[str, Any]) -> Any:
        T = discord.AppCommandOptionType
        if kind is T.string:
            return str(value)
        if kind is T.integer:
            return int(value)
        if kind is T.number:
            return float(value)
        if kind is T.boolean:
            return bool(value)
        if kind is T.attachment:
            upload = value if isinstance(value, UploadFile) else UploadFile(*value)
            attachment = FakeAttachment(self.fake.snowflake(), upload.filename, upload.data,
                                        content_type=upload.content_type)
            data = P.attachment(attachment, self.fake.base_url)
            self.fake.cdn[data["url"]] = upload.data
            resolved.setdefault("attachments", {})[str(attachment.id)] = data
            return str(attachment.id)
        return self._resolve_entity(value, resolved)

    def _resolve_entity(self, value: Any, resolved: dict[str, Any]) -> str:
        """Users, members, roles and channels as ids plus their ``resolved`` data."""
        if isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = P.role(value)
            return str(value.id)
        if isinstance(value, FakeChannel):
            data = P.channel(value)
            data["permissions"] = str((1 << 53) - 1)
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if isinstance(value, str) and value not in [m.name for m in self.guild.members.values()]:
            for role in self.guild.roles.values():
                if role.name == value:
                    return self._resolve_entity(role, resolved)
            for channel in self.guild.channels.values():
                if channel.name == value:
                    return self._resolve_entity(channel, resolved)
        member = self.user(value)
        resolved.setdefault("users", {})[str(member.id)] = P.user(member.user)
        member_data = P.member(member, with_user=False, permissions=self.guild.permissions_of(member))
        resolved.setdefault("members", {})[str(member.id)] = member_data
        return str(member.id)

    def _command_payload(self, path: list[str], leaf: app_commands.Command, options: list[dict[str, Any]],
                         resolved: dict[str, Any]) -> dict[str, Any]:
        nested = options
        if len(path) == 3:
            nested = [{"type": 2, "name": leaf.parent.name, "options": [  # type: ignore[union-attr]
                {"type": 1, "name": leaf.name, "options": options}]}]
        elif len(path) == 2:
            nested = [{"type": 1, "name": leaf.name, "options": options}]
        root = leaf.root_parent or leaf
        command_id = self._command_ids.setdefault(root.name, self.fake.snowflake())
        guild_id = self.guild.id if self.bot.tree.get_command(root.name, guild=discord.Object(self.guild.id)) else None
        return P.command_data(command_id, root.name, nested, resolved, guild_id)

    def _mark(self) -> tuple[int, int, set[asyncio.Task[Any]]]:
        return len(self.fake.requests), len(self._errors.records), set(asyncio.all_tasks())

    async def _interact(self, kind: int, data: dict[str, Any], user: str | FakeMember | FakeUser | None,
                        channel: str | FakeChannel | None, locale: str | None, message: FakeMessage | None,
                        expect_error: bool) -> Reply:
        actor = self.user(user if user is not None else self.default_user)
        payload = self.fake.new_interaction(kind=kind, data=data, channel=self.channel(channel), actor=actor,
                                            locale=locale or self.default_locale, message=message)
        first_request, first_error, before = self._mark()
        first_log = len(self.fake.message_log)
        self.bot._connection.parse_interaction_create(payload)
        await self._settle(before)
        record = self.fake.interactions[int(payload["id"])]
        requests = self.fake.requests[first_request:]
        if not expect_error:
            self._raise_errors(first_error, requests, record)
        created, edited = [], []
        for action, message_id in self.fake.message_log[first_log:]:
            touched = self.fake.messages[message_id]
            bucket = created if action == "create" else edited
            if touched not in bucket and touched not in created:
                bucket.append(touched)
        return Reply(record, requests, created, edited, self.fake)

    def _raise_errors(self, first_error: int, requests: Sequence[Request] = (),
                      record: InteractionRecord | None = None) -> None:
        problems = [f"{r.getMessage()}: {r.exc_info[1]!r}" for r in self._errors.records[first_error:]
                    if r.exc_info]
        problems += [f"{r.method} {r.path} -> {r.response}" for r in requests
                     if r.status == 404 and isinstance(r.response, dict) and r.response.get("code") == 0]
        if record is not None and not record.acknowledged and not record.late:
            problems.append("the bot never responded (Discord shows 'This interaction failed')")
        if record is not None and record.late:
            problems.append("the first response came after the interaction deadline (use defer())")
        if problems:
            errors = [r.exc_info[1] for r in self._errors.records[first_error:] if r.exc_info]
            raise HarnessError("the bot failed:\n  " + "\n  ".join(problems)) from (errors[0] if errors else None)

    async def _settle(self, before: set[asyncio.Task[Any]], timeout: float = 10.0) -> None:
        """Wait for the tasks discord.py spawned for the dispatch, then for their offspring to go quiet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        current = asyncio.current_task()
        for _ in range(3):
            await asyncio.sleep(0)
        while True:
            new = {t for t in asyncio.all_tasks() if t not in before and t is not current and not t.done()}
            dispatch = {t for t in new if t.get_name().startswith(_DISCORD_TASK_PREFIXES)
                        and "timeout" not in t.get_name()}
            if not new:
                return
            if loop.time() > deadline:
                raise HarnessError(f"the bot did not finish within {timeout} s: {[t.get_name() for t in dispatch]}")
            progress_marker = (len(self.fake.requests), len(dispatch))
            done, _ = await asyncio.wait(dispatch or new, timeout=QUIET_PERIOD if not dispatch else
                                         max(0.0, deadline - loop.time()), return_when=asyncio.FIRST_COMPLETED)
            if not dispatch and not done and progress_marker == (len(self.fake.requests), 0):
                return  # only long-lived background tasks (timers, loops) remain


def _message_of(message: FakeMessage | Reply) -> FakeMessage:
    if isinstance(message, Reply):
        found = message.message
        if found is None:
            raise HarnessError("that interaction has no message to act on")
        return found
    return message
