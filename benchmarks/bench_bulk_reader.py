"""The bulk files' streaming reader: the hand-written ``JsonStream`` against ijson with its C backend. Run by hand:

    pip install ijson && nice python benchmarks/bench_bulk_reader.py [--repeats 3]

What ``podkeeper cards sync`` downloads is Scryfall's ``oracle_cards`` bulk file (one JSON array, ~35,000 cards
of ~4.5 KB each, ~160 MB, one compact object per line) and MTGJSON's ``AtomicCards.json`` (one minified
object, ``{"meta": ..., "data": {name: [face, ...]}}``). No such file may be downloaded here, so both are made
in those layouts from the real bundled cards: each card gets the fields a Scryfall card object has besides
the ones the importer reads (ids, links, image links, prices, printing details), and the data set is taken
one and a half times over (renamed) to reach the size of today's file.

Figures, CPU seconds (min and median of ``--repeats``), with the ratio ijson / hand-written:
- the reader alone: every element decoded into Python objects, nothing else (``json.loads`` of the whole
  file is shown beside: the same C decoder, no streaming, every card held at once);
- the whole import (``read_cards``: reading, checking and converting every record into ``Card``), once with
  the hand-written reader and once with the importer's Scryfall reader swapped for ijson, which is what a
  switch would change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot import paths  # noqa: E402
from bot.cards import importers  # noqa: E402

SCRYFALL_SIZE = 1.5  # times the bundled data: today's oracle_cards holds ~35,000 cards


def scryfall_card(record: dict[str, Any], number: int) -> dict[str, Any]:
    """A bundled card with the fields a Scryfall card object also has (placeholders of the real lengths)."""
    uid = f"{number:08x}-0000-4000-8000-{number:012x}"
    images = {
        size: f"https://cards.scryfall.io/{size}/front/0/0/{uid}.jpg?1700000000"
        for size in ("small", "normal", "large", "png", "art_crop", "border_crop")
    }
    shop = "https://partner.example/product/123456?utm_campaign=affiliate&utm_medium=api&utm_source=scryfall"
    return {
        "object": "card",
        "id": uid,
        "oracle_id": uid,
        "multiverse_ids": [number],
        "mtgo_id": number,
        "tcgplayer_id": number,
        "cardmarket_id": number,
        "lang": "en",
        "released_at": "2022-04-29",
        "uri": f"https://api.scryfall.com/cards/{uid}",
        "scryfall_uri": f"https://scryfall.com/card/snc/1/{uid}",
        "highres_image": True,
        "image_status": "highres_scan",
        "image_uris": images,
        "cmc": 3.0,
        "keywords": ["Flying"],
        "games": ["paper", "mtgo"],
        "reserved": False,
        "foil": True,
        "nonfoil": True,
        "finishes": ["nonfoil", "foil"],
        "oversized": False,
        "promo": False,
        "reprint": True,
        "variation": False,
        "set_id": uid,
        "set": "snc",
        "set_name": "Streets of New Capenna",
        "set_type": "expansion",
        "set_uri": f"https://api.scryfall.com/sets/{uid}",
        "rulings_uri": f"https://api.scryfall.com/cards/{uid}/rulings",
        "prints_search_uri": f"https://api.scryfall.com/cards/search?order=released&q=oracleid%3A{uid}",
        "collector_number": str(number % 400),
        "digital": False,
        "rarity": "rare",
        "flavor_text": "The streets remember every debt.",
        "card_back_id": uid,
        "artist": "Some Artist",
        "artist_ids": [uid],
        "illustration_id": uid,
        "border_color": "black",
        "frame": "2015",
        "full_art": False,
        "textless": False,
        "booster": True,
        "story_spotlight": False,
        "edhrec_rank": number,
        "penny_rank": number,
        "prices": {
            "usd": "0.25",
            "usd_foil": "0.50",
            "usd_etched": None,
            "eur": "0.20",
            "eur_foil": "0.40",
            "tix": "0.03",
        },
        "related_uris": {
            "gatherer": f"https://gatherer.wizards.com/Pages/Card/Details.aspx?multiverseid={number}",
            "edhrec": f"https://edhrec.com/route/?cc={uid}",
        },
        "purchase_uris": {"tcgplayer": shop, "cardmarket": shop, "cardhoarder": shop},
        **record,
    }


def bundled_records() -> list[dict[str, Any]]:
    import gzip

    with gzip.open(paths.BUNDLED_CARDS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def make_files(folder: Path) -> tuple[Path, Path, int]:
    """The oracle_cards array and the AtomicCards object, in the layouts of the real downloads."""
    records = bundled_records()
    extra = [
        {**record, "name": f"{record['name']} (again)", "card_faces": []}
        for record in records[: int(len(records) * (SCRYFALL_SIZE - 1))]
    ]
    cards = [scryfall_card(record, number) for number, record in enumerate(records + extra)]
    array = folder / "oracle-cards.json"
    with array.open("w", encoding="utf-8") as out:
        out.write(
            "[\n"
            + ",\n".join(json.dumps(card, ensure_ascii=False, separators=(",", ":")) for card in cards)
            + "\n]"
        )
    atomic = folder / "AtomicCards.json"
    by_name = {card["name"]: [card] for card in cards}
    atomic.write_text(
        json.dumps(
            {"meta": {"date": "2022-04-29", "version": "5.2.2"}, "data": by_name},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        encoding="utf-8",
    )
    return array, atomic, len(cards)


# -- the readers -----------------------------------------------------------------------------------


def hand_array(path: Path) -> int:
    with importers.open_text(path) as text:
        return sum(1 for _ in importers.JsonStream(text, str(path)).array_items())


def hand_object(path: Path) -> int:
    """The MTGJSON walk of the importer: skip "meta", one value per card under "data"."""
    with importers.open_text(path) as text:
        stream, count = importers.JsonStream(text, str(path)), 0
        for key in stream.object_keys():
            if key != "data":
                stream.value()
                continue
            for _ in stream.object_keys():
                stream.value()
                count += 1
        return count


def ijson_array(path: Path) -> int:
    import ijson

    with path.open("rb") as raw:
        return sum(1 for _ in ijson.items(raw, "item", use_float=True))


def ijson_object(path: Path) -> int:
    import ijson

    with path.open("rb") as raw:
        return sum(1 for _ in ijson.kvitems(raw, "data", use_float=True))


def whole(path: Path) -> int:
    return len(json.loads(path.read_text(encoding="utf-8")))


def ijson_scryfall_records(
    text: IO[str], where: str, note_date: Callable[[object], None]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The importer's Scryfall reader with ijson doing the streaming (the checks as the importer's)."""
    import ijson

    binary = getattr(text, "buffer", text)
    for number, record in enumerate(ijson.items(binary, "item", use_float=True), start=1):
        yield number, importers._require_card_object(record, where, f"element {number}")


def import_with(reader: Callable[..., Iterator[tuple[int, dict[str, Any]]]] | None, path: Path) -> int:
    """``read_cards`` of ``path``, with the importer's Scryfall reader replaced by ``reader`` when given."""
    kept = importers._scryfall_records
    if reader is not None:
        importers._scryfall_records = reader  # type: ignore[assignment]
    try:
        return len(importers.read_cards(path, "scryfall").cards)
    finally:
        importers._scryfall_records = kept


def measure(label: str, read: Callable[[], int], repeats: int) -> float:
    spent, elements = [], 0
    for _ in range(repeats):
        started = time.process_time()
        elements = read()
        spent.append(time.process_time() - started)
    print(
        f"  {label:44} {min(spent):6.2f} {statistics.median(spent):6.2f}  ({elements} elements)", flush=True
    )
    return min(spent)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    try:
        import ijson
    except ImportError:
        sys.exit("ijson is not installed: pip install ijson (the comparison needs it)")
    print(
        f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; ijson {ijson.__version__}, "
        f"backend {ijson.backend}; CPU seconds, min / median of {args.repeats}"
    )
    with tempfile.TemporaryDirectory() as folder:
        array, atomic, count = make_files(Path(folder))
        print(
            f"{count} cards: oracle-cards.json {array.stat().st_size / 1e6:.0f} MB, "
            f"AtomicCards.json {atomic.stat().st_size / 1e6:.0f} MB"
        )
        r = args.repeats
        rows = {
            "array": (
                measure("json.loads of the whole file, array", lambda: whole(array), r),
                measure("hand-written, array", lambda: hand_array(array), r),
                measure(f"ijson {ijson.backend}, array", lambda: ijson_array(array), r),
            ),
            "object": (
                measure("json.loads of the whole file, object", lambda: whole(atomic), r),
                measure("hand-written, object", lambda: hand_object(atomic), r),
                measure(f"ijson {ijson.backend}, object", lambda: ijson_object(atomic), r),
            ),
            "import": (
                float("nan"),
                measure("whole import (read_cards), hand-written", lambda: import_with(None, array), r),
                measure(
                    "whole import (read_cards), ijson", lambda: import_with(ijson_scryfall_records, array), r
                ),
            ),
        }
    print("ratio ijson / hand-written (above 1: ijson is slower):")
    for what, (_floor, hand, library) in rows.items():
        print(f"  {what:7} {library / hand:.2f}  (hand-written {hand:.2f} s, ijson {library:.2f} s)")


if __name__ == "__main__":
    main()
