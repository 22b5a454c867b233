"""``podkeeper deck swap DECK --out NAME --in NAME … [--ruleset] [--json]``: try sideboard swaps on a deck
file (docs/rules/RULES.md D7, T1), for organisers preparing a tournament of matches.

The swaps are applied in order, 1-for-1 between the main deck and the sideboard (the same rules as at the
table: ``bot.domain.sideboard``), and the deck as it would be played is checked again.
Exit status: 0 swaps accepted and the deck legal, 1 a swap refused or the deck not legal, 2 unreadable
input or ``--out``/``--in`` not paired.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from bot.cli._decklist_input import read_deck_file, report_refusal
from bot.config import RULESETS
from bot.domain.decklist import DecklistRefused
from bot.domain.sideboard import Swap, SwapError, SwapVerdict, check_swaps
from bot.i18n import LANGUAGES, t
from bot.render.deck import verdict_headline, verdict_json, verdict_lines

EXIT_LEGAL, EXIT_REFUSED, EXIT_UNREADABLE = 0, 1, 2


def register(sub: argparse._SubParsersAction) -> None:
    from pathlib import Path

    swap = sub.add_parser(
        "swap",
        help="try sideboard swaps on a deck list (D7)",
        description="Swap cards 1-for-1 between main deck and sideboard and check the deck as it would be "
        "played. Exit status: 0 legal, 1 refused or not legal, 2 unreadable input.",
    )
    swap.add_argument(
        "file", type=Path, help="the deck list file, with its sideboard ('-' reads standard input)"
    )
    swap.add_argument(
        "--out", action="append", default=[], metavar="NAME", help="a main-deck card that goes out"
    )
    swap.add_argument(
        "--in",
        dest="into",
        action="append",
        default=[],
        metavar="NAME",
        help="the sideboard card that comes in for the --out of the same position",
    )
    swap.add_argument(
        "--ruleset",
        choices=RULESETS,
        default=None,
        help="commander, edh-2010 or duel-zh (default: [defaults] ruleset of the config)",
    )
    swap.add_argument("--json", action="store_true", help="print the result as JSON")
    swap.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="language of the messages (default: [defaults] locale of the config)",
    )
    swap.set_defaults(func=_swap)


def _swap(args: argparse.Namespace) -> int:
    config = args.config_obj
    language = args.language or config.default_locale
    ruleset = args.ruleset or config.default_ruleset
    if not args.out or len(args.out) != len(args.into):
        print(
            t("sideboard.error.size_change", language, out=len(args.out), into=len(args.into)),
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    data = read_deck_file(args.file, language)
    if data is None:
        return EXIT_UNREADABLE
    swaps = [Swap(out.strip(), into.strip()) for out, into in zip(args.out, args.into, strict=True)]
    try:
        result = asyncio.run(_run(config, data, ruleset, args.file.name, swaps))
    except DecklistRefused as refusal:
        report_refusal(refusal, language)
        return EXIT_UNREADABLE
    except SwapError as error:
        message = t(error.key, language, **error.values)
        if args.json:
            print(
                json.dumps(
                    {"accepted": False, "error": error.key.rsplit(".", 1)[-1], "message": message},
                    ensure_ascii=False,
                    indent=2,
                )
            )
        else:
            print(message)
        return EXIT_REFUSED
    if args.json:
        print(
            json.dumps(
                {
                    "accepted": True,
                    "swaps": [s.as_data() for s in swaps],
                    "verdict": verdict_json(result.verdict, language),
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for swap in swaps:
            print(f"- {swap.out}  + {swap.into}")
        print(verdict_headline(result.verdict, language))
        for line in verdict_lines(result.verdict, language):
            print(f"  {line}")
    return EXIT_LEGAL if result.verdict.legal else EXIT_REFUSED


async def _run(config, data: bytes, ruleset: str, filename: str, swaps: list[Swap]) -> SwapVerdict:
    from bot.cards.database import open_card_database
    from bot.services.decks import check_deck_text

    db, cards = await open_card_database(config)
    try:
        deck = check_deck_text(data, cards, ruleset, filename).deck
        return check_swaps(deck, ruleset, [], swaps)
    finally:
        await db.close()
