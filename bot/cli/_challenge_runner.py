"""Playing any challenge deck in the terminal (Hydra, Horde, God): scripts and interactive play.

The game objects share one surface (``apply``, ``pending``, ``choose_default``, ``undo_refusal``,
``rebuild``...); a :class:`Presenter` says how to show each deck.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.domain.challenge.core import ChallengeError
from bot.i18n import t


@dataclass(frozen=True)
class Presenter:
    board: Callable[[Any, str], str]
    decision: Callable[[Any, Any, str], str]
    log: Callable[[list[Any], str], list[str]]
    help: str


def run_script(game: Any, lines: Iterable[str], language: str = "en") -> tuple[Any, int]:
    """Apply a script. A pending question not answered by a ``choose`` line takes its documented
    default before the next line; ``undo`` takes back the players' last action of their turn.
    ``at TOPIC`` (a window: counter, prevent, upkeep, trigger; or a question: blocks, ...) answers
    questions with their defaults until that one is asked; the instant-speed lines after it are
    taken in that window, until a ``choose`` line answers it."""
    holding = False  # inside a window opened by "at TOPIC"
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or game.over:
            continue
        try:
            verb = line.split()[0].lower()
            if verb == "undo":
                game = undo(game)
                continue
            if verb == "at":
                holding = _wait_for_window(game, line[3:].strip().lower(), number)
                continue
            if verb == "choose":
                holding = False
            elif not holding:
                game.play_until_players()
                if game.over:
                    continue
            game.apply(line)
        except ChallengeError as error:
            message = t(error.key, language, **error.values)
            print(t("hydra.error.script_line", language, number=number, message=message), file=sys.stderr)
            return game, 1
    game.play_until_players()
    return game, 0


def _wait_for_window(game: Any, topic: str, number: int) -> bool:
    """Default every question until a ``topic`` question is pending (the game may end first)."""
    while game.pending is not None and game.pending.topic != topic and not game.over:
        game.choose_default()
    if game.pending is None and not game.over:
        raise ChallengeError("hydra.error.no_window", line=number, topic=topic)
    return not game.over


def undo(game: Any) -> Any:
    """Refused when the action revealed or moved cards of the deck's library (never un-reveal)."""
    refusal = game.undo_refusal()
    if refusal is not None:
        raise ChallengeError(refusal)
    return game.rebuild(game.actions[:-1])


def interactive(game: Any, language: str, presenter: Presenter, *, input_line: Callable[[str], str],
                show: Callable[[str], None]) -> Any:
    seen = 0
    while not game.over:
        for line in presenter.log(game.events[seen:], language):
            show(line)
        seen = len(game.events)
        if game.pending is not None:
            show(presenter.decision(game, game.pending, language))
        else:
            show(presenter.board(game, language))
        try:
            line = input_line(f"{t('hydra.cli.prompt', language)}> ").strip()
        except EOFError:
            break
        if line in ("quit", "exit"):
            break
        if line == "help":
            show(presenter.help)
            continue
        try:
            if not line and game.pending is not None:
                game.choose_default()
            elif line == "undo":
                game = undo(game)
                seen = len(game.events)
            elif line:
                game.apply(line)
        except ChallengeError as error:
            show(t(error.key, language, **error.values))
    for line in presenter.log(game.events[seen:], language):
        show(line)
    return game
