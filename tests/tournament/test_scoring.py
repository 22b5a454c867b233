"""Scoring rules: democratic victory (T3), standard and custom; vote validation (T3)."""

from __future__ import annotations

import pytest

from bot.domain.tournament import DEMOCRATIC, STANDARD, TournamentError, scoring_rule
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.scoring import GameResult, score_game, score_games
from bot.domain.tournament.votes import Ballot

FOUR = ("ann", "ben", "cat", "dan")


def game(survivors, votes=None, *, draw=False, eliminations=None, players=FOUR) -> GameResult:
    return checked_game(1, players, survivors, votes or {}, draw=draw, eliminations=eliminations)


def test_t3_two_points_for_surviving_and_one_per_vote():
    result = game({"ann"}, {"ann": "ben", "ben": "cat", "cat": "ben", "dan": "ben"})
    tallies = score_game(result, DEMOCRATIC)
    assert {p: t.points for p, t in tallies.items()} == {"ann": 2, "ben": 3, "cat": 1, "dan": 0}
    assert tallies["ben"].votes == 3 and tallies["ben"].survivals == 0


def test_t3_eliminated_players_still_vote_and_receive_votes():
    result = game({"ann"}, {"dan": "cat"})  # dan was knocked out early yet votes
    assert score_game(result, DEMOCRATIC)["cat"].points == 1


def test_t3_draw_gives_every_player_still_in_the_survival_points():
    result = game({"ann", "ben", "cat"}, draw=True)
    points = {p: t.points for p, t in score_game(result, DEMOCRATIC).items()}
    assert points == {"ann": 2, "ben": 2, "cat": 2, "dan": 0}


def test_standard_win_five_draw_one():
    assert score_game(game({"cat"}), STANDARD)["cat"].points == 5
    assert sum(t.points for t in score_game(game({"cat"}), STANDARD).values()) == 5
    drawn = score_game(game({"ann", "ben"}, draw=True), STANDARD)
    assert (drawn["ann"].points, drawn["ben"].points, drawn["cat"].points) == (1, 1, 0)


def test_standard_ignores_votes():
    assert score_game(game({"cat"}, {"ann": "ben"}), STANDARD)["ben"].points == 0


def test_custom_weighs_every_event():
    rule = scoring_rule("custom", win=4, draw=2, survival=1, vote=3, elimination=2)
    tallies = score_game(game({"ann"}, {"ben": "ann", "cat": "ben"}, eliminations={"ann": 2, "ben": 1}), rule)
    assert tallies["ann"].points == 4 + 1 + 3 + 2 * 2
    assert tallies["ben"].points == 3 + 2
    assert rule.uses_votes and not STANDARD.uses_votes and DEMOCRATIC.uses_votes


def test_unknown_scoring_and_wild_custom_points_are_refused():
    with pytest.raises(TournamentError, match="Unknown scoring rule swiss"):
        scoring_rule("swiss")
    with pytest.raises(TournamentError, match="Points per win"):
        scoring_rule("custom", win=1000)
    with pytest.raises(TournamentError, match="Points for vote, elimination are set only with custom"):
        scoring_rule("democratic", vote=3, elimination=1)


def test_totals_over_games():
    totals = score_games([game({"ann"}, {"ben": "ann"}), game({"ann", "ben"}, draw=True)], DEMOCRATIC)
    assert (totals["ann"].points, totals["ann"].games, totals["ann"].votes) == (5, 2, 1)


def test_totals_add_up_every_count_over_games():
    rule = scoring_rule("custom", win=5, draw=3, survival=2, vote=1, elimination=4)
    games = [
        game({"ann"}, {"ben": "ann", "cat": "ann"}, eliminations={"ann": 2}),  # ann wins
        game({"ann", "ben"}, {"cat": "ann", "dan": "ben"}, draw=True, eliminations={"ann": 1}),
    ]
    totals = score_games(games, rule)
    assert vars(totals["ann"]) == {
        "points": (5 + 2 + 2 * 1 + 2 * 4) + (3 + 2 + 1 + 4),
        "games": 2,
        "survivals": 2,
        "votes": 3,
        "wins": 1,
        "draws": 1,
        "eliminations": 3,
    }
    assert vars(totals["ben"]) == {
        "points": 3 + 2 + 1,
        "games": 2,
        "survivals": 1,
        "votes": 1,
        "wins": 0,
        "draws": 1,
        "eliminations": 0,
    }


@pytest.mark.parametrize("what", ["win", "draw", "survival", "vote", "elimination"])
def test_custom_points_may_reach_the_limit_but_not_pass_it(what):
    for points in (100, -100):
        assert getattr(scoring_rule("custom", **{what: points}), what) == points
    for points in (101, -101):
        with pytest.raises(TournamentError) as refused:
            scoring_rule("custom", **{what: points})
        assert refused.value.key == "tournament.error.points_out_of_range"
        assert refused.value.values == {"what": what, "points": points, "limit": 100}
    with pytest.raises(TournamentError) as refused:
        scoring_rule("standard", **{what: 1})
    assert refused.value.values == {"options": (what,), "name": "standard"}
    assert scoring_rule("democratic") is DEMOCRATIC and scoring_rule("standard") is STANDARD


@pytest.mark.parametrize(
    ("votes", "key"),
    [
        ({"ann": "ann"}, "vote_for_self"),
        ({"ann": "eve"}, "vote_votee_not_at_table"),
        ({"eve": "ann"}, "vote_voter_not_at_table"),
        ({"ann": "zed"}, "vote_unknown_player"),
    ],
)
def test_t3_invalid_votes_name_the_game_and_vote(votes, key):
    with pytest.raises(TournamentError) as caught:
        checked_game(7, FOUR, {"ann"}, votes, known=[*FOUR, "eve"])
    assert caught.value.key == f"tournament.error.{key}"
    voter, votee = next(iter(votes.items()))
    assert "Game 7" in str(caught.value) and f"{voter} → {votee}" in str(caught.value)


def test_error_is_localised():
    with pytest.raises(TournamentError) as caught:
        checked_game(3, FOUR, set(), {"ann": "ann"})
    assert "自分自身" in caught.value.localized("ja")
    assert "不能投給自己" in caught.value.localized("zh-Hant")


def test_survivor_must_have_played_and_nobody_sits_twice():
    with pytest.raises(TournamentError, match="survivor eve"):
        checked_game(1, FOUR, {"eve"})
    with pytest.raises(TournamentError, match="listed twice"):
        checked_game(1, ("ann", "ann", "ben"), set())


def test_ballot_one_vote_each_changeable_until_closed():
    ballot = Ballot(5, FOUR)
    ballot.cast("ann", "ben")
    ballot.cast("ann", "cat")  # a change, not a second vote
    assert ballot.votes == {"ann": "cat"} and ballot.cast_count == 1
    for voter, votee in (("ben", "cat"), ("cat", "dan")):
        ballot.cast(voter, votee)
    assert not ballot.everyone_voted
    ballot.cast("dan", "ann")
    assert ballot.everyone_voted
    assert ballot.received() == {"ann": 1, "ben": 0, "cat": 2, "dan": 1}
    ballot.closed = True
    with pytest.raises(TournamentError, match="has closed"):
        ballot.cast("ann", "ben")
    assert ballot.votes["ann"] == "cat"


def test_ballot_refuses_self_vote_and_keeps_previous_vote():
    ballot = Ballot(5, FOUR)
    ballot.cast("ann", "ben")
    with pytest.raises(TournamentError, match="you cannot vote for yourself"):
        ballot.cast("ann", "ann")
    assert ballot.votes == {"ann": "ben"}


def test_a_checked_game_keeps_everything_it_was_given():
    result = checked_game(
        4, ["ann", "ben", "cat"], ["ben"], {"ann": "ben"}, eliminations={"ben": 2}, stopped=True
    )
    assert (result.players, result.survivors, result.votes) == (
        ("ann", "ben", "cat"),
        frozenset({"ben"}),
        {"ann": "ben"},
    )
    assert result.eliminations == {"ben": 2} and result.stopped and not result.draw
    assert result.winner is None and not result.is_draw  # stopped early: nobody won, and it is not a draw
    plain = checked_game(5, ["ann", "ben"], ["ann"])
    assert plain.votes == {} and plain.eliminations == {} and not plain.stopped and plain.winner == "ann"
    with pytest.raises(TournamentError) as twice:
        checked_game(8, ("ann", "ben", "ann"), set())
    assert twice.value.values == {"game": 8, "player": "ann"}
    with pytest.raises(TournamentError) as absent:
        checked_game(9, FOUR, {"ann", "eve"})
    assert absent.value.values == {"game": 9, "player": "eve"}


def test_vote_refusals_name_the_game_and_whom():
    ballot = Ballot(5, FOUR)
    with pytest.raises(TournamentError) as outsider:
        ballot.cast("ann", "eve")
    assert (
        outsider.value.values["game"] == 5
        and outsider.value.key == "tournament.error.vote_votee_not_at_table"
    )
    ballot.closed = True
    with pytest.raises(TournamentError) as closed:
        ballot.cast("ann", "ben")
    assert (closed.value.key, closed.value.values) == ("tournament.error.vote_closed", {"game": 5})
    with pytest.raises(TournamentError) as unknown:
        checked_game(7, FOUR, {"ann"}, {"ann": "zed"}, known=[*FOUR])
    assert unknown.value.values["player"] == "zed"
    with pytest.raises(TournamentError) as swiss:
        scoring_rule("swiss")
    assert swiss.value.values == {"name": "swiss", "names": ("democratic", "standard", "custom")}
