"""The game's state as plain data (``HydraGame.snapshot``, what ``podkeeper hydra ... --json`` prints): every
field pinned on two rigged games, so a wrong value is caught and not only compared with itself."""

from __future__ import annotations

from bot.domain.hydra import cards as C

from .hydra_helpers import BRUTE, HH, LUNGE, hydra_turn, new_game


def _head(
    name: str, *, elite: bool = False, toughness: int = 3, tapped: bool = False, skips_untap: bool = False
) -> dict[str, object]:
    return {
        "name": name,
        "damage": 0,
        "tapped": tapped,
        "elite": elite,
        "toughness": toughness,
        "indestructible": False,
        "skips_untap": skips_untap,
        "counters": 0,
        "token": False,
    }


def test_a_question_waiting_on_a_player() -> None:
    """Distract the Hydra on the stack asks the first player whether to sacrifice (default: decline)."""
    game = new_game(
        battlefield=[HH, BRUTE, HH], players=2, top=[C.DISTRACT_THE_HYDRA], heroes=[["The Warrior"]]
    )
    game.apply("end")
    game.apply("choose pass")
    assert game.snapshot() == {
        "turn": 2,
        "active": "hydra",
        "outcome": "ongoing",
        "players": [
            {"name": "P1", "life": 20, "lost": False, "heroes": ["The Warrior"]},
            {"name": "P2", "life": 20, "lost": False, "heroes": []},
        ],
        "heads": [
            _head("Hydra Head"),
            _head("Ravenous Brute Head", elite=True, toughness=6),
            _head("Hydra Head"),
        ],
        "library_count": 56,
        "graveyard": [],
        "exile": [],
        "resolving": ["Distract the Hydra"],
        "players_extra_turns": 0,
        "spells_locked": False,
        "swallowed": [],
        "heads_severed": 0,
        "pending": {
            "topic": "distract_sacrifice",
            "kind": "option",
            "default": "decline",
            "options": ["sacrifice", "decline"],
            "card": "Distract the Hydra",
            "player": "P1",
        },
    }


def test_tangled_heads_skip_the_next_untap() -> None:
    """Neck Tangle with five heads: heads 2 and 5 tapped and skipping the Hydra's next untap step; three
    untapped heads dealt 3 to each player (20 - 3 = 17)."""
    game = new_game(battlefield=[HH] * 5, players=2, top=[C.NECK_TANGLE, LUNGE, LUNGE])
    hydra_turn(game, "pass", "2 5")
    tangled = _head("Hydra Head", tapped=True, skips_untap=True)
    assert game.snapshot() == {
        "turn": 3,
        "active": "players",
        "outcome": "ongoing",
        "players": [
            {"name": "P1", "life": 17, "lost": False, "heroes": []},
            {"name": "P2", "life": 17, "lost": False, "heroes": []},
        ],
        "heads": [_head("Hydra Head"), tangled, _head("Hydra Head"), _head("Hydra Head"), tangled],
        "library_count": 54,
        "graveyard": ["Neck Tangle"],
        "exile": [],
        "resolving": [],
        "players_extra_turns": 0,
        "spells_locked": False,
        "swallowed": [],
        "heads_severed": 0,
        "pending": None,
    }
