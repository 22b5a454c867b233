"""``podkeeper mulligan odds FILE [--json]`` and ``podkeeper odds DECK COPIES DRAWN WANT``.

``mulligan odds`` reads a deck list as ``deck check`` does (same parser, same card resolution) and
prints the opening-hand odds of ``bot.domain.mulligan.odds``. Exit status: 0 figures printed,
1 a deck the odds cannot describe (no lands, fewer than 7 cards), 2 unreadable input or bad options.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.cli._decklist_input import read_deck_file, report_refusal
from bot.domain.decklist import DecklistRefused
from bot.domain.mulligan import MulliganError, MulliganStyle
from bot.domain.mulligan.odds import DEFAULT_KEEP, DEFAULT_PLAYERS, hypergeometric, monte_carlo_odds
from bot.i18n import LANGUAGES, t
from bot.render.odds import calculator_text, odds_lines, style_row
from bot.services.mulligan import DeckLibrary, error_text, library_from_list, odds_for

EXIT_OK, EXIT_DECK, EXIT_UNREADABLE = 0, 1, 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mulligan", help="opening-hand odds of a deck list", description="Mulligan tools."
    )
    sub = parser.add_subparsers(dest="mulligan_command", metavar="ACTION", required=True)
    odds = sub.add_parser(
        "odds",
        help="lands in the opening hand and keepable-hand odds per mulligan style",
        description="Exact odds for a deck list (any format `deck check` reads): lands in the opening 7, "
        "and per mulligan style (partial Paris, London, Vancouver) the chance to end with a "
        "keepable hand at each hand size. Exit status: 0 done, 1 a deck without lands or under "
        "7 cards, 2 unreadable input.",
    )
    odds.add_argument("file", type=Path, help="the deck list file ('-' reads standard input)")
    odds.add_argument("--json", action="store_true", help="print the figures as JSON")
    odds.add_argument(
        "--keep",
        type=_keep_range,
        default=DEFAULT_KEEP,
        metavar="LOW-HIGH",
        help="keepable land counts (default 2-5)",
    )
    odds.add_argument(
        "--players",
        type=int,
        choices=range(2, 9),
        default=DEFAULT_PLAYERS,
        metavar="2-8",
        help="players in the game: 3+ gives London/Vancouver a free first mulligan (default 4)",
    )
    odds.add_argument(
        "--commander",
        action="append",
        default=[],
        metavar="NAME",
        help="the commander when the list names none (left out of the library)",
    )
    odds.add_argument(
        "--monte-carlo",
        type=int,
        default=0,
        metavar="N",
        help="also simulate N real shuffles per style and print them with 95%% intervals",
    )
    odds.add_argument("--seed", default=None, help="seed for --monte-carlo (reproducible runs)")
    odds.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="language of the messages (default: [defaults] locale of the config)",
    )
    odds.set_defaults(func=_odds)

    calc = subparsers.add_parser(
        "odds",
        help="hypergeometric calculator: exactly / at least WANT copies among DRAWN cards",
        description="P(exactly WANT) and P(at least WANT) copies among DRAWN cards of a DECK_SIZE-card deck "
        "holding COPIES copies.",
    )
    for name in ("deck_size", "copies", "drawn", "want"):
        calc.add_argument(name, type=int)
    calc.add_argument("--json", action="store_true", help="print the figures as JSON")
    calc.add_argument("--language", choices=LANGUAGES, default=None)
    calc.set_defaults(func=_calculator)


def _keep_range(text: str) -> tuple[int, int]:
    try:
        low, high = (int(part) for part in text.replace("–", "-").split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH such as 2-5, got {text!r}") from None
    return low, high


def _odds(args: argparse.Namespace) -> int:
    config = args.config_obj
    language = args.language or config.default_locale
    data = read_deck_file(args.file, language)
    if data is None:
        return EXIT_UNREADABLE
    try:
        deck = asyncio.run(_load(config, data, args.file.name, args.commander))
    except DecklistRefused as refusal:
        report_refusal(refusal, language)
        return EXIT_UNREADABLE
    try:
        odds = odds_for(deck, args.keep, player_count=args.players)
        simulated = (
            {
                style: monte_carlo_odds(
                    style,
                    deck.library,
                    args.monte_carlo,
                    args.keep,
                    player_count=args.players,
                    seed=args.seed,
                )
                for style in MulliganStyle
            }
            if args.monte_carlo > 0
            else {}
        )
    except MulliganError as error:
        print(error_text(error, language), file=sys.stderr)
        return EXIT_UNREADABLE if error.key == "mulligan.error.bad_keep_range" else EXIT_DECK
    if args.json:
        out = odds.to_json()
        out["unknown_cards"] = list(deck.unknown)
        out["commanders"] = [card.name for card in deck.commanders]
        if simulated:
            out["monte_carlo"] = {style.value: result.to_json() for style, result in simulated.items()}
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return EXIT_OK
    for line in odds_lines(odds, language):
        print(line)
    for result in simulated.values():
        print("  " + style_row(result, language))
    if deck.unknown:
        print(t("mulligan.odds.unknown_cards", language, names=list(deck.unknown)))
    if not deck.commanders:
        print(t("mulligan.odds.no_commander", language), file=sys.stderr)
    return EXIT_OK


async def _load(config, data: bytes, filename: str, commanders: list[str]) -> DeckLibrary:
    from bot.cards.database import open_card_database

    db, cards = await open_card_database(config)
    try:
        return library_from_list(data, cards, filename, commanders)
    finally:
        await db.close()


def _calculator(args: argparse.Namespace) -> int:
    language = args.language or args.config_obj.default_locale
    try:
        result = hypergeometric(args.deck_size, args.copies, args.drawn, args.want)
    except MulliganError as error:
        print(error_text(error, language), file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        print(
            json.dumps(
                {
                    "deck_size": result.population,
                    "copies": result.successes,
                    "drawn": result.draws,
                    "want": result.want,
                    "exactly": result.exactly,
                    "at_least": result.at_least,
                }
            )
        )
    else:
        print(calculator_text(result, language))
    return EXIT_OK
