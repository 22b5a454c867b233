"""``cards sync`` against a local HTTP server on 127.0.0.1 (download to a temp file, import into
new tables, swap atomically; on any failure the current data stays; offline fails fast)."""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import time
from pathlib import Path

import pytest
from aiohttp import web

from bot import __version__
from bot.cards.database import CardDatabase
from bot.cards.importers import CardImportError
from bot.cards.sync import CardSyncError, sync_cards
from bot.config import load_config
from bot.storage.db import Database
from tests.cards.card_server import serving
from tests.cards.conftest import MTGJSON_FILE, SCRYFALL_FILE, SUBSET


class FakeScryfall:
    """Scryfall's bulk-data list, an oracle_cards file and MTGJSON AtomicCards.json.gz, served locally."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []
        self.accepted: list[str] = []  # each request's Accept header
        self.stalled = asyncio.Event()  # "stall" answers nothing until this is set
        self.oracle_body = SCRYFALL_FILE.read_bytes()
        self.oracle_mode = "ok"
        self.bulk_status = 200
        self.bulk_reason: str | None = None  # the reason phrase of the bulk list's status line
        self.listing: object = None  # a bulk answer other than Scryfall's list
        self.base = ""

    async def bulk(self, request: web.Request) -> web.StreamResponse:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        self.accepted.append(request.headers.get("Accept", ""))
        listing = {
            "object": "list",
            "has_more": False,
            "data": [
                {"object": "bulk_data", "type": "default_cards", "download_uri": f"{self.base}/nope.json"},
                {
                    "object": "bulk_data",
                    "type": "oracle_cards",
                    "download_uri": f"{self.base}/oracle-cards.json",
                },
            ],
        }
        return web.json_response(
            listing if self.listing is None else self.listing,
            status=self.bulk_status,
            reason=self.bulk_reason,
        )

    async def oracle(self, request: web.Request) -> web.StreamResponse:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        if self.oracle_mode == "truncated":  # announce the whole file, send half, hang up
            response = web.StreamResponse(headers={"Content-Type": "application/json"})
            response.content_length = len(self.oracle_body)
            await response.prepare(request)
            await response.write(self.oracle_body[: len(self.oracle_body) // 2])
            request.transport.close()
            return response
        if self.oracle_mode == "gzip":  # compressed on the wire: Content-Length counts compressed bytes
            return web.Response(
                body=gzip.compress(self.oracle_body),
                headers={"Content-Encoding": "gzip", "Content-Type": "application/json"},
            )
        if self.oracle_mode == "stall":  # headers, then silence
            response = web.StreamResponse(headers={"Content-Type": "application/json"})
            await response.prepare(request)
            await self.stalled.wait()
            return response
        return web.Response(body=self.oracle_body, content_type="application/json")

    async def atomic(self, request: web.Request) -> web.StreamResponse:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        return web.Response(body=gzip.compress(MTGJSON_FILE.read_bytes()), content_type="application/gzip")


@pytest.fixture
async def server():
    fake = FakeScryfall()
    async with serving(fake):
        yield fake
        fake.stalled.set()  # a stalled answer ends, so the server closes at once


def config_for(tmp_path: Path, bulk_url: str, mtgjson_url: str):
    return load_config(None, environ={}).with_values(
        database__path=str(tmp_path / "p.sqlite3"),
        cards__scryfall_bulk_url=bulk_url,
        cards__mtgjson_url=mtgjson_url,
    )


@pytest.fixture
async def subset_db(db: Database) -> CardDatabase:
    return await CardDatabase.open(db, SUBSET)


async def assert_untouched(cards: CardDatabase, tmp_path: Path) -> None:
    assert await cards.repository.count() == 398
    assert (await cards.repository.last_import()).source == str(SUBSET)
    assert cards.get("Counterspell") is not None
    assert not list((tmp_path / "work").iterdir())  # temporary downloads removed


async def test_sync_downloads_imports_and_merges_printed_names(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    (tmp_path / "work").mkdir()
    config = config_for(tmp_path, f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz")
    labels: list[str] = []
    progress_calls: list[tuple[int, int]] = []

    def progress(label: str):
        labels.append(label)
        return lambda done, total: progress_calls.append((done, total))

    result = await sync_cards(subset_db, config, progress, workdir=tmp_path / "work")
    assert result.card_count == 11 and result.source == f"{server.base}/oracle-cards.json"
    # MTGJSON named six of the cards; two it does not list keep the names stored before (eight without it)
    assert result.kept_printed_names == 2
    assert [path for path, _ in server.requests] == [
        "/bulk-data",
        "/oracle-cards.json",
        "/AtomicCards.json.gz",
    ]
    assert {agent for _, agent in server.requests} == {f"Podkeeper/{__version__}"}
    assert labels == ["Scryfall oracle cards", "MTGJSON printed names"]
    assert progress_calls[-1][0] == progress_calls[-1][1] > 0
    # The new set is Scryfall's, with MTGJSON's names laid over it.
    assert subset_db.get("Counterspell") is None
    researcher = subset_db.get("Aberrant Researcher // Perfected Form")
    assert researcher.printed_names["ja"] == "逸脱した研究者 // 完成態"
    assert subset_db.resolve("悪夢の声、ブリセラ").card.name == "Brisela, Voice of Nightmares"
    assert await subset_db.repository.count() == 11
    assert not list((tmp_path / "work").iterdir())


async def test_a_truncated_download_leaves_the_data_intact(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    (tmp_path / "work").mkdir()
    server.oracle_mode = "truncated"
    config = config_for(tmp_path, f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz")
    with pytest.raises(CardSyncError, match="oracle-cards.json") as error:
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    assert "not completed" in str(error.value) and "unchanged" in str(error.value)
    await assert_untouched(subset_db, tmp_path)


async def test_a_corrupt_download_leaves_the_data_intact(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    (tmp_path / "work").mkdir()
    server.oracle_body = b'[{"object": "card", "name": "Sol Ring"}, {"object": "card", "na'
    config = config_for(tmp_path, f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz")
    with pytest.raises(CardImportError, match="truncated"):
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    await assert_untouched(subset_db, tmp_path)


@pytest.mark.parametrize("what", ["bulk status", "missing mtgjson", "no oracle entry"])
async def test_http_errors_leave_the_data_intact(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path, what: str
) -> None:
    (tmp_path / "work").mkdir()
    bulk, mtgjson = f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz"
    if what == "bulk status":
        server.bulk_status = 503
    elif what == "missing mtgjson":
        mtgjson = f"{server.base}/missing.json.gz"
    else:
        bulk = f"{server.base}/AtomicCards.json.gz"  # answers, but not with a bulk-data list
    with pytest.raises(CardSyncError, match="503|404|JSON|bulk-data list"):
        await sync_cards(subset_db, config_for(tmp_path, bulk, mtgjson), workdir=tmp_path / "work")
    await assert_untouched(subset_db, tmp_path)


async def test_offline_fails_fast_with_a_clear_message(subset_db: CardDatabase, tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = config_for(tmp_path, f"http://127.0.0.1:{port}/bulk-data", f"http://127.0.0.1:{port}/a.json.gz")
    started = time.monotonic()
    with pytest.raises(CardSyncError, match=r"cannot reach 127\.0\.0\.1:\d+ .*offline.*unchanged"):
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    assert time.monotonic() - started < 5
    await assert_untouched(subset_db, tmp_path)


def test_bulk_listing_shape() -> None:
    from bot.cards.sync import newest_bulk_file

    assert newest_bulk_file({"data": [{"type": "oracle_cards", "download_uri": "u"}]}, "x") == "u"
    with pytest.raises(CardSyncError, match="lists no oracle_cards"):
        newest_bulk_file(json.loads('{"data": [{"type": "rulings", "download_uri": "r"}]}'), "x")


def closed_port() -> int:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


UNCHANGED = "The current card data is unchanged."


async def test_the_bulk_list_is_asked_for_as_json(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    """Scryfall's API asks clients to send an Accept header (and a User-Agent, checked above)."""
    (tmp_path / "work").mkdir()
    await sync_cards(
        subset_db,
        config_for(tmp_path, f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz"),
        workdir=tmp_path / "work",
    )
    assert server.accepted == ["application/json;q=0.9,*/*;q=0.8"]


async def test_an_unreachable_mtgjson_is_named_not_scryfall(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    """Scryfall answered and its file came down; the message names the host that failed (MTGJSON's)."""
    (tmp_path / "work").mkdir()
    port = closed_port()
    config = config_for(tmp_path, f"{server.base}/bulk-data", f"http://127.0.0.1:{port}/AtomicCards.json.gz")
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    message = str(error.value)
    assert message.startswith(f"cannot reach 127.0.0.1:{port} (") and message.endswith(
        f"); are you offline? {UNCHANGED}"
    ), message
    await assert_untouched(subset_db, tmp_path)


async def test_a_download_that_stalls_gives_up_after_the_read_timeout(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server sends its headers and then nothing: the read timeout (60 s; shortened here, the
    server would stay silent for good) ends the sync with a clear message and nothing changed."""
    (tmp_path / "work").mkdir()
    monkeypatch.setattr("bot.cards.sync.READ_TIMEOUT", 0.3)
    server.oracle_mode = "stall"
    config = config_for(tmp_path, f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz")
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    host = server.base.removeprefix("http://")
    assert str(error.value) == f"{host} did not answer in time; the current card data is unchanged."
    await assert_untouched(subset_db, tmp_path)


async def test_a_connection_dropped_mid_file_names_the_download(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    (tmp_path / "work").mkdir()
    server.oracle_mode = "truncated"
    config = config_for(tmp_path, f"{server.base}/bulk-data", f"{server.base}/AtomicCards.json.gz")
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    message = str(error.value)
    assert message.startswith(f"downloading {server.base}/oracle-cards.json failed (") and message.endswith(
        "); the current card data is unchanged."
    ), message


def sync_config(
    server: FakeScryfall, tmp_path: Path, *, bulk: str = "/bulk-data", mtgjson: str = "/AtomicCards.json.gz"
):
    (tmp_path / "work").mkdir(exist_ok=True)
    return config_for(tmp_path, f"{server.base}{bulk}", f"{server.base}{mtgjson}")


async def test_a_big_or_compressed_download_arrives_whole_in_a_folder_of_its_own(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    """Several chunks (the file is padded past 64 KiB) all count; a compressed answer is not held to its
    compressed Content-Length and reports no total; the downloads sit in a podkeeper-sync- folder of the
    work directory while they run."""
    server.oracle_body = SCRYFALL_FILE.read_bytes() + b" " * 200_000
    folders: list[list[str]] = []
    totals: list[int] = []

    def progress(label: str):
        def step(done: int, total: int) -> None:
            folders.append([p.name for p in (tmp_path / "work").iterdir()])
            totals.append(total)

        return step

    config = sync_config(server, tmp_path)
    assert (await sync_cards(subset_db, config, progress, workdir=tmp_path / "work")).card_count == 11
    assert totals[0] == len(server.oracle_body) and len(totals) > 3
    assert folders and all(len(f) == 1 and f[0].startswith("podkeeper-sync-") for f in folders)
    server.oracle_mode, totals[:] = "gzip", []
    assert (await sync_cards(subset_db, config, progress, workdir=tmp_path / "work")).card_count == 11
    assert totals[0] == 0  # the length is not known in decompressed bytes


async def test_each_failure_says_which_address_and_what_happened(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    server.bulk_status = 503
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, sync_config(server, tmp_path), workdir=tmp_path / "work")
    assert str(error.value) == f"{server.base}/bulk-data answered HTTP 503 Service Unavailable"
    server.bulk_status = 200
    with pytest.raises(CardSyncError) as error:
        await sync_cards(
            subset_db, sync_config(server, tmp_path, mtgjson="/missing.json.gz"), workdir=tmp_path / "work"
        )
    assert str(error.value) == f"{server.base}/missing.json.gz answered HTTP 404 Not Found"
    with pytest.raises(CardSyncError) as error:
        await sync_cards(
            subset_db, sync_config(server, tmp_path, bulk="/AtomicCards.json.gz"), workdir=tmp_path / "work"
        )
    assert str(error.value) == f"{server.base}/AtomicCards.json.gz did not answer with JSON"
    server.oracle_body = b""
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, sync_config(server, tmp_path), workdir=tmp_path / "work")
    assert str(error.value) == f"{server.base}/oracle-cards.json sent an empty file"
    await assert_untouched(subset_db, tmp_path)


def test_a_bulk_list_that_is_not_one_is_refused_by_name() -> None:
    from bot.cards.sync import newest_bulk_file

    for listing in ([], "data", {"data": "x"}, {"object": "list"}):
        with pytest.raises(CardSyncError) as error:
            newest_bulk_file(listing, "https://api.example/bulk")
        assert str(error.value) == "https://api.example/bulk did not answer with a Scryfall bulk-data list"
    with pytest.raises(CardSyncError) as error:
        newest_bulk_file({"data": [{"type": "oracle_cards"}, "x"]}, "https://api.example/bulk")
    assert str(error.value) == "https://api.example/bulk lists no oracle_cards file"


async def test_a_status_without_a_reason_phrase_is_named_by_its_number_alone(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    server.bulk_status, server.bulk_reason = 599, ""
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, sync_config(server, tmp_path), workdir=tmp_path / "work")
    assert str(error.value) == f"{server.base}/bulk-data answered HTTP 599"
    await assert_untouched(subset_db, tmp_path)


async def test_a_bulk_address_answering_other_json_is_named_in_the_refusal(
    server: FakeScryfall, subset_db: CardDatabase, tmp_path: Path
) -> None:
    """An operator who set ``scryfall_bulk_url`` to a wrong JSON address reads which address it was."""
    for listing, says in (
        ({"object": "error"}, "did not answer with a Scryfall bulk-data list"),
        ({"data": [{"type": "rulings", "download_uri": "x"}]}, "lists no oracle_cards file"),
    ):
        server.listing = listing
        with pytest.raises(CardSyncError) as error:
            await sync_cards(subset_db, sync_config(server, tmp_path), workdir=tmp_path / "work")
        assert str(error.value) == f"{server.base}/bulk-data {says}"
    await assert_untouched(subset_db, tmp_path)


async def test_an_unreachable_host_is_explained_by_the_systems_own_reason(
    subset_db: CardDatabase, tmp_path: Path
) -> None:
    """The parentheses hold what the operating system said (the refused connection), not aiohttp's
    wrapper around it, which would repeat the address the sentence already names."""
    (tmp_path / "work").mkdir()
    port = closed_port()
    config = config_for(tmp_path, f"http://127.0.0.1:{port}/bulk-data", f"http://127.0.0.1:{port}/a.json.gz")
    with pytest.raises(CardSyncError) as error:
        await sync_cards(subset_db, config, workdir=tmp_path / "work")
    inside = str(error.value).removeprefix(f"cannot reach 127.0.0.1:{port} (").split("); are you offline?")[0]
    assert "Connect call failed" in inside and "Cannot connect to host" not in inside, inside
