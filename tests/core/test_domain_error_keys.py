"""How a DomainError builds its key, its values and its text (issue 21): exact keys for each way a key is
given, the exception's own text, and the wording with values filled in, in two languages."""

from __future__ import annotations

import pickle

import pytest

from bot.domain.errors import DomainError
from bot.domain.match import MatchError
from bot.domain.tournament import TournamentError


@pytest.mark.parametrize(("error", "key"), [
    (MatchError("not_chooser"), "match.error.not_chooser"),            # a bare key lives under the prefix
    (MatchError("pod.error.no_game"), "pod.error.no_game"),            # a dotted key is already full
    (MatchError("a.b"), "a.b"),
    (DomainError("no_game"), "no_game"),                               # no prefix: the key as given
    (DomainError("pod.error.no_game"), "pod.error.no_game"),
])
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
    assert TournamentError("name_length", limit=12).localized("en") == "A tournament name needs 1 to 12 characters."
    assert MatchError("pod.error.no_game").localized("ja") == "そのゲームは存在しません。"


def test_a_refusal_pickles_whole() -> None:
    error = pickle.loads(pickle.dumps(MatchError("not_chooser")))
    assert (type(error), error.key, error.values) == (MatchError, "match.error.not_chooser", {})
