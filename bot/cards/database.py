"""The card database the bot and the CLI use: SQLite rows plus the in-memory ``CardIndex``.

``CardDatabase.open`` imports the bundled data set when the card tables are empty (a fresh install
checks decks with no network), then reads the ``CardIndex`` stored with the cards (``bot.cards.snapshot``),
or builds it from every card when none is stored. Imports and syncs read
the whole file first (``bot.cards.importers``), then replace the stored cards in one transaction,
then rebuild the index: a bad file leaves both the database and the index as they were.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from bot.allocator import release_freed_memory
from bot.cards import first_start, snapshot
from bot.cards.bundled import bundled_card_file, data_date_for
from bot.cards.importers import (
    CardImportError,
    ImportedCards,
    ProgressCallback,
    read_cards,
    with_printed_names,
)
from bot.cards.index import CardIndex, Resolution
from bot.cards.index_file import checked_index
from bot.cards.model import Card
from bot.changes import CARDS_TOPIC
from bot.config import Config
from bot.domain.rules import facts
from bot.storage.cards import CardImportRecord, CardRepository
from bot.storage.db import Database, DatabaseError
from bot.storage.engines import POSTGRESQL

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ImportResult:
    """What an import did, for the CLI to print and the log to record."""

    source: str
    format: str
    card_count: int
    skipped: int
    kept_printed_names: int
    seconds: float


class LoggedProgress:
    """A progress callback that logs every quarter of the file (used when nobody watches a bar)."""

    def __init__(self, what: str, step: int = 25) -> None:
        self._what = what
        self._step = step
        self._next = step

    def __call__(self, done: int, total: int) -> None:
        percent = done * 100 // total if total else 100
        if percent >= self._next:
            log.info("%s: %d%%", self._what, min(percent, 100))
            self._next = (percent // self._step + 1) * self._step


class CardDatabase:
    """Stored cards and their index. ``resolve``/``autocomplete``/``get`` answer from memory."""

    def __init__(self, db: Database, index: CardIndex) -> None:
        self.db = db
        self.repository = CardRepository(db)
        self.index = index
        self.version = 0  # the import the index was built from (card_imports.sequence)
        self._store_lock = asyncio.Lock()  # one replacement of the cards at a time (first import, syncs)
        self._storing: asyncio.Task[None] | None = None  # the first import, storing in the background
        self._may_store = asyncio.Event()  # set once the bot is up (``start_storing``): then it stores

    @property
    def data_date(self) -> str | None:
        """How current the card data is: the newest release date in it (YYYY-MM-DD), None if unknown."""
        return self.index.data_date

    @data_date.setter
    def data_date(self, value: str | None) -> None:
        self.index.data_date = value

    @classmethod
    async def open(
        cls, db: Database, bundled_path: str | Path | None = None, *, store_in_background: bool = False
    ) -> CardDatabase:
        """The card database of ``db``, importing ``bundled_path`` (default: the bundled data set)
        first when the card tables are empty.

        ``store_in_background`` (the bot): on that first start the cards are read and indexed, and the
        bot can answer from memory at once, while storing them (rows, stored index, rules facts: over
        half of the import's CPU) goes on in a background task once ``start_storing()`` says the bot is
        up (so it does not slow the start down), or a replacement of the cards or ``stored()`` comes
        first. The CLI stores before it returns, as its process ends right after."""
        cards = cls(db, CardIndex.from_cards(()))
        if await cards.repository.count() == 0:
            source = Path(bundled_path) if bundled_path else bundled_card_file()
            try:
                await cards._first_import(source, store_in_background)
            except CardImportError as exc:
                # Nothing can work without cards: refuse to start, saying what to do (not a traceback).
                raise DatabaseError(
                    f"the card tables are empty and the card data could not be imported: {exc}. "
                    f"Set [cards] path to a card data file, or run `podkeeper cards import PATH`."
                ) from None
        else:
            await cards.reload()
        return cards

    async def _first_import(self, source: Path, in_background: bool) -> None:
        """Import ``source`` into the empty card tables, telling the operator what happens and how far
        it got (the first start is the one slow start: later ones read the stored index)."""
        started = time.perf_counter()
        log.info(
            "first start: the card tables are empty, importing the card data once from %s "
            "(later starts read it back in about a second)",
            source,
        )
        cached = await asyncio.to_thread(first_start.cached_import, source)
        if cached is not None:
            imported, index = cached
            fresh = False
        else:
            imported = await asyncio.to_thread(
                read_cards, source, None, LoggedProgress(f"reading {source.name}")
            )
            log.info(
                "first start: %d cards read in %.1f s; building the name index",
                len(imported.cards),
                time.perf_counter() - started,
            )
            index = await asyncio.to_thread(checked_index, imported.cards, imported.source)
            fresh = True
        imported = replace(imported, data_date=data_date_for(imported.source, imported.data_date))
        if not in_background:
            result = await self.store(imported, started=started, index=index)
            log.info("imported %d cards from %s in %.1f s", result.card_count, source, result.seconds)
            if fresh:
                await asyncio.to_thread(first_start.keep, source, imported, index)
            return
        self.index = index
        self.data_date = imported.data_date
        log.info(
            "card data ready: %d cards (cards up to %s) in %.1f s; storing them in the database in the "
            "background once the bot is up",
            len(index),
            imported.data_date or "an unknown date",
            time.perf_counter() - started,
        )
        await self._store_lock.acquire()  # held until stored: a sync that finishes first waits, then wins
        self._storing = asyncio.get_running_loop().create_task(
            self._store_first_import(source, imported, index, started, fresh), name="first-card-import"
        )

    async def _store_first_import(
        self, source: Path, imported: ImportedCards, index: CardIndex, started: float, fresh: bool
    ) -> None:
        try:
            await self._may_store.wait()
            result = await self._store_locked(imported, None, started, index)
        except Exception:  # the bot goes on from memory; the next start imports again
            log.exception(
                "the card data could not be stored; it is in memory, and the next start imports it again"
            )
            return
        finally:
            self._store_lock.release()
        log.info(
            "first start done: %d cards stored in the database in %.1f s", result.card_count, result.seconds
        )
        if fresh:  # the next new database on this machine starts from this index
            await asyncio.to_thread(first_start.keep, source, imported, index)

    def start_storing(self) -> None:
        """The bot is up: a first import waiting to be stored may use the CPU now."""
        self._may_store.set()

    async def stored(self) -> None:
        """Store a first import now and wait until it is in the database (at once when there is none)."""
        self._may_store.set()
        if self._storing is not None:
            await asyncio.shield(self._storing)

    # -- lookups ------------------------------------------------------------------------------------

    def resolve(self, name: str) -> Resolution:
        return self.index.resolve(name)

    def autocomplete(self, text: str, language: str = "en", limit: int = 25) -> list[tuple[str, str]]:
        return self.index.autocomplete(text, language, limit)

    def choices(self, text: str, language: str = "en", limit: int = 25) -> list[tuple[str, str]]:
        """Autocomplete choices ``(display name, short id)``; ``resolve`` takes the id or a typed name."""
        return self.index.choices(text, language, limit)

    def get(self, english_name: str) -> Card | None:
        return self.index.get(english_name)

    def exact_lookup(self) -> Callable[[str], Card | None]:
        """The current index's exact-name lookup (``CardIndex.exact_lookup``); asked again after a reload."""
        return self.index.exact_lookup()

    def __len__(self) -> int:
        return len(self.index)

    # -- changing the data ----------------------------------------------------------------------------

    async def reload(self) -> None:
        """Read the index of the stored cards (at start, or after another process imported or synced).

        The ready-built index stored with the cards is read back when there is one; otherwise it is
        built from the cards and stored for the next start. Either runs in a thread so a running bot
        keeps answering meanwhile."""
        stored = await self.repository.load_snapshot(snapshot.FORMAT)
        if stored is not None:
            sequence, blob = stored
            try:
                index = await asyncio.to_thread(snapshot.load, blob)
            except (ValueError, EOFError, TypeError) as exc:
                log.warning("the stored card index is unreadable (%s): rebuilding it from the cards", exc)
            else:
                self.index, self.version = index, sequence
                await self._read_data_date()
                await self._use_stored_facts()
                release_freed_memory()
                log.debug("card index read: %d cards", len(self.index))
                return
        version = await self.repository.version()
        cards = await self.repository.load_all()
        self.index = await asyncio.to_thread(CardIndex.from_cards, cards)
        self.version = version
        await self._read_data_date()
        await self._store_snapshot()
        await self._use_stored_facts()
        release_freed_memory()
        log.debug("card index built: %d cards", len(self.index))

    async def _read_data_date(self) -> None:
        record = await self.repository.last_import()
        self.data_date = data_date_for(record.source, record.data_date) if record is not None else None

    async def _store_snapshot(self) -> None:
        """Keep the index just built for the next start (``bot.cards.snapshot``)."""
        blob = await asyncio.to_thread(snapshot.dump, self.index)
        await self.repository.save_snapshot(self.version, snapshot.FORMAT, blob)

    async def _use_stored_facts(self) -> None:
        """Let deck checks read every card's rules facts (``bot.domain.rules.facts``) stored with this
        card data, working them out and storing them first when missing or made by other rules code
        (after an import, or once after an upgrade: ~1-2 s for the full data, in a thread)."""
        fmt = facts.fingerprint()
        if fmt is None:
            return
        stored = await self.repository.load_snapshot(fmt)
        if stored is not None and stored[0] == self.version:
            blob = stored[1]
        else:
            blob = await asyncio.to_thread(facts.pack_facts, list(self.index.cards()))
            await self.repository.save_snapshot(self.version, fmt, blob)
        facts.use_stored_facts(blob, self.index.get)

    async def reload_if_changed(self) -> bool:
        """Reload when another process (``podkeeper cards sync``/``import``) replaced the cards; not while
        this process is replacing them itself (its new index is the one to keep)."""
        if self._store_lock.locked() or await self.repository.version() == self.version:
            return False
        await self.reload()
        log.info("card data changed on disk: reloaded %d cards", len(self.index))
        return True

    async def import_file(
        self, path: str | Path, fmt: str | None = None, progress: ProgressCallback | None = None
    ) -> ImportResult:
        """Import a card file (format detected when ``fmt`` is None) in place of the current cards.

        Raises ``CardImportError`` for a missing, corrupt, truncated or wrong-shaped file, before
        anything is written.
        """
        started = time.perf_counter()
        imported = await asyncio.to_thread(read_cards, path, fmt, progress)  # the bot keeps answering
        return await self.store(imported, started=started)

    async def store(
        self,
        imported: ImportedCards,
        *,
        printed_names: dict[str, dict[str, str]] | None = None,
        started: float | None = None,
        index: CardIndex | None = None,
    ) -> ImportResult:
        """Replace the stored cards with ``imported`` and rebuild the index.

        Printed names come from ``printed_names`` when given (``cards sync`` passes MTGJSON's);
        names the new data lacks are kept from the current data, so importing an English-only
        Scryfall file does not throw away the Japanese and Chinese names. ``index``: the index of
        exactly ``imported.cards``, when the caller built it already.
        """
        self._may_store.set()  # a first import still waiting is stored first, then replaced
        async with self._store_lock:
            return await self._store_locked(imported, printed_names, started, index)

    async def _store_locked(
        self,
        imported: ImportedCards,
        printed_names: dict[str, dict[str, str]] | None,
        started: float | None,
        index: CardIndex | None,
    ) -> ImportResult:
        started = time.perf_counter() if started is None else started
        cards = imported.cards
        if printed_names:
            cards = with_printed_names(cards, printed_names)
        before = sum(1 for c in cards if c.printed_names)
        cards = with_printed_names(cards, await self.repository.printed_names(), overwrite=False)
        kept = sum(1 for c in cards if c.printed_names) - before
        if index is None or cards is not imported.cards:  # before the swap
            index = await asyncio.to_thread(checked_index, cards, imported.source)
        data_date = data_date_for(imported.source, imported.data_date)
        try:  # replace_all is one transaction: a failed write rolls back and the old cards stay
            count = await self.repository.replace_all(
                cards, source=imported.source, fmt=imported.format, data_date=data_date
            )
        except UnicodeEncodeError:  # "\ud800" in the JSON: a lone surrogate SQLite cannot store
            raise CardImportError(
                f"{imported.source}: holds text that is not valid Unicode (a lone "
                f"surrogate); nothing was changed"
            ) from None
        self.index = index
        self.data_date = data_date
        self.version = await self.repository.version()
        await self._store_snapshot()
        await self._use_stored_facts()
        release_freed_memory()
        self.db.changes.publish(CARDS_TOPIC)  # other processes sharing the database read the new index
        if self.db.changes.relay is None and self.db.engine == POSTGRESQL:
            from bot.notify import notify_once  # a CLI process (cards sync/import): tell the running bots

            await notify_once(self.db.url, "change", CARDS_TOPIC)
        return ImportResult(
            imported.source, imported.format, count, imported.skipped, kept, time.perf_counter() - started
        )

    async def last_import(self) -> CardImportRecord | None:
        return await self.repository.last_import()


async def open_card_database(config: Config) -> tuple[Database, CardDatabase]:
    """For CLI commands that need cards (``cards lookup``, ``deck check``, ``mulligan odds``, ...):
    the database of ``config`` and its card database, importing the bundled data when empty.
    The caller closes the ``Database``."""
    db = await Database.open(config.database_url)
    try:
        cards = await CardDatabase.open(db, config.cards_path or None)
    except BaseException:
        await db.close()
        raise
    return db, cards
