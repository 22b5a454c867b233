"""The challenge service's exact promises on a real database: the refusals' whole keys and values, where a
table's messages are remembered, which table a channel shows, who a concession is stored as, and when a
timed-out question is answered by its default (only the very question the timer was set for)."""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.services.challenge import ChallengeService, table_topic
from bot.services.hydra import HydraService
from bot.storage.challenge import FINISHED, IDLE, LOBBY, PLAYING
from bot.storage.db import Database


async def refused(call, key: str) -> ChallengeError:
    with pytest.raises(ChallengeError) as excinfo:
        await call
    assert excinfo.value.key == key
    return excinfo.value


async def hydra_table(service: HydraService, *, start: bool = True):
    """Ann and Bo against two heads, seed 5 (its first Hydra turn asks the players about a counter)."""
    table = await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=2, seed=5)
    await service.join(table.game_id, 101, "Bo")
    return await service.start(table.game_id, 100) if start else await service.load(table.game_id)


async def test_a_lobby_table_has_no_question_and_an_outsider_no_heroes(db: Database) -> None:
    service = HydraService(db)
    lobby = await hydra_table(service, start=False)
    assert lobby.game is None and lobby.user_to_answer() is None
    assert lobby.heroes_of(999) == () and lobby.heroes_of(100) == ()
    error = await refused(
        service.set_heroes(lobby.game_id, 100, ["No Such Hero"]), "hydra.error.unknown_hero"
    )
    assert error.values == {"hero": "No Such Hero"}


async def test_a_tables_messages_are_remembered_and_its_channel_kept_unless_moved(db: Database) -> None:
    service = ChallengeService(db)
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3
    )
    await service.set_message(table.game_id, 55)
    row = (await service.load(table.game_id)).row
    assert (row.message_id, row.channel_id) == (55, 10)
    await service.set_message(table.game_id, 56, channel_id=77)  # the table moved to its thread
    row = (await service.load(table.game_id)).row
    assert (row.message_id, row.channel_id) == (56, 77)
    await service.set_messages(table.game_id, turn_message_id=9)
    assert (await service.load(table.game_id)).row.turn_message_id == 9


async def test_a_channel_shows_its_newest_table_of_the_statuses_asked_for(db: Database) -> None:
    service = ChallengeService(db)
    assert await service.table_in_channel(10, (LOBBY, PLAYING)) is None
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3
    )
    shown = await service.table_in_channel(10, (LOBBY, PLAYING))
    assert shown is not None and shown.game_id == table.game_id
    assert await service.table_in_channel(10, (FINISHED,)) is None
    assert await service.table_in_channel(11, (LOBBY, PLAYING)) is None


async def test_resuming_a_table_that_is_not_paused_is_refused_by_its_key(db: Database) -> None:
    service = HydraService(db)
    table = await hydra_table(service)
    await refused(service.resume(table.game_id, 100), "hydra.error.not_idle")
    await service.set_idle(table.game_id)
    assert (await service.load(table.game_id)).row.status == IDLE
    assert (await service.resume(table.game_id, 100)).row.status == PLAYING


async def test_nothing_is_undone_in_the_decks_turn_or_before_any_action(db: Database) -> None:
    service = HydraService(db)
    table = await hydra_table(service)
    await refused(service.undo(table.game_id, 100), "hydra.error.nothing_to_undo")
    await service.act(table.game_id, 100, "attack 1 3")
    ended = (await service.act(table.game_id, 100, "end")).table
    assert ended.game.active == "hydra" and ended.game.pending is not None
    await refused(service.undo(table.game_id, 100), "hydra.error.nothing_to_undo")
    assert [a.line for a in (await service.load(table.game_id)).actions] == ["attack 1 3", "end"]


async def test_an_action_that_revealed_the_decks_library_is_not_undone(db: Database) -> None:
    service = ChallengeService(db)
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="god", difficulty=1, seed=4
    )
    await service.start(table.game_id, 100)
    await service.act(table.game_id, 100, "mill 1")
    await refused(service.undo(table.game_id, 100), "challenge.error.undo_revealed")
    assert [a.line for a in (await service.load(table.game_id)).actions] == ["mill 1"]


async def test_a_concession_is_stored_as_the_members_own_act(db: Database) -> None:
    """The event's no-show check counts who acted: a member's concession must carry their id."""
    service = HydraService(db)
    table = await hydra_table(service)
    result = await service.concede(table.game_id, 101)
    assert [(a.line, a.actor_id) for a in result.table.actions] == [("concede 2", 101)]


async def test_a_timed_out_question_is_answered_only_while_the_table_plays_and_nothing_moved(
    db: Database,
) -> None:
    service = HydraService(db)
    table = await hydra_table(service)
    assert await service.answer_default(table.game_id, "counter") is None  # no question yet
    await service.act(table.game_id, 100, "end")
    assert await service.answer_default(table.game_id, "counter", actions_before=0) is None  # moved on
    await service.set_idle(table.game_id)
    assert await service.answer_default(table.game_id, "counter", actions_before=1) is None  # paused
    await service.resume(table.game_id, 100)
    answered = await service.answer_default(table.game_id, "counter", actions_before=1)
    assert answered is not None and [(a.line, a.actor_id) for a in answered.table.actions] == [
        ("end", 100),
        ("choose pass", None),
    ]


async def test_a_finished_table_seats_nobody_late(db: Database) -> None:
    """Both players concede in their first turn: the game is over, and nobody may sit down after."""
    service = HydraService(db)
    table = await hydra_table(service)
    await service.concede(table.game_id, 100)
    await service.concede(table.game_id, 101)
    assert (await service.load(table.game_id)).row.status == FINISHED
    assert await service.seat_late(table.game_id, [(102, "Cy")], limit=4) is None
    assert await service.answer_default(table.game_id, "counter") is None
    assert (await service.load(table.game_id)).user_ids == [100, 101]


async def test_each_player_answers_for_their_own_seat_only_by_the_whole_key(db: Database) -> None:
    """Where each player has a life total, ``concede 1`` or ``life 1 -19`` by another player would put
    seat 1 out: refused, naming the seat that is theirs; their own seat's life they change freely."""
    service = HydraService(db)
    table = await hydra_table(service)
    await refused(service.act(table.game_id, 101, "concede 1"), "hydra.error.not_your_choice")
    error = await refused(service.act(table.game_id, 101, "life 1 -19"), "hydra.error.only_your_seat")
    assert error.values == {"seat": 2}
    result = await service.act(table.game_id, 101, "life 2 -1")
    assert result.events and result.table.game.players[1].life == result.table.game.players[0].life - 1
    assert result.table.actions[-1].at and result.table.actions[-1].actor_id == 101
    await service.set_idle(table.game_id)
    await refused(service.act(table.game_id, 100, "end"), "hydra.error.idle")


async def test_a_full_table_and_a_second_seat_are_refused_by_their_keys(db: Database) -> None:
    service = HydraService(db)
    table = await hydra_table(service, start=False)
    error = await refused(service.join(table.game_id, 101, "Bo"), "hydra.error.already_seated")
    assert error.values == {"max": 4}
    for user in (102, 103):
        await service.join(table.game_id, user, f"P{user}")
    error = await refused(service.join(table.game_id, 104, "Eve"), "hydra.error.table_full")
    assert error.values == {"max": 4}


async def test_a_member_concedes_a_shared_life_table_whole_and_its_end_is_dispatched(db: Database) -> None:
    """Against the God the players share one life total: a concession is the table's, and the finished
    table is told to the event and profile listeners with its server, turns and score."""
    heard = []
    service = ChallengeService(db, notify=lambda name, payload: heard.append(payload))
    table = await service.create(guild_id=7, channel_id=10, user_id=100, name="Ann", deck="god", difficulty=1)
    await service.join(table.game_id, 101, "Bo")
    await service.start(table.game_id, 100)
    result = await service.concede(table.game_id, 101)
    assert [(a.line, a.actor_id) for a in result.table.actions] == [("concede", 101)]
    (finished,) = heard
    game = (await service.load(table.game_id)).game
    assert (finished.game_id, finished.guild_id, finished.deck, finished.outcome) == (
        table.game_id,
        7,
        "god",
        "lost",
    )
    assert (finished.user_ids, finished.turns, finished.defeated) == ((100, 101), game.turn, game.defeated)


async def test_a_new_table_is_checked_before_it_is_stored_and_an_events_tables_are_not_capped(
    db: Database,
) -> None:
    """The God's house rule of life per player is refused for the Horde before anything is stored; a
    table opened without ``capped`` (an event's) is not counted against its opener's limit of five."""
    service = ChallengeService(db)
    await refused(
        service.create(
            guild_id=1,
            channel_id=10,
            user_id=100,
            name="Ann",
            deck="horde",
            difficulty=3,
            life_per_player=True,
        ),
        "challenge.error.house_rule_multiplayer",
    )
    assert await service.table_in_channel(10, (LOBBY,)) is None
    god = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="god", difficulty=1, life_per_player=True
    )
    assert (god.row.life_per_player, god.row.language) == (1, "en")
    for _ in range(5):
        await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3)
    assert len(await service.open_tables()) == 6


async def test_a_lobby_plays_nothing_and_a_started_table_seats_nobody_by_the_whole_keys(db: Database) -> None:
    service = ChallengeService(db)
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3
    )
    await refused(service.act(table.game_id, 100, "end"), "hydra.error.not_playing")
    await service.start(table.game_id, 100)
    await refused(service.join(table.game_id, 101, "Bo"), "hydra.error.not_in_lobby")


async def test_every_change_of_a_table_is_published_on_its_own_topic(db: Database) -> None:
    service = HydraService(db)
    table = await hydra_table(service, start=False)
    topic = table_topic(table.game_id)
    before = db.changes.version(topic)
    await service.start(table.game_id, 100)
    await service.act(table.game_id, 100, "attack 1 3")
    assert db.changes.version(topic) == before + 2


async def test_the_open_tables_cap_counts_each_members_own_tables_in_this_server(db: Database) -> None:
    """Ann has opened five unfinished tables here: she is refused a sixth, Bo and Ann elsewhere are not."""
    service = ChallengeService(db)
    options = {"channel_id": 10, "name": "Ann", "deck": "horde", "difficulty": 3, "capped": True}
    for _ in range(5):
        await service.create(guild_id=1, user_id=100, **options)
    error = await refused(service.create(guild_id=1, user_id=100, **options), "hydra.error.too_many_tables")
    assert error.values == {"limit": 5}
    assert (await service.create(guild_id=1, user_id=101, **options)).row.created_by == 101
    assert (await service.create(guild_id=2, user_id=100, **options)).row.guild_id == 2


# The Hydra's seed 0 with Ann and Bo: after these answers (each the question's default) its second turn
# reveals Distract the Hydra, which asks each player in turn, Ann first, whether to sacrifice.
TO_DISTRACT = ["end", "choose pass", "choose pass", "end", "choose pass"]


async def test_a_question_asked_of_one_player_is_theirs_to_answer_by_the_whole_key(db: Database) -> None:
    """While no question is open anyone may act; Distract the Hydra asks Ann, then Bo: only the player
    asked may answer, the other is refused by the whole key."""
    service = HydraService(db)
    table = await service.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=2, seed=0)
    await service.join(table.game_id, 101, "Bo")
    table = await service.start(table.game_id, 100)
    assert table.game.pending is None and table.user_to_answer() is None
    for line in TO_DISTRACT:
        table = (await service.act(table.game_id, 100, line)).table
    assert (table.game.pending.topic, table.user_to_answer()) == ("distract_sacrifice", 100)
    await refused(service.act(table.game_id, 101, "choose decline"), "hydra.error.not_your_choice")
    table = (await service.act(table.game_id, 100, "choose decline")).table
    assert (table.game.pending.topic, table.user_to_answer()) == ("distract_sacrifice", 101)
    await refused(service.act(table.game_id, 100, "choose decline"), "hydra.error.not_your_choice")
    table = (await service.act(table.game_id, 101, "choose decline")).table
    assert [(a.line, a.actor_id) for a in table.actions[-2:]] == [
        ("choose decline", 100),
        ("choose decline", 101),
    ]


async def test_each_call_waits_for_its_own_tables_lock_and_no_other(db: Database) -> None:
    """Every change of a table is made under that table's lock, so two changes of one table never
    interleave, and a change of another table never waits for it. While the test holds table A's lock,
    each call on A is started, then a call on B runs to its end: by then no call on A has read A."""
    service = HydraService(db)
    a = await hydra_table(service)
    b = await hydra_table(service)
    read: list[int] = []
    for name in ("game", "update_game"):
        original = getattr(service.repo, name)

        async def spy(game_id: int, *args, _original=original, **kwargs):
            read.append(game_id)
            return await _original(game_id, *args, **kwargs)

        setattr(service.repo, name, spy)
    calls = [
        service.join(a.game_id, 102, "Cy"),
        service.leave(a.game_id, 101),
        service.set_heroes(a.game_id, 100, []),
        service.start(a.game_id, 100),
        service.seat_late(a.game_id, [(102, "Cy")], limit=4),
        service.act(a.game_id, 100, "life 1 -1"),
        service.answer_default(a.game_id, "counter"),
        service.undo(a.game_id, 100),
        service.set_idle(a.game_id),
        service.resume(a.game_id, 100),
        service.set_messages(a.game_id, turn_message_id=9),
    ]
    async with service.lock(a.game_id):
        waiting = [asyncio.ensure_future(call) for call in calls]
        await asyncio.wait_for(service.set_idle(b.game_id), 10)
        assert a.game_id not in read and b.game_id in read
        assert not any(task.done() for task in waiting)
    await asyncio.gather(*waiting, return_exceptions=True)
    assert a.game_id in read


async def test_a_store_beaten_by_another_process_is_refused_and_leaves_no_trace(db: Database) -> None:
    """Two processes share the database: this one judged Ann's ``life 1 -3`` on the log as it was, the
    other stored Bo's action first. The store is refused as a conflict, and nothing of the refused action
    stays behind: once the other process takes its action back, this one's table is the log again."""
    here, there = HydraService(db), HydraService(db)
    table = await hydra_table(here)
    start_life = table.game.players[0].life
    store = here.repo.append

    async def the_other_process_first(*args, **kwargs):
        await there.act(table.game_id, 101, "life 2 -1")
        return await store(*args, **kwargs)

    here.repo.append = the_other_process_first  # type: ignore[method-assign]
    await refused(here.act(table.game_id, 100, "life 1 -3"), "hydra.error.conflict")
    here.repo.append = store  # type: ignore[method-assign]
    await there.undo(table.game_id, 101)
    again = await here.load(table.game_id)
    assert again.actions == [] and again.game.actions == []
    assert again.game.players[0].life == start_life


async def test_outsiders_and_missing_tables_are_refused_by_their_whole_keys(db: Database) -> None:
    service = HydraService(db)
    table = await hydra_table(service)
    await refused(service.act(table.game_id, 999, "end"), "hydra.error.not_a_challenger")
    await refused(service.load(table.game_id + 100), "hydra.error.no_table")
    lobby = await hydra_table(service, start=False)
    assert await service.answer_default(lobby.game_id, "counter") is None  # a lobby has no question


async def test_a_tables_set_up_is_stored_and_replayed_whole_by_another_process(db: Database) -> None:
    """The response-window options are stored as asked, and a process that never saw the table (no kept
    game) replays it with the same set-up: the God's house rule, the windows, the numbering and rules."""
    service = ChallengeService(db)
    table = await service.create(
        guild_id=1,
        channel_id=10,
        user_id=100,
        name="Ann",
        deck="god",
        difficulty=1,
        window_seconds=45,
        all_windows=True,
        life_per_player=True,
    )
    assert (table.row.window_seconds, table.row.all_windows) == (45, 1)
    await service.join(table.game_id, 101, "Bo")
    started = await service.start(table.game_id, 100)
    replayed = (await ChallengeService(db).load(table.game_id)).game
    kept = started.game
    assert (replayed.life_per_player, replayed.all_windows, replayed.rules) == (True, True, kept.rules)
    assert replayed.life == kept.life == 2 * 20
    assert replayed is not kept


async def test_a_tables_seed_is_drawn_from_the_whole_range_when_none_is_given(db: Database) -> None:
    """Without a seed each table gets its own, from the range the CLI draws from (0 to 2**31 - 1): 32
    tables' seeds all below a million would be a broken draw (a handful of possible games)."""
    service = ChallengeService(db)
    seeds = [
        (
            await service.create(
                guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3
            )
        ).row.seed
        for _ in range(32)
    ]
    assert all(0 <= seed < 2**31 for seed in seeds)
    assert max(seeds) >= 2**20


async def test_the_hordes_head_start_turns_open_no_deck_turn(db: Database) -> None:
    """At difficulty 3 the Horde gives the player two turns before its first: ending those is no new
    deck's turn (no new turn message), ending the third is."""
    service = ChallengeService(db)
    table = await service.create(
        guild_id=1, channel_id=10, user_id=100, name="Ann", deck="horde", difficulty=3, seed=0
    )
    await service.start(table.game_id, 100)
    ends = [await service.act(table.game_id, 100, "end") for _ in range(3)]
    assert [(bool(r.events), r.deck_turn_started) for r in ends] == [
        (True, False),
        (True, False),
        (True, True),
    ]


async def test_late_players_are_seated_up_to_the_decks_seats_when_no_limit_is_given(db: Database) -> None:
    service = HydraService(db)
    table = await hydra_table(service)
    seated = await service.seat_late(table.game_id, [(102, "Cy"), (103, "Di")])
    assert seated is not None and seated.user_ids == [100, 101, 102, 103]
    assert await service.seat_late(table.game_id, [(104, "Eve")]) is None
