"""The challenge tables' storage (bot/storage/challenge.py and hydra.py) on both engines, read straight from
the repositories: every column a new table is given, the seats kept 1..n, the log read back in its order
whatever order the engine keeps its rows in, a finish written with its action, the Hydra's profiles and
their best win, the lists and counts the cogs and the per-member cap read, and every write of a table
joining a transaction of that table (a finish, of every record, refused there)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock
from bot.domain.challenge.decks import CURRENT_RULES
from bot.storage.challenge import (
    FINISHED,
    IDLE,
    LOBBY,
    PLAYING,
    ChallengeRepository,
    Finish,
    SeatError,
    table_scope,
)
from bot.storage.db import Database, DatabaseError
from bot.storage.hydra import HydraProfile, HydraRepository

START = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
ANN, BEN, CAT, DAN = 100, 101, 102, 103


def _on_clock(db: Database) -> FakeClock:
    clock = FakeClock(START)
    db.clock = clock
    return clock


async def _hydra_table(hydra: HydraRepository, **kwargs: object) -> int:
    values: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "created_by": ANN,
        "creator_name": "Ann",
        "deck": "hydra",
        "difficulty": 5,
        "seed": 42,
        "language": "de",
    }
    values.update(kwargs)
    return await hydra.create(**values)  # type: ignore[arg-type]


async def test_a_new_table_stores_every_column_it_is_given_and_its_creator_in_seat_one(db: Database) -> None:
    """What a restart replays a table from: its set-up, written once at creation, column by column."""
    _on_clock(db)
    hydra = HydraRepository(db)
    game = await _hydra_table(hydra, window_seconds=0, all_windows=True, idle_minutes=45)
    row = await hydra.game(game)
    assert row is not None
    assert (row.kind, row.game_id, row.deck, row.guild_id, row.channel_id, row.created_by) == (
        "hydra",
        game,
        "hydra",
        1,
        10,
        ANN,
    )
    assert (row.created_at, row.updated_at) == (START.isoformat(), START.isoformat())
    assert (row.difficulty, row.heads, row.seed, row.language) == (5, 5, 42, "de")
    assert (row.window_seconds, row.all_windows, row.idle_minutes, row.life_per_player) == (0, 1, 45, 0)
    assert (row.status, row.stable_ids, row.rules) == (LOBBY, 1, CURRENT_RULES)
    assert (row.message_id, row.turn_message_id, row.outcome, row.turns, row.defeated) == (None,) * 5
    assert [(s.seat, s.user_id, s.name, s.heroes) for s in await hydra.seats(game)] == [(1, ANN, "Ann", ())]
    defaults = await hydra.game(await _hydra_table(hydra))
    assert defaults is not None
    assert (defaults.window_seconds, defaults.all_windows, defaults.idle_minutes) == (20, 0, 30)
    god = ChallengeRepository(db)
    god_game = await god.create(
        guild_id=1,
        channel_id=10,
        created_by=BEN,
        creator_name="Ben",
        deck="god",
        difficulty=2,
        seed=7,
        language="en",
        life_per_player=True,
    )
    god_row = await god.game(god_game)
    assert god_row is not None and (god_row.kind, god_row.deck, god_row.life_per_player) == (
        "challenge",
        "god",
        1,
    )


async def test_a_table_of_another_kind_or_an_unknown_option_is_refused_before_anything_is_stored(
    db: Database,
) -> None:
    """A Horde table made through the Hydra's repository would take an id its own kind never sees."""
    hydra, deck = HydraRepository(db), ChallengeRepository(db)
    with pytest.raises(ValueError, match=r"a hydra table has no horde"):
        await _hydra_table(hydra, deck="horde")
    with pytest.raises(ValueError, match=r"a challenge table has no hydra"):
        await deck.create(
            guild_id=1, channel_id=10, created_by=ANN, creator_name="Ann", deck="hydra", difficulty=1, seed=1,
            language="en",
        )  # fmt: skip
    with pytest.raises(ValueError, match=r"a hydra table has no \['heads'\]"):
        await _hydra_table(hydra, heads=3)
    assert await db.scalar("SELECT COUNT(*) FROM challenge_tables") == 0
    assert await db.scalar("SELECT next_id FROM challenge_table_ids") == 1


async def test_every_deck_takes_the_next_number_of_one_counter_and_sees_only_its_own_kind(
    db: Database,
) -> None:
    hydra, deck = HydraRepository(db), ChallengeRepository(db)
    first = await _hydra_table(hydra)
    horde = await deck.create(
        guild_id=1, channel_id=10, created_by=ANN, creator_name="Ann", deck="horde", difficulty=3, seed=1,
        language="en",
    )  # fmt: skip
    third = await _hydra_table(hydra)
    assert (first, horde, third) == (1, 2, 3)
    assert await db.scalar("SELECT next_id FROM challenge_table_ids") == 4
    assert await deck.game(first) is None and await hydra.game(horde) is None
    assert [g.game_id for g in await hydra.open_games()] == [first, third]
    assert [g.game_id for g in await deck.open_games()] == [horde]
    assert table_scope(horde) == "challenge:2" and hydra.scope(first) == "hydra:1"


async def test_seats_fill_up_to_the_limit_once_each_and_close_up_when_someone_leaves(db: Database) -> None:
    hydra = HydraRepository(db)
    game = await _hydra_table(hydra)
    assert await hydra.add_seat(game, BEN, "Ben", limit=3) == 2
    with pytest.raises(SeatError, match="^already seated$"):
        await hydra.add_seat(game, BEN, "Ben", limit=3)
    assert await hydra.add_seat(game, CAT, "Cat", limit=3) == 3
    with pytest.raises(SeatError, match="^table full$"):
        await hydra.add_seat(game, DAN, "Dan", limit=3)
    await hydra.set_heroes(game, CAT, ["Ajani", "Elspeth"])
    await hydra.remove_seat(game, ANN)  # the seats after seat 1 move up
    await hydra.remove_seat(game, DAN)  # never seated: nothing changes
    assert [(s.seat, s.user_id, s.name, s.heroes) for s in await hydra.seats(game)] == [
        (1, BEN, "Ben", ()),
        (2, CAT, "Cat", ("Ajani", "Elspeth")),
    ]
    assert await hydra.add_seat(game, DAN, "Dan", limit=3) == 3
    other = await _hydra_table(hydra)
    assert [s.user_id for s in await hydra.seats(other)] == [ANN]  # another table's seats are its own
    await hydra.remove_seat(other, ANN)  # every seat left: the next one sits in seat 1
    assert await hydra.add_seat(other, BEN, "Ben", limit=3) == 1


async def test_seats_are_read_in_seat_order_after_a_reshuffle_whatever_the_engine_keeps(db: Database) -> None:
    """Closing up rewrites later seats' rows: PostgreSQL then keeps them in another physical order, so
    only ``ORDER BY seat`` gives the turn order back."""
    hydra = HydraRepository(db)
    game = await _hydra_table(hydra)
    for user, name in ((BEN, "Ben"), (CAT, "Cat"), (DAN, "Dan")):
        await hydra.add_seat(game, user, name, limit=4)
    await hydra.remove_seat(game, BEN)
    await hydra.set_heroes(game, CAT, ["Ajani"])  # an updated row moves to the end on PostgreSQL
    assert [(s.seat, s.user_id) for s in await hydra.seats(game)] == [(1, ANN), (2, CAT), (3, DAN)]


async def test_the_log_reads_back_in_order_and_undo_removes_only_its_action(db: Database) -> None:
    clock = _on_clock(db)
    hydra = HydraRepository(db)
    game = await _hydra_table(hydra)
    await hydra.append(game, 1, "start", ANN)
    clock.jump(minutes=1)
    await hydra.append(game, 2, "damage 2 1", None)
    await hydra.append(game, 3, "pass", BEN)
    await hydra.delete_last(game, 3)
    await hydra.append(game, 3, "attack 1", ANN)
    assert [(a.seq, a.line, a.actor_id, a.at) for a in await hydra.actions(game)] == [
        (1, "start", ANN, START.isoformat()),
        (2, "damage 2 1", None, (START + timedelta(minutes=1)).isoformat()),
        (3, "attack 1", ANN, (START + timedelta(minutes=1)).isoformat()),
    ]
    row = await hydra.game(game)
    assert row is not None and (row.status, row.updated_at) == (
        PLAYING,
        (START + timedelta(minutes=1)).isoformat(),
    )
    with pytest.raises(Exception):  # noqa: B017, PT011 - the engine's own error: a second writer of seq 3
        await hydra.append(game, 3, "pass", BEN)


async def test_every_write_of_a_table_joins_a_transaction_of_that_table_and_a_finish_does_not(
    db: Database,
) -> None:
    """Each write of one table is of the table's scope: made inside a transaction of that table it joins
    it and rolls back with it. A finish is of no scope (it may update records other tables share, the
    Hydra's profiles), so it is refused there, as a write of another table is."""
    hydra = HydraRepository(db)
    game = await _hydra_table(hydra)
    await hydra.append(game, 1, "start", ANN)
    with pytest.raises(RuntimeError, match="^undone$"):
        async with db.transaction(hydra.scope(game)):
            assert await hydra.add_seat(game, BEN, "Ben", limit=4) == 2
            await hydra.add_seat(game, CAT, "Cat", limit=4)
            await hydra.remove_seat(game, BEN)
            await hydra.set_heroes(game, CAT, ["Ajani"])
            await hydra.update_game(game, message_id=900)
            await hydra.append(game, 2, "pass", ANN)
            await hydra.delete_last(game, 1)
            assert [(s.seat, s.user_id, s.heroes) for s in await hydra.seats(game)] == [
                (1, ANN, ()),
                (2, CAT, ("Ajani",)),
            ]
            raise RuntimeError("undone")
    assert [(s.seat, s.user_id) for s in await hydra.seats(game)] == [(1, ANN)]
    assert [a.line for a in await hydra.actions(game)] == ["start"]
    row = await hydra.game(game)
    assert row is not None and row.message_id is None
    scope = hydra.scope(game)
    with pytest.raises(DatabaseError, match=rf"^a write of every record inside a transaction of {scope}$"):
        async with db.transaction(scope):
            await hydra.append(game, 2, "end", ANN, Finish("won", 3, 5, 5))
    other = await _hydra_table(hydra)
    with pytest.raises(DatabaseError, match=rf"^a write of {scope} inside a transaction of hydra:{other}$"):
        async with db.transaction(hydra.scope(other)):
            await hydra.set_heroes(game, ANN, ["Ajani"])
    assert [a.line for a in await hydra.actions(game)] == ["start"]


async def test_only_the_allowed_columns_change_and_each_change_moves_updated_at(db: Database) -> None:
    clock = _on_clock(db)
    deck = ChallengeRepository(db)
    game = await deck.create(
        guild_id=1, channel_id=10, created_by=ANN, creator_name="Ann", deck="horde", difficulty=3, seed=1,
        language="en",
    )  # fmt: skip
    clock.jump(minutes=5)
    await deck.set(game, message_id=555, status=IDLE)
    row = await deck.game(game)
    assert row is not None
    assert (row.message_id, row.status, row.updated_at) == (
        555,
        IDLE,
        (START + timedelta(minutes=5)).isoformat(),
    )
    assert row.created_at == START.isoformat()
    with pytest.raises(ValueError, match=r"cannot change \['seed'\]"):
        await deck.update_game(game, seed=9, status=PLAYING)
    row = await deck.game(game)
    assert row is not None and (row.seed, row.status) == (1, IDLE)


async def test_a_finish_is_written_with_its_action_and_counts_on_every_challengers_profile(
    db: Database,
) -> None:
    clock = _on_clock(db)
    hydra = HydraRepository(db)
    game = await _hydra_table(hydra, difficulty=5)
    await hydra.add_seat(game, BEN, "Ben", limit=4)
    await hydra.append(game, 1, "start", ANN)
    clock.jump(minutes=30)
    await hydra.append(game, 2, "attack 1", ANN, Finish(outcome="won", turns=7, defeated=9, difficulty=5))
    row = await hydra.game(game)
    assert row is not None
    assert (row.status, row.outcome, row.turns, row.defeated, row.heads_severed) == (FINISHED, "won", 7, 9, 9)
    won_at = (START + timedelta(minutes=30)).isoformat()
    assert row.updated_at == won_at
    for user in (ANN, BEN):
        assert await hydra.profile(user) == HydraProfile(user, 1, 1, 9, 5, 7, won_at)
    assert (await hydra.profile(CAT)) == HydraProfile(CAT) and not HydraProfile(CAT).has_slayer
    assert (await hydra.profile(ANN)).has_slayer


async def test_a_profiles_best_win_is_the_most_heads_then_the_fewest_turns_and_the_slayer_stays(
    db: Database,
) -> None:
    """Each finish adds to the counts; the best win only moves for more heads, or as many in fewer turns;
    the first win's date stays The Slayer's."""
    clock = _on_clock(db)
    hydra = HydraRepository(db)
    finishes = [
        Finish("lost", 4, 2, 7),  # a loss never sets a best win
        Finish("won", 9, 6, 5),
        Finish("won", 12, 7, 6),  # more heads, more turns: better
        Finish("won", 8, 6, 5),  # fewer heads: not better
        Finish("won", 10, 7, 6),  # as many heads in fewer turns: better
        Finish("won", 11, 7, 6),  # as many heads in more turns: not better
        Finish("lost", 3, 1, 9),
    ]
    first_win = None
    for n, finish in enumerate(finishes):
        game = await _hydra_table(hydra, difficulty=finish.difficulty)
        await hydra.append(game, 1, "end", ANN, finish)
        if finish.outcome == "won" and first_win is None:
            first_win = clock.now().isoformat()
        profile = await hydra.profile(ANN)
        if n == 0:
            assert profile == HydraProfile(ANN, 1, 0, 2, None, None, None)
        clock.jump(hours=1)
    assert await hydra.profile(ANN) == HydraProfile(ANN, 7, 5, 36, 6, 10, first_win)
    assert (
        await db.scalar("SELECT updated_at FROM hydra_profiles WHERE user_id = ?", (ANN,))
        == (START + timedelta(hours=6)).isoformat()
    )


async def test_a_best_win_missing_one_of_its_numbers_counts_as_none_and_the_next_win_replaces_it(
    db: Database,
) -> None:
    """The heads and the turns of a best win are written together; a row holding only one of them (edited
    by hand) is no best win to compare with, and the next win replaces it instead of failing its finish."""
    clock = _on_clock(db)
    hydra = HydraRepository(db)
    for user, heads, turns in ((ANN, 9, None), (BEN, None, 4)):
        await db.execute(
            "INSERT INTO hydra_profiles (user_id, games, wins, heads_severed, best_win_heads, best_win_turns, "
            "slayer_at, updated_at) VALUES (?, 1, 1, 9, ?, ?, ?, ?)",
            (user, heads, turns, START.isoformat(), START.isoformat()),
        )
    clock.jump(hours=1)
    game = await _hydra_table(hydra, difficulty=3)
    await hydra.add_seat(game, BEN, "Ben", limit=4)
    await hydra.append(game, 1, "end", ANN, Finish("won", 12, 3, 3))
    for user in (ANN, BEN):
        assert await hydra.profile(user) == HydraProfile(user, 2, 2, 12, 3, 12, START.isoformat())


async def test_the_horde_and_the_god_keep_no_profiles(db: Database) -> None:
    deck = ChallengeRepository(db)
    game = await deck.create(
        guild_id=1, channel_id=10, created_by=ANN, creator_name="Ann", deck="horde", difficulty=3, seed=1,
        language="en",
    )  # fmt: skip
    await deck.append(game, 1, "end", ANN, Finish("won", 5, 20, 3))
    row = await deck.game(game)
    assert row is not None and (row.status, row.outcome, row.turns, row.defeated) == (FINISHED, "won", 5, 20)
    assert await db.scalar("SELECT COUNT(*) FROM hydra_profiles") == 0


async def test_the_lists_and_the_cap_read_their_own_statuses_channels_and_servers(db: Database) -> None:
    hydra = HydraRepository(db)
    lobby = await _hydra_table(hydra)
    playing = await _hydra_table(hydra)
    await hydra.append(playing, 1, "start", ANN)
    idle = await _hydra_table(hydra)
    await hydra.update_game(idle, status=IDLE)
    finished = await _hydra_table(hydra)
    await hydra.append(finished, 1, "end", ANN, Finish("lost", 3, 0, 5))
    elsewhere = await _hydra_table(hydra, guild_id=2, channel_id=20)
    by_ben = await _hydra_table(hydra, created_by=BEN, creator_name="Ben")
    await hydra.update_game(lobby, message_id=1)  # an updated row moves on PostgreSQL
    assert [g.game_id for g in await hydra.open_games()] == [lobby, playing, elsewhere, by_ben]
    assert [g.game_id for g in await hydra.games_with_status([IDLE, FINISHED])] == [idle, finished]
    newest = await hydra.latest_in_channel(10, [LOBBY, PLAYING])
    assert newest is not None and newest.game_id == by_ben
    older = await hydra.latest_in_channel(10, [PLAYING, IDLE])
    assert older is not None and older.game_id == idle
    assert await hydra.latest_in_channel(30, [LOBBY]) is None
    assert await hydra.unfinished_tables_opened_by(1, ANN) == 3  # lobby, playing, idle
    assert await hydra.unfinished_tables_opened_by(2, ANN) == 1
    assert await hydra.unfinished_tables_opened_by(1, BEN) == 1
    assert await hydra.unfinished_tables_opened_by(3, ANN) == 0
    assert await ChallengeRepository(db).unfinished_tables_opened_by(1, ANN) == 0
