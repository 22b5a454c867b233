"""A cache of the ready-built card index of a card data file, for the first start of a new database.

Reading and indexing the 24,000 bundled cards is most of a first start's CPU (~2 s of ~3 s quiet; on a
busy 2-core machine that became 30-50 s). The index built from a file (``bot.cards.snapshot``'s blob,
read back in ~0.3 s) is kept in a cache folder, named by the file's content hash and the snapshot
format: the next new database on this machine (a second bot, a reinstall, a test run, ``podkeeper
sandbox``) starts from it. A packaging step can ship it too: ``prebuild(folder)`` writes the file that
``cached_import`` looks for in ``shipped_folder()`` first.

A cache file that is missing, unreadable, of another format or for other content is ignored: the
file is read as before. Nothing here is the only copy of anything.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import re
from pathlib import Path

from bot.cards import snapshot
from bot.cards.bundled import bundled_card_file, is_bundled
from bot.cards.importers import ImportedCards
from bot.cards.index import CardIndex
from bot.i18n import cache_dir

log = logging.getLogger(__name__)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def cache_folder() -> Path:
    """The project's cache folder (``PODKEEPER_CACHE_DIR``, else the user's), as the message catalogue's."""
    return cache_dir()


def shipped_folder() -> Path:
    """Where a package may ship prebuilt indexes of its bundled card data (read only)."""
    return bundled_card_file().parent / "prebuilt"


def _name(source: Path) -> str:
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:20]
    return f"cards-{digest}-{_UNSAFE.sub('_', snapshot.FORMAT)}.index"


def cacheable(source: Path) -> bool:
    """Only the bundled file is cached: other files (``[cards] path``, tests' small ones) are read each
    time, so nothing but the shipped data ever leaves files in the cache folder."""
    return is_bundled(source)


def cached_import(source: Path) -> tuple[ImportedCards, CardIndex] | None:
    """The cards of ``source`` and their index from a cache file, or None (then read the file)."""
    if not cacheable(source):
        return None
    try:
        name = _name(source)
    except OSError:
        return None
    for folder in (shipped_folder(), cache_folder()):
        path = folder / name
        try:
            fmt, skipped, data_date, blob = marshal.loads(path.read_bytes())
            index = snapshot.load(blob)
        except FileNotFoundError:
            continue
        except (OSError, ValueError, EOFError, TypeError) as exc:
            log.warning("ignoring the card index cache %s (%s)", path, exc)
            continue
        log.info("first start: using the card index built before from the same file (%s)", path)
        return ImportedCards(list(index.cards()), fmt, str(source), skipped, data_date), index
    return None


def keep(source: Path, imported: ImportedCards, index: CardIndex, folder: Path | None = None) -> Path | None:
    """Write the cache file of ``source`` (atomically); None when the folder is not writable."""
    if folder is None and not cacheable(source):
        return None
    folder = folder or cache_folder()
    try:
        path = folder / _name(source)
        if path.exists():
            return path
        folder.mkdir(parents=True, exist_ok=True)
        blob = marshal.dumps((imported.format, imported.skipped, imported.data_date, snapshot.dump(index)))
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(blob)
        partial.replace(path)
    except OSError as exc:
        log.info("card index cache not written (%s); the next new database reads the card file again", exc)
        return None
    return path


def prebuild(folder: Path) -> Path | None:
    """The cache file of the bundled card data, written into ``folder`` (a packaging step: ship it in
    ``shipped_folder()``)."""
    from bot.cards.database import _checked_index
    from bot.cards.importers import read_cards

    source = bundled_card_file()
    imported = read_cards(source)
    return keep(source, imported, _checked_index(imported.cards, imported.source), folder)
