"""``podkeeper tournament score``: the documented JSON in and out, errors and exit status."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GAMES = [
    {
        "players": ["alice", "bob", "carol", "dave"],
        "survivors": ["alice"],
        "votes": {"alice": "bob", "bob": "carol", "carol": "bob", "dave": "bob"},
    },
    {"players": ["alice", "bob", "erin"], "survivors": ["bob", "erin"], "votes": {"alice": "erin"}},
]


def run(tmp_path, capsys, games, *options):
    path = tmp_path / "games.json"
    path.write_text(games if isinstance(games, str) else json.dumps(games), encoding="utf-8")
    status = main(["tournament", "score", str(path), *options])
    out, err = capsys.readouterr()
    return status, out, err


def test_democratic_json_sorted_by_points_then_name(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, GAMES, "--json")
    assert status == 0
    assert json.loads(out) == {
        "standings": [
            {"player": "bob", "points": 5, "survivals": 1, "votes": 3},
            {"player": "erin", "points": 3, "survivals": 1, "votes": 1},
            {"player": "alice", "points": 2, "survivals": 1, "votes": 0},
            {"player": "carol", "points": 1, "survivals": 0, "votes": 1},
            {"player": "dave", "points": 0, "survivals": 0, "votes": 0},
        ]
    }


def test_standard_and_custom_scoring(tmp_path, capsys):
    _, out, _ = run(tmp_path, capsys, GAMES, "--json", "--scoring", "standard")
    points = {row["player"]: row["points"] for row in json.loads(out)["standings"]}
    assert points == {"alice": 5, "bob": 1, "erin": 1, "carol": 0, "dave": 0}
    _, out, _ = run(
        tmp_path, capsys, GAMES, "--json", "--scoring", "custom", "--vote", "2", "--survival", "1"
    )
    points = {row["player"]: row["points"] for row in json.loads(out)["standings"]}
    assert points == {"bob": 7, "erin": 3, "alice": 1, "carol": 2, "dave": 0}


def test_ties_in_points_sorted_by_name(tmp_path, capsys):
    games = [{"players": ["zoe", "amy"], "survivors": ["zoe", "amy"], "votes": {}}]
    _, out, _ = run(tmp_path, capsys, games, "--json")
    assert [row["player"] for row in json.loads(out)["standings"]] == ["amy", "zoe"]


def test_table_output(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, GAMES)
    assert status == 0 and out.splitlines()[1].split() == ["bob", "5", "1", "3"]


@pytest.mark.parametrize(
    ("votes", "needle"),
    [
        ({"alice": "alice"}, "Game 2, vote alice → alice: you cannot vote for yourself"),
        ({"alice": "carol"}, "Game 2, vote alice → carol: carol did not play at that table"),
        ({"dave": "bob"}, "Game 2, vote dave → bob: dave did not play at that table"),
        ({"alice": "mallory"}, "Game 2, vote alice → mallory: mallory is not a player"),
    ],
)
def test_invalid_votes_rejected_naming_game_and_vote(tmp_path, capsys, votes, needle):
    games = [GAMES[0], {**GAMES[1], "votes": votes}]
    status, out, err = run(tmp_path, capsys, games, "--json")
    assert status == 1 and out == ""
    assert needle in err


def test_two_votes_by_one_voter_rejected(tmp_path, capsys):
    text = '[{"players": ["a", "b", "c"], "survivors": [], "votes": {"a": "b", "a": "c"}}]'
    status, _, err = run(tmp_path, capsys, text)
    assert status == 2 and "'a' appears twice" in err


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("not json", "not valid JSON"),
        ('{"players": []}', "expected a JSON list"),
        ('[{"players": "ab", "survivors": []}]', "game 1: players must be a list"),
        ('[{"players": ["a"], "survivor": []}]', "unknown key(s) survivor"),
    ],
)
def test_unreadable_input_exit_2(tmp_path, capsys, text, needle):
    status, _, err = run(tmp_path, capsys, text)
    assert status == 2 and needle in err


def test_missing_file(tmp_path, capsys):
    assert main(["tournament", "score", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_point_options_need_custom_scoring(tmp_path, capsys):
    status, out, err = run(tmp_path, capsys, GAMES, "--win", "3")
    assert status == 2 and out == "" and "Points for win are set only with custom scoring" in err
