"""The lists the season, match, event-award and invitation repositories read keep the order the code chose,
on both engines.

tests/core/test_storage_read_order.py checks the reads a night of play reaches through the commands; these
records (seasons, a scored game's lines, a match tournament's byes, an event's awards, the friends an
invitation names) need a whole season or event to reach that way, so they are written here through their
repositories, each in an order its read must not keep (the lines seat 3 first, the friends by falling user
id). Then every read is made twice: as stored, and with the engine made to return unordered rows the other
way round — SQLite's ``reverse_unordered_selects``, PostgreSQL's pages rewritten back to front with index and
bitmap scans off. A read whose ``ORDER BY`` went missing comes back changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.domain.season import PointsRule, SeatResult
from bot.storage.db import Database, PostgresDatabase, SqliteDatabase
from bot.storage.event_invitations import InvitationRepository
from bot.storage.hydra_events import RUNNING, HydraEventRepository
from bot.storage.matches import MatchRepository
from bot.storage.seasons import SeasonRepository
from tests.core.test_storage_read_order_postgres import _TABLE_SCANS_ONLY, _reverse_every_table
from tests.seasons.test_storage import GUILD, pod_games

Reads = dict[str, Callable[[], Awaitable[list[Any]]]]
WHEN = "2026-12-01T20:00:00+00:00"


async def _seasons(db: Database) -> Reads:
    """Three seasons one after the other, and a game of the last scored with its seats stored 3, 1, 4, 2."""
    seasons = SeasonRepository(db)
    for name in ("Spring", "Summer", "Autumn"):
        season_id = await seasons.create(
            GUILD, name, PointsRule(), league_only=False, opened_by=1, opened_at=WHEN
        )
        if name != "Autumn":
            assert await seasons.close(season_id, 1, WHEN)
    await pod_games(db, [1])
    lines = [
        SeatResult(
            user_id=10 + seat,
            name=f"p{seat}",
            seat=seat,
            won=seat == 1,
            survived=False,
            eliminations=0,
            points=0,
        )
        for seat in (3, 1, 4, 2)
    ]
    assert await seasons.add_game(season_id, 1, lines, channel_id=None, finished_at=WHEN)

    async def lines_of_the_game() -> list[Any]:
        game = await seasons.game(1)
        assert game is not None
        return [seat.seat for seat in game.seats]

    async def seasons_newest_first() -> list[Any]:
        return [season.name for season in await seasons.seasons(GUILD)]

    return {"seasons newest first": seasons_newest_first, "a scored game's lines": lines_of_the_game}


async def _byes(db: Database) -> Reads:
    matches = MatchRepository(db)
    for round_number, user_id in ((1, 30), (2, 20), (3, 10)):
        await matches.add_bye(7, round_number, user_id)
    return {"byes by round": lambda: matches.byes(7)}


async def _awards(db: Database) -> Reads:
    """An event won at three tables, its winners named table 3 first; no role given yet."""
    events = HydraEventRepository(db)
    event_id = await events.create(
        guild_id=GUILD,
        channel_id=5,
        name="Night",
        starts_at=WHEN,
        heads=2,
        table_size=2,
        grace_minutes=10,
        language="en",
        created_by=1,
    )
    await events.update(event_id, status=RUNNING)
    assert await events.finish(event_id, [(300, 3), (100, 1), (200, 2)], role_id=99)
    return {"awards by table": lambda: events.awards(event_id), "roles to grant": events.roles_to_grant}


async def _invitation(db: Database) -> Reads:
    invitations = InvitationRepository(db)
    asked = datetime(2026, 12, 1, 20, tzinfo=UTC)
    friends = [(300, "carol"), (200, "bob"), (100, "alice")]  # named in this order, not by id
    await invitations.add(1, 1, (400, "dave"), friends, asked_at=asked, expires_at=asked + timedelta(hours=1))

    async def friends_as_named() -> list[Any]:
        invitation = await invitations.get(1)
        assert invitation is not None
        return list(invitation.friends.items())

    return {"an invitation's friends": friends_as_named}


async def _read_all(reads: Reads) -> dict[str, list[Any]]:
    return {name: await read() for name, read in reads.items()}


async def _turn_unordered_rows_around(db: Database) -> None:
    if isinstance(db, SqliteDatabase):
        await db.conn.execute("PRAGMA reverse_unordered_selects = ON")
    else:
        assert isinstance(db, PostgresDatabase)
        assert await _reverse_every_table(db) >= 5


async def test_season_match_award_and_invitation_reads_keep_their_order(db_url: str | Path) -> None:
    on_postgres = not isinstance(db_url, Path)
    db = await Database.open(f"{db_url}&{_TABLE_SCANS_ONLY}" if on_postgres else db_url)
    try:
        reads: Reads = {}
        for records in (_seasons, _byes, _awards, _invitation):
            reads |= await records(db)
        kept = await _read_all(reads)
        assert kept["seasons newest first"] == ["Autumn", "Summer", "Spring"]
        assert kept["a scored game's lines"] == [1, 2, 3, 4]
        assert kept["an invitation's friends"] == [(300, "carol"), (200, "bob"), (100, "alice")]
        assert all(len(rows) >= 2 for rows in kept.values()), kept
        await _turn_unordered_rows_around(db)
        turned = await _read_all(reads)
        assert {name for name in kept if kept[name] != turned[name]} == set()
    finally:
        await db.close()
