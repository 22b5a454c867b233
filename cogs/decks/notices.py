"""The private message an owner gets when new card data changed a registered deck's verdict."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import Translate
from bot.render.deck import problem_message
from bot.render.deck_text import escape, printed_names
from bot.services.decks import DeckService
from bot.storage.deck_changes import DeckChange

log = logging.getLogger(__name__)


async def send_change_notices(bot: Any, service: DeckService) -> int:
    """One private message per owner for every deck whose verdict new card data changed, in their language
    (``_owner_language``); each change is marked told even when the owner's DMs are closed, so nobody hears
    it twice."""
    pending = await service.changes.pending()
    by_owner: dict[int, list[DeckChange]] = {}
    for change in pending:
        by_owner.setdefault(change.user_id, []).append(change)
    for user_id, changes in by_owner.items():
        language = await _owner_language(bot, service, user_id, changes[0].guild_id)
        text = await _notice_text(bot, service, changes, Translate(language))
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await user.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("could not tell user %s about %d changed decks: %s", user_id, len(changes), exc)
        await service.changes.mark_notified([change.deck_id for change in changes])
    return len(by_owner)


async def _owner_language(bot: Any, service: DeckService, user_id: int, guild_id: int) -> str:
    """Outside an interaction Discord does not say a member's language: their ``/config my-language``, else
    the language of their last /deck command, else their server's."""
    settings = getattr(bot, "user_settings", None)
    chosen = await settings.language(user_id) if settings is not None else None
    return chosen or await service.changes.language_of(user_id) or await bot.guild_language(guild_id)


async def _notice_text(bot: Any, service: DeckService, changes: list[DeckChange], tr: Translate) -> str:
    lines = [tr("deck.notice.intro")]
    for change in changes:
        guild = bot.get_guild(change.guild_id)
        if guild is None:  # at start-up (notices of a sync made while the bot was down) the cache is empty
            try:
                guild = await bot.fetch_guild(change.guild_id)
            except discord.HTTPException:
                guild = None
        lines.append(
            tr(
                "deck.notice.deck",
                name=escape(change.name),
                server=escape(guild.name) if guild else "?",
                old=tr(f"deck.status.{change.old_status}"),
                new=tr(f"deck.status.{change.new_status}"),
            )
        )
        lines += [f"  • {reason}" for reason in await _reasons(bot, service, change, tr.language)]
    return "\n".join(lines)


async def _reasons(bot: Any, service: DeckService, change: DeckChange, language: str) -> list[str]:
    """The new problems of a changed deck, worded from a fresh check (the stored keys say which)."""
    record = await service.repository.get_by_id(change.deck_id)
    if record is None:
        return []
    try:
        result = await service.check(
            record.raw_list, record.ruleset, None, record.commanders
        )  # the work pool
    except Exception:  # the notice still goes out, without the reasons
        log.warning("could not word the changes of deck %s", change.deck_id, exc_info=True)
        return []
    wanted = set(change.problems)
    name_for = printed_names(bot.cards, language)
    return [
        escape(problem_message(p, language, name_for))
        for p in result.verdict.problems
        if (p.key, p.card) in wanted
    ]
