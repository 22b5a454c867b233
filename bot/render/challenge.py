"""Showing a Horde or God game as text (the CLI): log lines, questions, the board.

Card names and texts stay English; the bot's own words go through ``challenge.*`` messages.
"""

from __future__ import annotations

from bot.domain.challenge.core import Decision, Event
from bot.domain.challenge.creatures import CreatureDeckGame
from bot.i18n import t


def log_lines(events: list[Event], language: str = "en") -> list[str]:
    return [t(event.key, language, **event.values) for event in events]


def decision_text(game: CreatureDeckGame, decision: Decision, language: str = "en") -> str:
    player = game.seats[decision.player].name if decision.player is not None else ""
    kind = t(f"challenge.trigger_kind.{decision.detail}", language) if decision.detail else ""
    question = t(f"challenge.decision.{decision.topic}", language, card=decision.card or "", player=player,
                 kind=kind)
    return question + "\n" + t("hydra.decision.default", language, default=decision.default)


def board_text(game: CreatureDeckGame, language: str = "en") -> str:
    lines = [t("challenge.board.permanents", language, turn=game.turn)]
    lines += [f"  {line}" for line in game.board_lines()] or ["  " + t("challenge.board.none", language)]
    lines.append(t("hydra.board.library", language, count=len(game.library)) + "   "
                 + t("hydra.board.graveyard", language, count=len(game.graveyard)))
    lines.append(t("challenge.board.life", language, life=game.life))
    return "\n".join(lines)
