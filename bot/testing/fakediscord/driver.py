"""The user's side of Discord: what a person's client sends when they use the bot.

``InteractionDriver`` turns "alice runs ``/deck check list:...``", "bob presses *Confirm*", "carol
picks *2* in the select" into INTERACTION_CREATE payloads registered with the ``FakeDiscord``,
checks them the way Discord's client does (command and option names, option types, choices and
ranges, disabled buttons, select options and counts), delivers them (``_deliver``: subclasses
decide how), and returns a ``Reply`` describing everything the bot did in answer.

Subclasses: ``bot.testing.harness.DiscordHarness`` (in-process) and
``bot.testing.fakediscord.server.RemoteDriver`` (over the gateway; e2e tests and the sandbox).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.backend import FakeDiscord, InteractionRecord, Request
from bot.testing.fakediscord.commands import (
    ATTACHMENT,
    CHANNEL,
    ENTITY_TYPES,
    MENTIONABLE,
    ROLE,
    CommandCatalog,
    CommandError,
    convert_scalar,
)
from bot.testing.fakediscord.model import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)


class HarnessError(AssertionError):
    """The bot failed while handling an interaction, or the test asked for something Discord forbids."""


@dataclass
class UploadFile:
    """An attachment a user uploads as a slash-command option (type 11)."""

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
            raise AssertionError(
                f"the interaction produced no message (response type {self.record.response_type}; "
                f"requests: {[f'{r.method} {r.path}' for r in self.requests]})"
            )
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
    """A message's words: content, then each embed's author, title, description, fields and footer."""
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        if embed.get("author", {}).get("name"):
            parts.append(embed["author"]["name"])
        parts += [str(embed.get(k)) for k in ("title", "description") if embed.get(k)]
        for embed_field in embed.get("fields", []):
            parts.append(f"{embed_field.get('name')}: {embed_field.get('value')}")
        if embed.get("footer", {}).get("text"):
            parts.append(embed["footer"]["text"])
    return "\n".join(parts)


class ErrorCollector(logging.Handler):
    """Collects errors logged with a traceback while the bot handles interactions."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


class InteractionDriver(ABC):
    """Acts as users of one guild. Subclasses provide ``catalog()`` and ``_deliver()``."""

    fake: FakeDiscord
    guild: FakeGuild
    default_user: str = "alice"
    default_locale: str = "en-US"

    def __init__(
        self,
        fake: FakeDiscord,
        guild: FakeGuild,
        *,
        default_user: str = "alice",
        default_locale: str = "en-US",
    ) -> None:
        self.fake = fake
        self.guild = guild
        self.default_user = default_user
        self.default_locale = default_locale
        self.errors = ErrorCollector()
        self._command_ids: dict[str, int] = {}
        self._refusals_seen = 0  # fake.refusals already reported or expected
        self._pings_seen = 0  # fake.message_log position already checked for mass pings
        self._ignored_ephemeral_seen = 0  # fake.ignored_ephemeral already reported
        self._expect_refusal: int | bool | None = None

    def watch_logs(self) -> None:
        """Collect errors the bot logs (same process) so a failed interaction raises ``HarnessError``."""
        if self.errors not in logging.getLogger().handlers:
            logging.getLogger().addHandler(self.errors)

    def close(self) -> None:
        logging.getLogger().removeHandler(self.errors)

    # -- to be provided ---------------------------------------------------------------------------

    @abstractmethod
    def catalog(self) -> CommandCatalog:
        """The commands users can type (the in-process tree, or what the bot synced)."""

    def guild_command_names(self) -> set[str]:
        """Root commands registered for the guild only (their interactions carry ``guild_id``)."""
        return set()

    @abstractmethod
    async def _deliver(self, payload: dict[str, Any], expect_error: bool) -> Reply:
        """Send one interaction to the bot and collect what it did."""

    # -- the world ----------------------------------------------------------------------------------

    def user(self, who: str | FakeMember | FakeUser) -> FakeMember:
        if isinstance(who, FakeMember):
            return who
        if isinstance(who, FakeUser):
            return self.guild.members[who.id]
        return self.guild.member_named(who.lstrip("@"))

    def channel(self, which: str | FakeChannel | None = None) -> FakeChannel:
        if isinstance(which, FakeChannel):
            return which
        return self.guild.channel_named((which or "general").lstrip("#"))

    def messages(
        self, channel: str | FakeChannel | None = None, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel (default ``general``), oldest first, deleted ones left out."""
        return self.fake.channel_messages(self.channel(channel), include_ephemeral=include_ephemeral)

    def dm_channel(self, who: str | FakeMember | FakeUser) -> FakeChannel:
        """The direct-message channel between the bot and a user (where ``member.send`` lands)."""
        return self.fake.dm_channel(self.user(who).user)

    def threads(self) -> list[FakeChannel]:
        return [c for c in self.guild.channels.values() if c.is_thread]

    # -- interactions ---------------------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        *,
        user: str | FakeMember | None = None,
        channel: str | FakeChannel | None = None,
        locale: str | None = None,
        expect_error: bool = False,
        options: dict[str, Any] | None = None,
        expect_refusal: int | bool | None = None,
        **more_options: Any,
    ) -> Reply:
        """Invoke ``/command`` (``"deck check"`` for subcommands) with options by name.

        Options whose names collide with this method's own keywords (``user``, ``channel``,
        ``locale``, ``expect_error``, ``options``) go in ``options={...}``.
        """
        data = self.command_data(command, {**(options or {}), **more_options})
        return await self._interact(
            P.APPLICATION_COMMAND, data, user, channel, locale, None, expect_error, expect_refusal
        )

    async def autocomplete(
        self,
        command: str,
        option: str,
        text: str,
        *,
        user: str | FakeMember | None = None,
        channel: str | FakeChannel | None = None,
        locale: str | None = None,
        options: dict[str, Any] | None = None,
        expect_refusal: int | bool | None = None,
        **other_options: Any,
    ) -> list[dict[str, Any]]:
        """The bot's autocomplete choices (``[{"name", "value"}]``) for ``option`` typed as ``text``.

        ``other_options`` are the options already filled in (the namespace the bot sees).
        """
        data = self.command_data(command, {**(options or {}), **other_options}, focused=(option, text))
        reply = await self._interact(P.AUTOCOMPLETE, data, user, channel, locale, None, False, expect_refusal)
        if expect_refusal:
            return reply.choices
        if reply.record.response_type != 8:
            raise HarnessError(f"autocomplete for {command} {option} was not answered with choices")
        return reply.choices

    async def click(
        self,
        message: FakeMessage | Reply,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        user: str | FakeMember | None = None,
        locale: str | None = None,
        expect_error: bool = False,
        expect_refusal: int | bool | None = None,
    ) -> Reply:
        """Press a button on ``message`` found by custom_id or label."""
        target = _message_of(message)
        try:
            button = target.component(custom_id=custom_id, label=label)
        except LookupError as error:
            raise HarnessError(str(error)) from None
        if button.get("type") != 2:
            raise HarnessError(f"{custom_id or label!r} is not a button")
        if button.get("disabled"):
            raise HarnessError(
                f"button {button.get('label')!r} is disabled; Discord would not let a user press it"
            )
        if "custom_id" not in button:
            raise HarnessError(f"button {button.get('label')!r} is a link button")
        data = P.component_data(button["custom_id"], 2)
        return await self._interact(
            P.MESSAGE_COMPONENT,
            data,
            user,
            self.fake.channels[target.channel_id],
            locale,
            target,
            expect_error,
            expect_refusal,
        )

    async def select(
        self,
        message: FakeMessage | Reply,
        custom_id: str | None = None,
        values: Sequence[Any] = (),
        *,
        label: str | None = None,
        user: str | FakeMember | None = None,
        locale: str | None = None,
        expect_error: bool = False,
        expect_refusal: int | bool | None = None,
    ) -> Reply:
        """Choose ``values`` in a select menu (option values, or members/roles/channels for entity selects)."""
        target = _message_of(message)
        try:
            menu = target.component(custom_id=custom_id, label=label)
        except LookupError as error:
            raise HarnessError(str(error)) from None
        kind = menu.get("type")
        if kind not in (3, 5, 6, 7, 8):
            raise HarnessError(f"{custom_id or label!r} is not a select menu")
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
            entity = {5: 6, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[kind]
            chosen = [self._entity(entity, v, resolved) for v in values]
        data = P.component_data(menu["custom_id"], kind, chosen, resolved)
        return await self._interact(
            P.MESSAGE_COMPONENT,
            data,
            user,
            self.fake.channels[target.channel_id],
            locale,
            target,
            expect_error,
            expect_refusal,
        )

    async def submit_modal(
        self,
        modal_from: Reply,
        values: dict[str, Any] | None = None,
        *,
        user: str | FakeMember | None = None,
        locale: str | None = None,
        expect_error: bool = False,
        expect_refusal: int | bool | None = None,
    ) -> Reply:
        """Submit the modal that ``modal_from`` opened, with ``values`` by input custom_id."""
        modal = modal_from.modal
        if modal is None:
            raise HarnessError("that interaction did not open a modal")
        try:
            data = P.modal_submit_data(modal, dict(values or {}))
        except LookupError as error:
            raise HarnessError(str(error)) from None
        origin = modal_from.record
        message = self.fake.messages.get(origin.message_id) if origin.message_id else None
        channel = self.fake.channels[origin.channel_id]
        actor = user if user is not None else self.guild.members.get(origin.actor.id) or origin.actor
        return await self._interact(
            P.MODAL_SUBMIT, data, actor, channel, locale, message, expect_error, expect_refusal
        )

    # -- building payloads ----------------------------------------------------------------------------

    def command_data(
        self, command: str, options: dict[str, Any], focused: tuple[str, str] | None = None
    ) -> dict[str, Any]:
        """The ``data`` of a slash-command (or, with ``focused``, autocomplete) interaction."""
        catalog = self.catalog()
        try:
            found = catalog.find(command)
            built: list[dict[str, Any]] = []
            resolved: dict[str, Any] = {}
            for name, value in options.items():
                if value is None:
                    continue
                option = found.option(catalog.option_name(found, name))
                built.append(
                    {
                        "name": option["name"],
                        "type": option["type"],
                        "value": self._option_value(option, value, resolved),
                    }
                )
            if focused is not None:
                option = found.option(catalog.option_name(found, focused[0]))
                built.append(
                    {"name": option["name"], "type": option["type"], "value": focused[1], "focused": True}
                )
            else:
                given = {b["name"] for b in built}
                missing = [o["name"] for o in found.options if o.get("required") and o["name"] not in given]
                if missing:
                    raise CommandError(
                        f"/{found.qualified_name}: required option(s) missing: {', '.join(missing)}"
                    )
        except CommandError as error:
            raise HarnessError(str(error)) from None
        root = found.path[0]
        command_id = self._command_ids.setdefault(root, self.fake.snowflake())
        guild_id = self.guild.id if root in self.guild_command_names() else None
        return catalog.interaction_data(
            found, built, command_id=command_id, resolved=resolved, guild_id=guild_id
        )

    def _option_value(self, option: dict[str, Any], value: Any, resolved: dict[str, Any]) -> Any:
        if option["type"] in ENTITY_TYPES:
            return self._entity(option["type"], value, resolved)
        return convert_scalar(option, value)

    def _entity(self, kind: int, value: Any, resolved: dict[str, Any]) -> str:
        """Members, roles, channels and uploads as ids plus the ``resolved`` data Discord sends."""
        if kind == ATTACHMENT:
            upload = value if isinstance(value, UploadFile) else UploadFile(*value)
            attachment = FakeAttachment(
                self.fake.snowflake(), upload.filename, upload.data, content_type=upload.content_type
            )
            data = P.attachment(attachment, self.fake.base_url)
            self.fake.cdn[data["url"]] = upload.data
            resolved.setdefault("attachments", {})[str(attachment.id)] = data
            return str(attachment.id)
        if isinstance(value, str):
            value = self._entity_by_name(kind, value)
        if isinstance(value, FakeRole) and kind in (ROLE, MENTIONABLE):
            resolved.setdefault("roles", {})[str(value.id)] = P.role(value)
            return str(value.id)
        if isinstance(value, FakeChannel) and kind == CHANNEL:
            data = P.channel(value)
            data["permissions"] = str((1 << 53) - 1)
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if isinstance(value, FakeUser) and value.id not in self.guild.members and kind in (6, MENTIONABLE):
            # A user who is not (or no longer) a member, e.g. an id pasted into the option: Discord
            # resolves the user only, with no member data (discord.py then refuses a Member option).
            resolved.setdefault("users", {})[str(value.id)] = P.user(value)
            return str(value.id)
        if isinstance(value, FakeMember | FakeUser) and kind in (6, MENTIONABLE):
            member = self.user(value)
            resolved.setdefault("users", {})[str(member.id)] = P.user(member.user)
            member_data = P.member(member, with_user=False, permissions=self.guild.permissions_of(member))
            resolved.setdefault("members", {})[str(member.id)] = member_data
            return str(member.id)
        raise CommandError(
            f"{value!r} is not a valid {'role' if kind == ROLE else 'channel' if kind == CHANNEL else 'member'}"
        )

    def _entity_by_name(self, kind: int, text: str) -> Any:
        """``alice``/``@alice``/``<@id>`` → member, ``@Judge``/``<@&id>`` → role, ``#games``/``<#id>`` → channel."""
        name = text.strip()
        for prefix, table in (
            ("<@&", self.guild.roles),
            ("<#", self.guild.channels),
            ("<@", self.guild.members),
        ):
            if name.startswith(prefix) and name.endswith(">"):
                found = table.get(int(name[len(prefix) : -1].lstrip("!")))
                if found is not None:
                    return found
        bare = name.lstrip("@#")
        candidates: list[Any] = []
        if kind == CHANNEL:
            candidates = [c for c in self.guild.channels.values() if c.name == bare]
        if kind in (ROLE, MENTIONABLE):
            candidates += [r for r in self.guild.roles.values() if r.name == bare]
        if kind in (6, MENTIONABLE):
            candidates = [m for m in self.guild.members.values() if m.name == bare] + candidates
        if not candidates:
            raise CommandError(
                f"no {'channel' if kind == CHANNEL else 'role' if kind == ROLE else 'member'} named {text!r}"
            )
        return candidates[0]

    async def _interact(
        self,
        kind: int,
        data: dict[str, Any],
        user: str | FakeMember | FakeUser | None,
        channel: str | FakeChannel | None,
        locale: str | None,
        message: FakeMessage | None,
        expect_error: bool,
        expect_refusal: int | bool | None = None,
    ) -> Reply:
        """``expect_refusal``: the test provokes a refusal from Discord (True, or its error code such
        as 50035, 50013); without it any refusal fails the call, even one the bot caught."""
        actor = self.user(user if user is not None else self.default_user)
        payload = self.fake.new_interaction(
            kind=kind,
            data=data,
            channel=self.channel(channel),
            actor=actor,
            locale=locale or self.default_locale,
            message=message,
        )
        self._expect_refusal = expect_refusal
        try:
            return await self._deliver(payload, expect_error or bool(expect_refusal))
        finally:
            self._expect_refusal = None

    # -- collecting what happened ---------------------------------------------------------------------

    def mark(self) -> tuple[int, int, int]:
        """Positions in the request log, error log and message log, to slice what happens next."""
        return len(self.fake.requests), len(self.errors.records), len(self.fake.message_log)

    def reply_since(self, payload: dict[str, Any], marker: tuple[int, int, int], expect_error: bool) -> Reply:
        first_request, first_error, first_log = marker
        record = self.fake.interactions[int(payload["id"])]
        requests = self.fake.requests[first_request:]
        if not expect_error:
            self.raise_errors(first_error, requests, record)
        else:
            self.check_contract()
        created: list[FakeMessage] = []
        edited: list[FakeMessage] = []
        for action, message_id in self.fake.message_log[first_log:]:
            touched = self.fake.messages[message_id]
            bucket = created if action == "create" else edited
            if touched not in bucket and touched not in created:
                bucket.append(touched)
        return Reply(record, requests, created, edited, self.fake)

    def raise_errors(
        self, first_error: int, requests: Sequence[Request] = (), record: InteractionRecord | None = None
    ) -> None:
        records = self.errors.records[first_error:]
        problems = [f"{r.getMessage()}: {r.exc_info[1]!r}" for r in records if r.exc_info]
        problems += self.contract_problems()
        problems += [
            f"{r.method} {r.path} -> {r.response}"
            for r in requests
            if r.status == 404 and isinstance(r.response, dict) and r.response.get("code") == 0
        ]
        if record is not None and not record.acknowledged and not record.late:
            problems.append("the bot never responded (Discord shows 'This interaction failed')")
        if record is not None and record.late:
            problems.append("the first response came after the interaction deadline (use defer())")
        if problems:
            errors = [r.exc_info[1] for r in records if r.exc_info]
            raise HarnessError("the bot failed:\n  " + "\n  ".join(problems)) from (
                errors[0] if errors else None
            )

    def contract_problems(self) -> list[str]:
        """Refusals (see ``backend.is_refusal``), crowd pings and private messages Discord showed to everyone
        since the last check, unless the test expects the refusals.

        A bot that catches the ``HTTPException`` would otherwise hide what real Discord refused.
        """
        problems = []
        expected = self._expect_refusal
        refusals = self.fake.refusals[self._refusals_seen :]
        self._refusals_seen = len(self.fake.refusals)
        codes = [r.response.get("code") if isinstance(r.response, dict) else None for r in refusals]
        if expected and not refusals:
            problems.append(f"expected Discord to refuse a request ({expected}), but it accepted everything")
        for request, code in zip(refusals, codes, strict=True):
            if expected is True or (expected and code == expected):
                continue
            problems.append(
                f"Discord refused {request.method} {request.path} -> {request.status} {request.response}"
            )
        log = self.fake.message_log
        for message_id in dict.fromkeys(
            m for action, m in log[self._pings_seen :] if action in ("create", "edit")
        ):
            message = self.fake.messages[message_id]
            if message.pings.mass:
                problems.append(
                    f"message {message_id} would ping @everyone/@here or a role: {message.content[:120]!r} "
                    f"(allowed_mentions={message.allowed_mentions})"
                )
        self._pings_seen = len(log)
        for message_id in self.fake.ignored_ephemeral[self._ignored_ephemeral_seen :]:
            message = self.fake.messages[message_id]
            problems.append(
                f"message {message_id} was sent as ephemeral, but as the first follow-up after a public "
                f"deferral Discord shows it to everyone: {message.content[:120]!r}"
            )
        self._ignored_ephemeral_seen = len(self.fake.ignored_ephemeral)
        return problems

    def check_contract(self) -> None:
        """Fail on refusals or crowd pings that happened outside an interaction call (background work)."""
        problems = self.contract_problems()
        if problems:
            raise HarnessError("Discord's rules were broken:\n  " + "\n  ".join(problems))


def _message_of(message: FakeMessage | Reply) -> FakeMessage:
    if isinstance(message, Reply):
        found = message.message
        if found is None:
            raise HarnessError("that interaction has no message to act on")
        return found
    return message
