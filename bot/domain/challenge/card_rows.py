"""The card rows of the Horde's and the God's decks, shipped as package data (``data/*.json``).

The rows are Scryfall's, verbatim (exact oracle texts; the tests compare them with
``tests/data/challenge_*_cards.json``). Data, not code: one loader serves both decks, and reading a
file that ships inside the package is no outside I/O for the domain.
"""

from __future__ import annotations

import json
from importlib import resources


def card_rows(deck: str) -> tuple[dict[str, object], ...]:
    """The 15 rows of ``deck`` (``horde`` or ``god``), in collector-number order as stored."""
    text = resources.files(__package__).joinpath("data", f"{deck}_cards.json").read_text(encoding="utf-8")
    return tuple(json.loads(text))
