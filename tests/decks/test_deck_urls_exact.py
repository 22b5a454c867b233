"""Deck links' refusals carry exactly what their messages show, and the size cap is exact: a body of the
cap's size is read, one byte more is refused, with or without a Content-Length (the local stand-in sites
of tests/decks/deck_sites.py)."""

from __future__ import annotations

import logging

import pytest

from bot.config import load_config
from bot.domain.decklist import DecklistRefused
from bot.services.deck_urls import DeckUrlFetcher

from .deck_sites import ARCHIDEKT_ID, URLS, FakeDeckSites, closed_port, start_sites

ARCHIDEKT_URL = f"https://archidekt.com/decks/{ARCHIDEKT_ID}/heavenly_inferno_c11_precon"
ARCHIDEKT_SIZE = (URLS / f"archidekt_{ARCHIDEKT_ID}.json").stat().st_size


@pytest.fixture
async def sites():
    fake, runner = await start_sites()
    yield fake
    await runner.cleanup()


async def refusal(sites: FakeDeckSites, url: str, **overrides) -> DecklistRefused:
    with pytest.raises(DecklistRefused) as refused:
        await DeckUrlFetcher(**{**sites.urls(), **overrides}).fetch(url)
    return refused.value


@pytest.mark.parametrize(
    ("url", "reason", "values"),
    [
        ("https://archidekt.com/decks/401", "url_private", {"site": "Archidekt", "id": "401", "status": 401}),
        ("https://archidekt.com/decks/403", "url_private", {"site": "Archidekt", "id": "403", "status": 403}),
        ("https://archidekt.com/decks/500", "url_http_error", {"site": "Archidekt", "status": 500}),
        ("https://moxfield.com/decks/html", "url_bad_response", {"site": "Moxfield"}),
        ("https://moxfield.com/decks/slow", "url_timeout", {"site": "Moxfield", "seconds": 0}),
    ],
)
async def test_each_refusal_carries_the_site_and_what_its_message_names(
    sites: FakeDeckSites, url: str, reason: str, values: dict
) -> None:
    """The message says which site, which deck, which status or how long: each value is the refusal's."""
    refused = await refusal(sites, url, timeout=0.5)
    assert (refused.reason, refused.values) == (reason, values)


async def test_a_body_of_exactly_the_cap_is_read_and_one_byte_over_is_refused(sites: FakeDeckSites) -> None:
    """The cap is "at most": the recorded Archidekt answer at its own size is a deck, a byte less of cap
    refuses it by its Content-Length; an endless body without one is cut by counting what arrived."""
    deck = await DeckUrlFetcher(**sites.urls(), max_bytes=ARCHIDEKT_SIZE).fetch(ARCHIDEKT_URL)
    assert deck.name == "Heavenly Inferno (C11 precon)"
    too_small = await refusal(sites, ARCHIDEKT_URL, max_bytes=ARCHIDEKT_SIZE - 1)
    assert (too_small.reason, too_small.values) == (
        "url_too_large",
        {"site": "Archidekt", "limit": ARCHIDEKT_SIZE - 1},
    )
    endless = await refusal(sites, "https://moxfield.com/decks/huge", max_bytes=70_000)
    assert (endless.reason, endless.values) == ("url_too_large", {"site": "Moxfield", "limit": 70_000})


async def test_an_unreachable_site_is_logged_with_the_url_it_tried(caplog) -> None:
    """The refusal only says the site cannot be reached; the log keeps the API URL and the OS error."""
    base = f"http://127.0.0.1:{closed_port()}"
    caplog.set_level(logging.INFO, logger="bot.services.deck_urls")
    with pytest.raises(DecklistRefused) as refused:
        await DeckUrlFetcher(f"{base}/api/decks/", f"{base}/v3/").fetch(ARCHIDEKT_URL)
    assert (refused.value.reason, refused.value.values) == ("url_unreachable", {"site": "Archidekt"})
    [line] = [r.getMessage() for r in caplog.records if r.name == "bot.services.deck_urls"]
    assert line.startswith(
        f"deck link: cannot reach {base}/api/decks/{ARCHIDEKT_ID}/: Cannot connect to host"
    )


def test_the_fetcher_takes_both_sites_urls_from_the_config() -> None:
    """``[decks] archidekt_api_url`` / ``moxfield_api_url`` point the bot at other servers (tests, mirrors);
    the time limit and size cap stay the fetcher's own."""
    config = load_config(None, environ={}).with_values(
        decks__archidekt_api_url="http://127.0.0.1:1/a/", decks__moxfield_api_url="http://127.0.0.1:1/m/"
    )
    assert DeckUrlFetcher.from_config(config) == DeckUrlFetcher(
        "http://127.0.0.1:1/a/", "http://127.0.0.1:1/m/"
    )
    assert DeckUrlFetcher.from_config(load_config(None, environ={})) == DeckUrlFetcher()
