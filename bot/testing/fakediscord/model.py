"""The world a fake Discord knows: users, guilds, roles, members, channels and messages.

Plain dataclasses with no discord.py import, so the same world serves the in-process harness
(``bot.testing.harness``) and the local HTTP/gateway stand-in (``bot.testing.fakediscord.server``).
Only what the bot can observe is modelled; everything is in memory.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL_FLAG = 1 << 6
LOADING_FLAG = 1 << 7

# Permission bits we name in tests (discord.Permissions values, duplicated so this module stays
# discord-free; ``tests/discord`` checks they agree with discord.py).
PERMISSIONS = {
    "add_reactions": 1 << 6,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_application_commands": 1 << 31,
    "manage_roles": 1 << 28,
    "manage_events": 1 << 33,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
    "create_events": 1 << 44,
    "pin_messages": 1 << 51,
}
EVERYONE_PERMISSIONS = sum(
    PERMISSIONS[name]
    for name in (
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_application_commands",
        "create_public_threads",
        "send_messages_in_threads",
    )
)
ALL_PERMISSIONS = (1 << 53) - 1


class SnowflakeFactory:
    """Increasing, time-based ids, so ``created_at`` of fake objects is plausible and ordering holds."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def __call__(self) -> int:
        millis = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._floor)
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)

    _floor = 0

    def skip_to(self, snowflake: int) -> None:
        """Never again make an id with an earlier timestamp than ``snowflake`` (ids stay increasing)."""
        self._floor = max(self._floor, snowflake >> 22)


def permission_value(permissions: int | str | list[str] | tuple[str, ...] | None) -> int:
    """Permissions given as an int, a name (``"manage_guild"``) or a list of names."""
    if permissions is None:
        return 0
    if isinstance(permissions, int):
        return permissions
    names = [permissions] if isinstance(permissions, str) else list(permissions)
    value = 0
    for name in names:
        if name not in PERMISSIONS:
            raise ValueError(f"unknown permission {name!r}; known: {', '.join(sorted(PERMISSIONS))}")
        value |= PERMISSIONS[name]
    return value


@dataclass
class FakeUser:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int = 0
    position: int = 1
    managed: bool = False  # a bot's own role (Discord creates it when the bot joins)

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    type: int = 0  # 0 text, 1 DM, 11 public thread, 12 private thread
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    recipient_id: int | None = None
    # permission overwrites by role or member id: (allow, deny, 0 for a role | 1 for a member)
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # Threads only. Discord archives a thread after ``auto_archive_duration`` minutes without a new
    # message (``last_activity``, in seconds on the stand-in's clock); a locked thread takes messages only
    # from members with Manage Threads; a private thread is visible only to its members.
    auto_archive_duration: int = 1440
    last_activity: float = 0.0
    locked: bool = False
    member_ids: set[int] = field(default_factory=set)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def is_private_thread(self) -> bool:
        return self.type == 12

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeMember:
    user: FakeUser
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention


@dataclass
class FakeScheduledEvent:
    id: int
    guild_id: int
    data: dict[str, Any]


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    premium_tier: int = 0  # boost level: the upload limit per file is 10 MiB up to level 1, 50 at 2, 100 at 3
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    scheduled_events: dict[int, FakeScheduledEvent] = field(default_factory=dict)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def permissions_of(self, member: FakeMember) -> int:
        """Guild-level permissions as Discord computes them (owner and administrator get all)."""
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        return ALL_PERMISSIONS if value & PERMISSIONS["administrator"] else value

    def channel_permissions(self, member: FakeMember, channel: FakeChannel) -> int:
        """Permissions in a channel as Discord computes them: guild roles, then the channel's
        @everyone, role and member overwrites (a thread uses its parent's). No View Channel → nothing;
        no Send Messages → none of the permissions that only matter for sending."""
        value = self.permissions_of(member)
        if value == ALL_PERMISSIONS:
            return value
        parent = self.channels.get(channel.parent_id) if channel.parent_id else None
        overwrites = (parent or channel).overwrites
        allow, deny, _ = overwrites.get(self.id, (0, 0, 0))
        value = (value & ~deny) | allow
        role_allow = role_deny = 0
        for role_id in member.role_ids:
            allow, deny, _ = overwrites.get(role_id, (0, 0, 0))
            role_allow, role_deny = role_allow | allow, role_deny | deny
        value = (value & ~role_deny) | role_allow
        allow, deny, _ = overwrites.get(member.id, (0, 0, 0))
        value = (value & ~deny) | allow
        if not value & PERMISSIONS["view_channel"]:
            return 0
        if not value & PERMISSIONS["send_messages"] and not channel.is_thread:
            value &= ~(
                PERMISSIONS["embed_links"]
                | PERMISSIONS["attach_files"]
                | PERMISSIONS["mention_everyone"]
                | PERMISSIONS["send_messages_in_threads"]
            )
        return value

    def top_position(self, member: FakeMember) -> int:
        """The position of the member's highest role (0: only @everyone)."""
        return max((self.roles[r].position for r in member.role_ids if r in self.roles), default=0)

    def channel_named(self, name: str) -> FakeChannel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r} in {self.name}")

    def member_named(self, name: str) -> FakeMember:
        for member in self.members.values():
            if member.name == name:
                return member
        raise KeyError(f"no member named {name!r} in {self.name}")


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class MessageVersion:
    """What a message looked like after one create or edit (``FakeMessage.history``)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    flags: int


@dataclass
class Pings:
    """Who a message notifies: its content's mentions filtered by ``allowed_mentions``."""

    everyone: bool = False  # @everyone or @here
    roles: list[int] = field(default_factory=list)
    users: list[int] = field(default_factory=list)

    @property
    def mass(self) -> bool:
        """Pings a crowd: @everyone, @here or a role."""
        return self.everyone or bool(self.roles)


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    guild_id: int | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    webhook_id: int | None = None
    message_type: int = 0
    deleted: bool = False
    edited: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    thread_id: int | None = None
    allowed_mentions: dict[str, Any] | None = None  # as sent (None: absent, so Discord parses everything)
    pings: Pings = field(default_factory=Pings)
    created_at: float = (
        0.0  # seconds on the stand-in's clock: Discord caps edits to messages over an hour old
    )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL_FLAG)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING_FLAG)

    def snapshot(self) -> None:
        self.history.append(
            MessageVersion(
                self.content,
                [dict(e) for e in self.embeds],
                list(self.components),
                list(self.attachments),
                self.flags,
            )
        )

    # -- convenience for assertions ------------------------------------------------------------

    @property
    def files(self) -> dict[str, bytes]:
        """Attachments by file name."""
        return {a.filename: a.data for a in self.attachments}

    def walk_components(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects, text inputs) in display order."""
        return list(_walk(self.components))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, *, custom_id: str | None = None, label: str | None = None) -> dict[str, Any]:
        """The component with this custom_id (exact) or label (exact, else case-insensitive prefix)."""
        items = self.walk_components()
        if custom_id is not None:
            for item in items:
                if item.get("custom_id") == custom_id:
                    return item
            raise LookupError(
                f"no component with custom_id {custom_id!r}; have {[i.get('custom_id') for i in items]}"
            )
        if label is not None:
            for item in items:
                if item.get("label") == label or item.get("placeholder") == label:
                    return item
            for item in items:
                text = (item.get("label") or item.get("placeholder") or "").lower()
                if text.startswith(label.lower()):
                    return item
            raise LookupError(f"no component labelled {label!r}; have {[i.get('label') for i in items]}")
        raise TypeError("give custom_id= or label=")


def _walk(components: list[dict[str, Any]]):
    for component in components:
        kind = component.get("type")
        if kind in (2, 3, 4, 5, 6, 7, 8):
            yield component
        for key in ("components", "accessory", "component"):
            child = component.get(key)
            if isinstance(child, list):
                yield from _walk(child)
            elif isinstance(child, dict):
                yield from _walk([child])
