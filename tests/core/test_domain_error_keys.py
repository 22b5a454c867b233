"""How a DomainError builds its key, its values and its text: exact keys for each way a key is
given, the exception's own text, and the wording with values filled in, in two languages."""

from __future__ import annotations

import pickle

import pytest

from bot.domain.challenge.core import ChallengeError
from bot.domain.errors import DomainError
from bot.domain.hydra.errors import HydraError
from bot.domain.hydra_events import EventError
from bot.domain.match import MatchError
from bot.domain.mulligan.procedure import MulliganError
from bot.domain.pod import PodError
from bot.domain.sideboard import SwapError
from bot.domain.tournament import TournamentError


@pytest.mark.parametrize(
    ("error", "key"),
    [
        (MatchError("not_chooser"), "match.error.not_chooser"),  # a bare key lives under the prefix
        (MatchError("pod.error.no_game"), "pod.error.no_game"),  # a dotted key is already full
        (MatchError("a.b"), "a.b"),
        (DomainError("no_game"), "no_game"),  # no prefix: the key as given
        (DomainError("pod.error.no_game"), "pod.error.no_game"),
    ],
)
def test_the_key(error: DomainError, key: str) -> None:
    assert error.key == key


def test_values_and_the_exception_text() -> None:
    error = TournamentError("name_length", limit=64)
    assert error.values == {"limit": 64}
    assert error.args == ("tournament.error.name_length {'limit': 64}",)
    bare = MatchError("not_chooser")
    assert bare.values == {}
    assert bare.args == ("match.error.not_chooser",) and str(bare) == "match.error.not_chooser"
    assert str(DomainError("x", a=1, b="two")) == "x {'a': 1, 'b': 'two'}"


def test_the_wording_fills_in_the_values_in_the_asked_language() -> None:
    error = TournamentError("name_length", limit=64)
    assert error.localized("en") == "A tournament name needs 1 to 64 characters."
    assert error.localized("ja") == "トーナメント名は1～64文字にしてください。"
    assert (
        TournamentError("name_length", limit=12).localized("en")
        == "A tournament name needs 1 to 12 characters."
    )
    assert MatchError("pod.error.no_game").localized("ja") == "そのゲームは存在しません。"


def test_a_refusal_pickles_whole() -> None:
    error = pickle.loads(pickle.dumps(MatchError("not_chooser")))
    assert (type(error), error.key, error.values) == (MatchError, "match.error.not_chooser", {})


@pytest.mark.parametrize(
    "error",
    [
        MatchError("not_chooser", player=7),
        TournamentError("name_length", limit=64),
        DomainError("x", a=1),
        PodError("life_bounds", low=-999, high=999),
        MulliganError("too_few_cards", count=3),
        HydraError("hydra.error.usage", usage="end"),
        EventError("full", seats=4),
        ChallengeError("hydra.error.usage", usage="x"),
        SwapError("commander", card="Kaalia of the Vast"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_every_kind_of_refusal_with_values_pickles_whole(error: DomainError) -> None:
    """Refusals raised in a worker of the pool are re-raised in the bot: key and values must survive."""
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), back.key, back.values, back.args) == (
        type(error),
        error.key,
        error.values,
        error.args,
    )
