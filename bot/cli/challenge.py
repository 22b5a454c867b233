"""``podkeeper challenge play --deck hydra|horde|god``: any Hero's Path challenge deck in the terminal.

``--deck hydra`` is ``podkeeper hydra play`` (``--difficulty`` = starting heads, default 3); the Horde
(``--difficulty`` = the player's turns before the Horde's first, default 3; one player, as printed)
and the God (``--difficulty`` = starting Rollicking Throngs, default 2; 1-4 players sharing 20 life)
use the same script language, ``at TOPIC`` windows, undo and ``--json``.
"""

from __future__ import annotations

import argparse
import random

from bot.cli import hydra as hydra_cli
from bot.cli._challenge_runner import Presenter, add_play_options, fail, heroes_by_seat, play
from bot.domain.challenge.actions import __doc__ as ACTIONS_HELP
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import CreatureDeckGame, Seat
from bot.domain.challenge.decks import RULES
from bot.domain.challenge.games import DECK_NAMES, new_game
from bot.i18n import t
from bot.render.challenge import board_text, decision_text, log_lines


def game_json(game: CreatureDeckGame, language: str = "en") -> dict[str, object]:
    """The ``--json`` output: the state, the log, and the seed and action log (enough to replay)."""
    data = game.snapshot()
    for permanent, shown in zip(game.battlefield, data["permanents"], strict=True):  # type: ignore[call-overload]
        shown["number"] = game.number_of(permanent)  # the number a script names it by
    return data | {
        "log": log_lines(game.events, language),
        "seed": game.seed,
        "difficulty": game.difficulty,
        "house_rule_life": game.life_per_player,
        "actions": list(game.actions),
    }


PRESENTER = Presenter(
    board_text,
    decision_text,
    log_lines,
    ACTIONS_HELP or "",
    game_json,
    lambda outcome, language: t(f"challenge.log.{outcome}", language),
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "challenge",
        help="play a Hero's Path challenge deck (Hydra, Horde, God)",
        description="Face the Hydra, Battle the Horde or Defeat a God with the bot's engine.",
    )
    sub = parser.add_subparsers(dest="challenge_command", metavar="ACTION", required=True)
    play = sub.add_parser(
        "play",
        help="play a game (interactive, or from a script)",
        description="Play a challenge deck. Numbers are those printed on the board; each stays with its "
        "permanent for the whole game.",
        epilog=PRESENTER.help,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("--deck", choices=DECK_NAMES, required=True)
    play.add_argument(
        "--difficulty",
        type=int,
        default=None,
        help="hydra: starting heads (3); horde: turns before the Horde's first (3; 2 harder, "
        "4 easier); god: starting Rollicking Throngs (2; 1 easier, 3 harder)",
    )
    add_play_options(
        play,
        players_help="hydra and god: 1-4 players; horde: 1 (as printed)",
        windows_help="every response window: the deck's upkeep and each triggered ability",
        hero_help='a Hero card for a player, e.g. "1:The Slayer" (repeatable)',
    )
    play.add_argument(
        "--house-life",
        action="store_true",
        help="god, 2-4 players: the house rule of 20 shared life per player (printed: 20 in all)",
    )
    play.set_defaults(func=_play)


def _play(args: argparse.Namespace) -> int:
    """Every deck the same way: its game from the one set-up (``new_game``), shown by its presenter."""
    try:
        heroes = heroes_by_seat(args.hero)
        most = RULES[args.deck].max_players  # checked before the seats are made: --players 100000000 hung
        if not 1 <= args.players <= most:
            raise ChallengeError("challenge.error.players_range", max=most)
        seats = [Seat(f"Player {i}", tuple(heroes.get(i, ()))) for i in range(1, args.players + 1)]
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        game = new_game(
            args.deck,
            seats,
            seed,
            args.difficulty,
            all_windows=args.all_windows,
            life_per_player=args.house_life,
        )
    except ChallengeError as error:
        return fail("challenge", t(error.key, args.language, **error.values))
    presenter = hydra_cli.PRESENTER if args.deck == "hydra" else PRESENTER
    return play(game, args, presenter, "challenge")
