"""Numbers in the action language are fixed for the life of a game, for every deck.

Before, "destroy 1" then "destroy 1" in a script hit two different heads (positions shift when a
head leaves); now a head or permanent keeps its number while it stays on the battlefield, new ones
get the next number, and a number that left is refused by name. Tables saved before migration 0016
keep their old numbering, so their stored logs still replay to the same game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.cli import main
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import THRONG, XENAGOS, GodGame
from bot.domain.challenge.randomloop import play_random
from bot.domain.challenge.randomplay import new_random_game, random_action, random_answer
from bot.domain.hydra import HydraGame
from bot.domain.hydra.randomplay import play_random_game as play_random_hydra
from bot.services.challenge import ChallengeService
from bot.services.hydra import HydraService
from bot.storage.db import Database

from .helpers import rig


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *args: str
) -> tuple[int, dict, str]:
    path = tmp_path / "script.txt"
    path.write_text(text, encoding="utf-8")
    status = main([*args, "--script", str(path), "--json"])
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if captured.out else {}, captured.err


def test_a_hydra_script_names_the_same_head_after_another_one_died(tmp_path, capsys) -> None:
    # 3 heads; destroying head 1 then head 3 leaves head 2 — by position, "destroy 3" would fail
    status, data, err = _script(
        tmp_path, capsys, "destroy 1\ndestroy 3\n", "hydra", "play", "--heads", "3", "--seed", "7"
    )
    assert status == 0, err
    game = HydraGame.new(3, 1, seed=7)
    survivor = game.battlefield[1]  # head 2
    game.apply("destroy 1")
    game.play_until_players()
    game.apply("destroy 3")
    assert survivor in game.battlefield and game.number_of(survivor) == 2
    assert data["actions"][:1] == ["destroy 1"] and "destroy 3" in data["actions"]
    assert data["heads_severed"] == game.heads_severed == 2


def test_a_number_that_left_is_refused_and_new_heads_get_new_numbers() -> None:
    game = HydraGame.new(2, 1, seed=1)
    game.apply("destroy 1")
    game.play_until_players()
    with pytest.raises(ChallengeError, match="no_such_head_id") as refused:
        game.apply("tap 1")
    assert refused.value.values["head"] == 1 and 1 not in refused.value.values["heads"]
    assert min(game.battlefield_numbers()) >= 2 and all(n != 1 for n in game.battlefield_numbers())


def test_god_script_numbers_stay_with_their_permanents(tmp_path, capsys) -> None:
    # Xenagos is 1, the Throngs 2 and 3: killing Throng 2 leaves Throng 3 numbered 3
    status, data, err = _script(
        tmp_path, capsys, "destroy 2\ndamage 3 9\n", "challenge", "play", "--deck", "god", "--seed", "3"
    )
    assert status == 0, err
    assert [p["name"] for p in data["permanents"]][:1] == [XENAGOS]
    assert THRONG not in [p["name"] for p in data["permanents"][:1]]


def test_a_board_keeps_its_numbers_as_permanents_come_and_go() -> None:
    game = rig(GodGame([Seat("A")], 1), battlefield=[XENAGOS, THRONG, THRONG])
    game.apply("destroy 2")
    assert game.board_lines()[1].startswith("3. Rollicking Throng")
    with pytest.raises(ChallengeError, match="no_such_permanent_id"):
        game.apply("tap 2")


@pytest.mark.parametrize("deck", ["horde", "god", "hydra"])
def test_in_random_games_a_number_never_moves_to_another_permanent(deck: str) -> None:
    """Property over many random games: once a number names a permanent, it names that permanent (and
    no other) until it leaves, and is never given again."""
    for seed in range(40):
        seen: dict[int, object] = {}

        def check(game, seen=seen, seed=seed) -> None:
            for permanent in game.battlefield:
                number = game.number_of(permanent)
                assert seen.setdefault(number, permanent) is permanent, f"{deck} {seed}: {number} reused"
            assert len(set(game.battlefield_numbers())) == len(game.battlefield)

        if deck == "hydra":
            play_random_hydra(seed, after_step=check)
        else:
            rng = random.Random(seed)
            play_random(
                new_random_game(deck, seed, rng),
                rng,
                label=deck,
                action=random_action,
                answer=random_answer,
                window_chance=0.1,
                max_turns=60,
                on_too_long=lambda g: g.apply("concede"),
                after_step=check,
            )


async def test_tables_saved_before_stable_numbers_replay_by_position(db: Database) -> None:
    """Migration 0016 marks existing tables stable_ids = 0: their logs were written with positions."""
    hydra = HydraService(db)
    table = await hydra.create(guild_id=1, channel_id=10, user_id=100, name="Ann", heads=3, seed=4)
    await hydra.start(table.game_id, 100)
    await db.execute(
        "UPDATE challenge_tables SET stable_ids = 0 WHERE kind = 'hydra' AND game_id = ?", (table.game_id,)
    )
    hydra = HydraService(db)  # as after a restart: the table is read again
    await hydra.act(table.game_id, 100, "destroy 1")
    await hydra.act(table.game_id, 100, "destroy 1")  # by position: the next head
    legacy = (await hydra.load(table.game_id)).game
    assert legacy is not None and legacy.heads_severed == 2
    new = await hydra.create(guild_id=1, channel_id=11, user_id=100, name="Ann", heads=3, seed=4)
    await hydra.start(new.game_id, 100)
    await hydra.act(new.game_id, 100, "destroy 1")
    with pytest.raises(ChallengeError, match="no_such_head_id"):
        await hydra.act(new.game_id, 100, "destroy 1")

    challenge = ChallengeService(db)
    god = await challenge.create(
        guild_id=1, channel_id=12, user_id=100, name="Ann", deck="god", difficulty=2, seed=4
    )
    await challenge.start(god.game_id, 100)
    await db.execute(
        "UPDATE challenge_tables SET stable_ids = 0 WHERE kind = 'challenge' AND game_id = ?", (god.game_id,)
    )
    challenge = ChallengeService(db)
    await challenge.act(god.game_id, 100, "destroy 2")
    table_after = (await challenge.act(god.game_id, 100, "destroy 2")).table  # by position: the second Throng
    assert table_after.game is not None and [p.name for p in table_after.game.battlefield] == [XENAGOS]
