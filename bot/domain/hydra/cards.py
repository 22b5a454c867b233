"""The Face the Hydra cards and the Hero cards, now :mod:`bot.domain.challenge.hydra_cards`: re-exported
here for the callers that import them from the Hydra's package."""

from __future__ import annotations

from bot.domain.challenge.hydra_cards import *  # noqa: F403 (the whole module, under its old name)
