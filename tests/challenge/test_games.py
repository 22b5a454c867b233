"""Every deck's game from one set-up (``bot.domain.challenge.games.new_game``), and the deck rules as
data that the engines, the service, the CLI and the panels read."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.decks import CURRENT_RULES, GOD, HORDE, HYDRA, LEGACY_RULES, RULES, check_heroes
from bot.domain.challenge.games import DECK_NAMES, new_game
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.hydra.engine import HydraGame


def test_one_set_up_builds_each_deck_at_its_printed_default() -> None:
    seats = [Seat("P1", ("The Slayer",))]
    hydra, horde, god = (new_game(deck, seats, 7) for deck in DECK_NAMES)
    assert DECK_NAMES == ("hydra", "horde", "god")
    assert isinstance(hydra, HydraGame) and hydra.setup.heads == 3 and hydra.players[0].life == 27
    assert isinstance(horde, HordeGame) and horde.difficulty == 3 and horde.life == 27
    assert isinstance(god, GodGame) and god.difficulty == 2 and god.life == 27
    assert [game.deck_rules for game in (hydra, horde, god)] == [HYDRA, HORDE, GOD]
    assert hydra.setup.rules == horde.rules == god.rules == CURRENT_RULES == LEGACY_RULES + 1
    old = new_game(
        "god",
        [Seat("P1"), Seat("P2")],
        7,
        3,
        all_windows=True,
        stable_ids=False,
        rules=LEGACY_RULES,
        life_per_player=True,
    )
    assert (old.difficulty, old.all_windows, old.stable_ids, old.rules, old.life) == (3, True, False, 1, 40)


def test_an_unknown_deck_and_the_life_house_rule_against_the_hydra_are_refused() -> None:
    with pytest.raises(ChallengeError) as caught:
        new_game("dragon", [Seat("P1")], 1)
    assert (caught.value.key, caught.value.values) == (
        "hydra.error.bad_option",
        {"option": "dragon", "options": ["hydra", "horde", "god"]},
    )
    with pytest.raises(ChallengeError) as caught:
        new_game("hydra", [Seat("P1"), Seat("P2")], 1, life_per_player=True)
    assert caught.value.key == "challenge.error.house_rule_hydra"


def test_the_decks_rules_as_printed() -> None:
    assert [(r.max_players, r.max_heroes, r.heroes_may_repeat, r.shared_life) for r in RULES.values()] == [
        (4, 2, True, False),
        (1, 3, False, True),
        (4, 3, False, True),
    ]
    assert [(r.min_difficulty, r.default_difficulty, r.max_difficulty) for r in RULES.values()] == [
        (1, 3, 11),
        (2, 3, 4),
        (1, 2, 3),
    ]
    assert HYDRA.refusal("steal") == "challenge.refuse.hydra.steal" and HYDRA.refusal("tuck") is None
    check_heroes(HYDRA, ("The Slayer", "The Slayer"))  # two, the same one twice: allowed against the Hydra
    # too many: "at most two" against the Hydra (repeats allowed), "up to three, each different" else
    four = ("The Slayer", "The Hunter", "The Warrior", "The General")
    for rules, heroes, key in (
        (HYDRA, ("The Slayer",) * 3, "hydra.error.too_many_heroes"),
        (GOD, four, "challenge.error.heroes"),
        (GOD, ("The Slayer",) * 2, "challenge.error.heroes"),
    ):
        with pytest.raises(ChallengeError) as caught:
            check_heroes(rules, heroes)
        assert (caught.value.key, caught.value.values) == (key, {"max": rules.max_heroes})
