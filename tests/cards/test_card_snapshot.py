"""The ready-built index and the rules facts stored with the cards: a start reads them
instead of rebuilding, reads exactly what a rebuild gives, and never trusts a stale or foreign one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cards import snapshot
from bot.cards.database import CardDatabase
from bot.cards.index import CardIndex
from bot.domain.rules import facts as facts_module
from bot.domain.rules import identity as identity_module
from bot.storage.db import Database
from tests.cards.conftest import SCRYFALL_FILE, SUBSET

QUERIES = [
    "Lightning Bolt",
    "lightning bolt",
    "稲妻",
    "Fire",
    "Ligthning Bolt",
    "sol",
    "重生",
    "Lim-Dul's Vault",
]


def answers(cards: CardDatabase) -> list:
    return [cards.resolve(q) for q in QUERIES] + [
        cards.autocomplete(q, language)
        for q in ("s", "bolt", "稲", "心")
        for language in ("en", "ja", "zh-Hans", "zh-Hant")
    ]


async def reopen(db_path: Path) -> tuple[Database, CardDatabase]:
    db = await Database.open(db_path)
    return db, await CardDatabase.open(db, SUBSET)


async def test_a_start_reads_the_stored_index_and_answers_as_a_rebuild(db_path: Path, monkeypatch) -> None:
    db, built = await reopen(db_path)
    expected = answers(built)
    cards = list(built.index.cards())
    await db.close()

    original = CardIndex.from_cards

    def no_rebuild(cards):
        cards = list(cards)
        if cards:
            raise AssertionError("the index was rebuilt although one is stored")
        return original(cards)

    monkeypatch.setattr(CardIndex, "from_cards", no_rebuild)
    db, read = await reopen(db_path)
    try:
        assert answers(read) == expected
        assert list(read.index.cards()) == cards
        assert read.version == built.version == 1
    finally:
        await db.close()


async def test_a_stored_index_of_another_format_or_unreadable_is_rebuilt(
    db_path: Path, monkeypatch, caplog: pytest.LogCaptureFixture
) -> None:
    db, built = await reopen(db_path)
    expected = answers(built)
    await db.execute("UPDATE card_snapshots SET data = ? WHERE format = ?", (b"\x00garbage", snapshot.FORMAT))
    await db.close()
    db, read = await reopen(db_path)
    try:
        assert "unreadable" in caplog.text
        assert answers(read) == expected
        assert (
            await db.scalar("SELECT COUNT(*) FROM card_snapshots WHERE format = ?", (snapshot.FORMAT,)) == 1
        )
    finally:
        await db.close()
    current = snapshot.FORMAT
    monkeypatch.setattr(snapshot, "FORMAT", "index-0/another-python")
    db, read = await reopen(db_path)
    try:
        assert answers(read) == expected
        formats = [row[0] for row in await db.fetchall("SELECT format FROM card_snapshots")]
        assert "index-0/another-python" in formats and current not in formats  # replaced, not added
    finally:
        await db.close()


async def test_an_import_replaces_the_stored_index(db: Database) -> None:
    cards = await CardDatabase.open(db, SUBSET)
    await cards.import_file(SCRYFALL_FILE)
    rows = await db.fetchall("SELECT sequence FROM card_snapshots")
    assert {row[0] for row in rows} == {2}
    reopened = CardDatabase(db, CardIndex.from_cards(()))
    await reopened.reload()
    assert len(reopened) == 11 and reopened.get("Counterspell") is None
    assert answers(reopened) == answers(cards)


async def test_stored_facts_are_the_worked_out_facts_and_are_used(db_path: Path, monkeypatch) -> None:
    db, cards = await reopen(db_path)
    await db.close()
    db, cards = await reopen(db_path)  # a new start: the facts come from the database
    try:
        everything = list(cards.index.cards())
        facts_module._cache.clear()
        identity_module._cache.clear()
        worked_out = {card.name: facts_module._work_out(card) for card in everything}
        facts_module._cache.clear()
        identity_module._cache.clear()

        def no_text_reading(*_args):
            raise AssertionError("worked out from the text although stored")

        monkeypatch.setattr(facts_module, "card_identity", no_text_reading)
        for card in everything:
            stored = facts_module.facts_for(card)
            assert stored == worked_out[card.name], card.name
    finally:
        await db.close()


async def test_facts_of_other_rules_code_or_other_cards_are_worked_out(db_path: Path, monkeypatch) -> None:
    db, cards = await reopen(db_path)
    await db.close()
    monkeypatch.setattr(facts_module, "_fingerprint", "facts-changed-rules")
    db, cards = await reopen(db_path)
    try:
        formats = {row[0] for row in await db.fetchall("SELECT format FROM card_snapshots")}
        assert "facts-changed-rules" in formats and len(formats) == 2  # the index and the new facts
        bolt = cards.get("Lightning Bolt")
        other = CardIndex.from_cards(
            [bolt.__class__(name=bolt.name, mana_cost="{G}", type_line="Instant", color_identity="G")]
        ).get(bolt.name)
        facts_module._cache.clear()
        assert facts_module.facts_for(other).colours[identity_module.CR_903_4] == "G"  # not Bolt's stored "R"
        assert facts_module.facts_for(bolt).colours[identity_module.CR_903_4] == "R"
    finally:
        await db.close()


def test_the_stored_index_keeps_every_printed_language() -> None:
    """German, French, Korean... names (after a sync) come back from the blob and search as before."""
    from bot.cards.importers import read_cards
    from tests.cards.test_card_languages import LANGUAGES_FILE

    built = CardIndex.from_cards(read_cards(LANGUAGES_FILE).cards)
    read = snapshot.load(snapshot.dump(built))
    assert list(read.cards()) == list(built.cards())
    assert [dict(c.printed_names) for c in read.cards()] == [dict(c.printed_names) for c in built.cards()]
    for text in ("Blitz", "foudre", "Fulm", "번개", "Молн", "bolt", "稲", "l"):
        for language in ("en", "ja", "zh-Hans", "de", "fr", "it", "es", "pt", "ko", "ru"):
            assert read.autocomplete(text, language) == built.autocomplete(text, language), (text, language)
        assert read.resolve(text) == built.resolve(text)
    assert read.resolve("Blitzschlag").card.name == "Lightning Bolt"
