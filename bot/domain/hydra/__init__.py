"""Face the Hydra (H1–H13): the Hydra challenge deck played by the bot. Plain Python, no I/O."""

from bot.domain.challenge.core import Decision, Event
from bot.domain.hydra.actions import Action, parse_action
from bot.domain.hydra.engine import GameSetup, HydraGame, PlayerSetup, replay, undoable
from bot.domain.hydra.errors import HydraError

__all__ = ["Action", "Decision", "Event", "GameSetup", "HydraError", "HydraGame", "PlayerSetup",
           "parse_action", "replay", "undoable"]
