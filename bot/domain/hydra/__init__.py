"""Face the Hydra (H1–H13): the Hydra challenge deck played by the bot. Plain Python, no I/O.

Its rules module is :mod:`bot.domain.challenge.hydra`, the third deck of the challenge engine; this
package re-exports it (and its cards, the action language and the error type) under the names its
callers have always used, and keeps the Hydra's random players and invariant checks."""

from bot.domain.challenge.actions import Action, parse_action
from bot.domain.challenge.core import Decision, Event, HydraError
from bot.domain.challenge.hydra import GameSetup, HydraGame, PlayerSetup, replay, undoable

__all__ = [
    "Action",
    "Decision",
    "Event",
    "GameSetup",
    "HydraError",
    "HydraGame",
    "PlayerSetup",
    "parse_action",
    "replay",
    "undoable",
]
