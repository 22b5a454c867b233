"""HydraEventService's exact promises on a real SQLite file with the real Hydra service and the injected
FakeClock: the refusals an inviter hears before anyone is entered (whole keys, the names they list), the
event each command means, a game's event, the grace of a late joiner from their own seat, the seeds each
table is given, and the topic every change is published on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock
from bot.domain.hydra_events import EventError
from bot.services.challenge import ChallengeService
from bot.services.event_tables import EventTables
from bot.services.hydra import HydraService
from bot.services.hydra_events import HydraEventService, hydra_event_topic
from bot.storage.hydra_events import JOINED, RUNNING, SEATED, WAITING

from .test_service import begin

START = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
GUILD, CHANNEL = 1, 2


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
async def events(db, clock: FakeClock) -> HydraEventService:
    return HydraEventService(db, HydraService(db), seed_for=lambda event, table: 5, clock=clock)


async def new_event(events: HydraEventService, *, channel_id: int = CHANNEL, table_size: int = 4):
    return await events.create(
        guild_id=GUILD,
        channel_id=channel_id,
        user_id=9,
        name="Hydra night",
        start="in 1h",
        heads=2,
        table_size=table_size,
        language="en",
    )


async def refused(call, key: str) -> EventError:
    with pytest.raises(EventError) as excinfo:
        await call
    assert excinfo.value.key == f"hydra_events.error.{key}"
    return excinfo.value


async def users(events: HydraEventService, event_id: int) -> dict[int, str]:
    return {e.user_id: e.state for e in await events.repo.entrants(event_id)}


async def test_an_event_starts_by_the_services_clock_and_its_tables_by_the_same_clock(
    events: HydraEventService, clock: FakeClock
) -> None:
    event = await new_event(events)
    assert event.starts_at == (START + timedelta(hours=1)).isoformat()
    await events.join(event.event_id, [(1, "Ann")])
    await clock.advance(minutes=5)
    ((table, _),) = await begin(events, event.event_id)
    assert datetime.fromisoformat(table.started_at) == START + timedelta(minutes=5)


async def test_the_inviters_check_refuses_what_joining_would_and_enters_nobody(
    events: HydraEventService,
) -> None:
    """Friends are asked before anyone is entered, so the check must name the same refusals join does."""
    event = await new_event(events, table_size=3)
    await refused(events.check_may_join(404, [(1, "Ann")]), "no_event")
    await refused(events.check_may_join(event.event_id, [(1, "Ann"), (1, "Ann")]), "duplicate_member")
    error = await refused(
        events.check_may_join(event.event_id, [(u, f"u{u}") for u in range(1, 5)]), "group_too_big"
    )
    assert error.values == {"max": 3}
    await events.check_may_join(event.event_id, [(1, "Ann"), (2, "Bo"), (3, "Cy")])
    assert await users(events, event.event_id) == {}  # a check enters nobody
    await events.join(event.event_id, [(1, "Ann")])
    error = await refused(
        events.check_may_join(event.event_id, [(2, "Bo"), (1, "Ann")]), "already_joined_regroup"
    )
    assert error.values == {"players": ["Ann"]}
    await events.join(event.event_id, [(2, "Bo")])
    ((table, _),) = await begin(events, event.event_id)
    error = await refused(events.check_may_join(event.event_id, [(2, "Bo"), (7, "Di")]), "already_joined")
    assert error.values == {"players": ["Bo"]}
    await events.check_may_join(event.event_id, [(7, "Di")])
    assert await events.cancel(event.event_id)
    await refused(events.check_may_join(event.event_id, [(7, "Di")]), "not_open")


async def test_joining_again_names_only_who_is_in_and_offers_a_regroup_only_to_a_group_before_the_start(
    events: HydraEventService,
) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann")])
    error = await refused(events.join(event.event_id, [(1, "Ann")]), "already_joined")
    assert error.values == {"players": ["Ann"]}
    error = await refused(events.join(event.event_id, [(2, "Bo"), (1, "Ann")]), "already_joined_regroup")
    assert error.values == {"players": ["Ann"]}
    ((table, _),) = await begin(events, event.event_id)
    await events.hydra.act(table.game_id, 1, "end")  # the first turn is over: late players wait
    assert (await events.join(event.event_id, [(3, "Cy")])).state == WAITING
    error = await refused(events.join(event.event_id, [(4, "Di"), (3, "Cy")]), "already_joined")
    assert error.values == {"players": ["Cy"]}
    assert await users(events, event.event_id) == {1: SEATED, 3: WAITING}


async def test_a_command_means_the_named_event_of_this_server_else_its_latest_not_over(
    events: HydraEventService,
) -> None:
    await refused(events.current(GUILD), "no_event")
    first = await new_event(events)
    second = await new_event(events)
    assert (await events.current(GUILD)).event_id == second.event_id
    assert (await events.current(GUILD, first.event_id)).event_id == first.event_id
    await refused(events.current(GUILD + 1, first.event_id), "no_event")
    await refused(events.current(GUILD + 1), "no_event")
    await refused(events.current(GUILD, 404), "no_event")
    await refused(events.event(404), "no_event")
    assert await events.cancel(second.event_id)
    assert (await events.current(GUILD)).event_id == first.event_id


async def test_status_means_the_named_event_then_this_threads_then_one_not_over_then_this_channels(
    events: HydraEventService,
) -> None:
    """A finished event still has results to show: status falls back to the latest one, this channel's
    first."""
    await refused(events.for_status(GUILD, CHANNEL), "no_event")
    here = await new_event(events, channel_id=CHANNEL)
    await events.join(here.event_id, [(1, "Ann")])
    ((table, _),) = await begin(events, here.event_id)  # its table's thread is 1001
    elsewhere = await new_event(events, channel_id=CHANNEL + 1)
    assert (await events.for_status(GUILD, 1001)).event_id == here.event_id  # the thread's event
    assert (await events.for_status(GUILD, CHANNEL)).event_id == elsewhere.event_id  # the one not over
    assert (await events.for_status(GUILD, None, here.event_id)).event_id == here.event_id
    assert (await events.for_status(GUILD, CHANNEL + 1, here.event_id)).event_id == here.event_id
    await refused(events.for_status(GUILD + 1, None, here.event_id), "no_event")
    await refused(events.for_status(GUILD + 1, 1001), "no_event")
    assert await events.cancel(here.event_id) and await events.cancel(elsewhere.event_id)
    assert (await events.for_status(GUILD, CHANNEL)).event_id == here.event_id  # this channel's latest
    assert (await events.for_status(GUILD, CHANNEL + 1)).event_id == elsewhere.event_id
    assert (await events.for_status(GUILD, 77)).event_id == elsewhere.event_id  # the server's latest
    assert (await events.for_status(GUILD, None)).event_id == elsewhere.event_id
    await refused(events.for_status(GUILD + 1, None), "no_event")


async def test_a_game_knows_its_event_and_only_as_a_game_of_its_own_deck(events: HydraEventService) -> None:
    await new_event(events)  # event 1: the game's is event 2, at its table 1
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann")])
    ((table, _),) = await begin(events, event.event_id)
    found = await events.event_of_game(table.game_id)
    assert (
        found is not None and (found.event_id, table.table_no) == (event.event_id, 1) and event.event_id == 2
    )
    assert await events.event_of_game(table.game_id, ("horde", "god")) is None
    assert await events.event_of_game(table.game_id + 1) is None


async def test_the_messages_of_an_event_are_remembered(events: HydraEventService) -> None:
    event = await new_event(events)
    await events.set_messages(event.event_id, message_id=31, leaderboard_message_id=32)
    stored = await events.event(event.event_id)
    assert (stored.message_id, stored.leaderboard_message_id, stored.results_message_id) == (31, 32, None)


async def test_each_table_is_given_the_seed_of_its_event_and_number(db, clock: FakeClock) -> None:
    asked = []

    def seed_for(event_id: int, table_no: int) -> int:
        asked.append((event_id, table_no))
        return 100 + table_no

    events = HydraEventService(db, HydraService(db), seed_for=seed_for, clock=clock)
    event = await new_event(events, table_size=2)
    for user in (1, 2, 3, 4):
        await events.join(event.event_id, [(user, f"u{user}")])
    opened = await begin(events, event.event_id)
    assert asked == [(event.event_id, 1), (event.event_id, 2)]
    assert [hydra_table.row.seed for _, hydra_table in opened] == [101, 102]


async def test_a_late_joiners_grace_runs_from_their_own_seat_even_at_a_table_already_checked(
    events: HydraEventService, clock: FakeClock
) -> None:
    """The table's own no-show check was done (everyone there); a late joiner reopens it, and their grace
    counts from when they sat down, ten minutes after the table opened."""
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    ((table, _),) = await begin(events, event.event_id)
    await events.check_in(event.event_id, 1)
    await events.check_in(event.event_id, 2)
    checked = await events.drop_no_shows(event.event_id, 1)
    assert checked.user_ids == [] and checked.next_due is None
    assert (await events.repo.tables(event.event_id))[0].grace_checked
    await clock.advance(minutes=10)
    late = await events.join(event.event_id, [(3, "Cy")])
    assert late.state == SEATED and late.table_no == 1
    assert not (await events.repo.tables(event.event_id))[0].grace_checked
    await clock.advance(minutes=event.grace_minutes - 1)
    early = await events.drop_no_shows(event.event_id, 1)  # the table's grace is over, not Cy's
    assert early.user_ids == [] and early.next_due == START + timedelta(minutes=10 + event.grace_minutes)
    await clock.advance(minutes=1)
    assert (await events.drop_no_shows(event.event_id, 1)).user_ids == [3]


async def test_status_counts_the_events_own_entrants_and_each_tables_heads_left(
    events: HydraEventService,
) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    ((table, _),) = await begin(events, event.event_id)
    await events.hydra.concede(table.game_id, 1)
    await events.hydra.concede(table.game_id, 2)
    status = await events.status(event.event_id)
    assert sorted(e.user_id for e in status.entrants) == [1, 2]
    assert (status.count(SEATED), status.count(JOINED, WAITING), status.count(SEATED, WAITING)) == (2, 0, 2)
    (line,) = status.board.tables
    assert line.outcome == "lost" and line.heads_left == 2


async def test_a_planned_table_not_yet_opened_keeps_the_event_from_being_over(
    events: HydraEventService,
) -> None:
    """The wait list was given table 2, whose game is not created yet: table 1's end is not the event's."""
    event = await new_event(events, table_size=2)
    await events.join(event.event_id, [(1, "Ann")])
    ((table, _),) = await begin(events, event.event_id)
    await events.hydra.act(table.game_id, 1, "end")
    assert (await events.join(event.event_id, [(2, "Bo")])).state == WAITING
    await events.seat_waiting(event.event_id)
    await events.hydra.concede(table.game_id, 1)
    assert (await events.event(event.event_id)).status == RUNNING
    assert not await events.all_tables_over(event.event_id)
    await events.open_tables(event.event_id)
    (second,) = [t for t in await events.repo.tables(event.event_id) if t.table_no == 2]
    await events.hydra.concede(second.game_id, 2)
    assert await events.all_tables_over(event.event_id)


async def test_every_change_is_published_on_the_events_own_topic(db, events: HydraEventService) -> None:
    """The event's messages refresh on its topic: a change published elsewhere leaves them stale."""
    event = await new_event(events)
    topic = hydra_event_topic(event.event_id)
    before = db.changes.version(topic)
    await events.join(event.event_id, [(1, "Ann")])
    await events.leave(event.event_id, 1)
    assert db.changes.version(topic) == before + 2


async def test_an_events_table_is_opened_in_its_server_channel_and_language(db, clock: FakeClock) -> None:
    events = HydraEventService(db, HydraService(db), seed_for=lambda event, table: 5, clock=clock)
    event = await events.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=9,
        name="Hydra-Nacht",
        start="in 1h",
        heads=2,
        table_size=4,
        language="de",
    )
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    ((_, table),) = await begin(events, event.event_id)
    assert (table.row.guild_id, table.row.channel_id, table.row.language) == (GUILD, CHANNEL, "de")
    assert [s.user_id for s in table.seats] == [1, 2] and table.row.status == "playing"


async def test_a_table_in_its_lobby_reads_as_not_begun(db) -> None:
    """A table whose game has not started has no outcome, turn, score or first turn to join."""
    hydra = HydraService(db)
    lobby = await hydra.create(guild_id=GUILD, channel_id=CHANNEL, user_id=1, name="Ann", heads=2, seed=5)
    view = await EventTables(hydra).view(lobby.game_id)
    assert (view.game_id, view.playing, view.outcome, view.turn, view.score, view.left) == (
        lobby.game_id,
        False,
        None,
        0,
        0,
        0,
    )
    assert not view.in_first_turn and [(s.seat, s.user_id, s.standing) for s in view.seats] == [(1, 1, True)]


async def test_a_playing_tables_view_counts_its_turn_score_and_log(events: HydraEventService) -> None:
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann")])
    ((table, _),) = await begin(events, event.event_id)
    for line in ("attack 1 3", "end", "choose counter", "choose pass"):  # seed 5: one head severed
        await events.hydra.act(table.game_id, 1, line)
    view = await EventTables(events.hydra).view(table.game_id)
    assert view.game_id == table.game_id and view.playing and view.outcome == "ongoing"
    assert (view.turn, view.score, view.left) == (3, 1, 1)
    assert not view.in_first_turn  # late players no longer sit down
    assert [a.seq for a in view.actions] == list(range(1, len(view.actions) + 1))
    assert [a.actor_id for a in view.actions if a.line == "attack 1 3"] == [1]


async def test_a_late_player_changes_the_tables_tally_key_and_sits_only_within_the_limit(
    events: HydraEventService,
) -> None:
    """A score tally is rebuilt when the set-up changes (a late player); an event's table size is the
    limit a late group must fit, below the deck's own four."""
    event = await new_event(events)
    await events.join(event.event_id, [(1, "Ann")])
    ((table, _),) = await begin(events, event.event_id)
    keeper = EventTables(events.hydra)
    first = await keeper.view(table.game_id)
    before = first.tally_key
    assert first.in_first_turn
    assert await keeper.seat_late(table.game_id, [(2, "Bo"), (3, "Cy")], 2) is None
    seated = await keeper.seat_late(table.game_id, [(2, "Bo")], 2)
    assert seated is not None and [s.user_id for s in seated.seats] == [1, 2]
    assert (await keeper.view(table.game_id)).tally_key != before


async def test_a_seat_stands_until_its_player_is_out_or_a_shared_life_table_is_lost(db) -> None:
    """Against the Hydra each player has a life total and falls alone; against the God the players share
    one and stand or fall together."""
    hydra = HydraService(db)
    table = await hydra.create(guild_id=GUILD, channel_id=CHANNEL, user_id=1, name="Ann", heads=2, seed=5)
    await hydra.join(table.game_id, 2, "Bo")
    await hydra.start(table.game_id, 1)
    await hydra.concede(table.game_id, 2)
    assert [s.standing for s in (await EventTables(hydra).view(table.game_id)).seats] == [True, False]

    decks = ChallengeService(db)
    god = await decks.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=1, name="Ann", deck="god", difficulty=1
    )
    await decks.join(god.game_id, 2, "Bo")
    await decks.start(god.game_id, 1)
    keeper = EventTables(decks)
    assert [s.standing for s in (await keeper.view(god.game_id)).seats] == [True, True]
    await decks.concede(god.game_id, 2)
    view = await keeper.view(god.game_id)
    assert view.outcome == "lost" and [s.standing for s in view.seats] == [False, False]
