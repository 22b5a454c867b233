"""Games stored by earlier code keep replaying exactly (``tests/data/stored_challenge_games.json``).

The fixture holds what storage held for 18 real games (6 per deck: won, lost, stopped mid-game, and a
table saved before stable numbers), recorded by ``record_stored_games.py`` before the engines were
changed. Each test puts those rows into a fresh database where that code stored them (the schema before
migration 0065 moved every deck's tables into one family), migrates it, loads the table through today's
service and compares the rebuilt game with the one recorded: the whole state, and every log line.

Log lines changed on purpose are listed in ``DELIBERATE_LOG_CHANGES``, each with the words it replaced
(a state that differs, or any other log line, fails).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.domain.challenge.core import Event
from bot.i18n import t
from bot.i18n.phrase import Phrase
from bot.services.challenge import ChallengeService
from bot.services.hydra import HydraService
from bot.storage.db import Database, available_migrations

from .record_stored_games import events_digest

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "stored_challenge_games.json"
GAMES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))

# today's log line -> the line stored games showed before: "0 cards go ...: ." is now said in words
DELIBERATE_LOG_CHANGES = {
    "challenge.log.mill_nothing": Event("challenge.log.milled", {"count": 0, "cards": ""}),
    "hydra.log.mill_nothing": Event("hydra.log.milled", {"count": 0, "cards": ""}),
}


def as_recorded(events: list[Event]) -> list[Event]:
    """Today's log in the words of the code that stored the games (see ``DELIBERATE_LOG_CHANGES``)."""
    recorded = []
    for event in events:
        if event.key == "challenge.log.combat_nothing_to_prevent":  # "prevent the 0 combat damage"
            event = Event("challenge.log.combat_prevented", event.values)
        event = Event(event.key, {name: recorded_words(value) for name, value in event.values.items()})
        recorded.append(DELIBERATE_LOG_CHANGES.get(event.key, event))
    return recorded


def recorded_words(value: object) -> object:
    """A value as the engines stored it before they named lists and phrases instead of writing them in
    English: a list was one phrase joined with ", ", a phrase its English words."""
    if isinstance(value, Phrase):
        return t(value.key, "en", **value.values)
    if isinstance(value, tuple):
        return ", ".join(str(recorded_words(item)) for item in value)
    return value


ONE_FAMILY = 65  # the migration that moved the Hydra's and the other decks' tables into one family


async def stored_by_old_schema(url: str | Path, games: list[dict[str, Any]]) -> Database:
    """A database holding ``games`` as the code that recorded them stored them (every migration before
    ``ONE_FAMILY``), then migrated to today's schema. The suite hands PostgreSQL tests a schema it
    migrated already: its tables go first."""
    db = await Database.open(url, migrate=False)
    for table in await db.tables():
        await db.execute(
            f"DROP TABLE {table} CASCADE" if db.engine == "postgresql" else f"DROP TABLE {table}"
        )
    await db.migrate([m for m in available_migrations() if m.version < ONE_FAMILY])
    for game in games:
        await _insert(db, game["stored"])
    await db.migrate()
    return db


def service_of(db: Database, recorded: dict[str, Any]) -> Any:
    """The service of the recorded game's family (its kind, since 0065)."""
    return HydraService(db) if recorded["family"] == "hydra" else ChallengeService(db)


async def _insert(db: Database, stored: dict[str, list[dict[str, Any]]]) -> int:
    """The recorded rows as they were stored (columns added since take their defaults)."""
    for table, rows in stored.items():
        for row in rows:
            columns = ", ".join(row)
            marks = ", ".join("?" for _ in row)
            await db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(row.values()))
    first = next(iter(stored.values()))[0]
    return int(first["game_id"])


def test_the_fixture_holds_every_kind_of_stored_game() -> None:
    decks = [game["deck"] for game in GAMES]
    assert decks.count("hydra") == decks.count("horde") == decks.count("god") == 6
    outcomes = {(game["deck"], game["snapshot"]["outcome"]) for game in GAMES}
    assert {
        ("hydra", "won"),
        ("hydra", "ongoing"),
        ("horde", "lost"),
        ("god", "won"),
        ("god", "ongoing"),
    } <= outcomes
    legacy = [game["deck"] for game in GAMES if not next(iter(game["stored"].values()))[0]["stable_ids"]]
    assert sorted(legacy) == ["god", "horde", "hydra"]


@pytest.mark.parametrize("index", range(len(GAMES)), ids=lambda i: f"{GAMES[i]['deck']}-{i}")
async def test_a_stored_game_replays_exactly(db_url: str | Path, index: int) -> None:
    recorded = GAMES[index]
    db = await stored_by_old_schema(db_url, [recorded])
    try:
        table = await service_of(db, recorded).load(
            int(next(iter(recorded["stored"].values()))[0]["game_id"])
        )
    finally:
        await db.close()
    game = table.game
    assert game.snapshot() == recorded["snapshot"]
    assert len(game.events) == recorded["event_count"]
    assert events_digest(as_recorded(game.events)) == recorded["events"]
