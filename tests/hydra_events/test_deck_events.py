"""Events of Battle the Horde and Defeat a God on the same event machinery as the Hydra's,
on a real SQLite file with the real challenge service: options per deck, seating (the Horde seats one a
table, as printed), real games played, each player's score (the deck's permanents their actions
defeated), late joiners waiting, no-shows dropped without ending the shared-life game, and awards."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.domain.hydra_events import EVENT_DECKS, EventError, check_event_options, seat_players
from bot.services.challenge import ChallengeService
from bot.services.hydra import HydraService
from bot.services.hydra_events import HydraEventService
from bot.storage.db import Database
from bot.storage.hydra_events import DROPPED, FINISHED, SEATED, WAITING

from .test_service import after_grace, begin

NOW = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


@pytest.fixture
async def events(db: Database) -> HydraEventService:
    return HydraEventService(
        db, HydraService(db), seed_for=lambda event, table: 4, decks=ChallengeService(db)
    )


async def new_event(events: HydraEventService, deck: str, table_size: int, difficulty: int | None = None):
    return await events.create(
        guild_id=1,
        channel_id=2,
        user_id=9,
        name=f"{deck} night",
        start="now",
        heads=difficulty or EVENT_DECKS[deck].default_difficulty,
        table_size=table_size,
        language="en",
        now=NOW,
        deck=deck,
    )


def test_each_deck_has_its_own_difficulty_and_table_sizes() -> None:
    check_event_options(3, 1, "horde")
    check_event_options(1, 4, "god")
    for args, key in (
        ((3, 2, "horde"), "table_size_range"),
        ((5, 1, "horde"), "difficulty_range"),
        ((4, 2, "god"), "difficulty_range"),
        ((3, 1, "hydra"), "table_size_range"),
        ((3, 2, "dragon"), "unknown_deck"),
    ):
        with pytest.raises(EventError, match=rf"^hydra_events\.error\.{key}\b"):
            check_event_options(*args)


def test_tables_of_one_seat_everyone_alone_and_say_which_groups_were_split() -> None:
    seating = seat_players([(1, 2), (3,)], 1)
    assert (
        seating.tables == ((1,), (2,), (3,)) and seating.split_groups == ((1, 2),) and seating.waiting == ()
    )


async def test_a_horde_event_seats_one_a_table_plays_real_games_and_credits_the_player(events) -> None:
    event = await new_event(events, "horde", 1)
    assert event.deck == "horde" and event.heads == 3
    await events.join(event.event_id, [(1, "Ann")])
    await events.join(event.event_id, [(2, "Bo")])
    opened = await begin(events, event.event_id)
    assert [t.table_no for t, _ in opened] == [1, 2]
    assert all(table.row.deck == "horde" and len(table.seats) == 1 for _, table in opened)
    first = opened[0][1].game_id
    await events.decks.act(first, 1, "end")  # the player's first turn ends; nothing to fight yet
    table = await events.decks.load(first)
    while table.game.pending is not None:
        table = (await events.decks.act(first, 1, f"choose {table.game.pending.default}")).table
    numbers = table.game.battlefield_numbers()
    if numbers:
        await events.decks.act(first, 1, f"destroy {numbers[0]}")
    status = await events.status(event.event_id)
    lines = {line.table_no: line for line in status.board.tables}
    assert lines[1].severed == len(numbers[:1]) and lines[2].severed == 0
    ann = next(p for p in status.board.players if p.user_id == 1)
    assert ann.severed == lines[1].severed and ann.standing
    # a late player waits: nobody sits down at a running Horde table
    outcome = await events.join(event.event_id, [(3, "Cy")])
    assert outcome.state == WAITING


async def test_a_god_event_is_won_by_the_table_that_defeats_xenagos_and_awards_once(events) -> None:
    event = await new_event(events, "god", 2)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    await events.join(event.event_id, [(3, "Cy"), (4, "Di")])
    opened = await begin(events, event.event_id)
    assert sorted(len(table.seats) for _, table in opened) == [2, 2]
    winner = next(table for _, table in opened if table.seats[0].user_id == 1)
    game_id = winner.game_id
    # the players kill every Reveler (Ann), then Xenagos can leave (Bo exiles him): they win
    table = await events.decks.load(game_id)
    throngs = [
        n
        for n, p in zip(table.game.battlefield_numbers(), table.game.battlefield, strict=True)
        if p.name == "Rollicking Throng"
    ]
    await events.decks.act(game_id, 1, "destroy " + " ".join(map(str, throngs)))
    table = (await events.decks.act(game_id, 2, "exile 1")).table
    assert table.game.outcome == "won"
    status = await events.status(event.event_id)
    assert status.board.won == 1 and status.board.running == 1
    credits = {p.user_id: p.severed for p in status.board.players}
    assert credits[1] == len(throngs) and credits[2] == 1 and credits[3] == credits[4] == 0
    assert {p.user_id for p in status.board.winners} == {1, 2}
    finished = await events.finish(event.event_id, role_id=None)
    assert finished is not None and finished.event.status == FINISHED
    assert await events.finish(event.event_id, role_id=None) is None  # never awarded twice
    awards = await events.repo.awards(event.event_id)
    assert sorted(a.user_id for a in awards) == [1, 2]


async def test_a_no_show_at_a_god_table_is_dropped_without_conceding_the_shared_game(events) -> None:
    event = await new_event(events, "god", 2)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    opened = await begin(events, event.event_id)
    game_id = opened[0][1].game_id
    await events.decks.act(game_id, 1, "tap 2")  # Ann is here; Bo never comes
    dropped = await events.drop_no_shows(event.event_id, 1, now=after_grace(event))
    assert dropped.user_ids == [2] and dropped.result is None
    table = await events.decks.load(game_id)
    assert table.game.outcome == "ongoing"  # one life total: Bo's absence ends nothing for Ann
    states = {e.user_id: e.state for e in await events.repo.entrants(event.event_id)}
    assert states[2] == DROPPED


async def test_a_late_group_sits_at_a_god_table_in_its_first_turn_with_a_throng_each(events) -> None:
    event = await new_event(events, "god", 4)
    await events.join(event.event_id, [(1, "Ann"), (2, "Bo")])
    opened = await begin(events, event.event_id)
    game_id = opened[0][1].game_id
    await events.decks.act(game_id, 1, "tap 2")  # an action in the first turn: it is replayed for them
    outcome = await events.join(event.event_id, [(3, "Cy"), (4, "Di")])
    assert outcome.state == SEATED and outcome.table_no == 1 and outcome.table is not None
    table = await events.decks.load(game_id)
    assert table.user_ids == [1, 2, 3, 4]
    names = [p.name for p in table.game.battlefield]
    assert names.count("Rollicking Throng") == 2 + 3  # difficulty 2, plus one per additional player
    assert table.game.battlefield[1].tapped and [(a.line, a.actor_id) for a in table.actions] == [
        ("tap 2", 1)
    ]
    full = await events.join(event.event_id, [(5, "Ed")])
    assert full.state == WAITING  # four sit there: the God seats no more
    states = {e.user_id: (e.state, e.table_no) for e in await events.repo.entrants(event.event_id)}
    assert states[3] == states[4] == (SEATED, 1) and states[5] == (WAITING, None)


async def test_nobody_sits_down_once_the_first_turn_ended_or_the_library_was_seen(events) -> None:
    event = await new_event(events, "god", 4)
    await events.join(event.event_id, [(1, "Ann")])
    await events.join(event.event_id, [(2, "Bo")])
    game_id = (await begin(events, event.event_id))[0][1].game_id
    await events.decks.act(game_id, 1, "mill 1")  # a card of Xenagos's library was seen: the set-up is fixed
    assert (await events.join(event.event_id, [(3, "Cy")])).state == WAITING
    assert await events.decks.seat_late(game_id, [(4, "Di")], limit=4) is None
    assert (await events.decks.load(game_id)).user_ids == [1, 2]  # nothing changed

    other = await new_event(events, "god", 4)
    await events.join(other.event_id, [(5, "Ed"), (6, "Flo")])
    second = (await begin(events, other.event_id))[0][1].game_id
    table = (await events.decks.act(second, 5, "end")).table
    while table.game.pending is not None:
        table = (await events.decks.act(second, 5, f"choose {table.game.pending.default}")).table
    assert not table.game.in_players_first_turn
    assert (await events.join(other.event_id, [(7, "Gus")])).state == WAITING


async def test_a_leaderboard_refresh_replays_no_finished_table(db) -> None:
    events = HydraEventService(
        db, HydraService(db), seed_for=lambda event, table: 4, decks=ChallengeService(db)
    )
    event = await new_event(events, "god", 1)
    for user in range(1, 6):
        await events.join(event.event_id, [(user, f"P{user}")])
    opened = await begin(events, event.event_id)
    for _, table in opened:
        await events.decks.act(table.game_id, table.seats[0].user_id, "concede")
    first = await events.status(event.event_id)
    assert first.board.lost == 5 and first.board.running == 0
    built = events.decks.replays
    for _ in range(3):
        assert (await events.status(event.event_id)).board == first.board
    assert events.decks.replays == built  # neither a table nor its score was replayed again

    restarted = HydraEventService(db, HydraService(db), decks=ChallengeService(db))  # a new process
    assert (await restarted.status(event.event_id)).board == first.board
    assert restarted.decks.replays == 2 * 5  # each table once, and its score tally once
    await restarted.status(event.event_id)
    assert restarted.decks.replays == 2 * 5
