"""``podkeeper challenge play --deck hydra|horde|god``: any Hero's Path challenge deck in the terminal.

``--deck hydra`` is ``podkeeper hydra play`` (``--difficulty`` = starting heads, default 3); the Horde
(``--difficulty`` = the player's turns before the Horde's first, default 3; one player, as printed)
and the God (``--difficulty`` = starting Rollicking Throngs, default 2; 1-4 players sharing 20 life)
use the same script language, ``at TOPIC`` windows, undo and ``--json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from bot.cli import hydra as hydra_cli
from bot.cli._challenge_runner import Presenter, interactive, read_script, run_script
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import CreatureDeckGame, Seat
from bot.domain.challenge.randomplay import DECKS
from bot.domain.hydra.actions import __doc__ as ACTIONS_HELP
from bot.domain.hydra.cards import find_hero
from bot.i18n import LANGUAGES, t
from bot.render.challenge import board_text, decision_text, log_lines

PRESENTER = Presenter(board_text, decision_text, log_lines,
                      (ACTIONS_HELP or "") + "\n    hit AMOUNT   the Horde would lose AMOUNT life (its library is milled)")
DEFAULT_DIFFICULTY = {"hydra": 3, "horde": 3, "god": 2}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("challenge", help="play a Hero's Path challenge deck (Hydra, Horde, God)",
                                   description="Face the Hydra, Battle the Horde or Defeat a God with the bot's engine.")
    sub = parser.add_subparsers(dest="challenge_command", metavar="ACTION", required=True)
    play = sub.add_parser("play", help="play a game (interactive, or from a script)",
                          description="Play a challenge deck. Numbers are positions in the printed list.",
                          epilog=PRESENTER.help, formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--deck", choices=("hydra", "horde", "god"), required=True)
    play.add_argument("--difficulty", type=int, default=None,
                      help="hydra: starting heads (3); horde: turns before the Horde's first (3; 2 harder, "
                           "4 easier); god: starting Rollicking Throngs (2; 1 easier, 3 harder)")
    play.add_argument("--players", type=int, default=1, help="hydra and god: 1-4 players; horde: 1 (as printed)")
    play.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random and kept secret)")
    play.add_argument("--show-seed", action="store_true", help="print the seed at the start (to replay a game)")
    play.add_argument("--all-windows", action="store_true",
                      help="every response window: the deck's upkeep and each triggered ability")
    play.add_argument("--hero", action="append", default=[], metavar="PLAYER:NAME",
                      help='a Hero card for a player, e.g. "1:The Slayer" (repeatable)')
    play.add_argument("--script", type=Path, default=None, help="read the players' actions from FILE")
    play.add_argument("--json", action="store_true", help="print the final state as JSON")
    play.add_argument("--language", choices=LANGUAGES, default="en", help="language of the bot's own words")
    play.set_defaults(func=_play)


def _play(args: argparse.Namespace) -> int:
    difficulty = args.difficulty if args.difficulty is not None else DEFAULT_DIFFICULTY[args.deck]
    if args.deck == "hydra":
        args.heads = difficulty
        return hydra_cli._play(args)
    language = args.language
    try:
        game = _new_game(args, difficulty)
    except ChallengeError as error:
        print(f"podkeeper challenge: {t(error.key, language, **error.values)}", file=sys.stderr)
        return 2
    if args.script is not None:
        try:
            lines = read_script(args.script)
        except (OSError, ChallengeError) as error:
            reason = error.strerror if isinstance(error, OSError) else t(error.key, language, **error.values)
            print(f"podkeeper challenge: {args.script}: {reason}", file=sys.stderr)
            return 2
        game, status = run_script(game, lines, language)
        if status:
            return status
        if not game.over:
            print(t("hydra.cli.script_ended", language), file=sys.stderr)
    else:
        if args.show_seed:
            print(f"seed {game.seed}")
        game = interactive(game, language, PRESENTER, input_line=input, show=print)
    if args.json:
        data = game.snapshot() | {"log": log_lines(game.events, language), "seed": game.seed,
                                  "difficulty": game.difficulty, "actions": list(game.actions)}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(board_text(game, language))
        if game.over:
            print(t(f"challenge.log.{game.outcome}", language))
    return 0


def _new_game(args: argparse.Namespace, difficulty: int) -> CreatureDeckGame:
    heroes: dict[int, list[str]] = {}
    for spec in args.hero:
        seat, _, name = spec.partition(":")
        hero = find_hero(name)
        if not seat.strip().isdigit() or hero is None:
            raise ChallengeError("hydra.error.unknown_hero", hero=spec)
        heroes.setdefault(int(seat), []).append(hero.name)
    seats = [Seat(f"Player {i}", tuple(heroes.get(i, ()))) for i in range(1, args.players + 1)]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return DECKS[args.deck](seats, seed, difficulty, all_windows=args.all_windows)
