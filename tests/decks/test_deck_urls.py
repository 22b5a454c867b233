"""Deck links: Archidekt and Moxfield decks fetched from their JSON APIs — here a local server
replaying recorded response shapes — read as the same deck as the plain list, checked on real card data;
every failure is a clear refusal within seconds."""

from __future__ import annotations

import time

import pytest

from bot import __version__
from bot.domain.deck_sources import deck_from_json, looks_like_url, parse_deck_url
from bot.domain.decklist import DecklistRefused, Section, parse_decklist
from bot.render.deck import refusal_message
from bot.services.deck_urls import DeckUrlFetcher
from bot.services.decks import check_deck_text

from .conftest import DECKS
from .deck_sites import ARCHIDEKT_ID, MOXFIELD_ID, SLOW_SITE_SECONDS, FakeDeckSites, closed_port, start_sites

REFERENCE = parse_decklist((DECKS / "heavenly_inferno_cmd2011.txt").read_bytes())
REFERENCE_MAIN = sorted((e.count, e.name) for e in REFERENCE.in_section(Section.MAIN))
ARCHIDEKT_URL = f"https://archidekt.com/decks/{ARCHIDEKT_ID}/heavenly_inferno_c11_precon"
MOXFIELD_URL = f"https://www.moxfield.com/decks/{MOXFIELD_ID}"


@pytest.fixture
async def sites():
    fake, runner = await start_sites()
    yield fake
    await runner.cleanup()


def fetcher(sites: FakeDeckSites, **overrides) -> DeckUrlFetcher:
    return DeckUrlFetcher(**{**sites.urls(), **overrides})


@pytest.mark.parametrize(
    ("url", "site", "deck_id"),
    [
        ("https://archidekt.com/decks/1234567/heavenly_inferno", "archidekt", "1234567"),
        ("archidekt.com/decks/1234567", "archidekt", "1234567"),
        ("https://www.archidekt.com/decks/view/42#main", "archidekt", "42"),
        ("https://www.moxfield.com/decks/Kx0aLiAvA5tTheVast-C11", "moxfield", "Kx0aLiAvA5tTheVast-C11"),
        ("https://moxfield.com/decks/abc_DEF-12/primer?x=1", "moxfield", "abc_DEF-12"),
    ],
)
def test_links_of_both_sites_are_recognised(url: str, site: str, deck_id: str) -> None:
    link = parse_deck_url(url)
    assert (link.site, link.deck_id) == (site, deck_id)
    assert looks_like_url(url) or not url.startswith(("http", "www"))


@pytest.mark.parametrize(
    "url",
    [
        "https://tappedout.net/mtg-decks/kaalia/",
        "https://archidekt.com/folders/12",
        "https://moxfield.com/users/someone",
        "not a link",
        "https://evil.example/archidekt.com/decks/1",
    ],
)
def test_other_links_are_refused(url: str) -> None:
    with pytest.raises(DecklistRefused) as refused:
        parse_deck_url(url)
    assert refused.value.reason == "url_unsupported"
    assert "Archidekt" in refusal_message(refused.value)


@pytest.mark.parametrize("url", [ARCHIDEKT_URL, MOXFIELD_URL])
async def test_a_deck_link_reads_the_same_deck_and_is_legal(sites: FakeDeckSites, url: str, index) -> None:
    deck = await fetcher(sites).fetch(url)
    parsed = parse_decklist(deck.text)
    assert parsed.commander_names == ["Kaalia of the Vast"]
    assert sorted((e.count, e.name) for e in parsed.in_section(Section.MAIN)) == REFERENCE_MAIN
    assert [e.name for e in parsed.ignored if e.section is Section.MAYBEBOARD][:1] == ["Serra Angel"]
    verdict = check_deck_text(deck.text, index, "commander").verdict
    assert (verdict.status, verdict.card_count, verdict.colour_identity) == ("legal", 100, "WBR")
    assert sites.requests and {agent for _, agent in sites.requests} == {f"Podkeeper/{__version__}"}


async def test_archidekt_categories_outside_the_deck_are_kept_aside(sites: FakeDeckSites) -> None:
    deck = await fetcher(sites).fetch(ARCHIDEKT_URL)
    assert deck.name == "Heavenly Inferno (C11 precon)"
    parsed = parse_decklist(deck.text)
    assert [(e.count, e.name, e.section) for e in parsed.ignored] == [
        (1, "Serra Angel", Section.MAYBEBOARD),
        (1, "Lightning Bolt", Section.MAYBEBOARD),  # "Considering"
        (2, "Angel", Section.EXTRA),
    ]
    assert sites.requests[0][0] == f"/archidekt/api/decks/{ARCHIDEKT_ID}/"


async def test_moxfield_v2_shape_is_read_too(sites: FakeDeckSites) -> None:
    deck = await fetcher(sites, moxfield_api=f"{sites.base}/moxfield/v2/decks/all").fetch(MOXFIELD_URL)
    parsed = parse_decklist(deck.text)
    assert parsed.commander_names == ["Kaalia of the Vast"]
    assert sum(e.count for e in parsed.entries) == 100


@pytest.mark.parametrize(
    ("url", "reason", "words"),
    [
        ("https://archidekt.com/decks/999", "url_not_found", "Archidekt has no deck 999 (404)"),
        ("https://archidekt.com/decks/403", "url_private", "it is probably private"),
        ("https://archidekt.com/decks/500", "url_http_error", "HTTP 500"),
        ("https://moxfield.com/decks/html", "url_bad_response", "not a deck"),
        ("https://moxfield.com/decks/huge", "url_too_large", "over 1000000 bytes"),
    ],
)
async def test_site_failures_are_clear_refusals(
    sites: FakeDeckSites, url: str, reason: str, words: str
) -> None:
    with pytest.raises(DecklistRefused) as refused:
        await fetcher(sites, max_bytes=1_000_000).fetch(url)
    assert refused.value.reason == reason
    assert words in refusal_message(refused.value)
    for language in ("ja", "zh-Hans", "zh-Hant"):
        assert refusal_message(refused.value, language) != refusal_message(refused.value)


async def test_a_slow_site_times_out_at_the_fetchers_limit_not_the_sites(sites: FakeDeckSites) -> None:
    """Given up at the fetcher's half second, not after the site's answer: measured against what the site
    takes (a busy machine may stretch the half second, never tenfold). A fetcher that waited the site out
    would get the site's late 404 instead, so the reason alone tells the two apart."""
    started = time.monotonic()
    with pytest.raises(DecklistRefused) as refused:
        await fetcher(sites, timeout=0.5).fetch("https://moxfield.com/decks/slow")
    assert refused.value.reason == "url_timeout"
    assert time.monotonic() - started < SLOW_SITE_SECONDS


async def test_offline_or_refused_connection_fails_fast() -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    started = time.monotonic()
    with pytest.raises(DecklistRefused) as refused:
        await DeckUrlFetcher(f"{base}/api/decks/", f"{base}/v3/").fetch(ARCHIDEKT_URL)
    assert refused.value.reason == "url_unreachable"
    assert time.monotonic() - started < 3
    assert "Can't reach Archidekt" in refusal_message(refused.value)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"cards": "x"},
        {"name": "n"},
        {"cards": [{"quantity": 1}]},
        {"boards": {}},
        {"cards": [{"quantity": "1", "card": {"oracleCard": {"name": "Sol Ring"}}}]},
    ],
)
def test_json_that_is_not_a_deck_is_refused(data) -> None:
    for site in ("archidekt", "moxfield"):
        with pytest.raises(DecklistRefused) as refused:
            deck_from_json(site, data)
        assert refused.value.reason in ("url_bad_response", "url_empty")
