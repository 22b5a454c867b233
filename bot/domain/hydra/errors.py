"""The Hydra's error type, now defined with the challenge engine's (:mod:`bot.domain.challenge.core`):
re-exported here for the callers that import it from the Hydra's package."""

from __future__ import annotations

from bot.domain.challenge.core import HydraError

__all__ = ["HydraError"]
