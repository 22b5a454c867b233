"""`podkeeper hydra play`: scripts, --json, defaults for unanswered choices, errors, interactive play."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.domain.hydra import HydraGame, replay


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./config.toml: defaults


def play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str, *extra: str
) -> tuple[int, str, str]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    status = main(["hydra", "play", "--script", str(path), *extra])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_script_to_a_win_with_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # seed 5: the first head's reveal shows two sorceries; the Hydra then casts Swallow, countered.
    status, out, _ = play(
        tmp_path,
        capsys,
        "attack 1 3\nend\nchoose counter\n# comment\n\nattack 2 3\nend\n",
        "--heads",
        "2",
        "--seed",
        "5",
        "--json",
    )
    assert status == 0
    data = json.loads(out)
    assert {"turn", "outcome", "players", "heads", "library_count", "graveyard", "log"} <= set(data)
    assert data["outcome"] == "won" and data["heads"] == [] and data["turn"] == 3
    assert data["players"] == [{"name": "Player 1", "life": 23, "lost": False, "heroes": []}]
    assert data["library_count"] + len(data["graveyard"]) == 60
    assert "The players counter Swallow the Hero Whole; it goes to the Hydra's graveyard." in data["log"]
    assert data["log"][-1] == "No heads at the end of the turn: the players win!"
    # the saved actions replay to the same state; the unanswered window was recorded with its default
    assert data["actions"] == ["attack 1 3", "end", "choose counter", "choose pass", "attack 2 3", "end"]
    game = replay(HydraGame.new(2, 1, seed=5).setup, data["actions"])
    assert game.outcome == "won"


def test_unanswered_choices_take_their_documented_defaults(tmp_path: Path, capsys) -> None:
    _, out, err = play(tmp_path, capsys, "end\n", "--heads", "3", "--seed", "1", "--json", "--players", "2")
    data = json.loads(out)
    assert data["outcome"] == "ongoing" and data["pending"] is None
    assert "ended before the game" in err
    assert [p["life"] for p in data["players"]] == [p["life"] for p in data["players"]][:1] * 2
    game = HydraGame.new(3, 2, seed=1)
    game.apply("end")
    game.play_until_players()
    assert game.snapshot()["players"] == data["players"]


def test_heroes_and_players(tmp_path: Path, capsys) -> None:
    _, out, _ = play(
        tmp_path, capsys, "", "--heads", "4", "--players", "3", "--hero", "2:the slayer", "--json"
    )
    lives = [p["life"] for p in json.loads(out)["players"]]
    assert lives == [20, 27, 20]


def test_a_bad_script_line_is_reported_with_its_number(tmp_path: Path, capsys) -> None:
    status, out, err = play(tmp_path, capsys, "attack 1 2\ndestroy 9\n", "--heads", "2", "--seed", "3")
    assert status == 1 and out == ""
    assert "Script line 2: There is no head 9 on the battlefield; its heads are 1, 2." in err


def test_bad_options_are_refused_in_the_chosen_language(tmp_path: Path, capsys) -> None:
    assert main(["hydra", "play", "--heads", "0", "--script", "x"]) == 2
    assert "between 1 and 11" in capsys.readouterr().err
    assert main(["hydra", "play", "--heads", "2", "--players", "5", "--language", "ja", "--script", "x"]) == 2
    assert "1～4人" in capsys.readouterr().err
    assert main(["hydra", "play", "--heads", "2", "--hero", "1:The Nobody", "--script", "x"]) == 2


def test_undo_in_a_script(tmp_path: Path, capsys) -> None:
    _, out, _ = play(tmp_path, capsys, "damage 1 2\nundo\n", "--heads", "2", "--seed", "3", "--json")
    data = json.loads(out)
    assert data["actions"] == [] and data["heads"][0]["damage"] == 0


def test_interactive_play_reads_commands_and_defaults_on_empty_lines(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("attack 1 3\nend\n\n\n\n\n\n\nquit\n"))
    assert main(["hydra", "play", "--heads", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "seed" not in out.split("\n")[0]  # the seed would tell the library: secret unless asked
    assert "Hydra Head is dealt 3 combat damage." in out and "Turn 3: the players' turn." in out


def test_the_seed_is_printed_only_when_asked(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["hydra", "play", "--heads", "2", "--seed", "5", "--show-seed"]) == 0
    assert capsys.readouterr().out.startswith("seed 5\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["hydra", "play", "--heads", "2"]) == 0
    assert "seed" not in capsys.readouterr().out


def test_a_script_acts_in_the_window_it_names(tmp_path: Path, capsys) -> None:
    # seed 11: Grown from the Stump adds a Ravenous Brute Head. Both Hydra Heads are tapped in the
    # damage-step window: only the Brute's 2 damage (the heads' damage is counted when dealt).
    script = "end\nat prevent\ntap 1\ntap 2\nchoose pass\n"
    _, out, _ = play(tmp_path, capsys, script, "--heads", "2", "--seed", "11", "--json")
    data = json.loads(out)
    assert data["actions"][-3:] == ["tap 1", "tap 2", "choose pass"]
    assert "The heads deal 2 damage to each player." in data["log"] and data["players"][0]["life"] == 18


def test_a_script_can_counter_a_trigger_with_every_window_open(tmp_path: Path, capsys) -> None:
    script = "destroy 1\nat trigger\nchoose pass\nat trigger\nchoose counter\n"  # reward, then grow
    _, out, _ = play(tmp_path, capsys, script, "--heads", "2", "--seed", "3", "--json", "--all-windows")
    data = json.loads(out)
    assert data["players"][0]["life"] == 22 and len(data["heads"]) == 1 and data["library_count"] == 58
    assert "The players counter the triggered ability of Hydra Head." in data["log"]


def test_a_script_naming_a_window_that_never_opens_fails(tmp_path: Path, capsys) -> None:
    status, _, err = play(tmp_path, capsys, "at upkeep\n", "--heads", "2", "--seed", "3")
    assert status == 1 and "upkeep" in err


def test_json_of_a_game_lost_mid_resolution_names_the_card_being_resolved(tmp_path: Path, capsys) -> None:
    seed = next(s for s in range(500) if _top_card(s) == "Unified Lunge")
    script = "life 1 -10\nend\n"
    _, out, _ = play(tmp_path, capsys, script, "--heads", "11", "--seed", str(seed), "--json")
    data = json.loads(out)
    assert data["outcome"] == "lost" and data["resolving"] == ["Unified Lunge"]
    assert data["library_count"] + len(data["graveyard"]) + len(data["heads"]) + len(data["resolving"]) == 60


def _top_card(seed: int) -> str:
    game = HydraGame.new(11, 1, seed=seed)
    return game.name_of(game.library[-1])


def test_heroes_lists_the_hero_cards(capsys) -> None:
    assert main(["hydra", "heroes"]) == 0
    out = capsys.readouterr().out
    assert "The Slayer (THP1): You start the game with an additional 7 life." in out


def test_the_manuals_script_example_plays_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The manual's example script, taken from its page, wins as its comments say (heads keep their
    numbers, so the second attack names head 2), and the JSON shows each head's number."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "players" / "hydra.md").read_text(encoding="utf-8")
    block = page.split("Example — two heads, counter the Hydra's first spell, sever both heads:")[1]
    script = block.split("```")[1]
    command = block.split("$ podkeeper hydra play ")[1].split("\n")[0].split()
    extra = [word for word in command if word not in ("--script", "example.txt")]
    status, out, err = play(tmp_path, capsys, script, *extra, "--json")  # the page shows the text view
    assert (status, err) == (0, "")
    assert json.loads(out)["outcome"] == "won"
    status, out, _ = play(tmp_path, capsys, "attack 1 3\n", "--heads", "2", "--seed", "5", "--json")
    assert [(head["number"], head["name"]) for head in json.loads(out)["heads"]] == [(2, "Hydra Head")]
