"""The one error type of the Hydra engine, carrying a message key so every caller can localise it."""

from __future__ import annotations


class HydraError(ValueError):
    """Bad input or an action that is not allowed now. The game state is unchanged when raised.

    ``key`` is an i18n message key (``hydra.error.*``); ``values`` fill its placeholders.
    """

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(f"{key} {values}" if values else key)
        self.key = key
        self.values = values
