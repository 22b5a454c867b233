"""Fetching a deck from an Archidekt or Moxfield link (``/deck check url:``, ``podkeeper deck check URL``).

One GET of the site's public JSON endpoint with ``User-Agent: Podkeeper/<version>``, a short timeout and a
size cap; every way it can fail (offline, refused, 404, too big, not JSON) becomes a ``DecklistRefused``
whose message key (``deck.refused.url_*``) the CLI and the cog already know how to word in four languages.
The JSON is read by ``bot.domain.deck_sources``. The base URLs come from the config so tests point them
at a local server.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import aiohttp

from bot import __version__
from bot.config import Config
from bot.domain.deck_sources import FetchedDeck, deck_from_json, parse_deck_url
from bot.domain.decklist import DecklistRefused

log = logging.getLogger(__name__)

USER_AGENT = f"Podkeeper/{__version__}"
TIMEOUT_SECONDS = 8.0  # the whole request: a slash command has 15 minutes, a person has less patience
MAX_BYTES = 4_000_000  # a 100-card Moxfield v3 answer is ~0.5-1 MB (every card's full data)
CHUNK = 1 << 16
SITE_NAMES = {"archidekt": "Archidekt", "moxfield": "Moxfield"}


@dataclass(frozen=True)
class DeckUrlFetcher:
    """Where each site's API lives (config ``[decks] archidekt_api_url`` / ``moxfield_api_url``)."""

    archidekt_api: str = "https://archidekt.com/api/decks/"
    moxfield_api: str = "https://api2.moxfield.com/v3/decks/all/"
    timeout: float = TIMEOUT_SECONDS
    max_bytes: int = MAX_BYTES

    @classmethod
    def from_config(cls, config: Config) -> DeckUrlFetcher:
        return cls(config.get("decks", "archidekt_api_url"), config.get("decks", "moxfield_api_url"))

    def api_url(self, site: str, deck_id: str) -> str:
        base = self.archidekt_api if site == "archidekt" else self.moxfield_api
        suffix = "/" if site == "archidekt" else ""  # Archidekt's API redirects without the slash
        return f"{base.rstrip('/')}/{deck_id}{suffix}"

    async def fetch(self, url: str) -> FetchedDeck:
        """The deck behind ``url`` as deck-list text; ``DecklistRefused`` (``url_*``) for anything else."""
        link = parse_deck_url(url)
        site = SITE_NAMES[link.site]
        body = await self._get(self.api_url(link.site, link.deck_id), site, link.deck_id)
        try:
            data = json.loads(body)
        except ValueError:
            raise DecklistRefused("url_bad_response", site=site) from None
        return deck_from_json(link.site, data)

    async def _get(self, api_url: str, site: str, deck_id: str) -> bytes:
        timeout = aiohttp.ClientTimeout(total=self.timeout, connect=self.timeout / 2)
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        try:
            async with (
                aiohttp.ClientSession(headers=headers, timeout=timeout) as session,
                # Redirects are followed (aiohttp's default for a GET), a site bouncing us around is not:
                # ``max_redirects=3`` gives up at the third redirect answer.
                session.get(api_url, max_redirects=3) as response,
            ):
                _check_status(response.status, site, deck_id)
                if (response.content_length or 0) > self.max_bytes:
                    raise DecklistRefused("url_too_large", site=site, limit=self.max_bytes)
                return await self._read_capped(response, site)
        except TimeoutError:
            raise DecklistRefused("url_timeout", site=site, seconds=int(self.timeout)) from None
        except aiohttp.ClientConnectorError as exc:
            log.info("deck link: cannot reach %s: %s", api_url, exc)
            raise DecklistRefused("url_unreachable", site=site) from None
        except aiohttp.ClientError as exc:
            log.info("deck link: %s failed: %s", api_url, exc)
            raise DecklistRefused("url_unreachable", site=site) from None

    async def _read_capped(self, response: aiohttp.ClientResponse, site: str) -> bytes:
        """The body, stopping as soon as it passes the cap (a missing or false Content-Length is no help)."""
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.content.iter_chunked(CHUNK):
            size += len(chunk)
            if size > self.max_bytes:
                raise DecklistRefused("url_too_large", site=site, limit=self.max_bytes)
            chunks.append(chunk)
        return b"".join(chunks)


def _check_status(status: int, site: str, deck_id: str) -> None:
    if status == 200:
        return
    if status == 404:
        raise DecklistRefused("url_not_found", site=site, id=deck_id)
    if status in (401, 403):
        raise DecklistRefused("url_private", site=site, id=deck_id, status=status)
    raise DecklistRefused("url_http_error", site=site, status=status)
