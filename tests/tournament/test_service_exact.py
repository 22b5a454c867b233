"""TournamentService's exact bounds and who-may rules on a real database: the limits an organiser is told,
a game only the seated players score, a vote's status and its single close, and mana reports and the
current game confined to this server's running tournament."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.domain import pod
from bot.domain.tournament import TournamentError
from bot.services.pods import PodService
from bot.services.tournaments import (
    MAX_NAME,
    TournamentService,
    mana_value_lookup,
    tournament_topic,
    utc_now,
)

GUILD, CHANNEL, ORGANISER = 500, 600, 1
ANN, BEN, CAT, DAN, EVE = 11, 22, 33, 44, 55
NAMES = {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan", EVE: "Eve"}
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def refused(call, key: str) -> TournamentError:
    with pytest.raises(TournamentError) as excinfo:
        await call
    assert excinfo.value.key == f"tournament.error.{key}"
    return excinfo.value


def service(db) -> TournamentService:
    return TournamentService(db, clock=lambda: NOON)


async def running(tournaments: TournamentService, players=(ANN, BEN, CAT, DAN), **options):
    created = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, name="Friday", created_by=ORGANISER, seed=7, **options
    )
    for user in players:
        await tournaments.join(GUILD, user, NAMES[user])
    return created


async def played_table(db, tournaments: TournamentService):
    """Round 1 paired and its one table played to the end: Ann wins, the others concede."""
    heard = []
    pods = PodService(db, notify=lambda name, record: heard.append(record))
    tournament, (table,) = await tournaments.pair_next_round(GUILD)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ORGANISER,
        ruleset="commander",
        players=[(u, NAMES[u]) for u in table.seats],
        tournament_id=tournament.tournament_id,
        round_number=1,
    )
    await tournaments.link_game(table.pod_id, game.game_id)
    await pods.change(game.game_id, table.seats[0], pod.NEXT_TURN)
    for user in table.seats:
        if user != ANN:
            await pods.change(game.game_id, user, pod.CONCEDE, player=user)
    return pods, game.game_id, heard[-1]


async def test_the_limits_of_a_new_tournament_are_inclusive_and_named(db) -> None:
    tournaments = service(db)
    base = {"guild_id": GUILD, "channel_id": CHANNEL}
    error = await refused(tournaments.create(**base, name="x" * (MAX_NAME + 1)), "name_length")
    assert error.values == {"limit": MAX_NAME}
    error = await refused(tournaments.create(**base, name="x", rounds=21), "rounds_out_of_range")
    assert error.values == {"rounds": 21, "limit": 20}
    error = await refused(tournaments.create(**base, name="x", remainder_size=4), "bad_remainder_size")
    assert error.values == {"size": 4}
    for minutes in (0, 24 * 60 + 1):
        error = await refused(
            tournaments.create(**base, name="x", vote_minutes=minutes), "vote_minutes_out_of_range"
        )
        assert error.values == {"minutes": minutes, "limit": 24 * 60}
    created = await tournaments.create(
        **base,
        name="  " + "x" * MAX_NAME + " ",
        rounds=20,
        remainder_size=5,
        vote_minutes=24 * 60,
        created_by=ORGANISER,
    )
    assert (created.name, created.rounds, created.remainder_size, created.vote_minutes) == (
        "x" * MAX_NAME,
        20,
        5,
        24 * 60,
    )
    await tournaments.finish(GUILD)
    again = await tournaments.create(**base, name="y", rounds=1, vote_minutes=1)
    assert (again.rounds, again.vote_minutes, again.remainder_size) == (1, 1, 3)
    assert (await tournaments.latest(GUILD)).name == "y"


async def test_without_a_tournament_each_call_says_so(db) -> None:
    tournaments = service(db)
    await refused(tournaments.active(GUILD), "no_tournament")
    await refused(tournaments.latest(GUILD), "no_tournament")
    await refused(tournaments.join(GUILD, ANN, "Ann"), "no_tournament")
    await refused(tournaments.game(404), "game_not_in_tournament")


async def test_an_entrants_name_is_kept_to_the_limit_and_a_finished_tournament_takes_no_one(db) -> None:
    tournaments = service(db)
    created = await running(tournaments, players=())
    await tournaments.join(GUILD, ANN, "A" * 100)
    (entrant,) = await tournaments.entrants(created.tournament_id)
    assert entrant.name == "A" * MAX_NAME and entrant.joined_round == 1 and entrant.active
    await refused(tournaments.drop(GUILD, BEN), "not_joined")
    finished = await tournaments.finish(GUILD)
    assert finished.tournament_id == created.tournament_id
    await refused(tournaments.join(GUILD, BEN, "Ben"), "no_tournament")


async def test_the_last_round_is_the_last_paired(db) -> None:
    tournaments = service(db)
    await running(tournaments, rounds=1)
    refreshed, tables = await tournaments.pair_next_round(GUILD)
    assert refreshed.current_round == 1 and [t.round_number for t in tables] == [1]
    error = await refused(tournaments.pair_next_round(GUILD, force=True), "all_rounds_played")
    assert error.values == {"rounds": 1}


async def test_a_round_is_unfinished_until_each_table_is_played_and_voted(db) -> None:
    tournaments = service(db)
    tournament = await running(tournaments, players=(ANN, BEN, CAT, DAN, EVE))
    _, game_id, record = await played_table(db, tournaments)
    tournament = await tournaments.active(GUILD)
    assert await tournaments.unfinished_tables(tournament) == [1]  # played, its vote not recorded yet
    game = await tournaments.record_finished_game(record)
    assert game is not None and game.vote_open and await tournaments.unfinished_tables(tournament) == [1]
    await tournaments.close_vote(game_id)
    assert await tournaments.unfinished_tables(tournament) == []


async def test_a_finished_game_scores_once_for_its_seated_players_only(db) -> None:
    tournaments = service(db)
    await running(tournaments)
    _, game_id, record = await played_table(db, tournaments)
    game = await tournaments.record_finished_game(record)
    assert game is not None
    assert (game.game_id, game.round_number, game.channel_id, game.finished_at) == (
        game_id,
        1,
        CHANNEL,
        NOON.isoformat(),
    )
    assert game.vote_deadline == (NOON + timedelta(minutes=10)).isoformat() and game.vote_closed_at is None
    assert sorted(p.user_id for p in game.players) == [ANN, BEN, CAT, DAN]
    assert await tournaments.record_finished_game(record) is None  # a repeated notification
    outside = PodService(db, notify=lambda name, r: None)
    casual = await outside.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ANN,
        ruleset="commander",
        players=[(ANN, "Ann"), (BEN, "Ben")],
    )
    assert (
        await tournaments.record_finished_game(
            type(record)(**{**record.__dict__, "game_id": casual.game_id, "tournament_id": None})
        )
        is None
    )
    assert (
        await tournaments.record_finished_game(
            type(record)(**{**record.__dict__, "game_id": casual.game_id, "tournament_id": 404})
        )
        is None
    )


async def test_a_vote_tells_only_counts_closes_once_and_shows_each_voter_their_own(db) -> None:
    tournaments = service(db)
    tournament = await running(tournaments)
    _, game_id, record = await played_table(db, tournaments)
    await tournaments.record_finished_game(record)
    status, outcome = await tournaments.cast_vote(game_id, BEN, ANN)
    assert (status.cast, status.total, status.closed, outcome) == (1, 4, False, None)
    assert status.deadline == (NOON + timedelta(minutes=10)).isoformat()
    assert await tournaments.vote_of(game_id, BEN) == ANN and await tournaments.vote_of(game_id, CAT) is None
    shown = await tournaments.vote_status(game_id)
    assert (shown.cast, shown.total, shown.closed) == (1, 4, False)
    before = db.changes.version(tournament_topic(tournament.tournament_id))
    closed = await tournaments.close_vote(game_id)
    assert closed is not None and closed.received[ANN] == 1 and closed.names[ANN] == "Ann"
    assert db.changes.version(tournament_topic(tournament.tournament_id)) == before + 1
    assert await tournaments.close_vote(game_id) is None
    assert (await tournaments.vote_status(game_id)).closed
    assert [g.game_id for g in await tournaments.open_votes()] == []


async def test_mana_reports_and_the_current_game_stay_in_this_servers_tournament(db) -> None:
    tournaments = service(db)
    await running(tournaments)
    _, game_id, _ = await played_table(db, tournaments)
    assert await tournaments.current_game_of(GUILD, BEN) == game_id
    await refused(tournaments.current_game_of(GUILD, EVE), "no_current_game")
    await refused(tournaments.report_mana_pool(GUILD + 1, game_id, ANN, 5), "no_tournament")
    await refused(tournaments.report_mana_pool(GUILD, game_id + 1, ANN, 5), "game_not_in_tournament")
    error = await refused(tournaments.report_mana_pool(GUILD, game_id, ANN, 1001), "mana_out_of_range")
    assert error.values == {"amount": 1001, "limit": 1000}
    low = await tournaments.report_mana_pool(GUILD, game_id, ANN, 1)
    high = await tournaments.report_mana_pool(GUILD, game_id, BEN, 1000)
    assert low != high
    await refused(tournaments.confirm_mana_pool(GUILD, 404, BEN), "no_report")
    error = await refused(tournaments.confirm_mana_pool(GUILD, low, EVE), "not_at_table")
    assert error.values == {"game": game_id}
    assert await tournaments.confirm_mana_pool(GUILD, high, CAT) == BEN


async def test_a_correction_is_bounded_in_points_and_reason(db) -> None:
    tournaments = service(db)
    await running(tournaments)
    for points in (1001, -1001):
        error = await refused(
            tournaments.correct(GUILD, ANN, points, "why", by_user_id=ORGANISER), "correction_points"
        )
        assert error.values == {"points": points}
    error = await refused(
        tournaments.correct(GUILD, ANN, 1, "r" * 201, by_user_id=ORGANISER), "reason_required"
    )
    assert error.values == {"limit": 200}
    await tournaments.correct(GUILD, ANN, 1000, "  " + "r" * 200 + "  ", by_user_id=ORGANISER)
    await tournaments.correct(GUILD, ANN, -1000, "back", by_user_id=ORGANISER)
    tournament = await tournaments.active(GUILD)
    log = await tournaments.corrections(tournament.tournament_id)
    assert [(c.points, len(c.reason)) for c in log] == [(1000, 200), (-1000, 4)]


def test_a_commanders_mana_value_comes_from_the_card_data_else_zero(card_index) -> None:
    lookup = mana_value_lookup(card_index)
    assert lookup("Atraxa, Praetors' Voice") == 4
    assert lookup("No Such Card Anywhere") == 0 and lookup(None) == 0 and lookup("") == 0
    assert mana_value_lookup(None)("Atraxa, Praetors' Voice") == 0


async def start_table(db, tournaments: TournamentService, players, round_number: int = 1):
    """A linked pod game of ``players`` at the current round's first table (not played yet)."""
    heard = []
    pods = PodService(db, notify=lambda name, record: heard.append(record))
    tournament = await tournaments.active(GUILD)
    table = (await tournaments.repo.pods(tournament.tournament_id, round_number))[0]
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ORGANISER,
        ruleset="commander",
        players=[(u, NAMES[u]) for u in players],
        tournament_id=tournament.tournament_id,
        round_number=round_number,
    )
    await tournaments.link_game(table.pod_id, game.game_id)
    await pods.change(game.game_id, players[0], pod.NEXT_TURN)
    return pods, game.game_id, heard


async def test_each_public_change_is_published_on_its_tournaments_own_topic(db) -> None:
    """Standings and pairing messages refresh on the tournament's topic: a change published under
    another topic (or none) would leave every open message stale."""
    tournaments = service(db)
    created = await tournaments.create(guild_id=GUILD, channel_id=CHANNEL, name="Friday", seed=7)
    topic = tournament_topic(created.tournament_id)
    assert db.changes.version(topic) == 1
    for user in (ANN, BEN, CAT, DAN):
        await tournaments.join(GUILD, user, NAMES[user])
    assert db.changes.version(topic) == 5
    _, game_id, record = await played_table(db, tournaments)
    assert db.changes.version(topic) == 6  # the pairing
    await tournaments.record_finished_game(record)
    assert db.changes.version(topic) == 7  # the finished game (its vote opens)
    for voter, votee in ((ANN, BEN), (BEN, ANN), (CAT, ANN)):
        await tournaments.cast_vote(game_id, voter, votee)
    assert db.changes.version(topic) == 7  # an open vote is secret: nothing public changed
    status, outcome = await tournaments.cast_vote(game_id, DAN, ANN)
    assert status.closed and outcome is not None and db.changes.version(topic) == 8
    await tournaments.drop(GUILD, DAN)
    await tournaments.finish(GUILD)
    assert db.changes.version(topic) == 10


async def test_a_player_who_reached_the_board_unpaired_neither_scores_nor_votes(db) -> None:
    """Only the pairing's seats count: Eve, added to the board of a four-player table, is left out."""
    tournaments = service(db)
    await running(tournaments)
    await tournaments.pair_next_round(GUILD)
    pods, game_id, heard = await start_table(db, tournaments, [ANN, BEN, CAT, DAN, EVE])
    for user in (BEN, CAT, DAN, EVE):
        await pods.change(game_id, user, pod.CONCEDE, player=user)
    game = await tournaments.record_finished_game(heard[-1])
    assert game is not None and sorted(p.user_id for p in game.players) == [ANN, BEN, CAT, DAN]
    await refused(tournaments.cast_vote(game_id, EVE, ANN), "vote_voter_not_at_table")


async def test_another_tournaments_tables_are_not_this_ones(db) -> None:
    """Two servers' tournaments in round 1: each sees its own unfinished tables and games only."""
    tournaments = service(db)
    other = 900
    await tournaments.create(guild_id=other, channel_id=CHANNEL, name="Other", seed=3)
    for user in range(101, 109):
        await tournaments.join(other, user, f"p{user}")
    await tournaments.pair_next_round(other)  # two tables of four
    await running(tournaments)
    await tournaments.pair_next_round(GUILD)
    _, game_id, _ = await start_table(db, tournaments, [ANN, BEN, CAT, DAN])
    mine = await tournaments.active(GUILD)
    assert mine.tournament_id == 2 and mine.current_round == 1
    assert await tournaments.unfinished_tables(mine) == [1]
    assert len(await tournaments.unfinished_tables(await tournaments.active(other))) == 2
    assert await tournaments.current_game_of(GUILD, ANN) == game_id


async def test_the_current_game_is_of_the_current_round_only(db) -> None:
    """Once round 2 is paired, a player's round-1 game is no longer their current game."""
    tournaments = service(db)
    await running(tournaments, scoring="standard", rounds=2)
    _, game_id, _ = await played_table(db, tournaments)
    assert await tournaments.current_game_of(GUILD, ANN) == game_id
    await tournaments.pair_next_round(GUILD, force=True)
    await refused(tournaments.current_game_of(GUILD, ANN), "no_current_game")


async def test_refusals_name_the_game_they_are_about(db) -> None:
    tournaments = service(db)
    await running(tournaments)
    _, game_id, record = await played_table(db, tournaments)
    await tournaments.record_finished_game(record)
    error = await refused(tournaments.game(404), "game_not_in_tournament")
    assert error.values == {"game": 404}
    error = await refused(tournaments.vote_status(405), "game_not_in_tournament")
    assert error.values == {"game": 405}
    error = await refused(tournaments.game_in_guild(game_id, GUILD + 1), "game_not_in_tournament")
    assert error.values == {"game": game_id}
    error = await refused(tournaments.report_mana_pool(GUILD, game_id, EVE, 3), "not_at_table")
    assert error.values == {"game": game_id}
    error = await refused(tournaments.report_mana_pool(GUILD, 406, ANN, 3), "game_not_in_tournament")
    assert error.values == {"game": 406}
    assert (await tournaments.game_in_guild(game_id, GUILD)).game_id == game_id


async def test_a_vote_status_and_outcome_describe_their_own_game(db) -> None:
    tournaments = service(db)
    tournament = await running(tournaments)
    _, game_id, record = await played_table(db, tournaments)
    stored = await tournaments.record_finished_game(record)
    status = await tournaments.vote_status(game_id)
    assert (status.game_id, status.cast, status.total, status.closed) == (game_id, 0, 4, False)
    assert status.deadline == (NOON + timedelta(minutes=10)).isoformat()
    outcome = await tournaments.close_vote(game_id)
    assert outcome is not None and outcome.game.game_id == game_id
    assert (
        outcome.game.players == stored.players
        and outcome.tournament.tournament_id == tournament.tournament_id
    )
    assert (await tournaments.tournament_of(outcome.game)).tournament_id == tournament.tournament_id


async def test_a_closed_votes_result_is_announced_once_and_its_message_remembered(db) -> None:
    """After a restart the bot posts the results it never announced and edits the vote message it
    remembers: both read what these calls stored."""
    tournaments = service(db)
    await running(tournaments)
    _, game_id, record = await played_table(db, tournaments)
    await tournaments.record_finished_game(record)
    await tournaments.set_vote_message(game_id, 777)
    assert (await tournaments.game(game_id)).vote_message_id == 777
    assert await tournaments.unannounced_results() == []  # still voting
    await tournaments.close_vote(game_id)
    assert await tournaments.unannounced_results() == [game_id]
    await tournaments.mark_announced(game_id)
    assert await tournaments.unannounced_results() == []
    announced = await db.scalar("SELECT announced_at FROM tournament_games WHERE game_id = ?", (game_id,))
    assert announced == NOON.isoformat()


async def test_custom_points_for_a_draw_and_a_vote_are_read_back_from_the_tournament(db) -> None:
    tournaments = service(db)
    created = await running(tournaments, scoring="custom", win=4, draw=2, survival=1, vote=3, elimination=5)
    rule = TournamentService.rule(created)
    assert (rule.win, rule.draw, rule.survival, rule.vote, rule.elimination) == (4, 2, 1, 3, 5)


async def test_a_stopped_game_is_no_draw_for_those_still_in(db) -> None:
    """Standard scoring gives a draw 1 point each; an organiser's stop is no draw: nobody scores."""
    tournaments = service(db)
    tournament = await running(tournaments, scoring="standard")
    await tournaments.pair_next_round(GUILD)
    pods, game_id, heard = await start_table(db, tournaments, [ANN, BEN, CAT, DAN])
    await pods.change(game_id, BEN, pod.CONCEDE, player=BEN)
    await pods.change(game_id, ORGANISER, pod.STOP, manager=True)
    game = await tournaments.record_finished_game(heard[-1])
    assert game is not None and game.stopped and not game.draw
    points = {s.player: s.points for s in (await tournaments.standings(tournament)).standings}
    assert points == {ANN: 0, BEN: 0, CAT: 0, DAN: 0}


async def test_round_standings_count_that_rounds_games_and_no_corrections(db) -> None:
    """The round view shows one round's games; corrections, dropped players and the seed's coin
    belong to the tournament and show in every view that uses them."""
    from bot.domain.tournament.standings import coin_flip

    tournaments = service(db)
    tournament = await running(tournaments, scoring="standard", rounds=2)
    _, _, record = await played_table(db, tournaments)
    await tournaments.record_finished_game(record)
    await tournaments.correct(GUILD, CAT, 7, "late pairing", by_user_id=ORGANISER)
    await tournaments.drop(GUILD, DAN)
    first = await tournaments.standings(tournament, 1)
    assert first.tournament == tournament and first.round_number == 1
    assert first.names == {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan"}
    assert {s.player: s.points for s in first.standings} == {ANN: 5, BEN: 0, CAT: 0, DAN: 0}
    overall = await tournaments.standings(tournament)
    assert overall.round_number is None
    assert {s.player: s.points for s in overall.standings} == {ANN: 5, BEN: 0, CAT: 7, DAN: 0}
    assert {s.player for s in overall.standings if s.dropped} == {DAN}
    assert all(s.coin == coin_flip(7, s.player) for s in overall.standings)
    second = await tournaments.standings(tournament, 2)
    assert {s.player: s.points for s in second.standings} == {ANN: 0, BEN: 0, CAT: 0, DAN: 0}


async def test_the_prizes_count_commander_mana_and_no_pool_for_the_unreported(db, card_index) -> None:
    """Atraxa (mana value 4) cast once: 4 commander mana; players without a confirmed report have a pool
    of 0, not nothing."""
    tournaments = TournamentService(db, clock=lambda: NOON, mana_value=mana_value_lookup(card_index))
    tournament = await running(tournaments, scoring="standard")
    await tournaments.pair_next_round(GUILD)
    pods, game_id, heard = await start_table(db, tournaments, [ANN, BEN, CAT, DAN])
    await pods.change(game_id, ANN, pod.COMMANDERS, player=ANN, names=["Atraxa, Praetors' Voice"])
    await pods.change(game_id, ANN, pod.CAST, commander=pod.commander_key(ANN, 0))
    report = await tournaments.report_mana_pool(GUILD, game_id, BEN, 9)
    await tournaments.confirm_mana_pool(GUILD, report, CAT)
    for user in (BEN, CAT, DAN):
        await pods.change(game_id, user, pod.CONCEDE, player=user)
    await tournaments.record_finished_game(heard[-1])
    prizes = {s.player: s.prizes for s in (await tournaments.standings(tournament)).standings}
    assert prizes[ANN].commander_mana == 4 and prizes[BEN].commander_mana == 0
    assert {p: s.mana_pool for p, s in prizes.items()} == {ANN: 0, BEN: 9, CAT: 0, DAN: 0}


def test_without_an_injected_clock_the_time_is_utc() -> None:
    """Vote deadlines are stored as ISO text and compared across restarts: a local time would shift them."""
    now = utc_now()
    assert now.utcoffset() == timedelta(0) and abs(now - datetime.now(UTC)) < timedelta(minutes=1)
