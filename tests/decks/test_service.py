"""Registered decks on a real SQLite file: per (server, user), overwrite only when confirmed, recheck on
ruleset or card data change, and the API other features use (deck_cards)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.domain.decklist import DecklistRefused
from bot.services.decks import DeckNameError, DeckService, export_text

DECKS = Path(__file__).parent.parent / "data" / "decks"
GUILD, OTHER_GUILD, ALICE, BOB = 10, 11, 100, 200
KAALIA = (
    (DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8").rstrip("\n")
)  # stored normalised
PARTNERS = (
    (DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_text(encoding="utf-8").rstrip("\n")
)


@pytest.fixture
def service(db, index) -> DeckService:
    return DeckService(db, index, cards_version="v1")


async def test_register_stores_list_cards_ruleset_and_verdict(service, db) -> None:
    result = await service.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    assert not result.needs_confirmation and result.check.verdict.legal
    row = await db.fetchone("SELECT name, raw_list, ruleset, status, commanders, resolved FROM decks")
    assert (row["name"], row["raw_list"], row["ruleset"], row["status"]) == (
        "Kaalia",
        KAALIA,
        "commander",
        "legal",
    )
    assert json.loads(row["commanders"]) == ["Kaalia of the Vast"]
    resolved = json.loads(row["resolved"])
    assert len(resolved) == 79 and ["main", 8, "Mountain", "Mountain"] in resolved


async def test_reregistering_asks_before_overwriting(service) -> None:
    await service.register(GUILD, ALICE, "My Deck", KAALIA, "commander")
    again = await service.register(GUILD, ALICE, "  my   deck ", PARTNERS, "commander")
    assert again.needs_confirmation and again.record is None
    kept = await service.get(GUILD, ALICE, "MY DECK")
    assert kept.raw_list == KAALIA and kept.name == "My Deck"
    replaced = await service.register(GUILD, ALICE, "my deck", PARTNERS, "commander", overwrite=True)
    assert replaced.record.raw_list == PARTNERS and replaced.record.id == kept.id
    assert len(await service.list_decks(GUILD, ALICE)) == 1


async def test_decks_are_per_server_and_user(service) -> None:
    await service.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    await service.register(GUILD, BOB, "Kaalia", PARTNERS, "commander")
    assert [d.raw_list for d in await service.list_decks(GUILD, ALICE)] == [KAALIA]
    assert await service.list_decks(OTHER_GUILD, ALICE) == []
    assert not await service.delete(GUILD, ALICE, "nope")
    assert await service.delete(GUILD, ALICE, "kaalia")
    assert await service.list_decks(GUILD, ALICE) == []
    assert [d.raw_list for d in await service.list_decks(GUILD, BOB)] == [PARTNERS]


@pytest.mark.parametrize(
    ("name", "reason"), [("", "name_empty"), ("   ", "name_empty"), ("x" * 65, "name_too_long")]
)
async def test_bad_names_change_nothing(service, db, name, reason) -> None:
    with pytest.raises(DeckNameError) as error:
        await service.register(GUILD, ALICE, name, KAALIA, "commander")
    assert error.value.reason == reason
    assert await db.scalar("SELECT COUNT(*) FROM decks") == 0


async def test_unreadable_list_is_refused_and_not_stored(service, db) -> None:
    with pytest.raises(DecklistRefused, match="^binary$"):
        await service.register(GUILD, ALICE, "Bin", b"\x00\x01\x02binary", "commander")
    assert await db.scalar("SELECT COUNT(*) FROM decks") == 0


async def test_name_of_64_characters_with_markdown_is_stored_as_given(service) -> None:
    name = "**bold** @everyone <@123> " + "x" * 38
    assert len(name) == 64
    result = await service.register(GUILD, ALICE, name, KAALIA, "commander")
    assert result.record.name == name


async def test_deck_cards_api_for_other_features(service) -> None:
    await service.register(GUILD, ALICE, "Partners", PARTNERS, "commander")
    deck = await service.deck_cards(GUILD, ALICE, "partners")
    assert [c.name for c in deck.commanders] == ["Okaun, Eye of Chaos", "Zndrsplt, Eye of Wisdom"]
    assert len(deck.library()) == 98
    assert sum(1 for card in deck.library() if card.name == "Mountain") == 8
    assert deck.unresolved == ()
    assert await service.deck_cards(GUILD, BOB, "partners") is None


async def test_recheck_when_the_ruleset_changes(service) -> None:
    await service.register(GUILD, ALICE, "Partners", PARTNERS, "commander")
    await service.register(GUILD, BOB, "Kaalia", KAALIA, "commander")
    await service.register(OTHER_GUILD, ALICE, "Partners", PARTNERS, "commander")
    assert await service.recheck_guild(GUILD, "edh-2010") == 2
    partners = await service.get(GUILD, ALICE, "Partners")
    assert (partners.ruleset, partners.status) == ("edh-2010", "illegal")  # two commanders: D3
    assert (await service.get(GUILD, BOB, "Kaalia")).status == "legal"
    assert (await service.get(OTHER_GUILD, ALICE, "Partners")).status == "legal"
    assert await service.recheck_guild(GUILD, "edh-2010") == 0  # nothing changed the second time


async def test_recheck_when_the_card_data_changes(db, index, cards) -> None:
    from bot.cards.index import CardIndex

    old = DeckService(db, CardIndex.from_cards(c for c in cards.values() if c.name != "Sol Ring"), "v1")
    await old.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    assert (await old.get(GUILD, ALICE, "Kaalia")).status == "unverifiable"
    new = DeckService(db, index, "v2")

    async def ruleset_for(guild_id: int) -> str:
        return "commander"

    assert await new.recheck_stale(ruleset_for) == 1
    record = await new.get(GUILD, ALICE, "Kaalia")
    assert (record.status, record.cards_version) == ("legal", "v2")
    assert await new.recheck_stale(ruleset_for) == 0


async def test_dek_upload_is_stored_and_exported_as_text(service) -> None:
    data = (DECKS / "kaalia_mtgo.dek").read_bytes()
    result = await service.register(GUILD, ALICE, "Dek", data, "commander", filename="kaalia_mtgo.dek")
    assert result.check.verdict.legal
    record = await service.get(GUILD, ALICE, "Dek")
    assert record.raw_list.startswith("Commander\n1 Kaalia of the Vast\n\nDeck\n")
    again = await service.check(record.raw_list, "commander")
    assert again.verdict.legal and export_text(again.deck) == record.raw_list


async def test_registered_deck_with_unknown_cards_keeps_its_full_size_for_mulligan_odds(service) -> None:
    from bot.services.mulligan import library_from_registered

    with_unknown = KAALIA.replace("Sol Ring", "Sol Rign")
    await service.register(GUILD, ALICE, "Typo", with_unknown, "commander")
    deck = await service.deck_cards(GUILD, ALICE, "Typo")
    assert deck is not None and deck.unresolved_main == ((1, "Sol Rign"),)
    library = library_from_registered(deck)
    assert len(library.library) == len(deck.library()) + 1 == 99
    assert library.unknown == ("Sol Rign",)
    assert library.counts.lands == sum(card.is_land for card in deck.library())
