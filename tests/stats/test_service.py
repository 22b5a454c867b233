"""StatsService over real stored games: the backfill's batches and a game marked finished whose log never
ended it, the probes ``/stats`` answers before deferring, and the commander autocomplete."""

from __future__ import annotations

import logging

from bot.domain import pod
from bot.services.pods import PodService
from bot.services.stats import StatsService, record_of_stored_game, stats_topic

GUILD, ALICE, BOB = 77, 11, 22


async def finished_game(pods: PodService, commander: str | None = None, guild_id: int = GUILD) -> int:
    game = await pods.start_game(
        guild_id=guild_id,
        channel_id=None,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    if commander:
        await pods.change(game.game_id, ALICE, pod.COMMANDERS, player=ALICE, names=[commander])
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    await pods.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
    return game.game_id


async def test_the_probes_answer_per_server_member_and_commander(db) -> None:
    pods = PodService(db)
    await finished_game(pods, "Atraxa, Praetors' Voice")
    await finished_game(pods, "Atraxa, Praetors' Voice")
    await finished_game(pods, "Kaalia of the Vast")
    service = StatsService(db)
    assert await service.has_games(GUILD) and not await service.has_games(GUILD + 1)
    assert await service.has_games(GUILD, user_id=BOB) and not await service.has_games(GUILD, user_id=99)
    assert await service.has_games(GUILD, commander="Kaalia of the Vast")
    assert not await service.has_games(GUILD, commander="Sol Ring")
    assert await service.commander_names(GUILD, "a") == ["Atraxa, Praetors' Voice", "Kaalia of the Vast"]
    assert await service.commander_names(GUILD, "KAAL") == ["Kaalia of the Vast"]
    assert await service.commander_names(GUILD + 1, "a") == []
    assert (await service.commander(GUILD, "Atraxa, Praetors' Voice")).games == 2
    assert [line.user_id for line in await service.leaderboard(GUILD)] == [
        ALICE,
        BOB,
    ]  # three games each: ranked
    assert stats_topic(GUILD) == "stats:77"


async def test_the_backfill_summarises_every_batch_and_a_game_its_log_never_ended(db, caplog) -> None:
    pods = PodService(db)
    ids = [await finished_game(pods) for _ in range(3)]
    open_game = await pods.start_game(
        guild_id=GUILD,
        channel_id=None,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    await db.execute("DELETE FROM stats_players")
    await db.execute("DELETE FROM stats_games")
    # A row marked finished whose events never end the game (a crash mid-write in an old version).
    await db.execute("UPDATE pod_games SET status = 'finished' WHERE game_id = ?", (open_game.game_id,))
    offloaded: list[int] = []

    async def offload(fn, row, events):
        offloaded.append(row.game_id)
        return fn(row, events)

    service = StatsService(db, offload=offload)
    with caplog.at_level(logging.INFO, logger="bot.services.stats"):
        assert await service.backfill() == 4
    assert [r.getMessage() for r in caplog.records if r.name == "bot.services.stats"] == [
        "statistics: summarised 4 games finished before they were kept"
    ]
    assert sorted(offloaded) == [*ids, open_game.game_id]
    rows = await db.fetchall("SELECT game_id, counted, guild_id FROM stats_games")
    counted = {int(r[0]): (int(r[1]), int(r[2])) for r in rows}
    assert counted == {**{game_id: (1, GUILD) for game_id in ids}, open_game.game_id: (0, GUILD)}
    assert (await service.server(GUILD)).games == 3
    assert (await service.member(GUILD, ALICE)).games == 3
    assert await service.backfill() == 0


async def test_an_unfinished_log_has_no_record(db) -> None:
    pods = PodService(db)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=None,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    assert record_of_stored_game(game.row, game.events) is None
    table = await pods.start_game(
        guild_id=GUILD,
        channel_id=9,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
        tournament_id=4,
        round_number=2,
    )
    await pods.change(table.game_id, ALICE, pod.NEXT_TURN)
    await pods.change(table.game_id, BOB, pod.CONCEDE, player=BOB)
    done = await pods.get(table.game_id)
    record = record_of_stored_game(done.row, done.events)
    assert record is not None and record.winner == ALICE
    assert (record.guild_id, record.channel_id, record.tournament_id, record.round_number) == (GUILD, 9, 4, 2)
