"""Invitations to join a Hydra event as a group, stored (migration 0045) so a restart keeps them.

An invitation is answered by several friends, possibly at the same moment and in different processes: each
answer is one transaction of the invitation's scope, and the answer that completes it (or declines it)
deletes it in that same transaction, so exactly one press enters the group and a second finds it gone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.storage.db import Connection, Database


@dataclass(frozen=True)
class StoredInvitation:
    key: int
    event_id: int
    inviter: tuple[int, str]  # (user id, display name)
    friends: dict[int, str]  # user id -> display name, in the order they were named
    accepted: frozenset[int]
    channel_id: int | None
    message_id: int | None
    asked_at: datetime
    expires_at: datetime

    def members(self) -> list[tuple[int, str]]:
        """The group that joins once every friend has accepted: the inviter first."""
        return [self.inviter, *self.friends.items()]


@dataclass(frozen=True)
class Answer:
    """What an accepting press found: the invitation after it, and whether it completed (and so closed) it."""

    invitation: StoredInvitation
    complete: bool


def invitation_scope(key: int) -> str:
    return f"event-invitation:{key}"


_COLUMNS = "invite_key, event_id, inviter_id, inviter_name, channel_id, message_id, asked_at, expires_at"


class InvitationRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(
        self,
        key: int,
        event_id: int,
        inviter: tuple[int, str],
        friends: Sequence[tuple[int, str]],
        *,
        asked_at: datetime,
        expires_at: datetime,
    ) -> list[StoredInvitation]:
        """Store a new invitation; returns the inviter's earlier open invitations to this event, which it
        replaces (deleted here: their buttons now say the invitation is no longer open)."""
        async with self.db.transaction(invitation_scope(key)) as conn:
            replaced = [
                await self._read(conn, int(row[0]))
                for row in await conn.fetchall(
                    "SELECT invite_key FROM hydra_event_invitations WHERE event_id = ? AND inviter_id = ?",
                    (event_id, inviter[0]),
                )
            ]
            for old in replaced:
                if old is not None:
                    await _delete(conn, old.key)
            await conn.execute(
                f"INSERT INTO hydra_event_invitations ({_COLUMNS}) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?)",
                (key, event_id, inviter[0], inviter[1], _iso(asked_at), _iso(expires_at)),
            )
            for seq, (user_id, name) in enumerate(friends, 1):
                await conn.execute(
                    "INSERT INTO hydra_event_invited (invite_key, seq, user_id, name, accepted) "
                    "VALUES (?, ?, ?, ?, 0)",
                    (key, seq, user_id, name),
                )
        return [old for old in replaced if old is not None]

    async def posted(self, key: int, channel_id: int, message_id: int) -> None:
        """Where the invitation was posted: its message is edited when it expires."""
        await self.db.execute(
            "UPDATE hydra_event_invitations SET channel_id = ?, message_id = ? WHERE invite_key = ?",
            (channel_id, message_id, key),
            scope=invitation_scope(key),
        )

    async def get(self, key: int) -> StoredInvitation | None:
        return await self._read(self.db, key)

    async def all_open(self) -> list[StoredInvitation]:
        """Every stored invitation, oldest first (to re-arm their expiries at start)."""
        keys = await self.db.fetchall(
            "SELECT invite_key FROM hydra_event_invitations ORDER BY asked_at, invite_key"
        )
        found = [await self.get(int(row[0])) for row in keys]
        return [invitation for invitation in found if invitation is not None]

    async def accept(self, key: int, user_id: int) -> Answer | None:
        """Mark ``user_id``'s acceptance; when every friend has accepted, the invitation is deleted in the
        same transaction (the caller then enters the group). None if it is gone (answered, expired)."""
        async with self.db.transaction(invitation_scope(key)) as conn:
            await conn.execute(
                "UPDATE hydra_event_invited SET accepted = 1 WHERE invite_key = ? AND user_id = ?",
                (key, user_id),
            )
            invitation = await self._read(conn, key)
            if invitation is None:
                return None
            complete = invitation.accepted == set(invitation.friends)
            if complete:
                await _delete(conn, key)
        return Answer(invitation, complete)

    async def remove(self, key: int) -> StoredInvitation | None:
        """Delete the invitation (declined, expired); returns it, or None if another answer came first."""
        async with self.db.transaction(invitation_scope(key)) as conn:
            invitation = await self._read(conn, key)
            if invitation is not None:
                await _delete(conn, key)
        return invitation

    @staticmethod
    async def _read(conn: Connection | Database, key: int) -> StoredInvitation | None:
        row = await conn.fetchone(
            f"SELECT {_COLUMNS} FROM hydra_event_invitations WHERE invite_key = ?", (key,)
        )
        if row is None:
            return None
        friends = await conn.fetchall(
            "SELECT user_id, name, accepted FROM hydra_event_invited WHERE invite_key = ? ORDER BY seq",
            (key,),
        )
        return StoredInvitation(
            key=int(row[0]),
            event_id=int(row[1]),
            inviter=(int(row[2]), str(row[3])),
            friends={int(user): str(name) for user, name, _ in friends},
            accepted=frozenset(int(user) for user, _, accepted in friends if accepted),
            channel_id=None if row[4] is None else int(row[4]),
            message_id=None if row[5] is None else int(row[5]),
            asked_at=datetime.fromisoformat(str(row[6])),
            expires_at=datetime.fromisoformat(str(row[7])),
        )


async def _delete(conn: Connection, key: int) -> None:
    await conn.execute("DELETE FROM hydra_event_invited WHERE invite_key = ?", (key,))
    await conn.execute("DELETE FROM hydra_event_invitations WHERE invite_key = ?", (key,))


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")
