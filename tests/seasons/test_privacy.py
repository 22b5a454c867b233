"""A member's season data in ``/privacy export``, and ``/privacy delete`` removing them from every season
table on both engines while the others' standings stay (the deleted member shows as "deleted member")."""

from __future__ import annotations

import json

import pytest

from bot.services.privacy import PrivacyService
from bot.storage.privacy import DELETED_NAME
from bot.testing.harness import DiscordHarness
from tests.core.test_privacy_everywhere import mentions_of
from tests.seasons.test_cog import play, result_message

pytestmark = pytest.mark.both_engines


async def test_privacy_delete_removes_the_member_from_every_season_table(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob")) as h:
        h.add_member("olga", permissions="manage_guild")
        olga, bob = h.user("olga").id, h.user("bob").id
        await h.slash("season open", user="olga", name="Spring", league_only=True)
        game_id = await play(h, ("olga", "bob"), league=True)  # olga wins, knocking bob out
        await h.click(result_message(h, game_id), label="Dispute", user="olga")
        await h.slash("season decide", user="olga", game=game_id, decision="accept")
        await h.slash("season close", user="olga")
        before = await mentions_of(h.bot.db, olga)
        assert {
            "seasons.opened_by",
            "seasons.closed_by",
            "season_games.decided_by",
            "season_game_players.user_id",
            "season_league_games.marked_by",
        } <= set(before), before

        exported = json.loads(await PrivacyService(h.bot.db).export(olga))
        assert [(r["game_id"], r["answer"], r["points"]) for r in exported["season_results"]] == [
            (game_id, "dispute", 4)
        ]
        assert [r["name"] for r in exported["seasons_opened_or_closed"]] == ["Spring"]
        assert [r["game_id"] for r in exported["season_results_decided"]] == [game_id]
        assert [r["game_id"] for r in exported["league_games_started"]] == [game_id]

        asked = await h.slash("privacy delete", user="olga")
        await h.click(asked, label="Yes, delete my data", user="olga")
        assert await mentions_of(h.bot.db, olga) == []
        standings = await h.slash("season standings", user="bob", season="Spring")
        lines = standings.embed["description"].splitlines()
        assert lines == [
            f"**1.** {DELETED_NAME}: 4 pts · 1 game · 1 won · 1 elimination",
            f"**2.** <@{bob}>: 0 pts · 1 game · 0 won · 0 eliminations",
        ]


async def test_purging_a_server_removes_its_seasons(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob")) as h:
        await h.slash("season open", user="admin", name="Spring")
        await play(h, ("alice", "bob"), league=True)
        deleted = await PrivacyService(h.bot.db).purge_guild(h.guild.id)
        assert (
            deleted["seasons"],
            deleted["season_games"],
            deleted["season_game_players"],
            deleted["season_league_games"],
        ) == (1, 1, 2, 1)
        assert await mentions_of(h.bot.db, h.guild.id) == []
