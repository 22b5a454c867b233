"""What the players' own cards do to the Hydra (issue #14): each effect a paper game can need."""

from __future__ import annotations

import pytest

from bot.domain.hydra import cards as C
from bot.domain.hydra.invariants import check_invariants

from .hydra_helpers import BRUTE, HH, keys, lives, new_game


# ------------------------------------------------------------------ damage is counted when it is dealt
@pytest.mark.parametrize("action, expected", [
    ("tap 3", 20 - 2),       # The Philosopher taps the elite in the window: 2 Hydra Heads deal 2
    ("destroy 1", 20 - 2 - 1 + 2),  # instant removal: reward +2, one Hydra Head and the Brute remain (3)
    ("tap 1", 20 - 3),
])
def test_heads_tapped_or_removed_in_the_prevent_window_no_longer_deal_damage(action: str, expected: int) -> None:
    game = new_game(battlefield=[HH, HH, BRUTE], top=[C.DISORIENTING_GLOWER, C.NECK_TANGLE, C.NECK_TANGLE])
    game.apply("end")
    game.apply("choose pass")  # let Disorienting Glower resolve
    assert game.pending is not None and game.pending.topic == "prevent"
    game.apply(action)
    check_invariants(game)
    game.apply("choose pass")
    game.play_until_players()
    assert lives(game) == [expected]
    assert game.damage_steps[-1].dealt == game.damage_steps[-1].untapped_output == 20 - expected + (2 if "destroy" in action else 0)
    check_invariants(game)


def test_when_every_head_is_tapped_in_the_window_no_damage_is_dealt() -> None:
    game = new_game(battlefield=[HH, BRUTE], top=[C.DISORIENTING_GLOWER])
    game.apply("end")
    game.apply("choose pass")
    game.apply("tap 1")
    game.apply("tap 2")
    game.apply("choose pass")
    game.play_until_players()
    assert lives(game) == [20] and "hydra.log.no_damage" in keys(game)
