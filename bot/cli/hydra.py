"""``podkeeper hydra play``: face the Hydra in the terminal with the same engine the bot uses.

Interactive by default (type commands; an empty line answers a question with its default), or
``--script FILE`` with one command per line (see docs/readme/hydra.md for the language). ``--json``
prints the final state as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from bot.cli._challenge_runner import Presenter, interactive, read_script, run_script
from bot.domain.challenge.core import ChallengeError
from bot.domain.hydra import GameSetup, HydraError, HydraGame, PlayerSetup
from bot.domain.hydra.actions import __doc__ as ACTIONS_HELP
from bot.domain.hydra.cards import HEROES, find_hero
from bot.domain.hydra.engine import MAX_HEADS, MAX_PLAYERS, MIN_HEADS
from bot.i18n import LANGUAGES, t
from bot.render.hydra import board_text, decision_text, log_lines

PRESENTER = Presenter(board_text, decision_text, log_lines, ACTIONS_HELP or "")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("hydra", help="face the Hydra challenge deck in the terminal",
                                   description="Face the Hydra (H1-H13) with the bot's engine.")
    sub = parser.add_subparsers(dest="hydra_command", metavar="ACTION", required=True)
    play = sub.add_parser("play", help="play a game (interactive, or from a script)",
                          description="Play Face the Hydra. HEAD numbers are positions in the printed head list.",
                          epilog=ACTIONS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--heads", type=int, required=True,
                      help=f"difficulty: starting Hydra Heads ({MIN_HEADS}-{MAX_HEADS}; 2 easy, 3 normal, 4 hard)")
    play.add_argument("--players", type=int, default=1, help=f"challengers sharing turns (1-{MAX_PLAYERS}, H10)")
    play.add_argument("--seed", type=int, default=None,
                      help="shuffle seed (default: random and kept secret, so nobody learns the library)")
    play.add_argument("--show-seed", action="store_true", help="print the seed at the start (to replay a game)")
    play.add_argument("--all-windows", action="store_true",
                      help="open every response window: the Hydra's upkeep and each triggered ability")
    play.add_argument("--hero", action="append", default=[], metavar="PLAYER:NAME",
                      help='a Hero card for a player, e.g. "1:The Slayer" (up to two each; repeatable)')
    play.add_argument("--script", type=Path, default=None, help="read the players' actions from FILE")
    play.add_argument("--json", action="store_true", help="print the final state as JSON")
    play.add_argument("--language", choices=LANGUAGES, default="en", help="language of the bot's own words")
    play.set_defaults(func=_play)
    heroes = sub.add_parser("heroes", help="list the Hero cards players may start with",
                            description="The Hero's Path Hero cards and their texts.")
    heroes.set_defaults(func=_heroes)


def _heroes(args: argparse.Namespace) -> int:
    for hero in HEROES.values():
        print(f"{hero.name} ({hero.set_code}): {hero.text}")
    return 0


def _fail(message: str) -> int:
    print(f"podkeeper hydra: {message}", file=sys.stderr)
    return 2


def _setup(args: argparse.Namespace) -> GameSetup:
    heroes: dict[int, list[str]] = {}
    for spec in args.hero:
        seat, _, name = spec.partition(":")
        hero = find_hero(name)
        if not seat.strip().isdigit() or hero is None:
            raise HydraError("hydra.error.unknown_hero", hero=spec)
        heroes.setdefault(int(seat), []).append(hero.name)
    if not 1 <= args.players <= MAX_PLAYERS:
        raise HydraError("hydra.error.players_range", max=MAX_PLAYERS)
    for seat in heroes:
        if not 1 <= seat <= args.players:
            raise HydraError("hydra.error.no_such_player", player=seat, count=args.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    players = tuple(PlayerSetup(f"Player {i}", tuple(heroes.get(i, ()))) for i in range(1, args.players + 1))
    return GameSetup(heads=args.heads, players=players, seed=seed, all_windows=args.all_windows)


def _play(args: argparse.Namespace) -> int:
    language = args.language
    try:
        setup = _setup(args)
        game = HydraGame(setup)
    except HydraError as error:
        return _fail(t(error.key, language, **error.values))
    if args.script is not None:
        try:
            lines = read_script(args.script)
        except OSError as error:
            return _fail(f"{args.script}: {error.strerror}")
        except ChallengeError as error:
            return _fail(f"{args.script}: {t(error.key, language, **error.values)}")
        game, status = run_script(game, lines, language)
        if status:
            return status
        if not game.over:
            print(t("hydra.cli.script_ended", language), file=sys.stderr)
    else:
        if args.show_seed:
            print(f"seed {setup.seed}")
        game = interactive(game, language, PRESENTER, input_line=input, show=print)
    if args.json:
        print(json.dumps(game_json(game, language), ensure_ascii=False, indent=2))
    else:
        print(board_text(game, language))
        if game.over:
            print(t(f"hydra.cli.outcome_{game.outcome}", language))
    return 0


def game_json(game: HydraGame, language: str = "en") -> dict[str, object]:
    """The ``--json`` output: the issue's keys plus the seed and action log (enough to replay)."""
    data = game.snapshot()
    data["log"] = log_lines(game.events, language)
    data["seed"] = game.setup.seed
    data["starting_heads"] = game.setup.heads
    data["actions"] = list(game.actions)
    return data
