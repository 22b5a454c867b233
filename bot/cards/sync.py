"""``podkeeper cards sync``: the newest Scryfall oracle cards plus MTGJSON's printed names.

Steps, each of which can fail without harm: ask Scryfall's bulk-data endpoint for the newest
``oracle_cards`` file; download it and MTGJSON ``AtomicCards`` into a temporary folder; read both
completely; only then replace the stored cards in one transaction (``CardDatabase.store``). Any
failure — offline, an HTTP error, a download cut short, a corrupt file — raises ``CardSyncError`` or
``CardImportError`` before the database is touched, and the temporary files are removed.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import aiohttp

from bot import __version__
from bot.cards.database import CardDatabase, ImportResult
from bot.cards.importers import ProgressCallback, read_cards
from bot.config import Config

USER_AGENT = f"Podkeeper/{__version__}"
CONNECT_TIMEOUT = 10.0  # offline must fail fast
READ_TIMEOUT = 60.0
BULK_TYPE = "oracle_cards"
CHUNK = 1 << 16

ProgressFactory = Callable[[str], ProgressCallback]


class CardSyncError(Exception):
    """The sync could not finish; the message says why. The stored cards are unchanged."""


def _host(url: str) -> str:
    return urlparse(url).netloc or url


async def _get_json(session: aiohttp.ClientSession, url: str) -> Any:
    async with session.get(url) as response:
        _check_status(response, url)
        try:
            return await response.json(content_type=None)
        except ValueError:
            raise CardSyncError(f"{url} did not answer with JSON") from None


def _check_status(response: aiohttp.ClientResponse, url: str) -> None:
    if response.status != 200:
        raise CardSyncError(f"{url} answered HTTP {response.status} {response.reason or ''}".rstrip())


async def download(
    session: aiohttp.ClientSession, url: str, target: Path, progress: ProgressCallback | None = None
) -> int:
    """Stream ``url`` into ``target``; a body shorter than its Content-Length is an error."""
    async with session.get(url) as response:
        _check_status(response, url)
        # With Content-Encoding the length counts compressed bytes, aiohttp hands us decompressed ones.
        expected = None if response.headers.get("Content-Encoding") else response.content_length
        done = 0
        with target.open("wb") as out:
            async for chunk in response.content.iter_chunked(CHUNK):
                out.write(chunk)
                done += len(chunk)
                if progress is not None:
                    progress(done, expected or 0)
    if expected is not None and done != expected:
        raise CardSyncError(f"the download of {url} stopped after {done} of {expected} bytes")
    if done == 0:
        raise CardSyncError(f"{url} sent an empty file")
    return done


def newest_bulk_file(listing: Any, url: str) -> str:
    """The download address of the ``oracle_cards`` entry of Scryfall's bulk-data list."""
    entries = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(entries, list):
        raise CardSyncError(f"{url} did not answer with a Scryfall bulk-data list")
    for entry in entries:
        if isinstance(entry, dict) and entry.get("type") == BULK_TYPE and entry.get("download_uri"):
            return str(entry["download_uri"])
    raise CardSyncError(f"{url} lists no {BULK_TYPE} file")


async def sync_cards(
    cards: CardDatabase,
    config: Config,
    progress: ProgressFactory | None = None,
    workdir: str | Path | None = None,
) -> ImportResult:
    """Download and import the newest card data; see the module docstring for the guarantees."""
    bulk_url = config.get("cards", "scryfall_bulk_url")
    mtgjson_url = config.get("cards", "mtgjson_url")
    # Two of these lines carry "no mutate", their every mutant being equivalent: total=None is aiohttp's own
    # default; aiohttp runs the socket connect inside the connect timeout, which is as long and starts
    # first, so that one always ends first (sock_connect only says it twice).
    timeout = aiohttp.ClientTimeout(
        total=None,  # pragma: no mutate (aiohttp's default)
        sock_connect=CONNECT_TIMEOUT,  # pragma: no mutate (inside connect's equal timeout)
        connect=CONNECT_TIMEOUT,
        sock_read=READ_TIMEOUT,
    )
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json;q=0.9,*/*;q=0.8"}
    with tempfile.TemporaryDirectory(prefix="podkeeper-sync-", dir=workdir) as folder:
        scryfall_file = Path(folder) / "oracle_cards.json"
        mtgjson_file = Path(folder) / "AtomicCards.json"
        current = bulk_url
        try:
            async with aiohttp.ClientSession(headers=headers, timeout=timeout) as session:
                listing = await _get_json(session, bulk_url)
                current = scryfall_url = newest_bulk_file(listing, bulk_url)
                await download(
                    session, scryfall_url, scryfall_file, progress and progress("Scryfall oracle cards")
                )
                current = mtgjson_url
                await download(
                    session, mtgjson_url, mtgjson_file, progress and progress("MTGJSON printed names")
                )
        except aiohttp.ClientConnectorError as exc:
            raise CardSyncError(
                f"cannot reach {_host(current)} ({exc.os_error or exc}); are you offline? "
                f"The current card data is unchanged."
            ) from None
        except TimeoutError:
            raise CardSyncError(
                f"{_host(current)} did not answer in time; the current card data is unchanged."
            ) from None
        except aiohttp.ClientError as exc:
            raise CardSyncError(
                f"downloading {current} failed ({exc or type(exc).__name__}); the current "
                f"card data is unchanged."
            ) from None
        # MTGJSON first, keeping only its printed names, so two full card sets never sit in memory at once.
        foreign = await asyncio.to_thread(read_cards, mtgjson_file, "mtgjson")
        names = {card.name: card.printed_names for card in foreign.cards if card.printed_names}
        del foreign
        scryfall = await asyncio.to_thread(read_cards, scryfall_file, "scryfall")
        return await cards.store(replace(scryfall, source=scryfall_url), printed_names=names)
