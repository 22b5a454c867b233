"""Deck links' refusals carry exactly what their messages show, and the size cap is exact: a body of the
cap's size is read, one byte more is refused, with or without a Content-Length (the local stand-in sites
of tests/decks/deck_sites.py)."""

from __future__ import annotations

import logging

import pytest

from bot import __version__
from bot.config import load_config
from bot.domain.decklist import DecklistRefused
from bot.services.deck_urls import DeckUrlFetcher

from .deck_sites import ARCHIDEKT_ID, MOXFIELD_ID, URLS, FakeDeckSites, closed_port, start_sites

ARCHIDEKT_URL = f"https://archidekt.com/decks/{ARCHIDEKT_ID}/heavenly_inferno_c11_precon"
MOXFIELD_URL = f"https://www.moxfield.com/decks/{MOXFIELD_ID}"
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


async def test_the_sites_see_exactly_the_agent_and_the_json_accept_header(sites: FakeDeckSites) -> None:
    """The header lines as they went over the wire, names and values in their usual case: what the sites'
    logs and rate limits key on (a site that answers HTML to a browser-like request answers JSON to this)."""
    await DeckUrlFetcher(**sites.urls()).fetch(MOXFIELD_URL)
    sent = {name: value for name, value in sites.raw_headers if name in (b"User-Agent", b"Accept")}
    assert sent == {b"User-Agent": f"Podkeeper/{__version__}".encode(), b"Accept": b"application/json"}


async def test_two_redirects_are_followed_and_a_third_is_refused(sites: FakeDeckSites) -> None:
    """A moved deck (or Archidekt's own redirect to the slashed URL) is followed; a site that keeps bouncing
    the fetcher is given up on at its third redirect, as unreachable."""
    fetcher = DeckUrlFetcher(**sites.urls())
    deck = await fetcher.fetch("https://moxfield.com/decks/redirect2")
    assert deck.name == (await fetcher.fetch(MOXFIELD_URL)).name
    followed = [path.rsplit("/", 1)[1] for path, _ in sites.requests[:3]]
    assert followed == ["redirect2", "redirect1", MOXFIELD_ID]
    bounced = await refusal(sites, "https://moxfield.com/decks/redirect3")
    assert (bounced.reason, bounced.values) == ("url_unreachable", {"site": "Moxfield"})


async def test_a_connection_dropped_mid_answer_is_unreachable_and_logged(
    sites: FakeDeckSites, caplog
) -> None:
    """The site promised 1000 bytes and hung up after 10: not a deck, not a bad answer, but a site that
    could not be read; the log keeps the API URL and aiohttp's reason."""
    caplog.set_level(logging.INFO, logger="bot.services.deck_urls")
    refused = await refusal(sites, "https://moxfield.com/decks/dropped")
    assert (refused.reason, refused.values) == ("url_unreachable", {"site": "Moxfield"})
    [line] = [r.getMessage() for r in caplog.records if r.name == "bot.services.deck_urls"]
    api_url = f"{sites.base}/moxfield/v3/decks/all/dropped"
    assert line.startswith(f"deck link: {api_url} failed: Response payload is not completed")


async def test_a_body_in_several_chunks_is_read_whole(sites: FakeDeckSites) -> None:
    """The recorded deck after 100 000 spaces arrives in several chunks, the first ending among the spaces:
    the chunks are put back together byte for byte (anything between them would not be JSON)."""
    fetcher = DeckUrlFetcher(**sites.urls())
    padded = await fetcher.fetch("https://moxfield.com/decks/padded")
    assert padded.text == (await fetcher.fetch(MOXFIELD_URL)).text


async def test_an_empty_answer_is_a_bad_response_even_under_a_cap_of_nothing(sites: FakeDeckSites) -> None:
    """No bytes is within any cap, zero included, and is no deck: refused as a bad answer, not as too large."""
    refused = await refusal(sites, "https://moxfield.com/decks/empty", max_bytes=0)
    assert (refused.reason, refused.values) == ("url_bad_response", {"site": "Moxfield"})


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        ("http://127.0.0.1:1/api/decks/", "http://127.0.0.1:1/api/decks/42/"),
        ("http://127.0.0.1:1/api/decks", "http://127.0.0.1:1/api/decks/42/"),
        ("http://127.0.0.1:1/mirror/X/", "http://127.0.0.1:1/mirror/X/42/"),
    ],
)
def test_only_the_bases_trailing_slash_is_trimmed(base: str, expected: str) -> None:
    """A configured base with or without its slash gives one URL; the base's own last part is kept whole."""
    assert DeckUrlFetcher(archidekt_api=base).api_url("archidekt", "42") == expected
    assert DeckUrlFetcher(moxfield_api=base).api_url("moxfield", "42") == expected.removesuffix("/")
