"""DeckService's exact promises on a real database with real card data: the per-member cap, a re-check that
fails keeps the old verdict, new card data that changes a deck's status is recorded with what is new (and
a re-registration clears it), ``/deck show`` stores the verdict it shows, and the bracket the last check
allowed is read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.services.decks import MAX_DECKS_PER_MEMBER, DeckNameError, DeckService, clean_deck_name, deck_bracket

DECKS = Path(__file__).parent.parent / "data" / "decks"
GUILD, ALICE, BOB = 10, 100, 200
KAALIA = (DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8").rstrip("\n")
PARTNERS = (
    (DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_text(encoding="utf-8").rstrip("\n")
)


async def test_a_member_keeps_at_most_the_cap_but_may_still_overwrite_one(db, index) -> None:
    service = DeckService(db, index)
    for number in range(MAX_DECKS_PER_MEMBER):
        await service.register(GUILD, ALICE, f"Deck {number}", "1 Sol Ring", "commander")
    with pytest.raises(DeckNameError) as refused:
        await service.register(GUILD, ALICE, "One more", "1 Sol Ring", "commander")
    assert refused.value.key == "deck.error.too_many_decks" and refused.value.values == {"limit": 100}
    replaced = await service.register(GUILD, ALICE, "Deck 0", KAALIA, "commander", overwrite=True)
    assert replaced.record is not None and tuple(replaced.record.commanders) == ("Kaalia of the Vast",)
    assert (await service.register(GUILD, BOB, "Mine", "1 Sol Ring", "commander")).record is not None
    assert await service.delete(GUILD, ALICE, "Deck 1") and not await service.delete(GUILD, ALICE, "Deck 1")
    assert (await service.register(GUILD, ALICE, "One more", "1 Sol Ring", "commander")).record is not None


def test_a_name_of_65_characters_is_refused_with_its_length() -> None:
    assert clean_deck_name("  a   b ") == "a b"
    assert clean_deck_name("x" * 64) == "x" * 64
    with pytest.raises(DeckNameError) as refused:
        clean_deck_name("x" * 65)
    assert refused.value.reason == "name_too_long" and refused.value.values == {"length": 65, "limit": 64}


async def test_new_card_data_that_changes_a_status_is_recorded_and_a_reregistration_clears_it(
    db, index, cards
) -> None:
    old = DeckService(db, CardIndex.from_cards(c for c in cards.values() if c.name != "Sol Ring"), "v1")
    await old.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    await old.register(GUILD, BOB, "Lands", "1 Mountain", "commander")  # no Sol Ring: its status stays
    before = {r.name: r.status for r in await old.repository.list_for_guild(GUILD)}
    new = DeckService(db, index, "v2")

    async def ruleset_for(guild_id: int) -> str:
        return "commander"

    assert await new.recheck_stale(ruleset_for) >= 1
    changes = {c.name: c for c in await new.changes.pending()}
    assert before["Kaalia"] == "unverifiable" and set(changes) == {"Kaalia"}
    change = changes["Kaalia"]
    assert (change.old_status, change.new_status, change.user_id) == ("unverifiable", "legal", ALICE)
    await new.register(GUILD, ALICE, "Kaalia", KAALIA, "commander", overwrite=True)
    assert await new.changes.pending() == []


async def test_a_status_change_lists_only_the_problems_that_are_new(db, index, cards) -> None:
    """Kaalia's list is legal with every card known; without Sol Ring's data it can't be verified and the one
    new problem names Sol Ring."""
    full = DeckService(db, index, "v1")
    await full.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    stripped = DeckService(db, CardIndex.from_cards(c for c in cards.values() if c.name != "Sol Ring"), "v2")

    async def ruleset_for(guild_id: int) -> str:
        return "commander"

    assert await stripped.recheck_stale(ruleset_for) == 1
    (change,) = await stripped.changes.pending()
    assert (change.old_status, change.new_status) == ("legal", "unverifiable")
    assert change.problems and all(card == "Sol Ring" for _, card in change.problems)
    record = await stripped.get(GUILD, ALICE, "Kaalia")
    assert (record.status, record.cards_version) == ("unverifiable", "v2")


async def test_a_recheck_that_fails_keeps_the_old_verdict_and_version(db, index) -> None:
    service = DeckService(db, index, "v1")
    await service.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")

    async def broken(*args, **kwargs):
        raise TimeoutError("the work pool gave up")

    failing = DeckService(db, index, "v2", offload=broken)

    async def ruleset_for(guild_id: int) -> str:
        return "edh-2010"

    assert await failing.recheck_stale(ruleset_for) == 0
    assert await failing.recheck_guild(GUILD, "edh-2010") == 0
    record = await service.get(GUILD, ALICE, "Kaalia")
    assert (record.ruleset, record.cards_version, record.status) == ("commander", "v1", "legal")
    assert await failing.changes.pending() == []


async def test_show_stores_the_verdict_it_shows_and_the_bracket_is_read_back(db, index) -> None:
    service = DeckService(db, index, "v1")
    await service.register(GUILD, BOB, "Partners", PARTNERS, "commander")
    record = await service.get(GUILD, BOB, "Partners")
    assert isinstance(deck_bracket(record), int) and 1 <= deck_bracket(record) <= 5
    shown = await service.show(record, "edh-2010")
    assert not shown.verdict.legal
    stored = await service.get(GUILD, BOB, "Partners")
    assert (stored.ruleset, stored.status) == ("edh-2010", "illegal")
    assert json.loads(stored.verdict)["bracket"] == shown.bracket.minimum
    unchanged = await service.show(stored, "edh-2010")
    assert (await service.get(GUILD, BOB, "Partners")).updated_at == stored.updated_at and unchanged
    older = type(stored)(**{**stored.__dict__, "verdict": json.dumps({"status": "legal"})})
    assert deck_bracket(older) is None
    assert deck_bracket(type(stored)(**{**stored.__dict__, "verdict": json.dumps({"bracket": True})})) is None
