"""The people of the authorisation matrix, and a way to tell "changed nothing" from "changed something".

Every state-changing command and component is called by each kind of person who might try it where they
should not: an outsider (in the server, not at the table or in the tournament), a player acting for another
player, a member without Manage Server, an organiser (the server's organiser role), and a manager of another
server (who must never reach this server's records, even by naming their numbers). A refusal must leave every
table of the database exactly as it was; an allowed call must change it.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from bot.testing import DiscordHarness
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.driver import InteractionDriver, Reply
from bot.testing.harness import catalog_of

# Tables whose rows are bookkeeping, not a member's records: the card data, and which language a member's
# client last used (written by any command, so that later private messages follow it).
_NOT_RECORDS = {
    "cards",
    "card_imports",
    "card_snapshots",
    "card_sync_state",
    "user_languages",
    "schema_migrations",
    "leases",
    "sqlite_sequence",
}


async def fingerprint(h: DiscordHarness) -> dict[str, str]:
    """A digest of every record table's rows (in a fixed order), so a test can say "nothing changed"
    without naming the tables a command might touch."""
    names = await h.bot.db.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        if h.bot.db.engine == "sqlite"
        else "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    digests = {}
    for row in names:
        name = row["name"]
        if name in _NOT_RECORDS or name.startswith("sqlite_"):
            continue
        rows = await h.bot.db.fetchall(f"SELECT * FROM {name}")  # noqa: S608 - names from the catalogue
        lines = sorted(repr(sorted(dict(r).items())) for r in rows)
        digests[name] = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    return digests


def changed_tables(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


class OtherServer(InteractionDriver):
    """A second server the same bot is in, with its own owner (a manager there, a stranger here).

    Interactions from it carry its guild id, as Discord sends them: a command typed there that names this
    server's game, event or tournament by number, or a component whose custom id was copied from here."""

    def __init__(self, h: DiscordHarness, name: str = "Another server") -> None:
        owner = h.fake.add_user("elsewhere_owner")
        guild = h.fake.add_guild(name, owner=owner)
        h.fake.add_channel(guild, "general")
        super().__init__(h.fake, guild, default_user="elsewhere_owner")
        self.h = h
        h.bot._connection._add_guild_from_data(P.guild(guild))

    def catalog(self) -> Any:
        return catalog_of(self.h.bot.tree, self.guild.id)

    async def _deliver(self, payload: dict[str, Any], expect_error: bool) -> Reply:
        marker = self.mark()
        before = set(asyncio.all_tasks())
        self.h.bot._connection.parse_interaction_create(payload)
        await self.h._settle(before)
        return self.reply_since(payload, marker, expect_error)


def copy_into(other: OtherServer, message: Any) -> Any:
    """The bot's ``message`` as if it stood in the other server too: the same buttons and custom ids.

    Discord only lets a member press components of a message they can see, so this is how a test asks
    what a component does when its custom id names a record of a server other than the one it is pressed
    in (a handler that trusts the id alone would act there)."""
    source = getattr(message, "message", message)
    channel = other.channel("general")
    body = {"content": source.content or "-", "components": source.components}
    return other.fake._new_message(channel.id, body, [])


async def attempt(h: DiscordHarness, call: Callable[[], Awaitable[Reply]]) -> tuple[Reply, set[str]]:
    """Run one interaction and say which record tables it changed (background board edits included)."""
    await h.settle()
    before = await fingerprint(h)
    reply = await call()
    await h.settle()
    return reply, changed_tables(before, await fingerprint(h))


async def people(h: DiscordHarness) -> OtherServer:
    """The matrix's people: ``carol`` (a plain member, outside the game), ``alice`` and ``bob`` (players),
    ``dave`` (holds the organiser role), ``mod`` (Manage Server), and a second server whose owner is a
    manager there and nobody here."""
    organisers = h.add_role("Organisers")
    await h.bot.guild_settings.update(h.guild.id, organiser_role_id=organisers.id)
    h.add_member("dave", roles=[organisers])
    h.add_member("mod", permissions="manage_guild")
    return OtherServer(h)
