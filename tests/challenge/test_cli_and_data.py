"""`podkeeper challenge play`, the exact card data, the messages, and random play of the Horde and the God."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest

from bot.cli import main
from bot.domain.challenge import god_cards, horde_cards
from bot.domain.challenge.creatures import Seat, replay
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.invariants import check_invariants
from bot.domain.challenge.randomplay import DECKS, play_random_game
from bot.i18n import LANGUAGES, t
from bot.render.challenge import board_text, decision_text

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("deck, module", [("horde", horde_cards), ("god", god_cards)])
def test_card_texts_are_the_stored_exact_texts(deck: str, module) -> None:
    stored = json.loads((DATA / f"challenge_{deck}_cards.json").read_text(encoding="utf-8"))
    assert list(module.CARD_ROWS) == stored
    assert sum(row["count_in_deck"] for row in stored) == 60 and len(stored) == 15


def test_the_god_card_data_says_what_the_engine_does() -> None:
    texts = {row["name"]: row["oracle_text"] for row in god_cards.CARD_ROWS}
    assert (
        "can't leave the battlefield as long as a Reveler is on the battlefield" in texts["Xenagos Ascended"]
    )
    assert texts["Xenagos's Strike"] == "Xenagos's Strike deals 4 damage to each player."
    horde = {row["name"]: row["oracle_text"] for row in horde_cards.CARD_ROWS}
    assert horde["Refreshing Elixir"].endswith("each player gains 5 life.")
    assert horde["Massacre Totem"].startswith("At the beginning of the Horde's first main phase")


def _play(tmp_path: Path, capsys, script: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    status = main(["challenge", "play", "--script", str(path), *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_challenge_play_horde_with_a_script_and_json(tmp_path: Path, capsys) -> None:
    status, out, _ = _play(
        tmp_path,
        capsys,
        "hit 5\nend\nend\nend\nat blocks\nchoose 1\n",
        "--deck",
        "horde",
        "--seed",
        "3",
        "--json",
    )
    data = json.loads(out)
    assert (
        status == 0
        and data["deck"] == "horde"
        and data["library_count"] + len(data["graveyard"]) + len(data["permanents"]) + len(data["resolving"])
        == 60
    )
    assert "The Horde would lose 5 life: that many cards of its library go to its graveyard." in data["log"]
    copy = replay(HordeGame, [Seat("Player 1")], 3, 3, data["actions"])
    assert copy.life == data["life"]


def test_challenge_play_refuses_a_second_horde_player_and_plays_the_god_for_two(tmp_path, capsys) -> None:
    status, _, err = _play(tmp_path, capsys, "", "--deck", "horde", "--players", "2")
    assert status == 2 and "1 to 1 player" in err
    status, out, _ = _play(
        tmp_path, capsys, "end\n", "--deck", "god", "--players", "2", "--seed", "4", "--json"
    )
    data = json.loads(out)
    assert [p["name"] for p in data["permanents"][:4]] == ["Xenagos Ascended"] + ["Rollicking Throng"] * 3


@pytest.mark.parametrize("players", ["0", "5", "100000000", "9" * 40])
def test_a_player_count_beyond_the_decks_is_refused_before_any_seat_is_made(
    tmp_path, capsys, players
) -> None:
    """``--players 100000000`` made a hundred million seats before the count was checked (it hung)."""
    status, out, err = _play(tmp_path, capsys, "", "--deck", "god", "--players", players, "--language", "ja")
    assert status == 2 and out == ""
    assert err.strip() == "podkeeper challenge: " + t("challenge.error.players_range", "ja", max=4)


def test_challenge_play_hydra_is_hydra_play(tmp_path: Path, capsys) -> None:
    _, out, _ = _play(
        tmp_path, capsys, "attack 1 3\n", "--deck", "hydra", "--difficulty", "2", "--seed", "5", "--json"
    )
    assert json.loads(out)["starting_heads"] == 2 and json.loads(out)["heads_severed"] == 1
    assert (
        main(
            [
                "hydra",
                "play",
                "--heads",
                "2",
                "--seed",
                "5",
                "--json",
                "--script",
                str(tmp_path / "script.txt"),
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out) == json.loads(out)


def test_interactive_god_hides_the_seed_unless_asked(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("end\n\n\n\nquit\n"))
    assert main(["challenge", "play", "--deck", "god", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "seed" not in out and "Turn 2: Xenagos's turn." in out


def test_every_message_exists_in_every_language() -> None:
    for deck in DECKS:
        for seed in range(30):
            game = play_random_game(deck, seed)
            for event in game.events:
                for language in LANGUAGES:
                    assert t(event.key, language, **event.values)
            for language in LANGUAGES:
                assert board_text(game, language)
    game = GodGame([Seat("a"), Seat("b")], seed=1)
    game.apply("end")
    answers = {
        "en": "pass / counter",
        "ja": "解決させる／打ち消す",
        "zh-Hans": "让它结算／反击它",
        "zh-Hant": "讓它結算／反擊它",
    }
    for language in LANGUAGES:  # the prompt names the answers as the buttons do (English: the script words)
        assert answers[language] in decision_text(game, game.pending, language)


def test_random_games_end_and_keep_the_invariants(full_run: bool) -> None:
    games = 10_000 if full_run else 150
    for deck in DECKS:
        outcomes: Counter[str] = Counter()
        for seed in range(games):
            outcomes[play_random_game(deck, seed, after_step=check_invariants).outcome] += 1
        assert outcomes["won"] > 0 and outcomes["lost"] > 0, (deck, outcomes)


def test_random_games_replay_to_the_same_state() -> None:
    for deck, game_type in DECKS.items():
        for seed in range(10):
            game = play_random_game(deck, seed)
            copy = replay(
                game_type, game.seats, game.seed, game.difficulty, game.actions, all_windows=game.all_windows
            )
            assert copy.snapshot() == game.snapshot() and copy.events == game.events


def test_the_invariants_catch_a_broken_game() -> None:
    game = HordeGame([Seat("a")], seed=1)
    game.life += 1  # life from nowhere
    with pytest.raises(AssertionError, match="life from nowhere"):
        check_invariants(game)
    game = GodGame([Seat("a")], seed=1)
    game.graveyard.append(game.library.pop())
    game.library.append(game.graveyard[-1])  # one card in two zones
    with pytest.raises(AssertionError, match="accounted"):
        check_invariants(game)
