"""The Hydra is the third deck of the challenge engine: its rules module is bot/domain/challenge/hydra.py,
the Hydra's package only re-exports it, and every deck's game is set up the same way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.domain.challenge as challenge_package
from bot.domain import hydra as hydra_package
from bot.domain.challenge import actions, core, games, hydra, hydra_cards, verbs
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.players import Seat
from bot.domain.hydra import actions as old_actions
from bot.domain.hydra import cards as old_cards
from bot.domain.hydra import engine as old_engine
from bot.domain.hydra import errors as old_errors


def test_the_challenge_engine_imports_nothing_from_the_hydras_package() -> None:
    """The Hydra's package imports the engine to re-export it: an import back would be a cycle."""
    for path in sorted(Path(challenge_package.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else ([alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            )
            assert not [n for n in names if n.startswith("bot.domain.hydra")], (path.name, names)


def test_the_hydras_old_names_are_the_engines_own_objects() -> None:
    assert hydra_package.HydraGame is old_engine.HydraGame is hydra.HydraGame
    assert old_engine.GameSetup is hydra.GameSetup and old_engine.TOKEN_ID == -1
    assert old_cards.CARDS is hydra_cards.CARDS and old_cards.HEROES is hydra_cards.HEROES
    assert old_actions.parse_action is actions.parse_action and old_errors.HydraError is core.HydraError
    assert issubclass(hydra.HydraGame, verbs.DeckGame) and issubclass(games.HordeGame, verbs.DeckGame)


def test_the_hydra_is_set_up_by_its_rules_module_like_every_deck() -> None:
    assert games.GAME_TYPES["hydra"] == hydra.HydraGame.from_seats
    game = games.new_game("hydra", [Seat("Ann", ("The Slayer",)), Seat("Bo")], seed=4, difficulty=2, rules=1)
    assert isinstance(game, hydra.HydraGame)
    assert (game.setup.heads, game.setup.seed, game.setup.rules, game.setup.stable_ids) == (2, 4, 1, True)
    assert [(p.name, p.heroes, p.life) for p in game.players] == [
        ("Ann", ("The Slayer",), 27),
        ("Bo", (), 20),
    ]
    assert game.setup.all_windows is False
    other = hydra.HydraGame.from_seats(
        [Seat("Cy")], 9, 5, all_windows=True, stable_ids=False, rules=2, life_per_player=False
    )
    assert other.setup == hydra.GameSetup(
        heads=5, players=(hydra.PlayerSetup("Cy", ()),), seed=9, all_windows=True, stable_ids=False, rules=2
    )
    with pytest.raises(ChallengeError) as refused:
        games.new_game("hydra", [Seat("Ann")], seed=1, life_per_player=True)
    assert refused.value.key == "challenge.error.house_rule_hydra"
