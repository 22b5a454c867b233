"""The Hydra's random-game driver (bot/domain/hydra/randomplay.py): which line each roll of the dice gives,
that every legal value of each line turns up (and nothing else), and that a seed replays to the same game.

``Rolls`` is a ``random.Random`` whose ``random()`` returns a fixed roll, so a branch of the driver is picked
on purpose (exactly at its boundary too); its other draws (``randint``, ``choice``, ``sample``) stay random."""

from __future__ import annotations

import hashlib
import random
import re

import pytest

from bot.domain.challenge.core import Decision
from bot.domain.hydra import HydraGame, randomplay
from bot.domain.hydra import cards as C
from bot.domain.hydra.engine import GameSetup, PlayerSetup
from bot.domain.hydra.randomplay import (
    _damage_check,
    _too_long,
    play_random_game,
    random_answer,
    random_player_action,
)
from tests.hydra.hydra_helpers import new_game

DRAWS = 400


class Rolls(random.Random):
    def __init__(self, roll: float, seed: int = 0) -> None:
        super().__init__(seed)
        self.roll = roll

    def random(self) -> float:
        return self.roll

    def getrandbits(self, k: int) -> int:  # defined, so randint / choice / sample keep drawing from it
        return super().getrandbits(k)


def lines(game: HydraGame, roll: float, *, instant: bool = False) -> set[str]:
    rng = Rolls(roll)
    return {random_player_action(game, rng, instant) for _ in range(DRAWS)}


def game_with_three_heads() -> HydraGame:
    game = new_game(heads=3, players=2)
    assert game.battlefield_numbers() == [1, 2, 3]
    return game


def words(found: set[str], at: int) -> set[str]:
    return {line.split()[at] for line in found}


def test_attack_with_one_to_three_random_attackers() -> None:
    found = lines(game_with_three_heads(), 0.0)
    assert words(found, 0) == {"attack"}
    assert {len(line.split()) for line in found} == {3, 5, 7}
    numbers = [line.split()[1:] for line in found]
    assert {head for pairs in numbers for head in pairs[0::2]} == {"1", "2", "3"}
    assert {power for pairs in numbers for power in pairs[1::2]} == {str(n) for n in range(7)}
    assert {line.split()[0] for line in lines(game_with_three_heads(), 0.449)} == {"attack"}


@pytest.mark.parametrize(("roll", "instant"), [(0.0, True), (0.45, False), (0.5, False), (0.599, False)])
def test_damage_to_a_head(roll: float, instant: bool) -> None:
    """Attacks only at sorcery speed: in a window the same roll deals damage instead."""
    found = lines(game_with_three_heads(), roll, instant=instant)
    assert found == {f"damage {head} {amount}" for head in (1, 2, 3) for amount in range(1, 5)}


@pytest.mark.parametrize("roll", [0.6, 0.619])
def test_a_head_removal_verb_on_some_heads(roll: float) -> None:
    found = lines(game_with_three_heads(), roll)
    assert words(found, 0) == {"destroy", "exile", "bounce", "tap", "sacrifice", "freeze"}
    assert {" ".join(line.split()[1:]) for line in found} == {
        "1",
        "2",
        "3",
        "1 2",
        "2 1",
        "1 3",
        "3 1",
        "2 3",
        "3 2",
        "1 2 3",
        "1 3 2",
        "2 1 3",
        "2 3 1",
        "3 1 2",
        "3 2 1",
    }


@pytest.mark.parametrize("roll", [0.62, 0.639])
def test_life_loss_to_a_head(roll: float) -> None:
    found = lines(game_with_three_heads(), roll)
    assert found == {f"loselife {head} {amount}" for head in (1, 2, 3) for amount in (1, 2, 3)}


@pytest.mark.parametrize("roll", [0.64, 0.659])
def test_sweep_weaken_or_counters(roll: float) -> None:
    found = lines(game_with_three_heads(), roll)
    assert words(found, 0) == {"sweep", "weaken", "counters"}
    amounts = {
        verb: {int(line.split()[1]) for line in found if line.startswith(verb)}
        for verb in ("sweep", "weaken", "counters")
    }
    assert amounts == {"sweep": {0, 1, 2, 3}, "weaken": {0, 1, 2, 3}, "counters": {-2, -1, 0, 1, 2}}
    assert {len(line.split()) for line in found} == {3, 4, 5}


@pytest.mark.parametrize("roll", [0.66, 0.6649])
def test_copy_a_head(roll: float) -> None:
    assert lines(game_with_three_heads(), roll) == {"copy 1", "copy 2", "copy 3"}


SOURCES = ("", " from heads", " from Unified Lunge", " from Snapping Fang Head")


@pytest.mark.parametrize("roll", [0.665, 0.6749])
def test_prevent_for_a_living_player_or_all(roll: float) -> None:
    game = game_with_three_heads()
    assert lines(game, roll) == {
        f"prevent {amount} {seat}{source}"
        for amount in range(1, 5)
        for seat in ("all", "1", "2")
        for source in SOURCES
    }
    game.players[0].lost = True
    assert words(lines(game, roll), 2) == {"all", "2"}


def test_without_heads_only_the_lines_that_name_none() -> None:
    game = new_game(heads=1, players=2)
    game.apply("exile 1")
    assert game.battlefield_numbers() == []
    assert words(lines(game, 0.0), 0) == {"prevent"}
    assert words(lines(game, 0.6749), 0) == {"prevent"}


@pytest.mark.parametrize("roll", [0.675, 0.6799])
def test_exile_from_a_zone_or_an_extra_turn(roll: float) -> None:
    assert lines(game_with_three_heads(), roll) == {
        "exilecards library 1",
        "exilecards graveyard all",
        "extraturn",
    }


@pytest.mark.parametrize("roll", [0.68, 0.699])
def test_life_change_of_a_living_player(roll: float) -> None:
    game = game_with_three_heads()
    assert lines(game, roll) == {f"life {seat} {delta}" for seat in (1, 2) for delta in (-3, -1, 1, 2)}
    game.players[1].lost = True
    assert lines(game, roll) == {f"life 1 {delta}" for delta in (-3, -1, 1, 2)}


@pytest.mark.parametrize("roll", [0.7, 0.709])
def test_mill(roll: float) -> None:
    assert lines(game_with_three_heads(), roll) == {"mill 1", "mill 2", "mill 3"}


@pytest.mark.parametrize("roll", [0.71, 0.99])
def test_otherwise_end_the_turn(roll: float) -> None:
    assert lines(game_with_three_heads(), roll) == {"end"}


def answers(game: HydraGame, decision: Decision) -> set[str]:
    game.pending = decision
    rng = random.Random(5)
    return {random_answer(game, rng) for _ in range(200)}


def test_random_answers() -> None:
    game = game_with_three_heads()
    game.apply("exile 2")
    assert answers(game, Decision("swallow_exile", "text", "a creature")) == {
        "none",
        "Grizzly Bears",
        "a creature",
    }
    assert answers(game, Decision("breath_mode", "option", "damage", options=("damage", "destroy"))) == {
        "damage",
        "destroy",
    }
    assert game.battlefield_numbers() == [1, 3, 4]  # a new head grew: the numbers stay the heads' own
    assert answers(game, Decision("torn_tap", "heads", "1 3", min_heads=0, max_heads=2)) == {
        "none",
        "1",
        "3",
        "4",
        "1 3",
        "3 1",
        "1 4",
        "4 1",
        "3 4",
        "4 3",
    }
    game.pending = None
    with pytest.raises(AssertionError):
        random_answer(game, random.Random(5))


def digest(game: HydraGame) -> str:
    return hashlib.sha256("\n".join(game.actions).encode()).hexdigest()[:16]


# seed: heads, players' heroes, all windows, outcome, turn, actions, digest of the action log
SEEDS: dict[int, tuple[int, list[tuple[str, ...]], bool, str, int, int, str]] = {
    0: (
        3,
        [("The Slayer",), ("The Warrior",), ("The Protector",), ("The Protector",)],
        False,
        "won",
        35,
        82,
        "970328044a1c17ef",
    ),
    1: (4, [("The Slayer", "The Protector"), ()], False, "lost", 18, 44, "3f86d109e28b594d"),
    3: (4, [("The Warrior", "The Slayer"), ("The Warrior",)], False, "won", 6, 15, "6b2725c464b253cc"),
    4: (2, [("The Slayer",), ("The Protector", "The Warrior")], True, "lost", 30, 102, "19aee8f95bf8ec99"),
    5: (
        1,
        [("The Protector", "The Slayer"), ("The Slayer",), ("The Slayer", "The Warrior")],
        True,
        "lost",
        34,
        95,
        "637d91d77a2d7498",
    ),
    6: (1, [("The Protector",)], True, "won", 14, 45, "856544060078f2b6"),
    8: (2, [("The Protector",), ()], False, "lost", 12, 31, "ed2998c48437ec4b"),
    9: (
        5,
        [("The Protector", "The Warrior"), (), (), ("The Slayer", "The Protector")],
        True,
        "lost",
        16,
        62,
        "e8cf523f67d84529",
    ),
    10: (5, [("The Protector",)], True, "won", 33, 97, "effa16b8d581c504"),
    # drawing its heads (1 to 6), the first 3-bit draw is 6 and is drawn again: 1 to 7 would take it (7 heads)
    25: (3, [(), (), ("The Warrior",), ("The Slayer",)], True, "won", 6, 23, "30f39eef732c3eea"),
}


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_a_seed_is_one_exact_game(seed: int) -> None:
    steps: list[int] = []
    game = play_random_game(seed, after_step=lambda g: steps.append(len(g.actions)))
    heads, heroes, all_windows, outcome, turn, count, log = SEEDS[seed]
    assert game.setup == GameSetup(
        heads, tuple(PlayerSetup(f"P{i + 1}", h) for i, h in enumerate(heroes)), seed, all_windows
    )
    assert (game.outcome, game.turn, len(game.actions), digest(game)) == (outcome, turn, count, log)
    assert steps == list(range(1, count + 1))  # after_step saw every step
    assert digest(play_random_game(seed)) == log


def test_two_short_games_line_by_line() -> None:
    game = play_random_game(2)
    assert game.actions == [
        "attack 1 2 1 4 1 4",
        "choose counter",
        "choose counter",
        "prevent 1 1 from Unified Lunge",
        "end",
    ]
    assert game.setup == GameSetup(1, (PlayerSetup("P1"),), 2, True)
    assert (game.outcome, [p.life for p in game.players]) == ("won", [20])
    game = play_random_game(7)
    assert game.actions == ["attack 1 4 1 0 1 3", "attack 2 4", "prevent 1 from heads", "prevent 2 3", "end"]
    assert (game.outcome, [p.life for p in game.players]) == ("won", [24, 24, 24])


def test_heads_and_players_given() -> None:
    game = play_random_game(3, heads=2, players=3)
    assert game.setup == GameSetup(
        2,
        (
            PlayerSetup("P1"),
            PlayerSetup("P2", ("The Warrior", "The Slayer")),
            PlayerSetup("P3", ("The Warrior",)),
        ),
        3,
        True,
    )
    assert (game.outcome, game.turn, len(game.actions)) == ("lost", 38, 114)


def test_a_game_past_the_turn_limit_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(randomplay, "MAX_TURNS", 3)
    with pytest.raises(AssertionError, match=re.escape("random game did not end within 3 turns (seed 0)")):
        play_random_game(0)
    with pytest.raises(AssertionError) as caught:
        _too_long(play_random_game(2))
    assert str(caught.value) == "random game did not end within 3 turns (seed 2)"


def test_the_damage_check_runs_only_when_the_damage_step_window_closes() -> None:
    game = new_game(heads=3, top=[C.DISORIENTING_GLOWER])
    assert _damage_check(game, "end", 7) is None  # nothing pending
    game.apply("tap 2")
    game.apply("freeze 2")  # still tapped in the Hydra's damage step
    game.apply("end")
    while game.pending is not None and game.pending.topic != "prevent":
        assert _damage_check(game, "choose " + game.pending.default, 7) is None  # the counter window
        game.apply("choose " + game.pending.default)
    assert game.pending is not None
    assert _damage_check(game, "damage 1 1", 7) is None  # an action in the window does not close it
    check = _damage_check(game, "choose pass", 7)
    assert check is not None
    game.apply("choose pass")
    check()  # the two untapped Hydra Heads dealt the damage
    step = game.damage_steps[-1]
    assert step.untapped == (C.HYDRA_HEAD, C.HYDRA_HEAD)
    game.damage_steps[-1] = stale = step.__class__(step.hydra_turn, (C.HYDRA_HEAD,), 1, 1)
    with pytest.raises(AssertionError) as caught:
        check()
    assert str(caught.value) == f"game 7: stale damage {stale} vs ['Hydra Head', 'Hydra Head']"
