"""Reading a deck-list argument for CLI commands (``deck check``, ``mulligan odds``).

Both accept a path or ``-`` for standard input, and both report an unreadable file or a refused list
(binary, too large, broken XML) the same localized way; the caller returns exit status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.domain.decklist import DecklistRefused
from bot.i18n import t


def read_deck_file(path: Path, language: str) -> bytes | None:
    """The file's bytes, or None after printing why it can't be read."""
    try:
        if str(path) == "-":
            return sys.stdin.buffer.read()
        return path.read_bytes()
    except OSError as exc:
        print(t("deck.refused.unreadable_file", language, path=path, error=exc.strerror), file=sys.stderr)
        return None


def report_refusal(refusal: DecklistRefused, language: str) -> None:
    """Print why a deck list was refused (the same words as ``/deck check``)."""
    from bot.render.deck import refusal_message

    print(refusal_message(refusal, language), file=sys.stderr)
