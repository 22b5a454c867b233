"""One error type for every refused tournament input, carrying a message key and its values.

The key names a ``tournament.error.*`` message, so the cog shows it in the user's language and the
CLI in English from the same exception; ``str(error)`` is the English text (looked up lazily, so the
domain itself does no I/O).
"""

from __future__ import annotations

from typing import Any


class TournamentError(ValueError):
    """Bad tournament input; nothing was changed. ``key`` + ``values`` localise the message."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = f"tournament.error.{key}"
        self.values = values

    def localized(self, language: str) -> str:
        from bot.i18n import t

        return t(self.key, language, **self.values)

    def __str__(self) -> str:
        return self.localized("en")
