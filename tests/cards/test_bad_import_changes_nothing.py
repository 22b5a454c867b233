"""A bad ``cards import`` is refused before anything is saved.

A printed name that is not text used to pass reading, be committed, and then break the index build,
so the bot could not start any more. Now every field's type is checked while reading, and the new
index is built and tried before the stored cards are replaced: a failure changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards.database import CardDatabase
from bot.cards.importers import CardImportError, read_cards
from bot.cards.index import CardIndex
from bot.storage.db import Database
from tests.cards.conftest import SUBSET


def _with(tmp_path: Path, **fields) -> Path:
    lines = SUBSET.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first.update(fields)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "fields",
    [
        {"printed_names": {"ja": 5}},  # the case found: a non-string printed name
        {"printed_names": {"ja": ["a"]}},
        {"printed_names": ["ja"]},
        {"oracle_text": {"en": "x"}},
        {"card_faces": [{"name": 7, "type_line": "Creature"}]},
        {"layout": ["normal"]},
    ],
)
async def test_a_wrongly_typed_field_is_refused_and_the_bot_still_starts(tmp_path: Path, fields):
    db_path = tmp_path / "podkeeper.sqlite3"
    db = await Database.open(db_path)
    cards = await CardDatabase.open(db, SUBSET)
    before = (len(cards), await cards.repository.version())
    with pytest.raises(CardImportError, match="bad.jsonl"):
        await cards.import_file(_with(tmp_path, **fields))
    assert (len(cards), await cards.repository.version()) == before
    await db.close()
    db = await Database.open(db_path)
    reopened = await CardDatabase.open(db)  # the next start reads the stored cards as before
    assert len(reopened) == before[0]
    await db.close()


async def test_an_index_that_cannot_be_built_is_refused_before_the_swap(tmp_path: Path, monkeypatch):
    db = await Database.open(tmp_path / "podkeeper.sqlite3")
    cards = await CardDatabase.open(db, SUBSET)
    version = await cards.repository.version()
    imported = read_cards(SUBSET)

    def broken(_cards):
        raise ValueError("an index bug")

    monkeypatch.setattr(CardIndex, "from_cards", staticmethod(broken))
    with pytest.raises(CardImportError, match="nothing was changed"):
        await cards.store(imported)
    assert await cards.repository.version() == version
    await db.close()
