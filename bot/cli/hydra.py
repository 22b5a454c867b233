"""``podkeeper hydra play``: face the Hydra in the terminal with the same engine the bot uses.

Interactive by default (type commands; an empty line answers a question with its default), or
``--script FILE`` with one command per line (see docs/readme/hydra.md for the language). ``--json``
prints the final state as JSON.
"""

from __future__ import annotations

import argparse
import random

from bot.cli._challenge_runner import Presenter, add_play_options, fail, heroes_by_seat, play
from bot.domain.challenge.actions import __doc__ as ACTIONS_HELP
from bot.domain.challenge.core import ChallengeError
from bot.domain.hydra import GameSetup, HydraError, HydraGame, PlayerSetup
from bot.domain.hydra.cards import HEROES
from bot.domain.hydra.engine import MAX_HEADS, MAX_PLAYERS, MIN_HEADS
from bot.i18n import t
from bot.render.hydra import board_text, decision_text, log_lines


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hydra",
        help="face the Hydra challenge deck in the terminal",
        description="Face the Hydra (H1-H13) with the bot's engine.",
    )
    sub = parser.add_subparsers(dest="hydra_command", metavar="ACTION", required=True)
    play = sub.add_parser(
        "play",
        help="play a game (interactive, or from a script)",
        description="Play Face the Hydra. HEAD numbers are those printed on the board; each stays with "
        "its head for the whole game.",
        epilog=ACTIONS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument(
        "--heads",
        type=int,
        required=True,
        help=f"difficulty: starting Hydra Heads ({MIN_HEADS}-{MAX_HEADS}; 2 easy, 3 normal, 4 hard)",
    )
    add_play_options(
        play,
        players_help=f"challengers sharing turns (1-{MAX_PLAYERS}, H10)",
        windows_help="open every response window: the Hydra's upkeep and each triggered ability",
        hero_help='a Hero card for a player, e.g. "1:The Slayer" (up to two each; repeatable)',
    )
    play.set_defaults(func=_play)
    heroes = sub.add_parser(
        "heroes",
        help="list the Hero cards players may start with",
        description="The Hero's Path Hero cards and their texts.",
    )
    heroes.set_defaults(func=_heroes)


def _heroes(args: argparse.Namespace) -> int:
    for hero in HEROES.values():
        print(f"{hero.name} ({hero.set_code}): {hero.text}")
    return 0


def _setup(args: argparse.Namespace) -> GameSetup:
    heroes = heroes_by_seat(args.hero)
    if not 1 <= args.players <= MAX_PLAYERS:
        raise HydraError("hydra.error.players_range", max=MAX_PLAYERS)
    for seat in heroes:
        if not 1 <= seat <= args.players:
            raise HydraError("hydra.error.no_such_player", player=seat, count=args.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    players = tuple(PlayerSetup(f"Player {i}", tuple(heroes.get(i, ()))) for i in range(1, args.players + 1))
    return GameSetup(
        heads=args.heads, players=players, seed=seed, all_windows=args.all_windows
    )  # current rules


def _play(args: argparse.Namespace) -> int:
    try:
        game = HydraGame(_setup(args))
    except ChallengeError as error:
        return fail("hydra", t(error.key, args.language, **error.values))
    return play(game, args, PRESENTER, "hydra")


def game_json(game: HydraGame, language: str = "en") -> dict[str, object]:
    """The ``--json`` output: the issue's keys plus the seed and action log (enough to replay)."""
    data = game.snapshot()
    for head, shown in zip(game.battlefield, data["heads"], strict=True):  # type: ignore[call-overload]
        shown["number"] = game.number_of(head)  # the HEAD a script names it by
    data["log"] = log_lines(game.events, language)
    data["seed"] = game.setup.seed
    data["starting_heads"] = game.setup.heads
    data["actions"] = list(game.actions)
    return data


PRESENTER = Presenter(
    board_text,
    decision_text,
    log_lines,
    ACTIONS_HELP or "",
    game_json,
    lambda outcome, language: t(f"hydra.cli.outcome_{outcome}", language),
)
