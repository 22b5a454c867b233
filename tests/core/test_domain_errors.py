"""Every domain refusal is a DomainError: a full message key and its values, worded in any language."""

from __future__ import annotations

import pytest

from bot.domain.errors import DomainError
from bot.domain.hydra import HydraError
from bot.domain.hydra_events import EventError
from bot.domain.mulligan import MulliganError
from bot.domain.pod import PodError
from bot.domain.tournament import TournamentError


@pytest.mark.parametrize(
    ("error", "key", "ja"),
    [
        (PodError("no_game"), "pod.error.no_game", "そのゲームは存在しません。"),
        (
            PodError("tournament.error.name_length", limit=64),
            "tournament.error.name_length",
            "トーナメント名は1～64文字にしてください。",
        ),
        (
            TournamentError("name_length", limit=64),
            "tournament.error.name_length",
            "トーナメント名は1～64文字にしてください。",
        ),
        (
            HydraError("hydra.error.answer_first"),
            "hydra.error.answer_first",
            "先に保留中の選択に答えてください。",
        ),
    ],
)
def test_keys_are_full_message_keys_and_localize(error: DomainError, key: str, ja: str) -> None:
    assert isinstance(error, DomainError)
    assert error.key == key
    assert error.localized("ja") == ja


def test_each_feature_keeps_its_own_class_and_its_old_base() -> None:
    assert issubclass(EventError, HydraError)
    for cls in (TournamentError, HydraError, MulliganError):
        assert issubclass(cls, ValueError)  # callers catching ValueError still catch them
    assert not issubclass(PodError, ValueError)
    assert PodError("no_game", game=3).values == {"game": 3}
    assert str(TournamentError("name_length", limit=64)) == "A tournament name needs 1 to 64 characters."
    with pytest.raises(DomainError, match=r"^mulligan\.error\.x \{'n': 1\}$"):
        raise MulliganError("mulligan.error.x", n=1)
