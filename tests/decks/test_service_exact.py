"""DeckService's exact promises on a real database with real card data: the per-member cap, a re-check that
fails keeps the old verdict, new card data that changes a deck's status is recorded with what is new (and
a re-registration clears it), ``/deck show`` stores the verdict it shows, and the bracket the last check
allowed is read back."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path

import pytest

from bot.cards.index import CardIndex
from bot.domain.rules.brackets import GameChangerSource
from bot.services.decks import (
    MAX_DECKS_PER_MEMBER,
    DeckNameError,
    DeckService,
    check_deck_text,
    clean_deck_name,
    deck_bracket,
    export_text,
)

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


async def commander(guild_id: int) -> str:
    return "commander"


async def test_the_stored_verdict_keeps_every_field_under_the_names_its_readers_use(db, index) -> None:
    """``/deck list``, the re-check notices and the bracket read the stored JSON back by these names."""
    service = DeckService(db, index)
    lotus = KAALIA.replace("1 Anger\n", "1 Black Lotus\n")
    result = await service.register(GUILD, ALICE, "Lotus", lotus, "commander")
    assert result.record is not None and result.record.cards_version == ""
    assert json.loads(result.record.verdict) == {
        "status": "illegal",
        "legal": False,
        "ruleset": "commander",
        "color_identity": "WBR",
        "card_count": 100,
        "problems": [{"rule": "BANNED", "card": "Black Lotus", "key": "deck.problem.banned"}],
        "bracket": result.check.bracket.minimum,
    }


async def test_asking_before_an_overwrite_still_shows_the_new_lists_check(db, index) -> None:
    service = DeckService(db, index)
    await service.register(GUILD, ALICE, "Kaalia", "1 Sol Ring", "commander")
    asked = await service.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    assert asked.needs_confirmation and asked.record is None
    assert asked.check.verdict.legal and asked.check.verdict.commanders == ("Kaalia of the Vast",)


async def test_a_csv_upload_is_stored_as_the_plain_text_export_writes(db, index) -> None:
    service = DeckService(db, index)
    csv = (DECKS / "kaalia_moxfield.csv").read_text(encoding="utf-8")
    result = await service.register(GUILD, ALICE, "Kaalia", csv, "commander", filename="Kaalia.CSV")
    assert result.record is not None and result.record.raw_list.startswith(
        "Commander\n1 Kaalia of the Vast\n"
    )
    assert result.record.raw_list == export_text(result.check.deck)


def test_the_export_titles_each_section_in_order(index) -> None:
    text = "Commander\n1 Kaalia of the Vast\n\nCompanion\n1 Lurrus of the Dream-Den\n\nDeck\n1 Sol Ring\n\nSideboard\n1 Lightning Bolt\n"
    deck = check_deck_text(text, index, "commander").deck
    assert export_text(deck) == text


async def test_a_commander_named_by_the_option_stays_the_commander_on_every_recheck(db, index) -> None:
    """A list pasted as 100 cards with ``commander:Kaalia``: re-checks and ``/deck show`` keep the option."""
    pasted = KAALIA.replace("Commander: Kaalia of the Vast", "1 Kaalia of the Vast")
    service = DeckService(db, index, "v1")
    result = await service.register(
        GUILD, ALICE, "Kaalia", pasted, "commander", commander_names=["Kaalia of the Vast"]
    )
    assert result.record is not None and tuple(result.record.commanders) == ("Kaalia of the Vast",)
    assert result.record.status == "legal"
    newer = DeckService(db, index, "v2")
    assert await newer.recheck_stale(commander) == 1  # only the card data version changed
    assert await newer.recheck_guild(GUILD, "commander") == 0
    record = await newer.get(GUILD, ALICE, "Kaalia")
    assert (record.status, record.cards_version) == ("legal", "v2")
    shown = await newer.show(record, "commander")
    assert shown.verdict.legal and (await newer.get(GUILD, ALICE, "Kaalia")).status == "legal"
    deck = await newer.deck_cards(GUILD, ALICE, "Kaalia")
    assert deck is not None and deck.record.name == "Kaalia"
    assert [card.name for card in deck.commanders] == ["Kaalia of the Vast"]


async def test_every_deck_whose_status_changed_is_counted_and_recorded_for_its_own_deck(
    db, index, cards
) -> None:
    """Bob's deck is registered first, so Alice's changed deck is not deck 1: the change must name her deck."""
    without_ring = CardIndex.from_cards(c for c in cards.values() if c.name != "Sol Ring")
    old = DeckService(db, without_ring, "v1")
    await old.register(GUILD, BOB, "Lands", "1 Mountain", "commander")
    await old.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    await old.register(GUILD + 1, ALICE, "Elsewhere", KAALIA, "commander")
    asked = []

    async def ruleset_for(guild_id: int) -> str:
        asked.append(guild_id)
        return {GUILD: "commander", GUILD + 1: "commander"}[guild_id]

    new = DeckService(db, index, "v2")
    assert await new.recheck_stale(ruleset_for) == 3  # Bob's verdict is stored again under v2 too
    assert sorted(asked) == [GUILD, GUILD, GUILD + 1]
    changes = {(c.guild_id, c.user_id, c.name): c.new_status for c in await new.changes.pending()}
    assert changes == {(GUILD, ALICE, "Kaalia"): "legal", (GUILD + 1, ALICE, "Elsewhere"): "legal"}


async def test_a_problem_the_deck_already_had_is_no_news(db, index, cards) -> None:
    """Unverifiable (an unknown land) and banned Black Lotus; new card data knows the land: the status
    becomes illegal, and the ban it already had is not told as new."""
    lotus = KAALIA.replace("1 Anger\n", "1 Black Lotus\n")
    old = DeckService(db, CardIndex.from_cards(c for c in cards.values() if c.name != "Akoum Refuge"), "v1")
    await old.register(GUILD, ALICE, "Lotus", lotus, "commander")
    new = DeckService(db, index, "v2")
    assert await new.recheck_stale(commander) == 1
    (change,) = await new.changes.pending()
    assert (change.old_status, change.new_status, change.problems) == ("unverifiable", "illegal", ())


async def test_a_change_tells_at_most_five_new_problems(db, index, cards) -> None:
    missing = {
        "Akoum Refuge",
        "Akroma's Vengeance",
        "Akroma, Angel of Fury",
        "Angel of Despair",
        "Angelic Arbiter",
        "Anger",
    }
    full = DeckService(db, index, "v1")
    await full.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")
    stripped = DeckService(db, CardIndex.from_cards(c for c in cards.values() if c.name not in missing), "v2")
    assert await stripped.recheck_stale(commander) == 1
    (change,) = await stripped.changes.pending()
    assert len(change.problems) == 5 and {card for _, card in change.problems} < missing


async def test_a_failed_recheck_is_logged_with_the_deck_and_the_error(db, index, caplog) -> None:
    service = DeckService(db, index, "v1")
    record = (await service.register(GUILD, ALICE, "Kaalia", KAALIA, "commander")).record

    async def broken(*args, **kwargs):
        raise TimeoutError("the work pool gave up")

    failing = DeckService(db, index, "v2", offload=broken)
    with caplog.at_level(logging.WARNING, logger="bot.services.decks"):
        assert await failing.recheck_guild(GUILD, "edh-2010") == 0
    (logged,) = [r for r in caplog.records if r.name == "bot.services.decks"]
    assert logged.getMessage() == f"re-check of deck {record.id} (Kaalia) failed: verdict left as it was"
    assert logged.exc_info is not None and logged.exc_info[0] is TimeoutError


async def test_a_headerless_csv_upload_is_read_as_csv_because_of_its_file_name(db, index) -> None:
    """ "1,Sol Ring" reads as a card named "1,Sol Ring" in a pasted list; the file's .csv name decides."""
    service = DeckService(db, index)
    result = await service.register(
        GUILD, ALICE, "Rocks", "1,Sol Ring\n1,Island\n", "commander", filename="rocks.csv"
    )
    check = result.check
    assert check.decklist.format == "csv" and check.summary.lands == 1
    assert [(c.count, c.card.name if c.card else None) for c in check.deck.cards] == [
        (1, "Sol Ring"),
        (1, "Island"),
    ]
    assert result.record is not None and result.record.raw_list == "Deck\n1 Sol Ring\n1 Island\n"


def test_the_bracket_names_the_card_datas_date_when_the_data_flags_game_changers(cards) -> None:
    """After a Scryfall sync every card carries its Game Changer flag: the report then cites the card data
    (and its date) instead of the bundled list."""
    synced = CardIndex.from_cards(dataclasses.replace(card, game_changer=False) for card in cards.values())
    synced.data_date = "2026-11-30"
    check = check_deck_text(KAALIA, synced, "commander")
    assert check.bracket.game_changers_from == GameChangerSource(True, "2026-11-30")


async def test_a_new_server_ruleset_changes_verdicts_without_a_card_data_notice(db, index) -> None:
    """The notice is about new card data; an organiser's ruleset change is announced by the organiser."""
    service = DeckService(db, index, "v1")
    await service.register(GUILD, BOB, "Partners", PARTNERS, "commander")
    assert await service.recheck_guild(GUILD, "edh-2010") == 1
    assert (await service.get(GUILD, BOB, "Partners")).status == "illegal"
    assert await service.changes.pending() == []
