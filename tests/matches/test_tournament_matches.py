"""1-vs-1 tournaments of matches: match points 3/1/0, MTR tie-breakers with the 33% floor, Swiss pairs,
and standings computed from matches played through the real services."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from bot.domain import pod
from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.matches import (
    FLOOR,
    MATCH_CSV_COLUMNS,
    MatchRecord,
    match_standings,
    match_standings_csv,
    pair_round,
)
from bot.services.matches import MatchService
from bot.services.pods import PodService


def test_match_points_and_tiebreakers():
    records = [
        MatchRecord("ann", "bea", (2, 0)),
        MatchRecord("cid", "dan", (2, 1)),
        MatchRecord("ann", "cid", (1, 1), draws=1),
        MatchRecord("bea", "dan", (0, 2)),
    ]
    table = {s.player: s for s in match_standings(records, seed=1)}
    assert [table[p].match_points for p in ("ann", "cid", "dan", "bea")] == [4, 4, 3, 0]
    assert table["ann"].record == (1, 0, 1) and table["bea"].record == (0, 2, 0)
    # bea lost every match: her MW% counts as 1/3 (the floor), not 0, for ann's tie-breaker.
    assert table["ann"].opponents_match_win == (FLOOR + Fraction(4, 6)) / 2
    # cid met dan (3 of 6 match points) and ann (4 of 6).
    assert table["cid"].opponents_match_win == (Fraction(3, 6) + Fraction(4, 6)) / 2
    standings = match_standings(records, seed=1)
    assert [s.player for s in standings][:2] == ["cid", "ann"]  # equal points: cid's opponents did better
    assert table["ann"].game_win == Fraction(3 * 3 + 1, 3 * 5)  # 3 game wins and 1 drawn game of 5
    assert table["bea"].game_win == FLOOR


def test_a_bye_is_a_two_nil_win_and_no_opponent():
    table = {s.player: s for s in match_standings([MatchRecord("ann", "bea", (2, 1))], seed=3, byes=["cid"])}
    assert table["cid"].match_points == 3 and table["cid"].record == (1, 0, 0)
    assert table["cid"].opponents_match_win == 0  # nobody met
    assert table["ann"].opponents_match_win == FLOOR


def test_swiss_pairs_avoid_rematches_and_give_one_bye():
    first = pair_round(["a", "b", "c", "d", "e"], seed=9, round_number=1)
    assert first.bye is not None and len(first.pairs) == 2
    assert sorted([*(p for pair in first.pairs for p in pair), first.bye]) == list("abcde")
    assert pair_round(["a", "b", "c", "d", "e"], seed=9, round_number=1) == first  # reproducible
    second = pair_round(
        ["a", "b", "c", "d", "e"], past_pairs=[("a", "b"), ("c", "d")], had_bye=["e"], seed=9, round_number=2
    )
    assert second.bye == "d" and second.pairs == [("a", "c"), ("b", "e")]
    with pytest.raises(TournamentError):
        pair_round(["a"], seed=1, round_number=1)


async def test_standings_from_matches_played(db, clock):
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    results = {}
    for first, second, losers in ((1, 2, [2, 2]), (3, 4, [4, 3, 4])):
        loaded, game = await matches.start_match(
            guild_id=5,
            channel_id=6,
            created_by=first,
            ruleset="duel-zh",
            players=[(first, "p"), (second, "q")],
            tournament_id=7,
            round_number=1,
        )
        for loser in losers:
            await pods.change(game.game_id, first, pod.NEXT_TURN)
            await pods.change(game.game_id, loser, pod.CONCEDE, player=loser)
            state = (await matches.get(loaded.match_id)).state
            if not state.finished:
                _, game = await matches.next_game(loaded.match_id, loser, loser)
        results[first] = (await matches.get(loaded.match_id)).state
    record = (await pods.get(game.game_id)).record
    assert record.tournament_id == 7 and record.match_game == 3
    records = await matches.tournament_records(7)
    assert records == [MatchRecord(1, 2, (2, 0)), MatchRecord(3, 4, (2, 1))]
    table = [(s.player, s.match_points) for s in match_standings(records, seed=7)]
    assert table[:2] in ([(1, 3), (3, 3)], [(3, 3), (1, 3)]) and {p for p, _ in table[2:]} == {2, 4}
    assert table[0][0] == 1  # 2-0 beats 2-1 on game-win percentage (opponents' MW% are equal: floor)


def test_dropped_players_games_and_the_csv():
    records = [MatchRecord("ann", "bea", (2, 1)), MatchRecord("=cmd", "dan", (1, 1), draws=1)]
    table = {
        s.player: s for s in match_standings(records, seed=2, byes=["eve"], dropped=["bea"], players=["fay"])
    }
    assert table["bea"].dropped and not table["ann"].dropped
    assert (table["ann"].game_wins, table["ann"].games) == (2, 3) and (
        table["eve"].game_wins,
        table["eve"].games,
    ) == (2, 2)
    assert table["fay"].matches == 0 and table["fay"].game_win == FLOOR  # entered, not played yet
    rows = list(csv.reader(io.StringIO(match_standings_csv(list(table.values())))))
    assert rows[0] == list(MATCH_CSV_COLUMNS)
    by_name = {row[1]: dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    assert by_name["ann"]["match_points"] == "3" and by_name["ann"]["game_win_percent"] == "66.7%"
    assert by_name["bea"]["dropped"] == "yes" and by_name["bea"]["match_losses"] == "1"
    assert (
        by_name["'=cmd"]["match_draws"] == "1"
    )  # a name that looks like a formula is not run by a spreadsheet


async def test_a_round_of_standings_and_the_unfinished_tables(db, clock):
    """Standings of one round count only its matches; a match still running keeps its table unfinished."""
    from bot.services.match_tournaments import MatchTournaments
    from bot.services.tournaments import TournamentService

    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    tournaments = TournamentService(db)
    tournament = await tournaments.create(guild_id=5, channel_id=6, name="Duels", rounds=2, created_by=1)
    service = MatchTournaments(matches, tournaments.repo)
    await service.set_matches(tournament.tournament_id)
    for user in (1, 2, 3, 4):
        await tournaments.join(5, user, f"p{user}")
    tournament = await tournaments.active(5)
    round_number, pairing = await service.pair_next_round(tournament)
    tables = await tournaments.repo.pods(tournament.tournament_id, round_number)
    games = {}
    for table in tables:
        _, game = await matches.start_match(
            guild_id=5,
            channel_id=6,
            created_by=1,
            ruleset="duel-zh",
            players=[(u, f"p{u}") for u in table.seats],
            tournament_id=tournament.tournament_id,
            round_number=round_number,
        )
        await tournaments.link_game(table.pod_id, game.game_id)
        games[table.table_number] = (table.seats, game)
    tournament = await tournaments.active(5)
    assert await service.unfinished_tables(tournament) == [1, 2]
    seats, game = games[1]
    for _ in range(2):  # the second seat loses 2-0
        await pods.change(game.game_id, seats[0], pod.NEXT_TURN)
        await pods.change(game.game_id, seats[1], pod.CONCEDE, player=seats[1])
        loaded = await matches.for_game(await pods.get(game.game_id))
        if not loaded.state.finished:
            _, game = await matches.next_game(loaded.match_id, seats[1], seats[1])
    assert await service.unfinished_tables(tournament) == [2]
    with pytest.raises(TournamentError) as refused:
        await service.pair_next_round(tournament)
    assert refused.value.key == "tournament.error.round_unfinished" and refused.value.values["tables"] == [
        "2"
    ]
    view = await service.standings(tournament, round_number=1)
    assert {s.player: s.match_points for s in view.standings}[seats[0]] == 3 and view.round_number == 1
    assert (await service.standings(tournament, round_number=2)).standings[0].match_points == 0
