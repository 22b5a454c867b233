"""PrivacyService on a real database: what a member's export file says and how it reads, the pseudonym
``/privacy delete`` puts in their place, and which departed servers the retention period purges, all at an
injected clock."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime, timedelta

import pytest

from bot.domain import pod
from bot.services.pods import PodService
from bot.services.privacy import PrivacyService

ALICE, BOB = 11, 22
NOON = datetime(2026, 12, 1, 12, 0, 0, 500_000, tzinfo=UTC)


async def _game_with_a_cjk_name(db) -> int:
    pods = PodService(db)
    game = await pods.start_game(
        guild_id=5,
        channel_id=6,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "アリス"), (BOB, "Bob")],
    )
    await pods.change(game.game_id, ALICE, pod.LIFE, player=ALICE, amount=-2)
    return game.game_id


async def test_the_export_is_readable_json_dated_by_the_clock_with_names_as_written(db) -> None:
    game_id = await _game_with_a_cjk_name(db)
    data = await PrivacyService(db, clock=lambda: NOON).export(ALICE)
    text = data.decode("utf-8")
    exported = json.loads(text)
    assert exported["user_id"] == ALICE
    assert exported["exported_at"] == "2026-12-01T12:00:00+00:00"  # whole seconds, in UTC
    (game,) = exported["pod_games"]
    assert game["game_id"] == game_id and [e["kind"] for e in game["events"]] == ["create", "life"]
    # A member opening the file in an editor reads their name, not \u escapes, one field per line.
    assert "アリス" in text and "\\u" not in text
    assert text.startswith('{\n  "user_id": 11,\n  "exported_at": ')


async def test_the_default_clock_dates_the_export_in_utc(db) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    exported = json.loads(await PrivacyService(db).export(ALICE))
    stamp = datetime.fromisoformat(exported["exported_at"])
    assert stamp.utcoffset() == timedelta(0)
    assert before <= stamp <= datetime.now(UTC)


@pytest.mark.parametrize("drawn", [0, 2**62 - 1])
async def test_the_pseudonym_is_negative_at_both_ends_of_the_draw(db, monkeypatch, drawn: int) -> None:
    """A pseudonym is never a Discord id (those are positive) nor 0, whatever the draw gives."""
    await _game_with_a_cjk_name(db)
    asked: list[int] = []

    def draw(limit: int) -> int:
        asked.append(limit)
        return min(drawn, limit - 1)

    monkeypatch.setattr(secrets, "randbelow", draw)
    pseudonym = await PrivacyService(db).delete_member(ALICE)
    assert -(2**62) <= pseudonym <= -1 and asked
    (created,) = await db.fetchall("SELECT data FROM pod_events WHERE kind = 'create'")
    assert [p["user_id"] for p in json.loads(created[0])["players"]] == [pseudonym, BOB]


async def test_pseudonyms_are_drawn_from_a_space_too_big_to_collide(db) -> None:
    """Two deleted members must never share a pseudonym (their games would merge): the draw is from
    2**62 values, so a pseudonym is almost never small."""
    service = PrivacyService(db)
    drawn = [await service.delete_member(user) for user in range(100, 110)]
    assert len(set(drawn)) == 10 and all(p < -(2**40) for p in drawn)


async def test_purge_due_deletes_only_servers_left_longer_ago_than_the_retention(db) -> None:
    now = NOON
    for guild_id, days_ago in ((1, 31), (2, 29), (3, 30)):
        await PrivacyService(db, clock=lambda d=days_ago: now - timedelta(days=d)).left(guild_id)
        pods = PodService(db)
        await pods.start_game(
            guild_id=guild_id,
            channel_id=6,
            created_by=None,
            ruleset="commander",
            players=[(ALICE, "a"), (BOB, "b")],
        )
    await PrivacyService(db, clock=lambda: now).returned(3)  # it came back: its data stays
    due = await PrivacyService(db, clock=lambda: now).purge_due(30)
    assert due == [1]
    left = {row[0] for row in await db.fetchall("SELECT guild_id FROM pod_games")}
    assert left == {2, 3}
