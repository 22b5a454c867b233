"""Discord-shaped JSON payloads built from the fake world (``model.py``).

These are the shapes discord.py 2.7 parses: users, members, roles, channels, GUILD_CREATE guilds,
messages, and the INTERACTION_CREATE kinds a user can trigger (slash command, autocomplete,
component click, modal submit). Keys discord.py *requires* are always present (see
``docs/discord-testing.md``: ``id, application_id, type, token, version, attachment_size_limit``).
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from bot.testing.fakediscord.model import (
    DISCORD_EPOCH_MS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024


def timestamp_of(snowflake: int) -> str:
    millis = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(millis / 1000, tz=dt.UTC).isoformat()


def parse_iso(text: str) -> dt.datetime:
    """An ISO 8601 time as Discord sends and takes it (``Z`` or an offset); naive times are UTC."""
    parsed = dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def user(u: FakeUser) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.global_name or u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
    }


def role(r: FakeRole) -> dict[str, Any]:
    return {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "hoist": False,
        "managed": r.managed,
        "mentionable": True,
        "flags": 0,
    }


def member(m: FakeMember, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in m.role_ids],
        "nick": m.nick,
        "joined_at": timestamp_of(m.id),
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "avatar": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(c: FakeChannel) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "name": c.name,
        "position": 0,
        "permission_overwrites": [
            {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
            for target, (allow, deny, kind) in c.overwrites.items()
        ],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if c.guild_id is not None:
        data["guild_id"] = str(c.guild_id)
    if c.parent_id is not None:
        data["parent_id"] = str(c.parent_id)
    if c.is_thread:
        data.update(
            owner_id=str(c.owner_id or 0),
            message_count=0,
            member_count=1,
            thread_metadata={
                "archived": c.archived,
                "auto_archive_duration": c.auto_archive_duration,
                "archive_timestamp": now_iso(),
                "locked": c.locked,
            },
        )
    if c.type == 1 and c.recipient_id is not None:
        data["recipients"] = [
            {"id": str(c.recipient_id), "username": "user", "discriminator": "0", "avatar": None}
        ]
    return data


def guild(g: FakeGuild, *, full: bool = True) -> dict[str, Any]:
    """The guild as GUILD_CREATE delivers it (``full``) or as REST ``GET /guilds/{id}`` does."""
    data: dict[str, Any] = {
        "id": str(g.id),
        "name": g.name,
        "owner_id": str(g.owner_id),
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": g.premium_tier,
        "preferred_locale": g.preferred_locale,
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": [role(r) for r in g.roles.values()],
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_subscription_count": 0,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "premium_progress_bar_enabled": False,
    }
    if full:
        data.update(
            member_count=len(g.members),
            large=False,
            joined_at=timestamp_of(g.id),
            unavailable=False,
            members=[member(m) for m in g.members.values()],
            channels=[channel(c) for c in g.channels.values() if not c.is_thread],
            threads=[channel(c) for c in g.channels.values() if c.is_thread],
            voice_states=[],
            presences=[],
            stage_instances=[],
            soundboard_sounds=[],
            guild_scheduled_events=[e.data for e in g.scheduled_events.values()],
        )
    return data


def attachment(a: FakeAttachment, base_url: str) -> dict[str, Any]:
    url = f"{base_url}/attachments/{a.id}/{a.filename}"
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": url,
        "proxy_url": url,
        "content_type": a.content_type,
    }
    if a.description:
        data["description"] = a.description
    return data


def message(m: FakeMessage, base_url: str, application_id: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "author": user(m.author),
        "content": m.content,
        "timestamp": timestamp_of(m.id),
        "edited_timestamp": now_iso() if m.edited else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "attachments": [attachment(a, base_url) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "type": m.message_type,
        "flags": m.flags,
    }
    if m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
        data["application_id"] = str(application_id)
    if m.interaction_id is not None and m.interaction_user is not None:
        data["interaction_metadata"] = {
            "id": str(m.interaction_id),
            "type": APPLICATION_COMMAND,
            "user": user(m.interaction_user),
            "authorizing_integration_owners": {"0": str(m.guild_id or 0)},
        }
    return data


def interaction(
    *,
    interaction_id: int,
    kind: int,
    application_id: int,
    data: dict[str, Any],
    guild: FakeGuild | None,
    channel_obj: FakeChannel,
    actor: FakeMember | FakeUser,
    locale: str = "en-US",
    message_payload: dict[str, Any] | None = None,
    app_permissions: int = (1 << 53) - 1,
) -> dict[str, Any]:
    """An INTERACTION_CREATE payload. ``actor`` is a member in a guild, a user in DMs."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind,
        "token": "tok-" + secrets.token_hex(12),
        "version": 1,
        "data": data,
        "channel_id": str(channel_obj.id),
        "channel": channel(channel_obj),
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT
        if guild is None
        else 10 * 1024 * 1024 * ({2: 5, 3: 10}.get(guild.premium_tier, 1)),
        "context": 0 if guild is not None else 1,
    }
    if guild is not None:
        assert isinstance(actor, FakeMember), "in a guild the actor must be a member"
        payload.update(
            guild_id=str(guild.id),
            guild_locale=guild.preferred_locale,
            guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            member=member(actor, permissions=guild.permissions_of(actor)),
            authorizing_integration_owners={"0": str(guild.id)},
        )
    else:
        the_user = actor.user if isinstance(actor, FakeMember) else actor
        payload.update(user=user(the_user), authorizing_integration_owners={"1": str(the_user.id)})
    if message_payload is not None:
        payload["message"] = message_payload
    return payload


def command_data(
    command_id: int,
    name: str,
    options: list[dict[str, Any]],
    resolved: dict[str, Any] | None = None,
    guild_id: int | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {"id": str(command_id), "name": name, "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def component_data(
    custom_id: str,
    component_type: int,
    values: list[str] | None = None,
    resolved: dict[str, Any] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    if resolved:
        data["resolved"] = resolved
    return data


def modal_submit_data(modal: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Submit ``modal`` (as the bot sent it) with ``values`` by custom_id, mirroring its layout.

    Text inputs not given keep their pre-filled ``value``; selects take a list.
    """

    def fill(component: dict[str, Any]) -> dict[str, Any] | None:
        kind = component.get("type")
        if kind == 1:
            return {"type": 1, "components": [c for c in map(fill, component.get("components", [])) if c]}
        if kind == 18:
            inner = fill(component["component"])
            return {"type": 18, "component": inner} if inner else None
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None
        if kind == 4:
            return {
                "type": 4,
                "custom_id": custom_id,
                "value": str(values.get(custom_id, component.get("value", ""))),
            }
        chosen = values.get(custom_id, [])
        return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in chosen]}

    unknown = set(values) - {c.get("custom_id") for c in _walk_modal(modal.get("components", []))}
    if unknown:
        raise LookupError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}")
    components = [c for c in map(fill, modal.get("components", [])) if c]
    return {"custom_id": modal["custom_id"], "components": components}


def _walk_modal(components: list[dict[str, Any]]):
    for component in components:
        if "custom_id" in component:
            yield component
        if isinstance(component.get("components"), list):
            yield from _walk_modal(component["components"])
        if isinstance(component.get("component"), dict):
            yield from _walk_modal([component["component"]])
