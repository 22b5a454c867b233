"""Where the first start of a new database finds a ready-built card index instead of reading the card data.

Reading and indexing the 24,000 bundled cards is most of a first start's CPU (~2 s of ~3 s quiet; on a
busy 2-core machine that became 30-50 s). Reading back an index file (``bot.cards.index_file``) takes
~0.3 s. Two places may hold one for the bundled data:

- ``shipped_folder()`` (``bot/assets/cards/prebuilt/`` in an installed package): the wheel build writes
  it (``setup.py``), so even the very first start of a fresh install skips reading the data;
- ``cache_folder()``: the index a first start built is kept there, so the next new database on this
  machine (a second bot, a reinstall, a test run, ``podkeeper sandbox``) starts from it.

A file that is missing, unreadable, of another format (another Python, a newer card model) or for other
content is ignored: the data file is read as before. Nothing here is the only copy of anything.
"""

from __future__ import annotations

import logging
from pathlib import Path

from bot.cards import index_file
from bot.cards.bundled import bundled_card_file, is_bundled
from bot.cards.importers import ImportedCards
from bot.cards.index import CardIndex
from bot.i18n import cache_dir

log = logging.getLogger(__name__)


def cache_folder() -> Path:
    """The project's cache folder (``PODKEEPER_CACHE_DIR``, else the user's), as the message catalogue's."""
    return cache_dir()


def shipped_folder() -> Path:
    """Where a package ships the prebuilt index of its bundled card data (read only)."""
    return bundled_card_file().parent / "prebuilt"


def cacheable(source: Path) -> bool:
    """Only the bundled file is cached: other files (``[cards] path``, tests' small ones) are read each
    time, so nothing but the shipped data ever leaves files in the cache folder."""
    return is_bundled(source)


def cached_import(source: Path) -> tuple[ImportedCards, CardIndex] | None:
    """The cards of ``source`` and their index from a shipped or cached index file, or None (then read
    the file)."""
    if not cacheable(source):
        return None
    try:
        name = index_file.file_name(source)
    except OSError:
        return None
    for folder, what in ((shipped_folder(), "shipped with the package"), (cache_folder(), "built before")):
        path = folder / name
        try:
            found = index_file.read(path, source)
        except FileNotFoundError:
            continue
        except (OSError, ValueError, EOFError, TypeError) as exc:
            log.warning("ignoring the card index cache %s (%s)", path, exc)
            continue
        log.info("first start: using the card index %s from the same file (%s)", what, path)
        return found
    return None


def keep(source: Path, imported: ImportedCards, index: CardIndex, folder: Path | None = None) -> Path | None:
    """Write the cache file of ``source`` (atomically); None when the folder is not writable."""
    if folder is None and not cacheable(source):
        return None
    try:
        return index_file.write(source, imported, index, folder or cache_folder())
    except OSError as exc:
        log.info("card index cache not written (%s); the next new database reads the card file again", exc)
        return None


def prebuild(folder: Path) -> Path:
    """The index file of the bundled card data, written into ``folder`` (what the wheel build ships in
    ``shipped_folder()``)."""
    return index_file.build(bundled_card_file(), folder)
