"""The one action language of every challenge deck, now :mod:`bot.domain.challenge.actions`:
re-exported here for the callers that import it from the Hydra's package."""

from __future__ import annotations

from bot.domain.challenge.actions import ALL, MAX_AMOUNT, VERBS, Action, parse_action, parse_number

__all__ = ["ALL", "MAX_AMOUNT", "VERBS", "Action", "parse_action", "parse_number"]
