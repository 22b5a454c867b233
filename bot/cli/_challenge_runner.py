"""Playing any challenge deck in the terminal (Hydra, Horde, God): scripts and interactive play.

The game objects share one surface (``apply``, ``pending``, ``choose_default``, ``undo_refusal``,
``rebuild``...); a :class:`Presenter` says how to show each deck.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.domain.challenge.actions import VERBS, parse_action
from bot.domain.challenge.core import ChallengeError
from bot.domain.hydra.cards import find_hero
from bot.i18n import LANGUAGES, t


@dataclass(frozen=True)
class Presenter:
    board: Callable[[Any, str], str]
    decision: Callable[[Any, Any, str], str]
    log: Callable[[list[Any], str], list[str]]
    help: str
    to_json: Callable[[Any, str], dict[str, object]]  # the --json output
    outcome: Callable[[str, str], str]  # (outcome, language) -> the closing line


def add_play_options(
    play: argparse.ArgumentParser, *, players_help: str, windows_help: str, hero_help: str
) -> None:
    """The options every deck's ``play`` takes (the deck's own: difficulty, and the help texts)."""
    play.add_argument("--players", type=int, default=1, help=players_help)
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="shuffle seed (default: random and kept secret, so nobody learns the library)",
    )
    play.add_argument(
        "--show-seed", action="store_true", help="print the seed at the start (to replay a game)"
    )
    play.add_argument("--all-windows", action="store_true", help=windows_help)
    play.add_argument("--hero", action="append", default=[], metavar="PLAYER:NAME", help=hero_help)
    play.add_argument("--script", type=Path, default=None, help="read the players' actions from FILE")
    play.add_argument("--json", action="store_true", help="print the final state as JSON")
    play.add_argument("--language", choices=LANGUAGES, default="en", help="language of the bot's own words")


def fail(prog: str, message: str) -> int:
    print(f"podkeeper {prog}: {message}", file=sys.stderr)
    return 2


def heroes_by_seat(specs: Sequence[str]) -> dict[int, list[str]]:
    """``--hero PLAYER:NAME`` options as {seat: [Hero card names]} (names matched loosely)."""
    heroes: dict[int, list[str]] = {}
    for spec in specs:
        seat, _, name = spec.partition(":")
        hero = find_hero(name)
        if not seat.strip().isdigit() or hero is None:
            raise ChallengeError("hydra.error.unknown_hero", hero=spec)
        heroes.setdefault(int(seat), []).append(hero.name)
    return heroes


def play(game: Any, args: argparse.Namespace, presenter: Presenter, prog: str) -> int:
    """Run ``game`` as the command line asks (``--script`` or interactive, ``--show-seed``, ``--json``)
    and print the end: the same for every deck."""
    language = args.language
    if args.script is not None:
        try:
            lines = read_script(args.script)
        except OSError as error:
            return fail(prog, f"{args.script}: {error.strerror}")
        except ChallengeError as error:
            return fail(prog, f"{args.script}: {t(error.key, language, **error.values)}")
        game, status = run_script(game, lines, language)
        if status:
            return status
        if not game.over:
            print(t("hydra.cli.script_ended", language), file=sys.stderr)
    else:
        if args.show_seed:
            print(f"seed {game.seed}")
        game = interactive(game, language, presenter, input_line=input, show=print)
    if args.json:
        print(json.dumps(presenter.to_json(game, language), ensure_ascii=False, indent=2))
    else:
        print(presenter.board(game, language))
        if game.over:
            print(presenter.outcome(game.outcome, language))
    return 0


MAX_SCRIPT_BYTES = 1 << 20  # a long game is a few hundred lines; a megabyte is no script
MAX_LINE = 500  # characters in one command: "attack" over every head fits many times over


def read_script(path: Path) -> list[bytes]:
    """The script's lines as bytes: each is decoded when it is checked, so a bad byte is reported with its
    line number. Lines end at ``\n``, ``\r\n`` or ``\r`` only (as an editor numbers them). Raises
    OSError when unreadable, and ChallengeError when the file is too big to be a script."""
    with path.open("rb") as handle:
        data = handle.read(MAX_SCRIPT_BYTES + 1)
    if len(data) > MAX_SCRIPT_BYTES:
        size = path.stat().st_size
        raise ChallengeError("hydra.error.script_too_big", size=size, limit=MAX_SCRIPT_BYTES)
    return data.splitlines()


def check_script(game: Any, lines: Iterable[str | bytes]) -> list[str]:
    """Every line decoded, in bounds and parsed before anything is played: a script with a typo on line
    200 is refused at once, not after 199 lines of play. Raises ScriptLineError naming the first bad line.
    What only the game can judge (a head that is gone, a question not asked) is found while playing."""
    verbs = getattr(game, "verbs", VERBS)
    checked: list[str] = []
    for number, raw in enumerate(lines, start=1):
        try:
            text = _decoded(raw, first=number == 1)
            checked.append(text)
            line = text.split("#", 1)[0].strip()
            if len(line) > MAX_LINE:
                raise ChallengeError("hydra.error.script_line_too_long", length=len(line), limit=MAX_LINE)
            if line and line.split()[0].lower() not in ("undo", "at"):
                action = parse_action(line, verbs)
                refusal = game.deck_rules.refusal(action.verb)  # the deck's rules forbid it: say why now
                if refusal is not None:
                    raise ChallengeError(refusal)
        except ChallengeError as error:
            raise ScriptLineError(number, error) from None
    return checked


class ScriptLineError(ChallengeError):
    """A refused script line: the error it raised and its 1-based number."""

    def __init__(self, number: int, error: ChallengeError) -> None:
        super().__init__(error.key, **error.values)
        self.number = number

    def text(self, language: str) -> str:
        message = t(self.key, language, **self.values)
        return t("hydra.error.script_line", language, number=self.number, message=message)


def _decoded(raw: str | bytes, *, first: bool) -> str:
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff") if first else raw
    try:
        return raw.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError as error:
        raise ChallengeError(
            "hydra.error.script_not_text", byte=f"0x{raw[error.start]:02x}", column=error.start + 1
        ) from None


def run_script(game: Any, lines: Iterable[str | bytes], language: str = "en") -> tuple[Any, int]:
    """Apply a script. A pending question not answered by a ``choose`` line takes its documented
    default before the next line; ``undo`` takes back the players' last action of their turn.
    ``at TOPIC`` (a window: counter, prevent, upkeep, trigger; or a question: blocks, ...) answers
    questions with their defaults until that one is asked; the instant-speed lines after it are
    taken in that window, until a ``choose`` line answers it.

    A refused line stops the script with status 1 and an error naming the line (on stderr); the game
    is as the lines before it left it (a refused action changes nothing), and the callers print no
    board for it. Lines that are not text, too long or not commands are refused before any is played."""
    try:
        checked = check_script(game, lines)
    except ScriptLineError as error:
        print(error.text(language), file=sys.stderr)
        return game, 1
    holding = False  # inside a window opened by "at TOPIC"
    for number, raw in enumerate(checked, start=1):
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
            print(ScriptLineError(number, error).text(language), file=sys.stderr)
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


def interactive(
    game: Any,
    language: str,
    presenter: Presenter,
    *,
    input_line: Callable[[str], str],
    show: Callable[[str], None],
) -> Any:
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
