"""The challenge service's exact promises on a real database: the refusals' whole keys and values, where a
table's messages are remembered, which table a channel shows, who a concession is stored as, and when a
timed-out question is answered by its default (only the very question the timer was set for)."""

from __future__ import annotations

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
