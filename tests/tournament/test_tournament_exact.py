"""Tournament domain, value for value: each refusal's key and values (T3 votes, seating), the scoring
rules' points, the standings' order, tiebreakers and CSV (the older tests check the English text)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.prizes import PrizeStats
from bot.domain.tournament.scoring import (
    DEMOCRATIC,
    STANDARD,
    GameResult,
    ScoringRule,
    Tally,
    score_game,
    scoring_rule,
)
from bot.domain.tournament.standings import Correction, coin_flip, compute_standings, csv_safe, standings_csv
from bot.domain.tournament.votes import Ballot, validate_vote

FOUR = ("ann", "ben", "cat", "dan")


def refusal(call, *args, **kwargs) -> tuple[str, dict]:
    with pytest.raises(TournamentError) as caught:
        call(*args, **kwargs)
    return caught.value.key, caught.value.values


@pytest.mark.parametrize(
    ("voter", "votee", "key", "extra"),
    [
        ("zed", "ann", "tournament.error.vote_unknown_player", {"player": "zed"}),
        ("ann", "zed", "tournament.error.vote_unknown_player", {"player": "zed"}),
        ("eve", "ann", "tournament.error.vote_voter_not_at_table", {}),
        ("ann", "eve", "tournament.error.vote_votee_not_at_table", {}),
        ("ann", "ann", "tournament.error.vote_for_self", {}),
    ],
)
def test_a_refused_vote_names_the_game_the_vote_and_the_player(voter, votee, key, extra):
    assert refusal(validate_vote, 7, FOUR, voter, votee, known=[*FOUR, "eve"]) == (
        key,
        {"game": 7, "voter": voter, "votee": votee, **extra},
    )


def test_without_the_entrant_list_a_stranger_is_just_not_at_the_table():
    assert refusal(validate_vote, 2, FOUR, "zed", "ann") == (
        "tournament.error.vote_voter_not_at_table",
        {"game": 2, "voter": "zed", "votee": "ann"},
    )
    validate_vote(2, FOUR, "ann", "ben", known=FOUR)  # a vote T3 allows passes


def test_a_ballot_counts_changes_and_closes():
    ballot = Ballot(game=4, players=FOUR)
    assert (ballot.cast_count, ballot.everyone_voted, ballot.received()) == (
        0,
        False,
        Counter({"ann": 0, "ben": 0, "cat": 0, "dan": 0}),
    )
    ballot.cast("ann", "ben")
    ballot.cast("ben", "ann")
    ballot.cast("cat", "ann")
    ballot.cast("ann", "cat")  # voting again replaces the vote
    assert ballot.votes == {"ann": "cat", "ben": "ann", "cat": "ann"}
    assert (ballot.cast_count, ballot.everyone_voted) == (3, False)
    ballot.cast("dan", "ann")
    assert (ballot.cast_count, ballot.everyone_voted) == (4, True)
    assert ballot.received() == Counter({"ann": 3, "cat": 1, "ben": 0, "dan": 0})
    assert list(ballot.received()) == ["ann", "ben", "cat", "dan"]
    assert refusal(ballot.cast, "ann", "ann") == (
        "tournament.error.vote_for_self",
        {"game": 4, "voter": "ann", "votee": "ann"},
    )
    ballot.closed = True
    assert refusal(ballot.cast, "ann", "dan") == ("tournament.error.vote_closed", {"game": 4})
    assert ballot.votes["ann"] == "cat"


def test_checked_game_refusals_and_the_result_it_builds():
    assert refusal(checked_game, 3, ["ann", "ben", "ann"], []) == (
        "tournament.error.player_seated_twice",
        {"game": 3, "player": "ann"},
    )
    assert refusal(checked_game, 3, FOUR, ["eve"]) == (
        "tournament.error.survivor_not_at_table",
        {"game": 3, "player": "eve"},
    )
    assert refusal(checked_game, 3, FOUR, ["ann"], {"ann": "zed"}, known=FOUR)[0] == (
        "tournament.error.vote_unknown_player"
    )
    votes = {"ben": "ann"}
    result = checked_game(
        3, iter(FOUR), ["ann", "ann"], votes, draw=True, eliminations={"ann": 2}, stopped=True
    )
    assert result == GameResult(FOUR, frozenset({"ann"}), {"ben": "ann"}, True, {"ann": 2}, True)
    votes["cat"] = "ann"
    assert result.votes == {"ben": "ann"}  # a copy
    assert checked_game(1, FOUR, []) == GameResult(FOUR, frozenset(), {}, False, {}, False)


def test_scoring_rules_by_name_and_their_refusals():
    assert scoring_rule("democratic") is DEMOCRATIC and scoring_rule("standard") is STANDARD
    assert scoring_rule("custom", win=100, elimination=-100) == ScoringRule(
        "custom", win=100, elimination=-100
    )
    assert refusal(scoring_rule, "standard", win=3, survival=1) == (
        "tournament.error.points_need_custom",
        {"options": ("win", "survival"), "name": "standard"},
    )
    assert refusal(scoring_rule, "swiss") == (
        "tournament.error.unknown_scoring",
        {"name": "swiss", "names": ("democratic", "standard", "custom")},
    )
    assert refusal(scoring_rule, "custom", draw=101) == (
        "tournament.error.points_out_of_range",
        {"what": "draw", "points": 101, "limit": 100},
    )
    assert refusal(scoring_rule, "custom", vote=-101)[1] == {"what": "vote", "points": -101, "limit": 100}


def test_one_game_scored_point_by_point():
    rule = ScoringRule("custom", win=7, draw=3, survival=2, vote=5, elimination=11)
    won = GameResult(
        FOUR, frozenset({"ann"}), {"ben": "ann", "cat": "ann", "dan": "cat"}, eliminations={"ann": 2}
    )
    assert score_game(won, rule) == {
        "ann": Tally(
            points=7 + 2 + 2 * 5 + 2 * 11, games=1, survivals=1, votes=2, wins=1, draws=0, eliminations=2
        ),
        "ben": Tally(points=0, games=1),
        "cat": Tally(points=5, games=1, votes=1),
        "dan": Tally(points=0, games=1),
    }
    drawn = GameResult(FOUR, frozenset({"ann", "ben"}))
    assert score_game(drawn, rule)["ann"] == Tally(points=3 + 2, games=1, survivals=1, draws=1)
    stopped = GameResult(FOUR, frozenset({"ann"}), stopped=True)
    assert (stopped.winner, stopped.is_draw) == (None, False)
    assert score_game(stopped, rule)["ann"] == Tally(points=2, games=1, survivals=1)
    agreed = GameResult(FOUR, frozenset({"ann"}), draw=True)
    assert (agreed.winner, agreed.is_draw) == (None, True)
    assert GameResult(FOUR, frozenset()).is_draw is True


def test_standings_order_tiebreakers_corrections_entrants_and_csv():
    """Democratic (2 per survival): ann, ben and dan have 2 points, ordered by their opponents' average
    points (ben faced dan: 2; dan faced ben and cat: 1/2; ann faced cat: -1). cat is corrected to -1,
    fay exists only through a correction, eve has not played yet."""
    games = [
        GameResult(("ann", "cat"), frozenset({"ann"})),
        GameResult(("ben", "dan"), frozenset({"ben"})),
        GameResult(("dan", "cat"), frozenset({"dan"})),
    ]
    standings = compute_standings(
        games,
        DEMOCRATIC,
        seed=3,
        players=["eve"],
        dropped=["dan"],
        corrections=[Correction("cat", -1, "late", "org"), Correction("fay", 1, "x", "org")],
        prizes={"ben": PrizeStats(combat_damage=9)},
    )
    assert [
        (s.rank, s.player, s.points, s.opponents_average, s.tally.games, s.dropped) for s in standings
    ] == [
        (1, "ben", 2, Fraction(2), 1, False),
        (2, "dan", 2, Fraction(1, 2), 2, True),
        (3, "ann", 2, Fraction(-1), 1, False),
        (4, "fay", 1, Fraction(0), 0, False),
        (5, "eve", 0, Fraction(0), 0, False),
        (6, "cat", -1, Fraction(2), 2, False),
    ]
    assert [s.coin for s in standings] == [
        coin_flip(3, p) for p in ("ben", "dan", "ann", "fay", "eve", "cat")
    ]
    assert standings[0].prizes == PrizeStats(combat_damage=9) and standings[1].prizes == PrizeStats()
    assert standings_csv(standings, name=lambda p: "=" + p if p == "fay" else p.upper()) == (
        "rank,player,points,opponents_average,votes,survivals,wins,draws,eliminations,games,dropped,"
        "combat_damage,commander_kills,commander_mana,mana_pool\n"
        "1,BEN,2,2.00,0,1,1,0,0,1,no,9,0,0,0\n"
        "2,DAN,2,0.50,0,1,1,0,0,2,yes,0,0,0,0\n"
        "3,ANN,2,-1.00,0,1,1,0,0,1,no,0,0,0,0\n"
        "4,'=fay,1,0.00,0,0,0,0,0,0,no,0,0,0,0\n"
        "5,EVE,0,0.00,0,0,0,0,0,0,no,0,0,0,0\n"
        "6,CAT,-1,2.00,0,0,0,0,0,2,no,0,0,0,0\n"
    )


def test_votes_then_the_coin_break_full_ties():
    """Standard scoring ignores votes for points, but votes received still break a tie before the coin."""
    games = [
        GameResult(("ann", "ben"), frozenset({"ann", "ben"}), {"ann": "ben"}),
        GameResult(("cat", "dan"), frozenset({"cat", "dan"})),
    ]
    standings = compute_standings(games, STANDARD, seed=8)
    assert [(s.player, s.points, s.opponents_average, s.tally.votes) for s in standings] == [
        ("ben", 1, 1, 1),
        *[(p, 1, 1, 0) for p in sorted(["ann", "cat", "dan"], key=lambda p: -coin_flip(8, p))],
    ]
    assert len({coin_flip(8, p) for p in ("ann", "cat", "dan")}) == 3
    assert coin_flip(8, "cat") == coin_flip(8, "cat") and 0 <= coin_flip(8, "cat") < 1
    assert coin_flip(8, "cat") != coin_flip(9, "cat")


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+x", "'+x"),
        ("-x", "'-x"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("a=b", "a=b"),
        ("", ""),
        ("Ann", "Ann"),
    ],
)
def test_csv_safe_quotes_only_a_formula_prefix(name, safe):
    assert csv_safe(name) == safe
