"""The 15 Face the Hydra cards' rows, now :mod:`bot.domain.challenge.hydra_card_data`: re-exported here
for the callers that import them from the Hydra's package."""

from __future__ import annotations

from bot.domain.challenge.hydra_card_data import CARD_ROWS

__all__ = ["CARD_ROWS"]
