"""Hero cards against the Horde and the God (Discord lobby, service, CLI) and the God's multiplayer
life: the printed shared 20 by default, said plainly at the table, and a clearly labelled house rule of
20 per player (CHALLENGE_DECKS.md §5; the Wizards multiplayer article of 2014-05-23)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.render.challenge import board_text
from bot.services.challenge import ChallengeService
from bot.storage.db import Database
from bot.testing import DiscordHarness


# ------------------------------------------------------------------ the domain
def test_the_printed_shared_life_is_20_for_any_number_of_players_and_said_on_the_board() -> None:
    game = GodGame([Seat(f"P{i}") for i in range(4)], seed=1)
    assert game.life == 20
    assert (
        "Printed rule: the 4 players share one life total of 20; damage to “each player” counts once per "
        "player."
    ) in board_text(game)
    assert "Printed rule" not in board_text(GodGame([Seat("P1")], seed=1))  # alone, there is nothing to share


def test_the_house_rule_gives_20_shared_life_per_player_and_says_it_is_not_printed() -> None:
    game = GodGame([Seat(f"P{i}") for i in range(4)], seed=1, life_per_player=True)
    assert game.life == 80
    assert game.events[1].key == "challenge.log.house_rule_life" and game.events[1].values == {
        "life": 80,
        "players": 4,
    }
    assert "House rule (not printed): the 4 players share 80 life, 20 per player" in board_text(game)
    game.apply("end")
    game.play_until_players()
    assert game.rebuild(game.actions).life == game.life  # an undo's replay keeps the house rule
    with pytest.raises(ChallengeError) as caught:
        HordeGame([Seat("P1")], seed=1, life_per_player=True)
    assert caught.value.key == "challenge.error.house_rule_multiplayer"


def test_each_slayer_adds_7_to_the_shared_life() -> None:
    game = GodGame([Seat("P1", ("The Slayer",)), Seat("P2", ("The Slayer", "The Hunter"))], seed=1)
    assert game.life == 34


# ------------------------------------------------------------------ the service
@pytest.fixture
async def service(db: Database) -> ChallengeService:
    return ChallengeService(db)


async def test_heroes_chosen_in_the_lobby_are_stored_checked_and_played(service: ChallengeService) -> None:
    table = await service.create(guild_id=1, channel_id=2, user_id=10, name="Ann", deck="god", difficulty=2)
    await service.join(table.game_id, 11, "Bob")
    table = await service.set_heroes(table.game_id, 10, ["the slayer", "The Hunter"])
    assert table.heroes_of(10) == ("The Slayer", "The Hunter") and table.heroes_of(11) == ()
    for names, key in (
        (["The Slayer", "The Slayer"], "challenge.error.heroes"),
        (["The Slayer", "The Hunter", "The Warrior", "The General"], "challenge.error.heroes"),
        (["The Nobody"], "hydra.error.unknown_hero"),
    ):
        with pytest.raises(ChallengeError) as caught:
            await service.set_heroes(table.game_id, 11, names)
        assert caught.value.key == key
    with pytest.raises(ChallengeError, match="not_a_challenger"):
        await service.set_heroes(table.game_id, 99, ["The Slayer"])
    table = await service.start(table.game_id, 10)
    assert table.game.life == 27 and table.game.seats[0].heroes == ("The Slayer", "The Hunter")
    with pytest.raises(ChallengeError, match="not_in_lobby"):
        await service.set_heroes(table.game_id, 10, [])
    fresh = await ChallengeService(service.repo.db).load(table.game_id)  # a restart
    assert fresh.game.life == 27


async def test_the_house_rule_is_part_of_the_stored_set_up(service: ChallengeService) -> None:
    table = await service.create(
        guild_id=1, channel_id=2, user_id=10, name="Ann", deck="god", difficulty=2, life_per_player=True
    )
    await service.join(table.game_id, 11, "Bob")
    table = await service.start(table.game_id, 10)
    assert table.game.life == 40 and table.row.life_per_player == 1
    with pytest.raises(ChallengeError, match="house_rule_multiplayer"):
        await service.create(
            guild_id=1, channel_id=2, user_id=10, name="Ann", deck="horde", difficulty=3, life_per_player=True
        )


# ------------------------------------------------------------------ Discord
async def test_heroes_are_picked_at_the_lobby_and_the_god_table_says_its_life_rule(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob")) as h:
        h.bot.get_cog("Challenge").fixed_seed = 4
        lobby = await h.slash("challenge start", deck="god", window=0)
        assert "Printed rule: all players share one life total of 20" in lobby.embed["description"]
        await h.click(lobby, label="Join", user="bob")
        await h.select(lobby.message, "chal-heroes:1", ["The Slayer", "The Protector"], user="alice")
        fields = {f["name"]: f["value"] for f in lobby.message.embeds[0]["fields"]}
        assert fields == {"alice": "The Slayer, The Protector", "bob": "no Hero card"}
        await h.click(lobby, label="Start", user="bob")
        board = lobby.message.embeds[0]["description"]
        assert "The players: 27 life" in board and "Printed rule: the 2 players share one life total" in board


async def test_a_house_rule_god_table_is_labelled_so_from_the_lobby(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice",), locale="ja") as h:
        lobby = await h.slash("challenge start", deck="god", window=0, house_rule=True)
        assert "ハウスルール（印刷されたルールではありません）" in lobby.embed["description"]
        refused = await h.slash("challenge start", deck="horde", window=0, house_rule=True)
        assert refused.ephemeral and "大群は1人用の挑戦です" in refused.content


# ------------------------------------------------------------------ the CLI
def _cli(*args: str, script: str, tmp_path) -> dict:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "challenge", "play", *args, "--script", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_cli_plays_heroes_and_the_house_rule_and_shows_the_numbers_scripts_name(tmp_path) -> None:
    horde = _cli(
        "--deck", "horde", "--seed", "3", "--hero", "1:The Slayer", script="hit 1\n", tmp_path=tmp_path
    )
    assert horde["life"] == 27
    god = _cli("--deck", "god", "--seed", "3", "--players", "3", "--house-life", script="", tmp_path=tmp_path)
    assert god["life"] == 60 and god["house_rule_life"] is True
    assert [p["number"] for p in god["permanents"]] == [1, 2, 3, 4, 5]
    hydra = _cli(
        "--deck", "hydra", "--seed", "5", "--difficulty", "2", script="attack 1 3\n", tmp_path=tmp_path
    )
    assert [h["number"] for h in hydra["heads"]] == [2]  # head 1 died: its number went with it
