"""A tournament of matches on a real database: each round's pairs with their running scores and its bye
(what the live page shows), the bye scoring as a won match, the last round refusing another, and the page
told of every pairing."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.domain.tournament import TournamentError
from bot.services.match_tournaments import MatchTournaments, PairResult
from bot.services.matches import MatchService
from bot.services.pods import PodService
from bot.services.tournaments import TournamentService, tournament_topic

GUILD, CHANNEL = 5, 6


async def _setup(db, clock, players=(1, 2, 3), rounds=2):
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    tournaments = TournamentService(db)
    created = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, name="Duels", rounds=rounds, created_by=1, seed=3
    )
    service = MatchTournaments(matches, tournaments.repo)
    await service.set_matches(created.tournament_id)
    for user in players:
        await tournaments.join(GUILD, user, f"p{user}")
    return pods, matches, tournaments, service


async def test_rounds_show_each_pair_its_score_and_the_bye(db, clock) -> None:
    pods, matches, tournaments, service = await _setup(db, clock)
    tournament = await tournaments.active(GUILD)
    assert await service.is_matches(tournament.tournament_id)
    assert await service.rounds(tournament) == []
    topic = tournament_topic(tournament.tournament_id)
    heard = db.changes.version(topic)
    round_number, pairing = await service.pair_next_round(tournament)
    assert round_number == 1 and pairing.bye is not None and db.changes.version(topic) > heard
    tournament = await tournaments.active(GUILD)
    (table,) = await tournaments.repo.pods(tournament.tournament_id, 1)
    (unstarted,) = (await service.rounds(tournament))[0].pairs
    assert unstarted == PairResult(table.table_number, (table.seats[0], table.seats[1]), (0, 0), 0, False, ())
    first, second = table.seats
    _, game = await matches.start_match(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=first,
        ruleset="duel-zh",
        players=[(first, "a"), (second, "b")],
        tournament_id=tournament.tournament_id,
        round_number=1,
    )
    await tournaments.link_game(table.pod_id, game.game_id)
    await pods.change(game.game_id, first, pod.NEXT_TURN)
    await pods.change(game.game_id, first, pod.CONCEDE, player=first)
    (played,) = await service.rounds(tournament)
    assert played.round_number == 1 and played.bye == pairing.bye
    (pair,) = played.pairs
    assert (pair.wins, pair.draws, pair.finished, pair.games) == ((0, 1), 0, False, (game.game_id,))
    standings = {s.player: s for s in (await service.standings(tournament)).standings}
    assert standings[pairing.bye].match_points == 3 and standings[first].match_points == 0
    assert (await service.standings(tournament, round_number=2)).standings[0].match_points == 0


async def test_the_last_round_is_the_last_paired(db, clock) -> None:
    _, _, tournaments, service = await _setup(db, clock, players=(1, 2), rounds=1)
    tournament = await tournaments.active(GUILD)
    await service.pair_next_round(tournament)
    tournament = await tournaments.active(GUILD)
    with pytest.raises(TournamentError) as refused:
        await service.pair_next_round(tournament, force=True)
    assert refused.value.key == "tournament.error.all_rounds_played" and refused.value.values == {"rounds": 1}
