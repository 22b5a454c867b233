"""One error type for every refused tournament input, carrying a message key and its values.

The key names a ``tournament.error.*`` message, so the cog shows it in the user's language and the
CLI in English from the same exception; ``str(error)`` is the English text (looked up lazily, so the
domain itself does no I/O).
"""

from __future__ import annotations

from bot.domain.errors import DomainError


class TournamentError(DomainError, ValueError):
    """Bad tournament input; nothing was changed. ``key`` + ``values`` localise the message."""

    prefix = "tournament.error."
    member_values = ("voter", "votee", "player")

    def __str__(self) -> str:
        return self.localized("en")
