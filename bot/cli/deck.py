"""``podkeeper deck check FILE|URL [--ruleset NAME] [--json]``: check a deck list (or deck link) from the shell
(``deck swap``, sideboard swaps: ``bot/cli/deck_swap.py``).

Exit status: 0 legal, 1 illegal or unverifiable, 2 unreadable input (or unknown ruleset).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.cli._decklist_input import read_deck_file, report_refusal
from bot.config import RULESETS
from bot.domain.deck_sources import looks_like_url
from bot.domain.decklist import DecklistRefused
from bot.domain.rules import UnknownRuleset
from bot.i18n import LANGUAGES, t
from bot.i18n.glossary import join_list
from bot.render.brackets import bracket_headline, bracket_json, bracket_lines
from bot.render.deck import note_message, verdict_headline, verdict_json, verdict_lines
from bot.services.deck_urls import DeckUrlFetcher
from bot.services.decks import DeckCheck, check_deck_text

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("deck", help="check deck lists", description="Deck lists.")
    sub = parser.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    check = sub.add_parser(
        "check",
        help="check a deck list's legality",
        description="Check a deck list (text, Arena/MTGO/Moxfield/Archidekt/TappedOut/MTGGoldfish export, "
        "MTGO .dek, Cockatrice .cod, Forge or XMage .dck, .csv). "
        "Exit status: 0 legal, 1 illegal or unverifiable, 2 unreadable input.",
    )
    check.add_argument(
        "file", help="the deck list file ('-' reads standard input), or an Archidekt or Moxfield deck link"
    )
    check.add_argument(
        "--ruleset",
        choices=RULESETS,
        default=None,
        help="commander, edh-2010 or duel-zh (default: [defaults] ruleset of the config)",
    )
    check.add_argument(
        "--commander",
        action="append",
        default=[],
        metavar="NAME",
        help="the commander when the list names none (twice for partners)",
    )
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    check.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="language of the messages (default: [defaults] locale of the config)",
    )
    check.set_defaults(func=_check)
    from bot.cli import deck_swap  # ``deck swap``: sideboard swaps

    deck_swap.register(sub)


def _check(args: argparse.Namespace) -> int:
    config = args.config_obj
    language = args.language or config.default_locale
    ruleset = args.ruleset or config.default_ruleset
    try:
        data: str | bytes | None
        filename: str | None
        if looks_like_url(args.file):
            data, filename = asyncio.run(DeckUrlFetcher.from_config(config).fetch(args.file)).text, None
        else:
            data, filename = read_deck_file(Path(args.file), language), Path(args.file).name
        if data is None:
            return EXIT_UNREADABLE
        result = asyncio.run(_run_check(config, data, ruleset, filename, args.commander))
    except DecklistRefused as refusal:
        report_refusal(refusal, language)
        return EXIT_UNREADABLE
    except UnknownRuleset as exc:
        print(
            t("deck.refused.unknown_ruleset", language, name=exc.name, choices=list(RULESETS)),
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    verdict = result.verdict
    if args.json:
        shown = {**verdict_json(verdict, language), "bracket": bracket_json(result.bracket, language)}
        print(json.dumps(shown, ensure_ascii=False, indent=2))
    else:
        _print_text(result, language)
    return EXIT_LEGAL if verdict.legal else EXIT_ILLEGAL


async def _run_check(
    config, data: bytes | str, ruleset: str, filename: str | None, commanders: list[str]
) -> DeckCheck:
    from bot.cards.database import open_card_database

    db, cards = await open_card_database(config)
    try:
        return check_deck_text(data, cards, ruleset, filename, commanders)
    finally:
        await db.close()


def _print_text(result: DeckCheck, language: str) -> None:
    verdict = result.verdict
    print(verdict_headline(verdict, language))
    commanders = " + ".join(verdict.commanders) or t("deck.summary.none", language)
    print(t("core.label_value", language, label=t("deck.summary.commanders", language), value=commanders))
    print(
        t(
            "core.label_value",
            language,
            label=t("deck.summary.identity", language),
            value=verdict.colour_identity or "C",
        )
    )
    print(t("core.label_value", language, label=t("deck.summary.cards", language), value=verdict.card_count))
    types = join_list(
        [
            t("deck.summary.type_count", language, type=t(f"deck.type.{name}", language), count=count)
            for name, count in result.summary.types.items()
        ],
        language,
    )
    print(t("core.label_value", language, label=t("deck.summary.types", language), value=types))
    curve = " ".join(
        f"{value if value < 7 else '7+'}:{count}" for value, count in enumerate(result.summary.curve)
    )
    print(t("core.label_value", language, label=t("deck.summary.curve", language), value=curve))
    for line in verdict_lines(verdict, language):
        print(f"  {line}")
    for note in verdict.notes:
        print("  " + t("core.in_parentheses", language, text=note_message(note, language)))
    print(bracket_headline(result.bracket, language))
    for line in bracket_lines(result.bracket, language):
        print(f"  {line}")
