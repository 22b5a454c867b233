"""The one challenge service plays every deck the same way: the Hydra's tables (``HydraService``, its
own table family and profiles) and the Horde's and the God's (``ChallengeService``), on a real
database (SQLite, and PostgreSQL where the ``db`` fixture runs it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.services.challenge import ChallengeService, TableFinished, table_topic
from bot.services.event_tables import EventTables
from bot.services.hydra import HydraService
from bot.storage.challenge import IDLE, PLAYING
from bot.storage.db import Database

# deck, difficulty, an action of the players' first turn that changes nothing hidden
DECKS = [("hydra", 3, "damage 2 1"), ("god", 2, "tap 1"), ("horde", 3, "life 1 1")]


def service_for(deck: str, db: Database, **kwargs: Any) -> ChallengeService:
    return HydraService(db, **kwargs) if deck == "hydra" else ChallengeService(db, **kwargs)


async def started(service: ChallengeService, deck: str, difficulty: int, players: int = 1) -> Any:
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck=deck, difficulty=difficulty, seed=5
    )
    for i in range(1, players):
        await service.join(table.game_id, 100 + i, f"P{i + 1}")
    return await service.start(table.game_id, 100)


@dataclass
class Playing:
    """One deck's started table, its service, and an action of the players' first turn."""

    deck: str
    line: str
    service: ChallengeService
    table: Any
    heard: list[tuple[str, Any]]  # what the service dispatched


@pytest.fixture(params=DECKS, ids=[deck for deck, _, _ in DECKS])
async def playing(request: pytest.FixtureRequest, db: Database) -> Playing:
    deck, difficulty, line = request.param
    heard: list[tuple[str, Any]] = []
    service = service_for(deck, db, notify=lambda name, payload: heard.append((name, payload)))
    return Playing(deck, line, service, await started(service, deck, difficulty), heard)


async def test_every_deck_acts_stores_and_replays_its_log_after_a_restart(
    playing: Playing, db: Database
) -> None:
    service, table, deck, line = playing.service, playing.table, playing.deck, playing.line
    result = await service.act(table.game_id, 100, line)
    assert [(a.seq, a.line, a.actor_id) for a in result.table.actions] == [(1, line, 100)]
    fresh = await service_for(deck, db).load(table.game_id)  # a new process: replayed from the log
    assert fresh.game.snapshot() == result.table.game.snapshot() and fresh.row.deck == deck


async def test_a_second_process_sees_the_first_ones_action_and_a_race_is_refused(
    playing: Playing, db: Database
) -> None:
    """Two processes on one database: a load reads the log, so the other's action is seen; when the
    first stores between the second's read and its write, the second is refused and stores nothing."""
    service, table, deck, line = playing.service, playing.table, playing.deck, playing.line
    other_db = await Database.open(db.url)
    try:
        other = service_for(deck, other_db)
        await other.load(table.game_id)
        await service.act(table.game_id, 100, line)
        assert [a.line for a in (await other.load(table.game_id)).actions] == [line]
        append = other.repo.append

        async def first_stores_meanwhile(*args: Any, **kwargs: Any) -> None:
            await service.act(table.game_id, 100, "end")
            await append(*args, **kwargs)

        other.repo.append = first_stores_meanwhile  # type: ignore[method-assign]
        with pytest.raises(ChallengeError, match="conflict"):
            await other.act(table.game_id, 100, line)
        assert [a.line for a in (await service_for(deck, db).load(table.game_id)).actions] == [line, "end"]
    finally:
        await other_db.close()


async def test_every_write_is_announced_and_the_end_is_dispatched_with_its_deck(
    playing: Playing, db: Database
) -> None:
    service, table, deck, line = playing.service, playing.table, playing.deck, playing.line
    topic = table_topic(table.game_id)
    before = db.changes.version(topic)
    await service.act(table.game_id, 100, line)
    assert db.changes.version(topic) == before + 1
    await service.concede(table.game_id, 100)
    [(name, record)] = playing.heard
    assert name == service.kind.finished_event and isinstance(record, TableFinished)
    assert (record.game_id, record.deck, record.outcome, record.user_ids) == (
        table.game_id,
        deck,
        "lost",
        (100,),
    )


async def test_an_idle_table_refuses_actions_until_a_seated_player_resumes_it(
    playing: Playing, db: Database
) -> None:
    service, table, line = playing.service, playing.table, playing.line
    await service.set_idle(table.game_id)
    assert (await service.load(table.game_id)).row.status == IDLE
    with pytest.raises(ChallengeError, match="idle"):
        await service.act(table.game_id, 100, line)
    with pytest.raises(ChallengeError, match="not_a_challenger"):
        await service.resume(table.game_id, 999)
    assert (await service.resume(table.game_id, 100)).row.status == PLAYING
    assert (await service.act(table.game_id, 100, line)).table.actions[-1].line == line


async def test_a_no_show_concedes_their_seat_only_where_each_player_has_a_life_total(db: Database) -> None:
    """Against the Hydra the bot concedes for a no-show and the others play on; against the God the
    players share one life total, so a concession would end the game for those who came: nothing."""
    hydra, god = HydraService(db), ChallengeService(db)
    hydra_table = await started(hydra, "hydra", 3, players=2)
    god_table = await started(god, "god", 2, players=2)
    dropped = await EventTables(hydra).drop(hydra_table.game_id, 2)
    assert dropped is not None and dropped.table.game.players[1].lost and not dropped.table.game.over
    assert await EventTables(god).drop(god_table.game_id, 2) is None
    assert (await god.load(god_table.game_id)).actions == []


async def test_a_member_concedes_only_their_own_seat_where_life_is_per_player(db: Database) -> None:
    hydra, god = HydraService(db), ChallengeService(db)
    hydra_table = await started(hydra, "hydra", 3, players=2)
    with pytest.raises(ChallengeError, match="not_your_choice"):
        await hydra.act(hydra_table.game_id, 100, "concede 2")
    with pytest.raises(ChallengeError, match="only_your_seat"):
        await hydra.act(hydra_table.game_id, 100, "life 2 -19")
    god_table = await started(god, "god", 2, players=2)
    result = await god.act(god_table.game_id, 101, "life 1 -1")  # one shared total: anyone may change it
    assert result.table.game.life == 19


async def test_hero_cards_follow_each_decks_rules(db: Database) -> None:
    hydra, god = HydraService(db), ChallengeService(db)
    hydra_table = await hydra.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=3)
    god_table = await god.create(guild_id=1, channel_id=10, user_id=100, name="Ann", deck="god", difficulty=2)
    await hydra.set_heroes(hydra_table.game_id, 100, ["The Slayer", "The Slayer"])  # the same twice: allowed
    with pytest.raises(ChallengeError, match="challenge.error.heroes"):
        await god.set_heroes(god_table.game_id, 100, ["The Slayer", "The Slayer"])
    with pytest.raises(ChallengeError, match="too_many_heroes"):
        await hydra.set_heroes(hydra_table.game_id, 100, ["The Slayer"] * 3)
    assert (await hydra.load(hydra_table.game_id)).heroes_of(100) == ("The Slayer", "The Slayer")
    assert (await god.load(god_table.game_id)).heroes_of(100) == ()
