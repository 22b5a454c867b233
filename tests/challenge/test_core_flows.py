"""The question-and-answer machinery every challenge deck shares (``core.FlowGame``), seen through real
Horde and God games: a response taken in a window asks its own questions and the waiting question comes
back; a game that ends inside the deck's turn stops that turn there; one that ends on a player's action
ends without raising. Plus the card rows shipped with the package (docs/rules/CHALLENGE_DECKS.md §5: Scryfall's
verbatim rows, stored in tests/data too)."""

from __future__ import annotations

import json
import locale
from pathlib import Path

import pytest

from bot.domain.challenge.card_rows import card_rows
from bot.domain.challenge.core import ChallengeError, Event
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame

from .helpers import rig

DATA = Path(__file__).parents[1] / "data"
GORE, YOUNG, ALTAR = "Minotaur Goreseeker", "Minotaur Younghorn", "Altar of Mogis"


def test_a_fresh_game_is_ongoing_asks_nothing_and_has_only_its_set_up_log() -> None:
    game = HordeGame([Seat("P1")], seed=1)
    assert (game.outcome, game.over, game.pending, game.actions, game.in_window()) == (
        "ongoing",
        False,
        None,
        [],
        False,
    )
    assert game.events == [
        Event("horde.log.setup", {"deck": "horde", "players": 1, "difficulty": 3}),
        Event("challenge.log.players_turn", {"turn": 1}),
    ]


def test_a_response_in_a_window_asks_its_own_question_then_the_waiting_one_comes_back() -> None:
    game = rig(
        HordeGame([Seat("P1")], seed=1, difficulty=2), battlefield=[GORE, YOUNG], top=[GORE, YOUNG, ALTAR]
    )
    game.apply("end")
    game.apply("end")
    waiting = game.pending
    assert waiting is not None and (waiting.topic, waiting.card) == ("counter", GORE) and game.in_window()
    game.apply("hit 1")  # mills the Altar: its Hero's Reward asks which two Minotaurs are sacrificed
    assert game.pending is not None and game.pending.topic == "altar_sacrifice" and not game.in_window()
    game.apply("choose 1 2")
    assert game.pending is waiting and game.in_window()
    assert [e.key for e in game.events[-2:]] == ["challenge.log.leaves_sacrificed"] * 2
    game.apply("choose pass")
    assert game.pending is not None and (game.pending.topic, game.pending.card) == ("counter", YOUNG)


def test_a_win_inside_a_stacked_response_ends_every_waiting_flow() -> None:
    game = rig(HordeGame([Seat("P1")], seed=1, difficulty=2), top=[GORE, YOUNG, ALTAR], library_size=3)
    game.apply("end")
    game.apply("end")
    game.apply("choose counter")  # the Goreseeker is countered; the Younghorn waits to be cast
    assert game.pending is not None and game.pending.card == YOUNG
    game.apply(
        "hit 1"
    )  # mills the Altar, the last card: no Minotaur to sacrifice, empty library, no creature
    assert game.outcome == "won" and game.pending is None and game.over
    assert game.events[-1] == Event("challenge.log.won", {})
    with pytest.raises(ChallengeError, match="game_over"):
        game.apply("end")


def test_losing_inside_the_decks_turn_stops_the_turn_there() -> None:
    game = rig(GodGame([Seat("P1")], seed=1), top=["Xenagos's Strike", "Pheres-Band Revelers"])
    game.apply("life 1 -16")
    game.apply("end")
    game.apply("choose pass")
    assert [e.key for e in game.events[-3:]] == [
        "challenge.log.resolves",
        "challenge.log.damage_to_players",
        "challenge.log.lost",
    ]
    assert game.outcome == "lost" and game.pending is None and game.life == 0
    assert [game.name_of(i) for i in game.revealed] == ["Pheres-Band Revelers"]  # never cast


def test_losing_on_a_players_action_ends_the_game_without_raising() -> None:
    for ends in (0, 1):  # before any flow ran, and after one (the end of a turn) ran to its end
        game = HordeGame([Seat("P1")], seed=1)
        for _ in range(ends):
            game.apply("end")
        events = game.apply("life 1 -20")
        assert [e.key for e in events] == ["challenge.log.life", "challenge.log.lost"]
        assert game.outcome == "lost" and game.over and game.pending is None


@pytest.mark.parametrize("deck", ["horde", "god"])
def test_the_card_rows_are_the_stored_scryfall_rows(deck: str) -> None:
    stored = json.loads((DATA / f"challenge_{deck}_cards.json").read_text(encoding="utf-8"))
    rows = card_rows(deck)
    assert isinstance(rows, tuple) and list(rows) == stored and len(rows) == 15


def test_the_card_rows_are_read_as_utf_8_whatever_the_locale() -> None:
    """The rows hold em dashes ("Creature — Minotaur"): a machine whose locale is not UTF-8 reads them too."""
    stored = json.loads((DATA / "challenge_horde_cards.json").read_text(encoding="utf-8"))
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        rows = card_rows("horde")
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert list(rows) == stored and rows[0]["type_line"] == "Creature — Minotaur"
