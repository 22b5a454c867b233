"""The first start (empty card tables): progress is shown, the bot answers from memory while the cards are
stored in the background, and a card data swap arriving meanwhile is not undone by that first import."""

from __future__ import annotations

import asyncio
import gzip
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cards import first_start, index_file, snapshot
from bot.cards.database import CardDatabase
from bot.cards.importers import read_cards
from bot.storage.db import Database
from tests.cards.conftest import SCRYFALL_FILE, SUBSET


async def test_the_first_start_answers_before_the_cards_are_stored(db: Database) -> None:
    cards = await CardDatabase.open(db, SUBSET, store_in_background=True)
    assert cards.resolve("Lightning Bolt").card is not None  # answered from memory at once
    for _ in range(20):  # the bot is not up yet: storing waits, the start has the CPU to itself
        await asyncio.sleep(0)
    assert await cards.repository.count() == 0
    cards.start_storing()
    await cards.stored()
    assert await cards.repository.count() == 398
    assert cards.version == await cards.repository.version() == 1
    assert await cards.repository.load_snapshot(snapshot.FORMAT) is not None
    again = await CardDatabase.open(db, SUBSET, store_in_background=True)  # the next start reads it back
    assert len(again) == 398 and again.version == 1


async def test_the_first_start_tells_the_operator_how_far_it_got(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.cards.database")
    cards = await CardDatabase.open(db, SUBSET, store_in_background=True)
    await cards.stored()
    said = [record.getMessage() for record in caplog.records]
    assert said[0].startswith("first start: the card tables are empty, importing the card data once from ")
    assert any(line.startswith("reading cards_subset.jsonl: 100%") for line in said)
    assert any(line.startswith("card data ready: 398 cards (cards up to an unknown date)") for line in said)
    assert said[-1].startswith("first start done: 398 cards stored in the database in ")


async def test_the_progress_moves_in_steps_through_a_larger_file(
    tmp_path, caplog: pytest.LogCaptureFixture, db: Database
) -> None:
    """The bundled file is 2 MB of gzip: read a megabyte at a time, its progress jumped from 0 to 51 % to
    100 %. Here a gzip file of ~600 KB must report every quarter on the way."""
    lines = SUBSET.read_text(encoding="utf-8").splitlines()
    big = tmp_path / "big.jsonl.gz"
    big.write_bytes(gzip.compress("\n".join(lines * 3).encode(), compresslevel=0))  # 3 copies: one card each
    assert big.stat().st_size > 500_000
    caplog.set_level(logging.INFO, logger="bot.cards.database")
    cards = await CardDatabase.open(db, big)
    steps = [r.getMessage() for r in caplog.records if r.getMessage().startswith("reading big.jsonl.gz: ")]
    assert len(steps) == 4 and steps[-1] == "reading big.jsonl.gz: 100%", steps
    assert len(cards) == 398


async def test_a_swap_arriving_during_the_first_import_is_kept(db: Database) -> None:
    """A sync that finishes while the first import is still storing waits for it, then replaces it: the
    older bundled cards never overwrite the newer ones."""
    cards = await CardDatabase.open(db, SUBSET, store_in_background=True)
    newer = await asyncio.to_thread(read_cards, SCRYFALL_FILE)
    await cards.store(newer)
    await cards.stored()
    assert await cards.repository.count() == len(newer.cards) == 11
    assert cards.get("Counterspell") is None and len(cards) == 11
    assert (await cards.repository.last_import()).source == str(SCRYFALL_FILE)


# -- the cache of the ready-built index ----------------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own, with the subset treated as the bundled file (only that is cached)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(folder))
    monkeypatch.setattr(first_start, "cacheable", lambda source: True)
    return folder


async def rows(db: Database) -> list[tuple]:
    return await db.fetchall("SELECT * FROM cards ORDER BY name")


async def test_a_second_new_database_starts_from_the_cached_index(
    tmp_path: Path, cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.cards")
    first_db, second_db = (
        await Database.open(tmp_path / "a.sqlite3"),
        await Database.open(tmp_path / "b.sqlite3"),
    )
    try:
        first = await CardDatabase.open(first_db, SUBSET, store_in_background=True)
        await first.stored()
        [kept] = cache.iterdir()
        assert kept.name.startswith("cards-") and kept.name.endswith(".index")
        caplog.clear()
        second = await CardDatabase.open(second_db, SUBSET, store_in_background=True)
        await second.stored()
        said = [record.getMessage() for record in caplog.records]
        assert any(line.startswith("first start: using the card index built before") for line in said)
        assert not any(line.startswith("reading ") for line in said)  # the file was not read again
        assert await rows(second_db) == await rows(first_db)  # the very same cards stored
        for name in ("Lightning Bolt", "稲妻", "lim dul's vault", "Fire/Ice", "Lightnig Bolt"):
            assert second.resolve(name) == first.resolve(name), name
    finally:
        await first_db.close()
        await second_db.close()


async def test_a_damaged_cache_file_is_ignored(
    tmp_path: Path, cache: Path, caplog: pytest.LogCaptureFixture, db: Database
) -> None:
    other = await Database.open(tmp_path / "other.sqlite3")
    try:
        await (await CardDatabase.open(other, SUBSET)).stored()
    finally:
        await other.close()
    [kept] = cache.iterdir()
    kept.write_bytes(kept.read_bytes()[:1000])
    caplog.set_level(logging.INFO, logger="bot.cards")
    cards = await CardDatabase.open(db, SUBSET)
    assert len(cards) == 398
    said = [record.getMessage() for record in caplog.records]
    assert any(line.startswith(f"ignoring the card index cache {kept}") for line in said)
    assert any(line.startswith("reading cards_subset.jsonl: ") for line in said)


async def test_a_shipped_index_is_read_instead_of_the_card_file(
    tmp_path: Path,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    db: Database,
) -> None:
    """What the wheel ships (``bot/assets/cards/prebuilt``) is the first start of a fresh install: the card
    file is not read, and the cards are those the file gives."""
    shipped = tmp_path / "prebuilt"
    monkeypatch.setattr(first_start, "shipped_folder", lambda: shipped)
    written = index_file.build(SUBSET, shipped)
    caplog.set_level(logging.INFO, logger="bot.cards")
    cards = await CardDatabase.open(db, SUBSET, store_in_background=True)
    said = [record.getMessage() for record in caplog.records]
    assert (
        f"first start: using the card index shipped with the package from the same file ({written})" in said
    )
    assert not any(line.startswith("reading ") for line in said)
    assert cards.resolve("稲妻").card == cards.get("Lightning Bolt") is not None
    await cards.stored()
    assert await cards.repository.count() == len(read_cards(SUBSET).cards) == 398
    assert not cache.exists()  # the shipped index is not copied into the cache


@pytest.mark.parametrize("change", ["the index format", "the card data"])
async def test_a_shipped_index_of_other_data_or_another_format_is_not_used(
    change: str,
    tmp_path: Path,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    db: Database,
) -> None:
    """A card model with a new field bumps ``snapshot.FORMAT``, new card data has another hash: the index a
    wheel shipped for the old ones is then not found, and the card file is read (and cached) as before."""
    shipped = tmp_path / "prebuilt"
    monkeypatch.setattr(first_start, "shipped_folder", lambda: shipped)
    source = tmp_path / "cards.jsonl"
    source.write_bytes(SUBSET.read_bytes())
    index_file.build(source, shipped)
    if change == "the index format":
        monkeypatch.setattr(snapshot, "FORMAT", snapshot.FORMAT.replace("index-", "index-99"))
    else:
        source.write_text(
            SUBSET.read_text(encoding="utf-8").replace("Lightning Bolt", "Lightning Jolt"), "utf-8"
        )
    caplog.set_level(logging.INFO, logger="bot.cards")
    cards = await CardDatabase.open(db, source)
    said = [record.getMessage() for record in caplog.records]
    assert not any(line.startswith("first start: using the card index") for line in said)
    assert any(line.startswith("reading cards.jsonl: 100%") for line in said)
    assert (cards.get("Lightning Jolt") is None) == (change == "the index format")
    [cached] = cache.iterdir()
    assert cached.name == index_file.file_name(source)


def test_the_index_step_of_the_wheel_build_needs_only_the_standard_library(tmp_path: Path) -> None:
    """``setup.py`` runs it in pip's isolated build environment, which has none of the bot's dependencies:
    run here without site-packages (``-S``), it must still write the index the bot then reads."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import sys; from bot.cards.index_file import main; sys.exit(main(sys.argv[1:]))",
            str(SUBSET),
            str(tmp_path),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [written] = tmp_path.iterdir()
    assert written.name == index_file.file_name(SUBSET)
    imported, index = index_file.read(written, SUBSET)
    assert (
        len(imported.cards) == 398 and index.resolve("稲妻").card == index.get("Lightning Bolt") is not None
    )


async def test_only_the_bundled_file_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db: Database
) -> None:
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(tmp_path / "cache"))
    await (await CardDatabase.open(db, SUBSET)).stored()
    assert not (tmp_path / "cache").exists()


async def test_a_card_swap_announced_while_the_bot_closes_reads_nothing_after_the_database_goes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A first import still storing when the bot closes swaps the card tables during close; the swap's
    announcement must not start a read of a database that is closing (it logged a traceback at every
    early shutdown of a first start)."""
    from bot.testing import DiscordHarness

    async with DiscordHarness.start(tmp_path) as h:
        bot = h.bot
        store_first_import = bot.cards.stored

        async def stored_then_announced() -> None:
            await store_first_import()
            bot._card_data_swapped()  # what following CARDS_TOPIC runs when the tables are swapped

        bot.cards.stored = stored_then_announced
    assert bot._db is None
    assert bot._card_reload is None or bot._card_reload.done()
    assert "could not read the new card data" not in caplog.text
