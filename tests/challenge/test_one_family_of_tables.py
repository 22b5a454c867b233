"""Every deck's tables in one family of SQL tables (migration 0065), on a real SQLite file and PostgreSQL.

Before 0065 the Hydra's tables and the Horde's and God's were numbered apart, so the fixture's stored
games (``tests/data/stored_challenge_games.json``: Hydra tables 1-6, Horde and God tables 1-12) share
the ids 1-6. Stored by the old schema and migrated, every one must load under the id its messages and
events name and replay exactly; new tables take ids above every id either family gave out; privacy
erasure and export cover both kinds; nothing is left in the old tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.services.challenge import ChallengeService, TableFinished
from bot.services.hydra import HydraService, hydra_game_topic
from bot.storage.challenge import ChallengeRepository
from bot.storage.db import Database
from bot.storage.hydra_events import HydraEventRepository
from bot.storage.privacy import PrivacyRepository

from .record_stored_games import events_digest
from .test_stored_games_replay import GAMES, as_recorded, service_of, stored_by_old_schema

OLD_TABLES = (
    "hydra_games",
    "hydra_seats",
    "hydra_actions",
    "challenge_games",
    "challenge_seats",
    "challenge_actions",
)


def _game_id(recorded: dict[str, Any]) -> int:
    return int(next(iter(recorded["stored"].values()))[0]["game_id"])


def _rows(recorded: dict[str, Any], what: str) -> int:
    return sum(len(rows) for table, rows in recorded["stored"].items() if table.endswith(what))


@pytest.fixture
async def migrated(db_url: str | Path):
    """The 18 stored games of both families in one database of the old schema, migrated."""
    db = await stored_by_old_schema(db_url, GAMES)
    yield db
    await db.close()


async def test_every_stored_table_of_both_families_loads_and_replays_after_the_move(
    migrated: Database,
) -> None:
    ids = {(game["family"], _game_id(game)) for game in GAMES}
    assert {("hydra", 3), ("challenge", 3)} <= ids  # the same number, one table of each family
    for recorded in GAMES:
        table = await service_of(migrated, recorded).load(_game_id(recorded))
        assert table.row.deck == recorded["deck"]
        assert table.game is None or table.game.snapshot() == recorded["snapshot"]
        if table.game is not None:
            assert events_digest(as_recorded(table.game.events)) == recorded["events"]
        assert len(table.actions) == _rows(recorded, "actions")
        assert len(table.seats) == _rows(recorded, "seats")
    for old in OLD_TABLES:  # moved, not copied: no second copy outlives /privacy delete
        assert await migrated.scalar(f"SELECT COUNT(*) FROM {old}") == 0
    assert await migrated.scalar("SELECT COUNT(*) FROM challenge_tables") == len(GAMES)
    assert await migrated.scalar("SELECT COUNT(*) FROM challenge_table_actions") == sum(
        _rows(game, "actions") for game in GAMES
    )


async def test_a_moved_hydra_row_keeps_its_heads_and_finish(migrated: Database) -> None:
    won = next(game for game in GAMES if game["deck"] == "hydra" and game["snapshot"]["outcome"] == "won")
    stored = won["stored"]["hydra_games"][0]
    row = (await HydraService(migrated).load(stored["game_id"])).row
    assert (row.kind, row.heads, row.turns, row.heads_severed, row.idle_minutes, row.status) == (
        "hydra",
        stored["heads"],
        stored["turns"],
        stored["heads_severed"],
        stored["idle_minutes"],
        "finished",
    )


async def test_new_tables_of_every_deck_number_above_every_id_either_family_gave_out(
    migrated: Database,
) -> None:
    highest = max(_game_id(game) for game in GAMES)
    hydra = await HydraService(migrated).create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=3)
    horde = await ChallengeService(migrated).create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3
    )
    god = await ChallengeService(migrated).create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="god", difficulty=1
    )
    assert [hydra.game_id, horde.game_id, god.game_id] == [highest + 1, highest + 2, highest + 3]
    # A repository sees its own kind only: a Horde id is no Hydra table (a crafted hydra:<id> button).
    with pytest.raises(ChallengeError, match="no_table"):
        await HydraService(migrated).load(horde.game_id)
    with pytest.raises(ChallengeError, match="no_table"):
        await ChallengeService(migrated).load(hydra.game_id)
    with pytest.raises(ValueError, match="hydra"):
        await ChallengeRepository(migrated).create(
            guild_id=1,
            channel_id=1,
            created_by=1,
            creator_name="x",
            deck="hydra",
            difficulty=3,
            seed=1,
            language="en",
        )


async def test_an_events_tables_of_either_kind_keep_their_old_ids(migrated: Database) -> None:
    """hydra_event_tables names a table by its id and the event's deck: a Hydra event's table 3 and a
    Horde event's table 3 are two tables, each found by its event and loaded by its deck's service."""
    events = HydraEventRepository(migrated)
    for deck, table_no in (("hydra", 1), ("horde", 1)):
        event_id = await events.create(
            guild_id=1,
            channel_id=1,
            name=deck,
            starts_at="t",
            heads=1,
            table_size=4,
            grace_minutes=10,
            language="en",
            created_by=1,
            deck=deck,
        )
        # (game_id is UNIQUE across events: a Hydra and a Horde event could not both hold an old table 3)
        game_id = 3 if deck == "hydra" else 4
        await migrated.execute(
            "INSERT INTO hydra_event_tables (event_id, table_no, game_id, started_at) VALUES (?, ?, ?, 't')",
            (event_id, table_no, game_id),
        )
        assert await events.table_of_game(game_id, (deck,)) == (event_id, table_no)
        service = HydraService(migrated) if deck == "hydra" else ChallengeService(migrated)
        assert (await service.load(game_id)).row.deck == deck


async def test_a_moved_hydra_table_that_ends_counts_on_its_players_profiles(migrated: Database) -> None:
    heard: list[tuple[str, Any]] = []
    service = HydraService(migrated, notify=lambda name, record: heard.append((name, record)))
    ongoing = next(
        game for game in GAMES if game["deck"] == "hydra" and game["snapshot"]["outcome"] == "ongoing"
    )
    table = await service.load(_game_id(ongoing))
    before = await service.profile(table.user_ids[0])
    for user_id in table.user_ids:
        if not (await service.load(table.game_id)).game.over:
            await service.concede(table.game_id, user_id)
    [(name, record)] = heard
    assert (
        name == "hydra_game_finished"
        and isinstance(record, TableFinished)
        and record.game_id == table.game_id
    )
    assert (await service.profile(table.user_ids[0])).games == before.games + 1
    assert (await service.load(table.game_id)).row.status == "finished"


async def test_privacy_export_and_delete_cover_both_kinds_of_table(migrated: Database) -> None:
    user_id = 100  # the recorded Hydra tables' first player; made the Horde's and the God's too
    for table, column in (
        ("challenge_tables", "created_by"),
        ("challenge_table_seats", "user_id"),
        ("challenge_table_actions", "actor_id"),
    ):
        await migrated.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = 200", (user_id,))
    privacy = PrivacyRepository(migrated)
    exported = await privacy.export_user(user_id)
    assert {row["deck"] for row in exported["challenge_tables_created"]} == {"hydra", "horde", "god"}
    assert {row["kind"] for row in exported["challenge_seats"]} == {"hydra", "challenge"}
    assert {row["kind"] for row in exported["challenge_actions"]} == {"hydra", "challenge"}
    changed = await privacy.delete_user(user_id, -77)
    assert changed["challenge_tables"] == len(GAMES) and changed["challenge_table_seats"] == len(GAMES)
    for table, column in (
        ("challenge_tables", "created_by"),
        ("challenge_table_seats", "user_id"),
        ("challenge_table_actions", "actor_id"),
    ):
        assert await migrated.scalar(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (user_id,)) == 0
    # the pseudonym leaves every game replaying to the same state (only a name differs)
    for recorded in GAMES:
        table = await service_of(migrated, recorded).load(_game_id(recorded))
        replayed = {key: value for key, value in table.game.snapshot().items() if key != "players"}
        assert replayed == {key: value for key, value in recorded["snapshot"].items() if key != "players"}


async def test_purging_a_server_deletes_its_tables_of_both_kinds(migrated: Database) -> None:
    await migrated.execute("UPDATE challenge_tables SET guild_id = 2 WHERE game_id = 3")  # one of each kind
    deleted = await PrivacyRepository(migrated).purge_guild(2)
    assert deleted["challenge_tables"] == 2 and deleted["challenge_table_seats"] >= 2
    assert {
        tuple(r)
        for r in await migrated.fetchall(
            "SELECT kind, game_id FROM challenge_table_actions WHERE game_id = 3"
        )
    } == set()
    assert await migrated.scalar("SELECT COUNT(*) FROM challenge_tables") == len(GAMES) - 2


async def test_an_event_page_hears_the_moves_of_a_horde_table_too(db: Database) -> None:
    """The live event page listens to ``hydra_game_topic`` of each of its tables, whatever the event's
    deck: one topic for every deck's table, so a Horde event's page follows its tables' moves."""
    service = ChallengeService(db)
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3
    )
    await service.start(table.game_id, 100)
    before = db.changes.version(hydra_game_topic(table.game_id))
    await service.act(table.game_id, 100, "end")
    assert db.changes.version(hydra_game_topic(table.game_id)) > before
