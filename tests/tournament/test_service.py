"""TournamentService on a real SQLite file, fed by real pod games from PodService."""

from __future__ import annotations

import asyncio

import pytest

from bot.domain import pod
from bot.domain.pod import commander_key
from bot.domain.tournament import TournamentError
from bot.services.pods import PodService
from bot.services.tournaments import TournamentService, mana_value_lookup
from bot.storage.db import Database

GUILD, CHANNEL, ORGANISER = 500, 600, 1
ANN, BEN, CAT, DAN, EVE = 11, 22, 33, 44, 55
NAMES = {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan", EVE: "Eve"}


def services(db, clock, card_index=None):
    heard = []
    pods = PodService(db, notify=lambda name, record: heard.append(record))
    tournaments = TournamentService(db, clock=clock, mana_value=mana_value_lookup(card_index))
    return pods, tournaments, heard


async def new_tournament(tournaments, players=(ANN, BEN, CAT, DAN), **options):
    created = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, name="Friday EDH", created_by=ORGANISER, seed=1234, **options
    )
    for user in players:
        await tournaments.join(GUILD, user, NAMES[user])
    return created


async def play(pods, heard, tournament_id, round_number, seats):
    """A real pod game: Ann's Atraxa is cast twice (tax 0 then 2) and knocks Ben out with 21
    commander damage; Cat takes 12 combat damage from Dan in one turn and concedes; Ann and Dan survive
    and agree a draw."""
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ORGANISER,
        players=[(u, NAMES[u]) for u in seats],
        ruleset="commander",
        tournament_id=tournament_id,
        round_number=round_number,
    )
    gid = game.game_id
    await pods.change(gid, ANN, pod.COMMANDERS, player=ANN, names=["Atraxa, Praetors' Voice"])
    await pods.change(gid, ANN, pod.NEXT_TURN)
    atraxa = commander_key(ANN, 0)
    await pods.change(gid, ANN, pod.CAST, commander=atraxa)
    await pods.change(gid, ANN, pod.CAST, commander=atraxa)
    await pods.change(gid, ANN, pod.COMMANDER_DAMAGE, commander=atraxa, target=BEN, amount=21)
    await pods.change(gid, DAN, pod.LIFE, player=CAT, amount=-7, source=DAN, combat=True)
    await pods.change(gid, DAN, pod.LIFE, player=CAT, amount=-5, source=DAN, combat=True)
    await pods.change(gid, CAT, pod.CONCEDE, player=CAT)
    await pods.change(gid, ANN, pod.DRAW_VOTE, player=ANN)
    await pods.change(gid, DAN, pod.DRAW_VOTE, player=DAN)
    return heard[-1]


async def test_create_validates_and_one_tournament_per_server(db, clock):
    _, tournaments, _ = services(db, clock)
    with pytest.raises(TournamentError, match="1 to 64"):
        await tournaments.create(guild_id=GUILD, channel_id=CHANNEL, name=" ", rounds=3)
    with pytest.raises(TournamentError, match="1 to 20 rounds"):
        await tournaments.create(guild_id=GUILD, channel_id=CHANNEL, name="x", rounds=0)
    with pytest.raises(TournamentError, match="Unknown scoring"):
        await tournaments.create(guild_id=GUILD, channel_id=CHANNEL, name="x", scoring="elo")
    assert await db.scalar("SELECT COUNT(*) FROM tournaments") == 0
    created = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, name="x", scoring="custom", win=3, elimination=1
    )
    assert (created.scoring, created.win_points, created.elimination_points, created.vote_points) == (
        "custom",
        3,
        1,
        0,
    )
    with pytest.raises(TournamentError, match="already runs the tournament x"):
        await tournaments.create(guild_id=GUILD, channel_id=CHANNEL, name="y")


async def test_join_drop_and_late_entry_until_round_two(db, clock):
    _, tournaments, _ = services(db, clock)
    tournament = await new_tournament(tournaments)
    with pytest.raises(TournamentError, match="already joined"):
        await tournaments.join(GUILD, ANN, "Ann")
    await tournaments.pair_next_round(GUILD)
    await tournaments.join(GUILD, EVE, "Eve")  # late entry during round 1
    await tournaments.drop(GUILD, BEN)
    with pytest.raises(TournamentError, match="not playing"):
        await tournaments.drop(GUILD, BEN)
    entrants = {e.user_id: e for e in await tournaments.entrants(tournament.tournament_id)}
    assert entrants[EVE].joined_round == 1 and entrants[BEN].dropped_round == 1
    await tournaments.pair_next_round(GUILD, force=True)
    with pytest.raises(TournamentError, match="late entry is possible only until round 2"):
        await tournaments.join(GUILD, 66, "Fay")
    paired = {u for p in (await tournaments.repo.pods(tournament.tournament_id, 2)) for u in p.seats}
    assert paired == {ANN, CAT, DAN, EVE}  # Ben dropped, Eve entered late


async def test_pairing_survives_restart_and_waits_for_the_round(db_url, clock):
    db = await Database.open(db_url)
    _, tournaments, _ = services(db, clock)
    tournament = await new_tournament(tournaments, players=(ANN, BEN, CAT, DAN, EVE))
    _, pods = await tournaments.pair_next_round(GUILD)
    assert sorted(len(p.seats) for p in pods) == [5]
    await db.close()
    db = await Database.open(db_url)
    try:
        _, tournaments, _ = services(db, clock)
        again = await tournaments.repo.pods(tournament.tournament_id, 1)
        assert [p.seats for p in again] == [p.seats for p in pods]
        with pytest.raises(TournamentError, match="Round 1 is not over: table\\(s\\) 1"):
            await tournaments.pair_next_round(GUILD)
    finally:
        await db.close()


async def test_democratic_vote_from_a_real_pod_game(db, clock, card_index):
    pods, tournaments, heard = services(db, clock, card_index)
    tournament = await new_tournament(tournaments)
    _, (pairing,) = await tournaments.pair_next_round(GUILD)
    record = await play(pods, heard, tournament.tournament_id, 1, [ANN, BEN, CAT, DAN])
    await tournaments.link_game(pairing.pod_id, record.game_id)
    game = await tournaments.record_finished_game(record)
    assert game is not None and game.vote_open
    assert await tournaments.record_finished_game(record) is None  # a repeated notification: stored once
    by_user = {p.user_id: p for p in game.players}
    assert {u for u, p in by_user.items() if p.survived} == {ANN, DAN}
    assert by_user[ANN].commander_kills == 1 and by_user[ANN].eliminations == 1
    assert by_user[DAN].combat_damage == 12 and by_user[ANN].combat_damage == 21
    assert by_user[ANN].commander_mana == (4 + 0) + (4 + 2)  # Atraxa's mana value plus tax, per cast

    gid = record.game_id
    with pytest.raises(TournamentError, match="yourself"):
        await tournaments.cast_vote(gid, BEN, BEN)
    with pytest.raises(TournamentError, match="did not play at that table"):
        await tournaments.cast_vote(gid, EVE, ANN)
    status, outcome = await tournaments.cast_vote(gid, BEN, ANN)  # eliminated players still vote (T3)
    assert (status.cast, status.total, status.closed, outcome) == (1, 4, False, None)
    await tournaments.cast_vote(gid, BEN, CAT)  # changed, not added
    assert (await tournaments.vote_status(gid)).cast == 1
    # Until the vote closes the game does not score.
    assert {s.player: s.points for s in (await tournaments.standings(tournament)).standings}[ANN] == 0
    await tournaments.cast_vote(gid, ANN, CAT)
    await tournaments.cast_vote(gid, CAT, DAN)
    status, outcome = await tournaments.cast_vote(gid, DAN, CAT)
    assert status.closed and outcome is not None
    assert outcome.received == {ANN: 0, BEN: 0, CAT: 3, DAN: 1}
    assert outcome.points == {ANN: 2, BEN: 0, CAT: 3, DAN: 3}  # T3: 2 for surviving + 1 per vote
    with pytest.raises(TournamentError, match="has closed"):
        await tournaments.cast_vote(gid, BEN, ANN)

    view = await tournaments.standings(tournament)
    # Cat and Dan: 3 points each, the same opponents' average (5/3); Cat received more votes.
    assert [(s.player, s.points) for s in view.standings] == [(CAT, 3), (DAN, 3), (ANN, 2), (BEN, 0)]
    assert view.standings[0].prizes.combat_damage == 0 and view.standings[2].prizes.commander_kills == 1


async def test_open_vote_and_deadline_survive_a_restart(db_url, clock):
    db = await Database.open(db_url)
    pods, tournaments, heard = services(db, clock)
    tournament = await new_tournament(tournaments, vote_minutes=10)
    record = await play(pods, heard, tournament.tournament_id, 1, [ANN, BEN, CAT, DAN])
    await tournaments.record_finished_game(record)
    await tournaments.cast_vote(record.game_id, BEN, ANN)
    await db.close()

    db = await Database.open(db_url)  # the bot restarts with the vote open
    try:
        _, tournaments, _ = services(db, clock)
        (open_game,) = await tournaments.open_votes()
        assert open_game.game_id == record.game_id
        assert open_game.vote_deadline == "2026-11-29T18:10:00+00:00"
        clock.advance(minutes=10)
        outcome = await tournaments.close_vote(record.game_id)  # what the rescheduled deadline does
        assert outcome is not None and outcome.points[ANN] == 3 and outcome.points[CAT] == 0
        assert await tournaments.close_vote(record.game_id) is None  # closes once
        assert await tournaments.open_votes() == []
        assert {s.player: s.points for s in (await tournaments.standings(tournament)).standings}[ANN] == 3
    finally:
        await db.close()


async def test_concurrent_votes_lose_nothing_and_close_once(db, clock):
    pods, tournaments, heard = services(db, clock)
    tournament = await new_tournament(tournaments)
    record = await play(pods, heard, tournament.tournament_id, 1, [ANN, BEN, CAT, DAN])
    await tournaments.record_finished_game(record)
    ballots = {ANN: BEN, BEN: CAT, CAT: DAN, DAN: ANN}
    results = await asyncio.gather(
        *(tournaments.cast_vote(record.game_id, voter, votee) for voter, votee in ballots.items())
    )
    assert sum(outcome is not None for _, outcome in results) == 1
    assert await tournaments.repo.votes(record.game_id) == ballots
    (closed,) = [outcome for _, outcome in results if outcome is not None]
    assert closed.received == {ANN: 1, BEN: 1, CAT: 1, DAN: 1}


async def test_standard_scoring_needs_no_vote(db, clock):
    pods, tournaments, heard = services(db, clock)
    tournament = await new_tournament(tournaments, scoring="standard")
    record = await play(pods, heard, tournament.tournament_id, 1, [ANN, BEN, CAT, DAN])
    game = await tournaments.record_finished_game(record)
    assert not game.vote_open
    points = {s.player: s.points for s in (await tournaments.standings(tournament)).standings}
    assert points == {ANN: 1, DAN: 1, BEN: 0, CAT: 0}  # an agreed draw: 1 to each player still in


async def test_corrections_are_audited_and_counted(db, clock):
    _, tournaments, _ = services(db, clock)
    tournament = await new_tournament(tournaments)
    with pytest.raises(TournamentError, match="needs a reason"):
        await tournaments.correct(GUILD, ANN, 2, "  ", by_user_id=ORGANISER)
    with pytest.raises(TournamentError, match="not 0"):
        await tournaments.correct(GUILD, ANN, 0, "nothing", by_user_id=ORGANISER)
    with pytest.raises(TournamentError, match="has not entered"):
        await tournaments.correct(GUILD, EVE, 2, "not playing", by_user_id=ORGANISER)
    await tournaments.correct(GUILD, ANN, 2, "missed vote in game 3", by_user_id=ORGANISER)
    await tournaments.correct(GUILD, BEN, -1, "slow play", by_user_id=ORGANISER)
    log = await tournaments.corrections(tournament.tournament_id)
    assert [(c.user_id, c.points, c.reason, c.by_user_id) for c in log] == [
        (ANN, 2, "missed vote in game 3", ORGANISER),
        (BEN, -1, "slow play", ORGANISER),
    ]
    standings = (await tournaments.standings(tournament)).standings
    assert (standings[0].player, standings[0].points, standings[-1].player, standings[-1].points) == (
        ANN,
        2,
        BEN,
        -1,
    )


async def test_individual_votes_stay_secret_unless_the_server_enables_it(db, clock):
    pods, tournaments, heard = services(db, clock)
    tournament = await new_tournament(tournaments)
    record = await play(pods, heard, tournament.tournament_id, 1, [ANN, BEN, CAT, DAN])
    await tournaments.record_finished_game(record)
    await tournaments.cast_vote(record.game_id, BEN, ANN)
    with pytest.raises(TournamentError, match="secret"):
        await tournaments.individual_votes(record.game_id, guild_id=GUILD, organiser=True)
    await tournaments.set_reveal_votes(GUILD, True)
    with pytest.raises(TournamentError, match="secret"):
        await tournaments.individual_votes(record.game_id, guild_id=GUILD, organiser=False)
    assert await tournaments.individual_votes(record.game_id, guild_id=GUILD, organiser=True) == {BEN: ANN}
    await tournaments.set_reveal_votes(GUILD + 1, True)
    with pytest.raises(TournamentError, match="not part of this server's tournament"):
        await tournaments.individual_votes(record.game_id, guild_id=GUILD + 1, organiser=True)


async def test_t2_mana_pool_report_counts_once_confirmed_by_another_player(db, clock):
    pods, tournaments, heard = services(db, clock)
    tournament = await new_tournament(tournaments, scoring="standard")
    _, (pairing,) = await tournaments.pair_next_round(GUILD)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ORGANISER,
        players=[(u, NAMES[u]) for u in pairing.seats],
        ruleset="commander",
        tournament_id=tournament.tournament_id,
        round_number=1,
    )
    await tournaments.link_game(pairing.pod_id, game.game_id)
    with pytest.raises(TournamentError, match="did not play"):
        await tournaments.report_mana_pool(GUILD, game.game_id, EVE, 9)
    with pytest.raises(TournamentError, match="between 1 and 1000"):
        await tournaments.report_mana_pool(GUILD, game.game_id, ANN, 0)
    report = await tournaments.report_mana_pool(GUILD, game.game_id, ANN, 17)
    unconfirmed = await tournaments.report_mana_pool(GUILD, game.game_id, ANN, 40)
    with pytest.raises(TournamentError, match="not you"):
        await tournaments.confirm_mana_pool(GUILD, report, ANN)
    with pytest.raises(TournamentError, match="did not play"):
        await tournaments.confirm_mana_pool(GUILD, report, EVE)
    assert await tournaments.confirm_mana_pool(GUILD, report, BEN) == ANN
    await pods.change(game.game_id, ANN, pod.NEXT_TURN)
    for user in (BEN, CAT, DAN):
        await pods.change(game.game_id, user, pod.CONCEDE, player=user)
    await tournaments.record_finished_game(heard[-1])
    view = await tournaments.standings(tournament)
    assert view.standings[0].player == ANN and view.standings[0].points == 5
    assert view.standings[0].prizes.mana_pool == 17  # the 40 was never confirmed
    assert unconfirmed != report


async def test_custom_scoring_credits_the_player_whose_damage_knocked_someone_out(db, clock):
    pods, tournaments, heard = services(db, clock)
    tournament = await new_tournament(tournaments, scoring="custom", win=4, survival=1, elimination=2)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ORGANISER,
        players=[(u, NAMES[u]) for u in (ANN, BEN, CAT)],
        ruleset="commander",
        tournament_id=tournament.tournament_id,
        round_number=1,
    )
    await pods.change(game.game_id, ANN, pod.NEXT_TURN)
    await pods.change(game.game_id, ANN, pod.LIFE, player=BEN, amount=-40, source=ANN, combat=True)
    await pods.change(game.game_id, CAT, pod.LIFE, player=CAT, amount=-40)  # no source: nobody credited
    stored = await tournaments.record_finished_game(heard[-1])
    by_user = {p.user_id: p for p in stored.players}
    assert (by_user[ANN].eliminations, by_user[CAT].eliminations, by_user[BEN].eliminations) == (1, 0, 0)
    assert by_user[ANN].combat_damage == 40 and by_user[ANN].commander_kills == 0
    points = {s.player: s.points for s in (await tournaments.standings(tournament)).standings}
    assert points == {ANN: 4 + 1 + 2, BEN: 0, CAT: 0, DAN: 0}
