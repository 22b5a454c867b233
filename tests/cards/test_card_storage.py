"""Cards in a real SQLite file: import, atomic replacement, untouched data on failure."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot import paths
from bot.cards.database import CardDatabase, open_card_database
from bot.cards.importers import CardImportError, read_cards
from bot.config import load_config
from bot.storage import cards as card_storage
from bot.storage.cards import CardRepository
from bot.storage.db import Database, DatabaseError, IntegrityError
from tests.cards.conftest import MTGJSON_FILE, SCRYFALL_FILE, SUBSET
from tests.cards.seed_names import SEED_NAMES


async def columns(db: Database, table: str) -> list[tuple]:
    return [tuple(row)[1:6] for row in await db.fetchall(f"PRAGMA table_info({table})")]


@pytest.mark.sqlite_only
async def test_the_import_table_has_the_migrations_columns(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute(f"CREATE TABLE cards_check {card_storage.CARD_COLUMNS_DDL}")
    assert await columns(db, "cards_check") == await columns(db, "cards")


async def test_stored_cards_come_back_equal(db: Database) -> None:
    cards = read_cards(SUBSET).cards
    repository = CardRepository(db)
    assert await repository.replace_all(cards, source="subset", fmt="jsonl") == len(cards)
    loaded = {card.name: card for card in await repository.load_all()}
    assert loaded == {card.name: card for card in cards}
    row = await db.fetchone(
        "SELECT layout, color_identity, name_ja FROM cards WHERE name = ?", ("Lim-Dûl's Vault",)
    )
    assert tuple(row) == ("normal", "UB", "リム＝ドゥールの櫃")
    last = await repository.last_import()
    assert last is not None and (last.source, last.format, last.card_count) == ("subset", "jsonl", len(cards))


async def test_open_imports_the_bundled_data_when_empty(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.cards.database")
    cards = await CardDatabase.open(db, SUBSET)
    assert len(cards) == 398
    assert await cards.repository.count() == 398
    assert cards.resolve("稲妻").card is cards.get("Lightning Bolt")
    assert cards.autocomplete("sol r")[0] == ("Sol Ring", "Sol Ring")
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "card tables are empty" in messages and "100%" in messages and "imported 398 cards" in messages


async def test_open_does_not_import_again_when_cards_are_stored(db_path: Path) -> None:
    db = await Database.open(db_path)
    await CardDatabase.open(db, SUBSET)
    await db.close()
    db = await Database.open(db_path)
    try:
        cards = await CardDatabase.open(db, SCRYFALL_FILE)  # would replace the data if it imported
        assert len(cards) == 398
        assert await db.scalar("SELECT COUNT(*) FROM card_imports") == 1
    finally:
        await db.close()


async def test_import_is_idempotent(db: Database) -> None:
    cards = await CardDatabase.open(db, SUBSET)
    before = await db.fetchall("SELECT * FROM cards ORDER BY name")
    result = await cards.import_file(SUBSET)
    assert (result.card_count, result.format) == (398, "jsonl")
    assert [tuple(r) for r in await db.fetchall("SELECT * FROM cards ORDER BY name")] == [
        tuple(r) for r in before
    ]


@pytest.mark.parametrize("content", [b"", b"not json at all\n", b'[{"name": "Sol Ring"}, {"na'])
async def test_a_bad_file_leaves_cards_and_index_untouched(
    db: Database, tmp_path: Path, content: bytes
) -> None:
    cards = await CardDatabase.open(db, SUBSET)
    index = cards.index
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(CardImportError, match=r"bad\.json(:| is) (empty|not card data|invalid JSON)"):
        await cards.import_file(bad)
    with pytest.raises(CardImportError, match="no such file"):
        await cards.import_file(tmp_path / "missing.jsonl.gz")
    assert await cards.repository.count() == 398
    assert cards.index is index
    assert await db.scalar("SELECT COUNT(*) FROM card_imports") == 1


async def test_a_failure_while_writing_rolls_back_to_the_old_cards(db: Database, monkeypatch) -> None:
    cards = await CardDatabase.open(db, SUBSET)
    written = 0

    def failing_row(card):
        nonlocal written
        written += 1
        if written == 5:
            raise OSError("disk full")
        return original(card)

    original = card_storage.card_row
    monkeypatch.setattr(card_storage, "card_row", failing_row)
    with pytest.raises(OSError, match="^disk full$"):
        await cards.import_file(SCRYFALL_FILE)
    monkeypatch.setattr(card_storage, "card_row", original)
    assert await cards.repository.count() == 398
    # A failure inside the transaction (a duplicate name after cards_new was filled) also rolls back.
    duplicate = read_cards(SCRYFALL_FILE).cards
    with pytest.raises(IntegrityError):
        await cards.repository.replace_all(duplicate + duplicate[:1], source="x", fmt="scryfall")
    assert await cards.repository.count() == 398
    # The last statement fails, after the old table was dropped and the new one renamed: still all undone.
    with pytest.raises(IntegrityError):  # NOT NULL
        await cards.repository.replace_all(duplicate, source="x", fmt=None)  # type: ignore[arg-type]
    assert await cards.repository.count() == 398
    assert "cards_new" not in await db.tables()
    assert (await cards.repository.last_import()).source == str(SUBSET)


async def test_english_only_import_keeps_the_printed_names(db: Database) -> None:
    cards = await CardDatabase.open(db, SUBSET)
    result = await cards.import_file(SCRYFALL_FILE)
    assert result.format == "scryfall" and result.card_count == 11
    assert result.kept_printed_names > 0
    assert cards.get("Lightning Bolt").printed_names["ja"] == "稲妻"  # kept from the subset
    assert cards.get("Sol Ring").printed_names["ja"] == "太陽の指輪"  # the file's own
    assert cards.resolve("稲妻").card.name == "Lightning Bolt"
    assert cards.get("Counterspell") is None  # the file is the whole new card set
    reopened = CardDatabase(db, cards.index)
    await reopened.reload()
    assert reopened.get("Lightning Bolt").printed_names["zh-Hant"] == "閃電擊"


async def test_mtgjson_import(db: Database) -> None:
    cards = await CardDatabase.open(db, MTGJSON_FILE)
    assert cards.resolve("逸脱した研究者").card.name == "Aberrant Researcher // Perfected Form"
    assert cards.resolve("Perfected Form").matched_by == "face"


async def test_open_card_database_for_cli_commands(tmp_path: Path) -> None:
    config_path = tmp_path / "config.toml"
    config_path.write_text(f'[database]\npath = "{tmp_path / "p.sqlite3"}"\n[cards]\npath = "{SUBSET}"\n')
    db, cards = await open_card_database(load_config(config_path, environ={}))
    try:
        assert len(cards) == 398
    finally:
        await db.close()


@pytest.mark.slow  # the whole bundled card data set
async def test_the_bundled_data_set_loads_and_every_seed_card_resolves(db: Database, tmp_path: Path) -> None:
    """Integration with the full bundled file (assets/, shipped with the project)."""
    cards = await CardDatabase.open(db)
    assert len(cards) > 23_800
    assert (await cards.repository.last_import()).source == str(paths.BUNDLED_CARDS)
    for _, written, english in SEED_NAMES:
        assert cards.resolve(written).card.name == english, written


async def test_a_running_bot_picks_up_an_import_made_by_another_process(db_path: Path) -> None:
    bot_db = await Database.open(db_path)
    cli_db = await Database.open(db_path)
    try:
        running = await CardDatabase.open(bot_db, SUBSET)
        assert await running.reload_if_changed() is False
        cli = CardDatabase(cli_db, running.index)
        await cli.import_file(SCRYFALL_FILE)  # `podkeeper cards import` in another process
        assert running.get("Counterspell") is not None
        assert await running.reload_if_changed() is True
        assert running.get("Counterspell") is None and len(running) == 11
        assert await running.reload_if_changed() is False
    finally:
        await cli_db.close()
        await bot_db.close()


async def test_missing_bundled_data_refuses_with_a_clear_message(db: Database, tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match=r"card tables are empty .*no such file.*podkeeper cards import"):
        await CardDatabase.open(db, tmp_path / "gone.jsonl.gz")
    assert await CardRepository(db).count() == 0


async def test_another_process_reads_the_old_cards_or_the_new_never_a_mix(db: Database) -> None:
    """The swap is atomic for every process, not only this one: a second connection to the same database
    (as another bot process has) counting the cards throughout an import sees the old set or the new."""
    repository = CardRepository(db)
    old, new = read_cards(SUBSET).cards, read_cards(SCRYFALL_FILE).cards
    await repository.replace_all(old, source="subset", fmt="jsonl")
    other = await Database.open(db.url)
    seen: set[int] = set()
    importing = True
    saw = {len(old): asyncio.Event(), len(new): asyncio.Event()}

    async def count_throughout() -> None:
        while importing:
            count = int(await other.scalar("SELECT COUNT(*) FROM cards"))
            seen.add(count)
            if count in saw:
                saw[count].set()
            await asyncio.sleep(0)

    reader = asyncio.create_task(count_throughout())
    try:
        await asyncio.wait_for(saw[len(old)].wait(), 10)
        await repository.replace_all(new, source="scryfall", fmt="scryfall")
        await asyncio.wait_for(saw[len(new)].wait(), 10)
    finally:
        importing = False
        await reader
        await other.close()
    assert seen == {len(old), len(new)}
