"""One card data file's ready-built index as a file of its own, for the first start of a new database.

The file holds what an import of the data file gives (its format, skipped records and date) and the
finished index (``bot.cards.snapshot``'s blob): reading it back takes ~0.3 s, where reading and indexing
the 24,000 bundled cards takes seconds. It is named by the data file's content hash and by
``snapshot.FORMAT`` (the index layout, the Python version and the ``marshal`` version), so a file built
from other data, by another Python or for an older card model is simply not found, and the data file is
read instead: nothing here ever needs to be invalidated by hand.

This module uses only the standard library and the card modules, because the wheel build runs it in a
build environment that has none of the bot's dependencies (``setup.py``:
``python -m bot.cards.index_file SOURCE FOLDER``).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
from pathlib import Path

from bot.cards import snapshot
from bot.cards.importers import CardImportError, ImportedCards, read_cards
from bot.cards.index import CardIndex
from bot.cards.model import Card

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(source: Path) -> str:
    """The index file's name for the data file ``source`` as it is now, in this Python."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:20]
    return f"cards-{digest}-{_UNSAFE.sub('_', snapshot.FORMAT)}.index"


def checked_index(cards: list[Card], source: str) -> CardIndex:
    """Build the new index and try it before the stored cards are replaced, so data the index can't
    take is refused while the database and the running index are still the old ones."""
    try:
        index = CardIndex.from_cards(cards)
        for card in cards[:1] + cards[-1:]:
            if index.get(card.name) is None or not index.resolve(card.name).found:
                raise ValueError(f"{card.name!r} is not found in the new index")
    except Exception as exc:  # any failure here is the data's: report it, change nothing
        raise CardImportError(
            f"{source}: the cards could not be indexed ({exc}); nothing was changed"
        ) from None
    return index


def write(source: Path, imported: ImportedCards, index: CardIndex, folder: Path) -> Path:
    """Write the index file of ``source`` into ``folder`` (atomically: a reader never sees half a file).
    An existing file of the same name is the same content and is kept. Raises ``OSError``."""
    path = folder / file_name(source)
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    blob = marshal.dumps((imported.format, imported.skipped, imported.data_date, snapshot.dump(index)))
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(blob)
    partial.replace(path)
    return path


def read(path: Path, source: Path) -> tuple[ImportedCards, CardIndex]:
    """The cards and index of the index file ``path``, as if ``source`` had been read. Raises
    ``FileNotFoundError`` when there is none, and ``OSError``, ``ValueError``, ``EOFError`` or
    ``TypeError`` for a file that cannot be used."""
    fmt, skipped, data_date, blob = marshal.loads(path.read_bytes())
    index = snapshot.load(blob)
    return ImportedCards(list(index.cards()), fmt, str(source), skipped, data_date), index


def build(source: Path, folder: Path) -> Path:
    """Read ``source``, index it and write its index file into ``folder``."""
    imported = read_cards(source)
    return write(source, imported, checked_index(imported.cards, imported.source), folder)


def main(argv: list[str]) -> int:
    """``python -m bot.cards.index_file SOURCE FOLDER``: the wheel build's step."""
    if len(argv) != 2:
        print("usage: python -m bot.cards.index_file SOURCE FOLDER", file=sys.stderr)
        return 2
    written = build(Path(argv[0]), Path(argv[1]))
    print(f"card index of {argv[0]} written to {written} ({written.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
