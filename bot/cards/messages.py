"""How a name that may be newer than the card data is told, the same in ``/card``, the deck check and
the CLI: what the data knows (how current it is), how to get current data, and the older names that
look most alike, after that and not as the answer (they are rarely what was meant)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.cards.index import NewerThanData
from bot.i18n import t

_SENTENCE_GAP = {"en": " "}  # Japanese and Chinese sentences follow each other without a space
_LIST_SEPARATOR = {"en": ", "}


def maybe_newer_text(
    newer: NewerThanData, suggestions: Sequence[str], language: str, name_for: Callable[[str], str] = str
) -> str:
    """The sentences that follow "unknown card X." for a name close to no card of the data."""
    sentences = [
        t("cards.maybe_newer", language, date=newer.data_date)
        if newer.data_date
        else t("cards.maybe_newer_undated", language)
    ]
    if suggestions:
        names = _LIST_SEPARATOR.get(language, "、").join(f"“{name_for(name)}”" for name in suggestions)
        sentences.append(t("cards.older_lookalikes", language, suggestions=names))
    return sentence_gap(language).join(sentences)


def sentence_gap(language: str) -> str:
    return _SENTENCE_GAP.get(language, "")
