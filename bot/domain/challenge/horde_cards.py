"""The 15 Battle the Horde cards (set TBTH), oracle texts verbatim from Scryfall (docs/rules/CHALLENGE_DECKS.md §5).

Stored as package data (``data/horde_cards.json``, read once at import by :mod:`.card_rows`);
``tests/challenge/test_cli_and_data.py`` checks it against ``tests/data/challenge_horde_cards.json``.
"""

from __future__ import annotations

from bot.domain.challenge.card_rows import card_rows

CARD_ROWS = card_rows("horde")
