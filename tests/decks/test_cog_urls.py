"""``/deck check url:`` and ``/deck register url:`` through the real command tree, the deck sites replaced
by a local server (tests/decks/deck_sites.py); only Discord's edge is fake."""

from __future__ import annotations

import pytest

from bot.testing import DiscordHarness

from .conftest import DATA
from .deck_sites import ARCHIDEKT_ID, MOXFIELD_ID, closed_port, start_sites


@pytest.fixture
async def sites():
    fake, runner = await start_sites()
    yield fake
    await runner.cleanup()


@pytest.fixture
async def h(tmp_path, sites):
    async with DiscordHarness.start(
        tmp_path,
        cards_path=DATA / "deck_cards.jsonl",
        decks__archidekt_api_url=sites.urls()["archidekt_api"],
        decks__moxfield_api_url=sites.urls()["moxfield_api"],
    ) as harness:
        yield harness


async def test_check_a_moxfield_link(h) -> None:
    reply = await h.slash("deck check", url=f"https://www.moxfield.com/decks/{MOXFIELD_ID}")
    assert reply.deferred and reply.ephemeral
    assert "Legal under commander." in reply.text
    assert {f["name"]: f["value"] for f in reply.embed["fields"]}["Cards"] == "100"


async def test_register_an_archidekt_link_then_list_it(h) -> None:
    reply = await h.slash("deck register", name="Kaalia", url=f"https://archidekt.com/decks/{ARCHIDEKT_ID}/x")
    assert "Kaalia" in reply.text and "Legal under commander." in reply.text
    listed = await h.slash("deck list")
    assert "Kaalia" in listed.text and "Kaalia of the Vast" in listed.text
    again = await h.slash("deck register", name="Kaalia", url=f"https://archidekt.com/decks/{ARCHIDEKT_ID}")
    assert "You already have a deck named “Kaalia”. Replace it with this list?" in again.text
    replaced = await h.click(again, label="Replace")  # the buttons came in a followup after the deferral
    assert "Legal under commander." in replaced.text


async def test_a_missing_deck_is_a_clear_error_and_saves_nothing(h) -> None:
    reply = await h.slash("deck register", name="Nope", url="https://archidekt.com/decks/999", locale="ja")
    assert "Archidektにデッキ999がありません（404）" in reply.text
    assert "Nope" not in (await h.slash("deck list")).text


async def test_an_unsupported_link_is_refused(h) -> None:
    reply = await h.slash("deck check", url="https://tappedout.net/mtg-decks/kaalia/")
    assert "Archidekt" in reply.text and "Moxfield" in reply.text


async def test_offline_sites_answer_within_seconds(tmp_path) -> None:
    dead = f"http://127.0.0.1:{closed_port()}"
    async with DiscordHarness.start(
        tmp_path,
        cards_path=DATA / "deck_cards.jsonl",
        decks__archidekt_api_url=f"{dead}/api/decks/",
        decks__moxfield_api_url=f"{dead}/v3/decks/all/",
    ) as harness:
        reply = await harness.slash("deck check", url=f"https://moxfield.com/decks/{MOXFIELD_ID}")
    assert "Can't reach Moxfield right now" in reply.text
