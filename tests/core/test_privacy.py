"""Members' data rights: ``/privacy export``, ``podkeeper db purge-guild ID``, and a server's
data deleted ``[privacy] retention_days`` after the bot leaves it (cancelled if it comes back)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord

from bot.cli import main
from bot.domain import pod
from bot.services.pods import PodService
from bot.services.privacy import PrivacyService
from bot.services.tournaments import TournamentService
from bot.storage.db import Database
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA, write_cli_config


async def _deck(db: Database, guild_id: int, user_id: int, name: str) -> None:
    await db.execute(
        "INSERT INTO decks (guild_id, user_id, name, name_key, raw_list, commanders, resolved, ruleset, "
        "status, verdict, cards_version, created_at, updated_at) VALUES (?, ?, ?, ?, '1 Sol Ring', '[]', "
        "'[]', 'commander', 'legal', '{}', '1', 't', 't')",
        (guild_id, user_id, name, name.lower()),
    )


async def _server_data(db: Database, guild_id: int, players: tuple[int, int]) -> int:
    """A finished pod game, a deck, a tournament and settings in ``guild_id``; returns the game id."""
    pods = PodService(db)
    game = await pods.start_game(
        guild_id=guild_id,
        channel_id=guild_id + 1,
        created_by=players[0],
        players=[(players[0], "a"), (players[1], "b")],
        ruleset="commander",
    )
    await pods.change(game.game_id, players[0], pod.NEXT_TURN)
    await pods.change(game.game_id, players[1], pod.CONCEDE, player=players[1])
    await _deck(db, guild_id, players[0], f"Deck {guild_id}")
    tournaments = TournamentService(db)
    await tournaments.create(guild_id=guild_id, channel_id=guild_id + 1, name="Friday", created_by=players[0])
    await tournaments.join(guild_id, players[0], "a")
    await db.execute(
        "INSERT INTO guild_settings (guild_id, ruleset, updated_at) VALUES (?, 'edh-2010', 't')", (guild_id,)
    )
    return game.game_id


async def _rows(db: Database, guild_id: int) -> int:
    total = 0
    for table in ("pod_games", "decks", "tournaments", "guild_settings"):
        total += await db.scalar(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (guild_id,))
    return total


async def test_privacy_export_is_a_private_file_of_the_callers_data(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        alice, bob = h.user("alice").id, h.user("bob").id
        await h.slash("pod start", players=f"<@{alice}> <@{bob}>")
        await h.slash("pod life", user="alice", player="bob", amount=-3)
        await _deck(h.bot.db, h.guild.id, alice, "Atraxa")
        await _deck(h.bot.db, h.guild.id, bob, "Bob's secret deck")
        reply = await h.slash("privacy export", user="alice", locale="ja")
        assert reply.ephemeral and "あなたにだけ表示" in reply.text
        ((name, data),) = reply.files.items() if reply.files else reply.followups[0].files.items()
        exported = json.loads(data)
        assert name == f"podkeeper-{alice}.json" and exported["user_id"] == alice
        assert [d["name"] for d in exported["decks"]] == ["Atraxa"]  # not bob's
        (game,) = exported["pod_games"]
        assert [e["kind"] for e in game["events"]] == ["create", "life"]
        assert game["events"][1]["data"] == {"player": bob, "amount": -3}


def test_purge_guild_deletes_one_server_and_nothing_else(tmp_path: Path, capsys) -> None:
    config = write_cli_config(tmp_path, TEST_DATA / "cards_subset.jsonl")

    async def fill() -> None:
        db = await Database.open(tmp_path / "podkeeper.sqlite3")
        await _server_data(db, 1000, (1, 2))
        await _server_data(db, 2000, (1, 3))
        await db.close()

    asyncio.run(fill())
    assert main(["--config", str(config), "db", "purge-guild", "1000"]) == 0
    printed = capsys.readouterr().out
    assert "of server 1000" in printed and "pod_events 3" in printed

    async def check() -> None:
        db = await Database.open(tmp_path / "podkeeper.sqlite3")
        assert await _rows(db, 1000) == 0 and await _rows(db, 2000) == 4
        assert await db.scalar("SELECT COUNT(*) FROM pod_events") == 3  # server 2000's game only
        assert await db.scalar("PRAGMA foreign_key_check") is None
        await db.close()

    asyncio.run(check())


async def test_a_servers_data_goes_after_the_retention_period_unless_the_bot_returns(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        db = h.bot.db
        await _server_data(db, h.guild.id, (h.user("alice").id, h.user("bob").id))
        guild = h.bot.get_guild(h.guild.id)
        h.bot.dispatch("guild_remove", guild)
        await h.settle()
        left = datetime.fromisoformat(await db.scalar("SELECT left_at FROM guild_departures"))
        service = PrivacyService(db, clock=lambda: left + timedelta(days=29))
        assert await service.purge_due(h.bot.config.retention_days) == []
        assert await _rows(db, h.guild.id) == 4
        h.bot.dispatch("guild_join", guild)  # back in time: nothing is deleted
        await h.settle()
        later = PrivacyService(db, clock=lambda: left + timedelta(days=31))
        assert await later.purge_due(30) == []
        h.bot.dispatch("guild_remove", guild)  # a new departure starts a new period
        await h.settle()
        much_later = PrivacyService(db, clock=lambda: datetime.now(UTC) + timedelta(days=31))
        assert await much_later.purge_due(h.bot.config.retention_days) == [h.guild.id]
        assert await _rows(db, h.guild.id) == 0
        assert isinstance(guild, discord.Guild)


async def _mentions_of(db: Database, user_id: int) -> list[str]:
    """Every table.column whose text holds ``user_id`` anywhere."""
    found = []
    for (table,) in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for column in [r[1] for r in await db.fetchall(f"PRAGMA table_info({table})")]:
            hits = await db.scalar(
                f"SELECT COUNT(*) FROM {table} WHERE CAST({column} AS TEXT) LIKE ?", (f"%{user_id}%",)
            )
            if hits:
                found.append(f"{table}.{column}")
    return found


async def test_privacy_delete_pseudonymises_and_others_standings_stay(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol", "dave")) as h:
        ids = {name: h.user(name).id for name in ("alice", "bob", "carol", "dave")}
        await _deck(h.bot.db, h.guild.id, ids["alice"], "Atraxa")
        await h.slash("tournament create", user="admin", name="Friday", channel="games")
        for name in ids:
            await h.slash("tournament join", user=name, channel="games")
        await h.slash("tournament pair", user="admin", channel="games")
        tournaments = h.bot.get_cog("Tournaments").service
        tournament = await tournaments.active(h.guild.id)
        (pairing,) = await tournaments.repo.pods(tournament.tournament_id, 1)
        pods = h.bot.get_cog("Pods").service
        game = pairing.game_id
        await pods.change(game, ids["alice"], pod.NEXT_TURN, manager=True)
        await pods.change(
            game,
            ids["alice"],
            pod.COMMANDER_DAMAGE,
            commander=pod.commander_key(ids["alice"], 0),
            target=ids["bob"],
            amount=5,
        )
        for name in ("bob", "carol", "dave"):
            await pods.change(game, ids[name], pod.CONCEDE, player=ids[name])
        await h.settle()
        for task in [t for t in asyncio.all_tasks() if t.get_name() == "discord.py: on_pod_game_finished"]:
            await task
        for voter, votee in (("alice", "bob"), ("bob", "alice"), ("carol", "alice"), ("dave", "bob")):
            await tournaments.cast_vote(game, ids[voter], ids[votee])
        before = {s.player: s.points for s in (await tournaments.standings(tournament)).standings}

        asked = await h.slash("privacy delete", user="alice")
        assert asked.ephemeral and "can't be undone" in asked.content
        assert await h.bot.db.scalar("SELECT COUNT(*) FROM decks") == 1  # asking deletes nothing
        done = await h.click(asked, label="Yes, delete my data", user="alice")
        assert "deleted member" in done.text

        db = h.bot.db
        assert await _mentions_of(db, ids["alice"]) == []
        assert await db.scalar("SELECT COUNT(*) FROM decks") == 0
        after = {s.player: s.points for s in (await tournaments.standings(tournament)).standings}
        pseudonym = next(p for p in after if p < 0)
        assert {p: v for p, v in after.items() if p > 0} == {
            p: v for p, v in before.items() if p != ids["alice"]
        }
        assert after[pseudonym] == before[ids["alice"]]
        state = (await pods.get(game)).state  # the game still replays, with the same totals
        assert state.player(ids["bob"]).life == 35 and state.player(pseudonym).name == "deleted member"
        assert (await tournaments.names(tournament.tournament_id))[pseudonym] == "deleted member"
        exported = json.loads(await PrivacyService(db).export(ids["alice"]))
        assert all(not rows for key, rows in exported.items() if isinstance(rows, list))
