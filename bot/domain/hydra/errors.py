"""The one error type of the Hydra engine, carrying a message key so every caller can localise it."""

from __future__ import annotations

from bot.domain.challenge.core import ChallengeError


class HydraError(ChallengeError):
    """Bad input or an action that is not allowed now. The game state is unchanged when raised.

    ``key`` is an i18n message key (``hydra.error.*``, given in full); ``values`` fill its placeholders.
    """
