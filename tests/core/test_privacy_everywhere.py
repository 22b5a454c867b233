"""``/privacy delete`` forgets the member everywhere, on both engines: after a member used the bot the
ways a member does (a deck check and a registered deck, their own language, a game with presses, an
overlay link, a finished game's statistics, a tournament and a Hydra event they created without joining), every column of every
table is searched for their id and finds nothing. The export, before, has a section for each of those.
``podkeeper db purge-guild`` leaves none of the server's page links."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.services.privacy import PrivacyService
from bot.storage.db import Database
from bot.testing import DiscordHarness

pytestmark = pytest.mark.both_engines

KAALIA = "1 Kaalia of the Vast\n1 Sol Ring\n"


async def mentions_of(db: Database, user_id: int) -> list[str]:
    """Every table.column whose value holds ``user_id`` anywhere (as a number, in JSON, in text)."""
    found = []
    for table in await db.tables():
        rows = await db.fetchall(f"SELECT * FROM {table}")
        for row in rows:
            for column, value in dict(row).items():
                if str(user_id) in str(value) and f"{table}.{column}" not in found:
                    found.append(f"{table}.{column}")
    return found


async def use_the_bot_as(h: DiscordHarness, name: str) -> None:
    """What one organising member leaves behind in an evening."""
    member = h.user(name)
    await h.slash("config my-language", user=name, language="ja")
    await h.slash("deck check", user=name, decklist=KAALIA)
    await h.slash("deck register", user=name, name="Kaalia", decklist=KAALIA)
    board = await h.slash("pod start", user=name, players=f"{member.mention} {h.user('alice').mention}")
    await h.click(board, label="+1", user=name)
    await h.slash("pod life", user=name, player="alice", amount=-3)
    await h.slash("pod overlay", user=name)
    await h.slash("pod next", user=name)
    await h.slash("pod concede", user=name)  # a finished game: its statistics name the member
    await h.slash("tournament create", user=name, name="Friday", channel="games")
    await h.slash("hydra event create", user=name, name="Hydra night", start="in 1h", heads=2, table_size=2)
    await h.slash("hydra event join", user=name, friend1="alice")  # an invitation alice has not answered
    await h.settle()


def sections(exported: dict[str, Any]) -> set[str]:
    return {key for key, rows in exported.items() if isinstance(rows, list) and rows}


async def test_privacy_delete_leaves_the_members_id_in_no_table_and_no_column(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob"), web__enabled=True, web__port=0) as h:
        h.add_member("olga", permissions="manage_guild")
        await use_the_bot_as(h, "olga")
        olga = h.user("olga").id
        db = h.bot.db
        before = await mentions_of(db, olga)
        assert {
            "user_languages.user_id",
            "page_links.created_by",
            "tournaments.created_by",
            "hydra_events.created_by",
            "decks.user_id",
            "pod_events.actor_id",
            "hydra_event_invitations.inviter_id",
            "stats_players.user_id",
        } <= set(before), before

        exported = json.loads(await PrivacyService(db).export(olga))
        assert {
            "deck_language",
            "page_links_created",
            "tournaments_created",
            "hydra_events_created",
            "decks",
            "settings",
            "pod_games",
            "hydra_event_invitations",
            "stats",
        } <= sections(exported), sections(exported)
        assert "token" not in json.dumps(exported["page_links_created"])  # the export is no key to the pages

        asked = await h.slash("privacy delete", user="olga")
        await h.click(asked, label="はい、データを削除", user="olga")  # olga reads Japanese now
        assert await mentions_of(db, olga) == []
        assert not sections(json.loads(await PrivacyService(db).export(olga)))


async def test_purging_a_server_removes_its_page_links(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob"), web__enabled=True, web__port=0) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        await h.slash("pod overlay", user="alice")
        db = h.bot.db
        assert await db.scalar("SELECT COUNT(*) FROM page_links WHERE guild_id = ?", (h.guild.id,)) == 1
        deleted = await PrivacyService(db).purge_guild(h.guild.id)
        assert deleted["page_links"] == 1
        assert await mentions_of(db, h.guild.id) == []
