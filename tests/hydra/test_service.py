"""The Hydra service on a real SQLite file: lobby, play, who may answer, undo, restart, profiles."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.services.hydra import HydraFinished, HydraService
from bot.storage.db import Database
from bot.storage.hydra import FINISHED, IDLE, PLAYING


@pytest.fixture
async def service(db: Database):
    finished: list[HydraFinished] = []
    svc = HydraService(db, notify=lambda name, payload: finished.append(payload))
    svc.finished = finished  # type: ignore[attr-defined]
    return svc


async def seated_table(service: HydraService, players: int = 2, heads: int = 2, seed: int = 5):
    table = await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=heads, seed=seed)
    for i in range(1, players):
        await service.join(table.game_id, 100 + i, f"P{i + 1}")
    return await service.start(table.game_id, 100)


async def test_lobby_seats_up_to_four_with_heroes(service: HydraService) -> None:
    table = await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=3)
    for user in (101, 102, 103):
        table = await service.join(table.game_id, user, f"u{user}")
    with pytest.raises(ChallengeError, match="table_full"):
        await service.join(table.game_id, 104, "late")
    with pytest.raises(ChallengeError, match="already_seated"):
        await service.join(table.game_id, 101, "again")
    table = await service.leave(table.game_id, 102)
    assert [(s.seat, s.user_id) for s in table.seats] == [(1, 100), (2, 101), (3, 103)]
    table = await service.set_heroes(table.game_id, 101, ["the slayer", "The Slayer"])
    with pytest.raises(ChallengeError, match="too_many_heroes"):
        await service.set_heroes(table.game_id, 101, ["The Slayer"] * 3)
    with pytest.raises(ChallengeError, match="unknown_hero"):
        await service.set_heroes(table.game_id, 101, ["The Nobody"])
    table = await service.start(table.game_id, 103)
    assert table.row.status == PLAYING
    assert [p.life for p in table.game.players] == [20, 34, 20]
    with pytest.raises(ChallengeError, match="not_in_lobby"):
        await service.join(table.game_id, 104, "late")


async def test_bad_difficulty_stores_nothing(service: HydraService, db: Database) -> None:
    with pytest.raises(ChallengeError, match="heads_range"):
        await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=0)
    assert await db.scalar("SELECT COUNT(*) FROM challenge_tables") == 0


async def test_only_challengers_act_and_personal_questions_go_to_their_player(service: HydraService) -> None:
    table = await seated_table(service)
    with pytest.raises(ChallengeError, match="not_a_challenger"):
        await service.act(table.game_id, 999, "attack 1 3")
    with pytest.raises(ChallengeError, match="not_your_choice"):
        await service.act(table.game_id, 100, "concede 2")
    with pytest.raises(
        ChallengeError, match="not_your_choice"
    ):  # the script's "everyone concedes" is not for Discord
        await service.act(table.game_id, 100, "concede")
    result = await service.act(table.game_id, 101, "end")
    assert result.hydra_turn_started and result.table.game.pending.topic == "counter"
    game = result.table.game
    # answer windows with pass until a per-player question (if any) or the players' turn
    while game.pending is not None:
        owner = result.table.user_to_answer()
        if owner is not None:
            other = 100 if owner == 101 else 101
            with pytest.raises(ChallengeError, match="not_your_choice"):
                await service.act(table.game_id, other, f"choose {game.pending.default}")
        result = await service.act(table.game_id, owner or 100, f"choose {game.pending.default}")
    assert game.active == "players"


async def test_a_restart_replays_the_stored_actions_to_the_same_state(
    service: HydraService, db: Database
) -> None:
    table = await seated_table(service)
    await service.act(table.game_id, 100, "damage 1 2")
    await service.act(table.game_id, 100, "end")
    await service.answer_default(table.game_id, "counter")
    before = (await service.load(table.game_id)).game.snapshot()
    fresh = HydraService(db)  # a new process: nothing cached
    after = await fresh.load(table.game_id)
    assert after.game.snapshot() == before
    assert [a.line for a in after.actions][:3] == ["damage 1 2", "end", "choose pass"]
    assert after.actions[2].actor_id is None  # the default was the bot's, not a player's


async def test_answer_default_ignores_a_question_already_answered(service: HydraService) -> None:
    table = await seated_table(service)
    await service.act(table.game_id, 100, "end")
    assert table.game.pending.topic == "counter"
    # the timer of an earlier question fires late: the counter window now open is left alone
    assert await service.answer_default(table.game_id, "prevent") is None
    assert [a.line for a in (await service.load(table.game_id)).actions] == ["end"]
    result = await service.answer_default(table.game_id, "counter")
    assert result is not None and [a.line for a in result.table.actions] == ["end", "choose pass"]


async def test_undo_takes_back_the_last_action_of_the_players_turn_only(
    service: HydraService, db: Database
) -> None:
    table = await seated_table(service)
    await service.act(table.game_id, 100, "damage 1 2")
    table = await service.undo(table.game_id, 101)
    assert table.game.battlefield[0].damage == 0 and table.actions == []
    assert await db.scalar("SELECT COUNT(*) FROM challenge_table_actions") == 0
    with pytest.raises(ChallengeError, match="nothing_to_undo"):
        await service.undo(table.game_id, 100)


async def test_idle_tables_refuse_actions_until_resumed(service: HydraService) -> None:
    table = await seated_table(service)
    await service.set_idle(table.game_id)
    with pytest.raises(ChallengeError, match="idle"):
        await service.act(table.game_id, 100, "end")
    table = await service.resume(table.game_id, 101)
    assert table.row.status == PLAYING
    await service.act(table.game_id, 100, "damage 1 1")


async def test_a_win_records_the_slayer_and_the_profile(service: HydraService, db: Database) -> None:
    # seed 5, two heads: sever one, counter Swallow, sever the other (as in the CLI test)
    table = await seated_table(service, players=2, heads=2, seed=5)
    for line in ("attack 1 3", "end", "choose counter", "choose pass", "attack 2 3"):
        await service.act(table.game_id, 100, line)
    result = await service.act(table.game_id, 101, "end")
    assert result.finished and result.table.row.status == FINISHED and result.table.row.outcome == "won"
    for user in (100, 101):
        profile = await service.profile(user)
        assert (profile.games, profile.wins, profile.heads_severed) == (1, 1, 2)
        assert profile.has_slayer and (profile.best_win_heads, profile.best_win_turns) == (2, 3)
    assert service.finished[0].outcome == "won" and service.finished[0].user_ids == (100, 101)
    assert not (await service.profile(555)).has_slayer
    with pytest.raises(ChallengeError, match="not_playing"):
        await service.act(table.game_id, 100, "end")


async def test_a_loss_counts_a_game_without_the_slayer(service: HydraService) -> None:
    table = await seated_table(service, players=1)
    result = await service.concede(table.game_id, 100)
    assert result.finished and result.table.row.outcome == "lost"
    profile = await service.profile(100)
    assert (profile.games, profile.wins, profile.has_slayer) == (1, 0, False)


async def test_finished_and_idle_tables_are_not_reopened(service: HydraService) -> None:
    first = await seated_table(service)
    second = await seated_table(service)
    await service.set_idle(second.game_id)
    assert [t.game_id for t in await service.open_tables()] == [first.game_id]
    assert (await service.table_in_channel(10, (IDLE,))).game_id == second.game_id


async def test_two_processes_acting_on_one_table_never_store_an_action_twice(
    service: HydraService, db: Database
) -> None:
    """Two bot processes on one database (a second Database and service, nothing shared in memory). Each
    reads the log before it judges an action, so the other process's stored action is seen; when both
    act at the same moment (the first stores between the other's read and its write), the one that
    judged a stale log is refused cleanly, stores nothing, and acts on the fresh log next time."""
    table = await seated_table(service, heads=5)
    other_db = await Database.open(db.url)
    try:
        other = HydraService(other_db)
        await other.load(table.game_id)
        await service.act(table.game_id, 100, "damage 1 2")
        await other.act(table.game_id, 101, "damage 1 1")  # read again: judged on what happened
        append = other.repo.append

        async def first_process_stores_meanwhile(*args: object, **kwargs: object) -> None:
            await service.act(table.game_id, 100, "damage 2 1")
            await append(*args, **kwargs)  # type: ignore[arg-type]

        other.repo.append = first_process_stores_meanwhile  # type: ignore[method-assign]
        with pytest.raises(ChallengeError, match="conflict"):
            await other.act(table.game_id, 101, "damage 3 1")
        other.repo.append = append  # type: ignore[method-assign]
        await other.act(table.game_id, 101, "damage 4 1")
        lines = [(a.seq, a.line) for a in (await HydraService(db).load(table.game_id)).actions]
        assert lines == [(1, "damage 1 2"), (2, "damage 1 1"), (3, "damage 2 1"), (4, "damage 4 1")]
    finally:
        await other_db.close()


async def test_a_tables_heads_may_be_given_as_its_difficulty_and_its_idle_time_is_kept(
    service: HydraService,
) -> None:
    """The event service opens Hydra tables by ``difficulty`` like every deck's; a table's own idle time
    (after which it pauses) is stored, not the default."""
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", difficulty=4, idle_minutes=7
    )
    assert (table.row.deck, table.row.difficulty, table.row.idle_minutes) == ("hydra", 4, 7)
    with pytest.raises(TypeError, match="^a Hydra table needs its heads$"):
        await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann")
