"""The players of ``/pod start``: mentions, and typed names matched to the server's members.

A name typed instead of picked from the mention list was dropped silently; here every piece of the
``players:`` text (read by ``bot.domain.player_list``) becomes a member, or the whole list is refused
naming the words that are no player (or several). Part of the pod cog's package (``cogs.pods``).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.client import PodkeeperBot
from bot.domain.player_list import LONGEST_NAME_WORDS, MAX_TYPED_WORDS, Mentioned, parse_players
from bot.domain.pod import PodError
from bot.text import ECHO, fit


def _quoted(words: Sequence[str]) -> list[str]:
    """Typed words echoed back, each quoted, escaped and cut (``bot.text.fit``); ``t()`` joins the list
    in the reader's language."""
    return [f"“{fit(word, ECHO)}”" for word in words]


async def players_from(
    bot: PodkeeperBot, interaction: discord.Interaction, text: str
) -> list[tuple[int, str]]:
    """The players in the order given: mentions, and typed names matched to exactly one member.

    Nothing typed is ignored: a mention of someone who is not a member of this server, or a typed
    word that names no member or several, refuses the whole list (PodError naming them) rather than
    seating fewer players."""
    ids: list[int] = []
    names: dict[int, str | None] = {}
    unknown: list[str] = []
    ambiguous: list[str] = []
    pieces = parse_players(text)
    if sum(len(p.words) for p in pieces if not isinstance(p, Mentioned)) > MAX_TYPED_WORDS:
        raise PodError("too_many_players")  # not a player list: no member lookups
    for piece in pieces:
        found: Sequence[tuple[int, str | None]]
        if isinstance(piece, Mentioned):
            found = [(piece.user_id, await _display_name(interaction, piece.user_id))]
        else:
            found, missing, unclear = await _typed_members(bot, interaction, piece.words)
            unknown += missing
            ambiguous += unclear
        for user_id, name in found:
            if user_id not in ids:
                ids.append(user_id)
                names[user_id] = name
    strangers = [user_id for user_id in ids if names[user_id] is None]
    if strangers:
        raise PodError("not_members", users=" ".join(f"<@{u}>" for u in strangers))
    if unknown:
        raise PodError("typed_unknown", words=_quoted(unknown))
    if ambiguous:
        raise PodError("typed_ambiguous", words=_quoted(ambiguous))
    return [(user_id, names[user_id] or "") for user_id in ids]


async def _typed_members(
    bot: PodkeeperBot, interaction: discord.Interaction, words: tuple[str, ...]
) -> tuple[list[tuple[int, str]], list[str], list[str]]:
    """Typed words as members: from each word, the longest run of words (a display name may have
    spaces) that names exactly one member. Returns the members found, the words naming nobody, and
    the names several members answer to."""
    found: list[tuple[int, str]] = []
    unknown: list[str] = []
    ambiguous: list[str] = []
    start = 0
    while start < len(words):
        for end in range(min(len(words), start + LONGEST_NAME_WORDS), start, -1):
            name = " ".join(words[start:end])
            members = await _members_named(bot, interaction, name)
            if len(members) == 1:
                found.append(members[0])
                start = end
                break
            if members and end == start + 1:
                ambiguous.append(name)
                start = end
                break
        else:
            unknown.append(words[start])
            start += 1
    return found, unknown, ambiguous


async def _members_named(
    bot: PodkeeperBot, interaction: discord.Interaction, name: str
) -> list[tuple[int, str]]:
    """The members whose display name, username or server nickname is ``name`` (ignoring case), by
    Discord's member search (the bot has no member list: it asks for no privileged intent)."""
    guild = interaction.guild
    if guild is None or not name:
        return []
    route = discord.http.Route("GET", "/guilds/{guild_id}/members/search", guild_id=guild.id)
    try:
        rows = await bot.http.request(route, params={"query": name[:100], "limit": 25})
    except discord.HTTPException:
        return []
    wanted = name.casefold()
    matches: list[tuple[int, str]] = []
    for row in rows:
        user = row.get("user") or {}
        shown = row.get("nick") or user.get("global_name") or user.get("username") or ""
        known = {
            str(n).casefold() for n in (row.get("nick"), user.get("global_name"), user.get("username")) if n
        }
        if wanted in known:
            matches.append((int(user["id"]), shown))
    return matches


async def _display_name(interaction: discord.Interaction, user_id: int) -> str | None:
    """The member's display name, or None when ``user_id`` is not a member of the server."""
    if interaction.user.id == user_id:
        return interaction.user.display_name
    guild = interaction.guild
    if guild is None:
        return None
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            member = None
    return None if member is None else member.display_name
