"""Scryfall's ``game_changer`` flag (and MTGJSON's ``isGameChanger``) through the importers, the card
model, the stored card database and its ready-built index, into the deck check's "which list was used"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards import snapshot
from bot.cards.database import CardDatabase
from bot.cards.importers import CardImportError, read_cards
from bot.cards.index import CardIndex
from bot.services.decks import check_deck_text
from bot.storage.db import Database
from tests.cards.conftest import SUBSET


def scryfall_card(name: str, **extra: object) -> dict[str, object]:
    return {
        "object": "card",
        "name": name,
        "lang": "en",
        "layout": "normal",
        "set": "tst",
        "released_at": "2026-11-20",
        "mana_cost": "{2}{U}",
        "type_line": "Enchantment",
        "oracle_text": "",
        "colors": ["U"],
        "color_identity": ["U"],
        "legalities": {"commander": "legal"},
        **extra,
    }


@pytest.fixture
def synced_file(tmp_path: Path) -> Path:
    """A Scryfall bulk file as `cards sync` downloads it: every card says true or false."""
    path = tmp_path / "oracle-cards.json"
    cards = [
        scryfall_card("Rhystic Study", game_changer=True),
        scryfall_card("Counterspell", game_changer=False),
        scryfall_card(
            "Niv-Mizzet, Parun",
            type_line="Legendary Creature — Dragon Wizard",
            mana_cost="{U}{U}{U}{R}{R}{R}",
            color_identity=["U", "R"],
            game_changer=False,
        ),
    ]
    path.write_text(json.dumps(cards), encoding="utf-8")
    return path


def test_the_flag_is_read_kept_and_written_back(synced_file: Path, tmp_path: Path) -> None:
    cards = {card.name: card for card in read_cards(synced_file).cards}
    assert cards["Rhystic Study"].game_changer is True and cards["Counterspell"].game_changer is False
    assert cards["Rhystic Study"].to_scryfall()["game_changer"] is True
    unflagged = tmp_path / "old.json"
    unflagged.write_text(json.dumps([scryfall_card("Rhystic Study")]), encoding="utf-8")
    [old] = read_cards(unflagged).cards
    assert old.game_changer is None and "game_changer" not in old.to_scryfall()


def test_a_flag_that_is_not_true_or_false_refuses_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([scryfall_card("Rhystic Study", game_changer="yes")]), encoding="utf-8")
    with pytest.raises(CardImportError, match="game_changer is str, not true or false"):
        read_cards(path)


def test_mtgjson_marks_only_game_changers(tmp_path: Path) -> None:
    face = {
        "layout": "normal",
        "manaCost": "{2}{U}",
        "type": "Enchantment",
        "colorIdentity": ["U"],
        "legalities": {"commander": "Legal"},
    }
    path = tmp_path / "AtomicCards.json"
    path.write_text(
        json.dumps(
            {
                "meta": {"date": "2026-11-20"},
                "data": {
                    "Rhystic Study": [{**face, "name": "Rhystic Study", "isGameChanger": True}],
                    "Counterspell": [{**face, "name": "Counterspell"}],
                },
            }
        ),
        encoding="utf-8",
    )
    cards = {card.name: card.game_changer for card in read_cards(path).cards}
    assert cards == {"Rhystic Study": True, "Counterspell": None}  # absent is "not said", not "no"


def test_the_stored_index_keeps_the_flag(synced_file: Path) -> None:
    index = CardIndex.from_cards(read_cards(synced_file).cards)
    loaded = snapshot.load(snapshot.dump(index))
    assert {card.name: card.game_changer for card in loaded.cards()} == {
        "Rhystic Study": True,
        "Counterspell": False,
        "Niv-Mizzet, Parun": False,
    }


async def test_a_synced_database_checks_by_scryfalls_flags_and_says_so(
    db_path: Path, synced_file: Path
) -> None:
    """Imported into a real SQLite card database and read back from its stored index on the next start,
    the flags decide the Game Changers and the check names Scryfall data of the file's date."""
    db = await Database.open(db_path)
    cards = await CardDatabase.open(db, SUBSET)
    before = check_deck_text(
        "Commander: Niv-Mizzet, Parun\n1 Rhystic Study\n1 Counterspell", cards, "commander"
    )
    assert before.bracket.game_changers_from.scryfall is False  # the subset has no flags: the bundled list
    await cards.import_file(synced_file)
    await db.close()
    db = await Database.open(db_path)
    try:
        cards = await CardDatabase.open(db, SUBSET)
        assert cards.get("Rhystic Study").game_changer is True
        result = check_deck_text(
            "Commander: Niv-Mizzet, Parun\n1 Rhystic Study\n1 Counterspell", cards, "commander"
        )
        source = result.bracket.game_changers_from
        assert (source.scryfall, source.date) == (True, "2026-11-20")
        assert [(f.rule, f.cards) for f in result.bracket.findings] == [("BR2", ("Rhystic Study",))]
    finally:
        await db.close()
