"""Boards that stay live for the whole game: every board kind (pod boards, Hydra/Horde/God tables, event
announcements) shows its state through ``LiveBoards.show`` instead of editing its message itself.

Why: a Commander game lasts hours, and Discord has rules that only show then.

- Edits to messages older than one hour are capped (a few per hour per channel, then 429 with code 30046
  and a retry_after of up to an hour). So a board is posted afresh when it is ``REPOST_AFTER`` old, its
  buttons move to the new message, and the old one becomes a short pointer to it (or is deleted when it
  is already too old to edit). A 30046 that still arrives (a board from before a restart) does the same.
- A thread archives after a quiet while and refuses edits and new messages (50083). Before a board that
  has been quiet for an hour is posted afresh in a thread, the thread is brought back (unarchived); when
  that is not allowed, the fresh board goes to the thread's channel.
- When Discord refuses an edit for a missing permission (403: 50001, 50013), the game goes on and is
  stored as always; the table is told once, in its language, what to grant and where (through the
  latest press's interaction, which needs no channel permission), and the board is tried again every
  ``REFUSED_RETRY`` on the bot's clock for ``REFUSED_RETRIES`` tries, so a granted permission shows
  without waiting for a press; after that, at the next change.
- A long retry_after never holds anything: ``EditLater`` asks the updater (``cogs._updater``) to come
  back after it.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.clock import clock_of
from bot.i18n import context_for_everyone, t
from bot.i18n.glossary import join_list
from bot.storage.boards import BoardPostRepository
from cogs._permissions import board_permissions, lacking
from cogs._updater import EditLater

log = logging.getLogger(__name__)

OLD_MESSAGE_AGE = timedelta(hours=1)  # Discord caps edits to messages older than this
REPOST_AFTER = timedelta(minutes=50)  # post afresh well before, so queued edits still land in time
POINTER_BEFORE = timedelta(minutes=58)  # an old board is turned into a pointer only while still editable
THREAD_QUIET = timedelta(minutes=55)  # a thread may archive after an hour without a new message
REFUSED_RETRY = timedelta(minutes=5)  # a refused board is tried again at most this often
REFUSED_RETRIES = (
    12  # ... on the clock for an hour (one request per board each time); then at the next change
)
TOKEN_FRESH = timedelta(minutes=14)  # interaction tokens work for 15 minutes: tell only through younger ones

OLD_MESSAGE_EDITS = 30046
THREAD_ARCHIVED = 50083
Moved = Callable[[int, int], Awaitable[None]]  # (channel id, message id): store where the board now is


@dataclass
class BoardMessage:
    """What a board shows, kept as bytes so it can be sent twice (an edit, then a fresh post)."""

    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    content: str | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        embed: discord.Embed | None = None,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
        content: str | None = None,
    ) -> BoardMessage:
        files = []
        if file is not None:
            file.fp.seek(0)
            files.append((file.filename, file.fp.read()))
        return cls(embed=embed, view=view, content=content, files=files)

    def _files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]

    def edit_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"attachments": self._files(), "view": self.view}
        if self.embed is not None:
            kwargs["embed"] = self.embed
        if self.content is not None:
            kwargs["content"] = self.content
        return kwargs

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"files": self._files(), "allowed_mentions": discord.AllowedMentions.none()}
        for name in ("embed", "view", "content"):
            if getattr(self, name) is not None:
                kwargs[name] = getattr(self, name)
        return kwargs


@dataclass(frozen=True)
class Where:
    """Where a board lives now: its message, and who is told when it cannot be updated (and how)."""

    guild_id: int | None
    channel_id: int
    message_id: int
    language: str


class LiveBoards:
    """Shows boards of one kind (keyed by table), keeping each live for the whole game (module docstring)."""

    def __init__(self, bot: Any, what: str) -> None:
        self.bot, self.what = bot, what
        self.posts = BoardPostRepository(bot.db)
        self._heard: dict[int, tuple[discord.Interaction, datetime]] = {}
        self._refused: dict[int, tuple[datetime, Where]] = {}  # table -> when to try its board again, where
        self._refusals: dict[int, int] = {}  # table -> refusals in a row (the timed retries stop after some)
        self._told: set[int] = set()
        self._later: dict[int, asyncio.Task[None]] = {}
        self.reposts = 0

    def now(self) -> datetime:
        return clock_of(self.bot).now()

    # -- the table's latest press: how a refusal is told -------------------------------------------------

    async def heard(self, key: int, interaction: discord.Interaction | None) -> None:
        """Remember the latest interaction on a table's board: if Discord refuses the board, the table is
        told through it (a follow-up needs no permission in the channel). A table whose board was refused
        while nobody could be told (an edit after a timer) learns it now, from this press."""
        if interaction is None:
            return
        self._heard[key] = (interaction, self.now())
        refused = self._refused.get(key)
        if refused is not None and key not in self._told:
            await self._tell(key, interaction, refused[1])

    def _fresh_interaction(self, key: int) -> discord.Interaction | None:
        heard = self._heard.get(key)
        if heard is None or self.now() - heard[1] >= TOKEN_FRESH:
            return None
        return heard[0]

    # -- showing -----------------------------------------------------------------------------------------

    async def record_post(self, message: discord.Message | discord.PartialMessage) -> None:
        """A board kind posted a new board itself (``/pod start``): remember when, for its age."""
        await self.posts.record(message.id, message.channel.id, self.now())

    async def post(self, channel: Any, board: BoardMessage) -> discord.Message:
        """Post a new board in ``channel`` (a table that started elsewhere: an event's, in its thread) and
        remember when, for its age."""
        message: discord.Message = await channel.send(**board.send_kwargs())
        await self.record_post(message)
        return message

    async def show(self, key: int, board: BoardMessage, where: Where, moved: Moved) -> bool:
        """Make ``where``'s message show ``board``: an edit, or a fresh post when the message is too old
        to be edited for long. True when a message shows it; False when Discord refused (the table is told,
        the board is tried again later). Raises ``EditLater`` when Discord asks to wait longer than a request waits,
        ``discord.NotFound`` when the message was deleted (each kind decides what that means)."""
        refused = self._refused.get(key)
        if refused is not None and self.now() < refused[0]:
            return False  # refused a moment ago: the state is stored; the board catches up at the next try
        posted = await self._posted_at(where.message_id)
        if self.now() - posted >= REPOST_AFTER:
            return await self._repost(key, board, where, moved, posted)
        if await self._open_channel(where.channel_id, maybe_archived=False) != where.channel_id:
            return await self._repost(key, board, where, moved, posted)  # its thread stays archived
        message = self.bot.get_partial_messageable(
            where.channel_id, guild_id=where.guild_id
        ).get_partial_message(where.message_id)
        try:
            await message.edit(**board.edit_kwargs())
        except discord.RateLimited as limited:
            if self.now() - posted < OLD_MESSAGE_AGE:
                raise EditLater(limited.retry_after) from limited
            return await self._repost(key, board, where, moved, posted)  # the cap on old messages: move on
        except discord.NotFound:
            raise
        except discord.HTTPException as error:
            if error.code == OLD_MESSAGE_EDITS:
                return await self._repost(key, board, where, moved, posted)
            if error.code == THREAD_ARCHIVED:
                return await self._repost(key, board, where, moved, posted, archived=True)
            if isinstance(error, discord.Forbidden):
                return await self._refuse(key, where, error)
            raise
        self._shown(key)
        return True

    async def show_or_later(
        self, key: int, board: BoardMessage, where: Where, moved: Moved, again: Callable[[], Awaitable[None]]
    ) -> bool:
        """``show`` for a kind that updates without a ``BoardUpdater`` (Hydra, Horde and God tables): when
        Discord asks to wait, ``again()`` runs once that time has passed on the bot's clock, holding nothing
        meanwhile."""
        try:
            return await self.show(key, board, where, moved)
        except EditLater as later:
            pending = self._later.get(key)
            if pending is None or pending.done():
                self._later[key] = asyncio.get_running_loop().create_task(
                    self._again_after(later.seconds, again),
                    name=f"{self.what}-{key}-later",
                    context=context_for_everyone(),
                )
            return False

    async def _again_after(self, seconds: float, again: Callable[[], Awaitable[None]]) -> None:
        await clock_of(self.bot).sleep(seconds)
        await again()

    def cancel(self) -> None:
        for task in self._later.values():
            task.cancel()

    async def _posted_at(self, message_id: int) -> datetime:
        """When the board was posted; for a board from before this was stored, its id's timestamp."""
        return await self.posts.posted_at(message_id) or discord.utils.snowflake_time(message_id)

    def _shown(self, key: int) -> None:
        """The board shows its state again: a later refusal is told again."""
        self._refused.pop(key, None)
        self._refusals.pop(key, None)
        self._told.discard(key)

    # -- posting afresh ----------------------------------------------------------------------------------

    async def _repost(
        self,
        key: int,
        board: BoardMessage,
        where: Where,
        moved: Moved,
        posted: datetime,
        *,
        archived: bool = False,
    ) -> bool:
        quiet = archived or self.now() - posted >= THREAD_QUIET
        channel_id = await self._open_channel(where.channel_id, maybe_archived=quiet)
        target = self.bot.get_partial_messageable(channel_id, guild_id=where.guild_id)
        try:
            fresh = await target.send(**board.send_kwargs())
        except discord.RateLimited as limited:
            raise EditLater(limited.retry_after) from limited
        except discord.Forbidden as error:
            return await self._refuse(key, where, error)
        await self.posts.record(fresh.id, channel_id, self.now())
        await moved(channel_id, fresh.id)
        self.reposts += 1
        self._shown(key)
        log.info("%s %s posted afresh (%s -> %s)", self.what, key, where.message_id, fresh.id)
        if channel_id == where.channel_id:  # an old board left in an archived thread stays as it was
            await self._retire(where, fresh, posted)
        else:
            await self.posts.forget(where.message_id)
        return True

    async def _open_channel(self, channel_id: int, *, maybe_archived: bool) -> int:
        """Where the board can be shown: its own channel, its thread brought back from the archive first, or
        the thread's channel when the thread may not be brought back (locked, or the bot lacks the
        permission). The thread's state is the cached one (Discord tells the bot when a thread archives);
        ``maybe_archived`` (an hour without our new message, or a 50083) asks Discord for it afresh."""
        thread = await self._thread(channel_id, fresh=maybe_archived)
        if thread is None or not thread.archived:
            return channel_id
        try:
            await self.bot.http.edit_channel(channel_id, archived=False, reason="the game's board goes on")
        except discord.HTTPException:
            log.info(
                "thread %s stays archived: the board moves to its channel %s", channel_id, thread.parent_id
            )
            return thread.parent_id
        return channel_id

    async def _thread(self, channel_id: int, *, fresh: bool) -> discord.Thread | None:
        """The board's thread (None for a channel), from the cache unless ``fresh`` or not cached."""
        channel = self.bot.get_channel(channel_id)
        if fresh and (channel is None or isinstance(channel, discord.Thread)):
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel if isinstance(channel, discord.Thread) else None

    async def _retire(self, where: Where, fresh: discord.Message, posted: datetime) -> None:
        """The old board becomes a pointer to the fresh one (its buttons gone) while Discord still lets it
        be edited freely; older, it is deleted (deleting is not capped)."""
        old = self.bot.get_partial_messageable(where.channel_id, guild_id=where.guild_id).get_partial_message(
            where.message_id
        )
        try:
            if self.now() - posted < POINTER_BEFORE:
                await old.edit(
                    content=t("boards.moved", where.language, link=fresh.jump_url),
                    embeds=[],
                    attachments=[],
                    view=None,
                )
            else:
                await old.delete()
        except (discord.HTTPException, discord.RateLimited):
            log.info("old %s message %s kept as it was", self.what, where.message_id)
        await self.posts.forget(where.message_id)

    # -- refusals ----------------------------------------------------------------------------------------

    async def _refuse(self, key: int, where: Where, error: discord.HTTPException) -> bool:
        """Discord refused the board for a permission: keep the game, tell the table once, and raise
        ``EditLater`` so the board is tried again after ``REFUSED_RETRY`` (a permission granted meanwhile
        shows without a press); after ``REFUSED_RETRIES`` tries in a row, False: the next change tries."""
        self._refused[key] = (self.now() + REFUSED_RETRY, where)
        self._refusals[key] = self._refusals.get(key, 0) + 1
        log.warning(
            "Discord refused the %s of %s in channel %s: %s", self.what, key, where.channel_id, error.text
        )
        interaction = self._fresh_interaction(key)
        if interaction is not None and key not in self._told:
            await self._tell(key, interaction, where)
        if self._refusals[key] <= REFUSED_RETRIES:  # the updater (or ``again``) comes back then
            raise EditLater(REFUSED_RETRY.total_seconds()) from error
        return False

    async def _tell(self, key: int, interaction: discord.Interaction, where: Where) -> None:
        """One public follow-up, in the table's language: what the bot lacks, where, and that nothing is lost."""
        self._told.add(key)
        text = t(
            "boards.refused",
            where.language,
            channel=f"<#{where.channel_id}>",
            permissions=self._lacking(interaction, where),
        )
        try:
            await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the table of %s %s that its board is refused", self.what, key)

    def _lacking(self, interaction: discord.Interaction, where: Where) -> str:
        """The board permissions the bot lacks where the table pressed (the interaction carries them)."""
        needed = board_permissions(self.bot.get_channel(where.channel_id))
        missing = lacking(interaction.app_permissions, needed) or ["view_channel"]
        return join_list((t(f"core.permission.{name}", where.language) for name in missing), where.language)
