"""The Face the Hydra engine, now the Hydra's rules module of the challenge engine
(:mod:`bot.domain.challenge.hydra`): re-exported here for the callers that import it from the Hydra's
package (the CLI, the renderers, the events, the panels)."""

from __future__ import annotations

from bot.domain.challenge.hydra import *  # noqa: F403 (the whole module, under its old name)
from bot.domain.challenge.permanents import TOKEN_ID as TOKEN_ID
