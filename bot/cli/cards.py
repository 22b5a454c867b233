"""``podkeeper cards import|lookup|sync``: the card database from the command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import IO, Any

from bot.cards.database import CardDatabase, ImportResult, open_card_database
from bot.cards.importers import FORMATS, CardImportError
from bot.cards.index import CardIndex, Resolution
from bot.cards.messages import maybe_newer_text
from bot.cards.model import PRINTED_LANGUAGES, Card
from bot.cards.sync import CardSyncError, sync_cards
from bot.storage.db import Database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cards",
        help="card database (import, lookup, sync)",
        description="The card database: import files, look cards up, sync online.",
    )
    sub = parser.add_subparsers(dest="cards_command", metavar="ACTION", required=True)

    importer = sub.add_parser(
        "import",
        help="replace the card data with a file",
        description="Replace the card data with a file: the bundled JSON Lines format (.jsonl/.jsonl.gz), a "
        "Scryfall bulk file (oracle_cards/default_cards JSON) or MTGJSON AtomicCards.json, plain "
        "or gzip/bz2/xz-compressed. The format is detected. A bad file changes nothing; "
        "importing the same file again gives the same data. Printed names the file lacks are kept "
        "from the current data.",
        epilog="example: podkeeper cards import ~/Downloads/oracle-cards-20250401.json",
    )
    importer.add_argument("path", help="the card data file")
    importer.add_argument("--format", choices=FORMATS, help="skip detection and read the file as this format")
    importer.set_defaults(func=_import)

    lookup = sub.add_parser(
        "lookup",
        help="show a card (English, Japanese or Chinese name)",
        description="Resolve a card name the way the bot does (exact, any case/accents/punctuation, either "
        "face, Japanese or Chinese printed names) and show the card. Exit status 1 with "
        "suggestions when no single card matches.",
        epilog="examples: podkeeper cards lookup lim dul's vault · podkeeper cards lookup 稲妻 --json",
    )
    lookup.add_argument("name", nargs="+", help="the card name (quotes optional)")
    lookup.add_argument("--json", action="store_true", help="print JSON instead of text")
    lookup.set_defaults(func=_lookup)

    sync = sub.add_parser(
        "sync",
        help="download the newest card data (Scryfall + MTGJSON)",
        description="Download Scryfall's newest oracle_cards bulk file and MTGJSON AtomicCards (for Japanese "
        "and Chinese names), then replace the card data in one step. On any failure, offline "
        "included, the current data stays. URLs: [cards] scryfall_bulk_url and mtgjson_url.",
    )
    sync.set_defaults(func=_sync)


# -- progress --------------------------------------------------------------------------------------


class ProgressBar:
    """A one-line progress bar on a terminal; silent when the output is not a terminal."""

    WIDTH = 30

    def __init__(self, label: str, stream: IO[str] | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.1 and (not total or done < total):
            return
        self._last = now
        megabytes = f"{done / 1e6:.1f}" + (f"/{total / 1e6:.1f} MB" if total else " MB")
        if total:
            filled = min(self.WIDTH, self.WIDTH * done // total)
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {min(100, 100 * done // total):3d}% "
        else:
            bar = ""
        self.stream.write(f"\r{self.label} {bar}{megabytes}")
        self.stream.flush()
        self._drawn = True

    def finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _report(result: ImportResult) -> None:
    kept = f", printed names kept for {result.kept_printed_names}" if result.kept_printed_names else ""
    skipped = (
        f", {result.skipped} records skipped (tokens, art cards, other languages)" if result.skipped else ""
    )
    print(
        f"imported {result.card_count} cards ({result.format}) from {result.source} in {result.seconds:.1f} s"
        f"{skipped}{kept}"
    )


# -- commands ----------------------------------------------------------------------------------------


def _import(args: argparse.Namespace) -> int:
    async def run() -> int:
        db = await Database.open(args.config_obj.database_url)
        bar = ProgressBar(f"importing {args.path}")
        try:
            cards = CardDatabase(db, CardIndex.from_cards(()))
            result = await cards.import_file(args.path, args.format, bar)
        except CardImportError as exc:
            bar.finish()
            print(f"podkeeper: {exc}\nThe current card data is unchanged.", file=sys.stderr)
            return 1
        finally:
            await db.close()
        bar.finish()
        _report(result)
        return 0

    return asyncio.run(run())


def _sync(args: argparse.Namespace) -> int:
    async def run() -> int:
        db = await Database.open(args.config_obj.database_url)
        bars: list[ProgressBar] = []

        def progress(label: str) -> ProgressBar:
            if bars:
                bars[-1].finish()
            bars.append(ProgressBar(label))
            return bars[-1]

        try:
            cards = CardDatabase(db, CardIndex.from_cards(()))
            result = await sync_cards(cards, args.config_obj, progress)
        except (CardSyncError, CardImportError) as exc:
            if bars:
                bars[-1].finish()
            print(f"podkeeper: cards sync failed: {exc}", file=sys.stderr)
            return 1
        finally:
            await db.close()
        if bars:
            bars[-1].finish()
        _report(result)
        return 0

    return asyncio.run(run())


def _lookup(args: argparse.Namespace) -> int:
    async def run() -> Resolution:
        db, cards = await open_card_database(args.config_obj)
        try:
            return cards.resolve(" ".join(args.name))
        finally:
            await db.close()

    resolution = asyncio.run(run())
    if args.json:
        print(json.dumps(lookup_json(resolution), ensure_ascii=False))
    else:
        print(lookup_text(resolution))
    return 0 if resolution.card else 1


def lookup_json(resolution: Resolution) -> dict[str, Any]:
    """The JSON of ``cards lookup --json``: the card, or no name and suggestions."""
    card = resolution.card
    if card is None:
        out: dict[str, Any] = {"name": None, "suggestions": list(resolution.suggestions)}
        if resolution.newer is not None:  # close to no card: maybe newer than the data
            out["maybe_newer_than_data"] = {"data_date": resolution.newer.data_date}
        return out
    return {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "color_identity": card.color_identity,
        "printed_names": dict(card.printed_names),
    }


def lookup_text(resolution: Resolution) -> str:
    card = resolution.card
    if card is None:
        if resolution.ambiguous:
            return f"{resolution.query!r} is the name of several cards: {', '.join(resolution.ambiguous)}"
        if resolution.newer is not None:
            return f"no card named {resolution.query!r}. " + maybe_newer_text(
                resolution.newer, resolution.suggestions, "en"
            )
        if resolution.suggestions:
            return f"no card named {resolution.query!r}. Did you mean: {', '.join(resolution.suggestions)}?"
        return f"no card named {resolution.query!r}, and nothing close."
    return card_text(card)


def card_text(card: Card) -> str:
    lines = []
    for face in card.all_faces:
        lines.append(f"{face.name}  {face.mana_cost}".rstrip())
        lines.append(face.type_line)
        if face.oracle_text:
            lines.append(face.oracle_text)
        if face.power is not None or face.toughness is not None:
            lines.append(f"{face.power}/{face.toughness}")
        if face.loyalty is not None:
            lines.append(f"Loyalty: {face.loyalty}")
        lines.append("")
    lines.append(
        f"Colour identity: {card.color_identity or 'colourless'} · Commander: {card.commander_legality}"
    )
    names = [
        f"{lang}: {card.printed_names[lang]}" for lang in PRINTED_LANGUAGES if lang in card.printed_names
    ]
    if names:
        lines.append(" · ".join(names))
    return "\n".join(lines)
