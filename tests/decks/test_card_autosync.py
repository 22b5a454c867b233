"""Cards always current: the running bot syncs card data by itself from a local server serving
a small newer data set (Armillary Sphere newly banned, Jodah, the Unifier newly printed), swaps it in,
re-checks registered decks off the event loop, and tells each owner whose verdict changed exactly once,
privately, in their language. Plus the schedule: interval, at most daily, back-off and one log line offline."""

from __future__ import annotations

import gzip
import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from aiohttp import web

from bot import __version__
from bot.cards.database import CardDatabase
from bot.config import ConfigError, load_config
from bot.services.card_autosync import CardAutoSync
from bot.storage.db import Database
from bot.testing import DiscordHarness, UploadFile
from tests.cards.card_server import serving

from .conftest import DATA, DECKS
from .deck_sites import closed_port

KAALIA = (DECKS / "heavenly_inferno_cmd2011.txt").read_bytes()
PARTNERS = (DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_bytes()
JODAH_DECK = "Commander: Jodah, the Unifier\n20 Plains\n20 Island\n20 Swamp\n20 Mountain\n19 Forest"
JODAH = {  # printed in 2022 (Dominaria United), after the bundled data ends
    "object": "card",
    "lang": "en",
    "name": "Jodah, the Unifier",
    "layout": "normal",
    "mana_cost": "{W}{U}{B}{R}{G}",
    "type_line": "Legendary Creature — Human Wizard",
    "power": "5",
    "toughness": "5",
    "oracle_text": "Legendary creatures you control get +X/+X, where X is the number of legendary creatures you "
    "control.\nWhenever you cast a legendary spell from your hand, exile cards from the top of your "
    "library until you exile a legendary nonland card with lesser mana value. You may cast that card "
    "without paying its mana cost. Put the rest on the bottom of your library in a random order.",
    "colors": ["W", "U", "B", "R", "G"],
    "color_identity": ["W", "U", "B", "R", "G"],
    "legalities": {"commander": "legal", "vintage": "legal"},
}
ATOMIC = {
    "meta": {"date": "2022-09-09", "version": "5.2.0"},
    "data": {
        "Jodah, the Unifier": [
            {
                "name": "Jodah, the Unifier",
                "layout": "normal",
                "manaCost": "{W}{U}{B}{R}{G}",
                "type": "Legendary Creature — Human Wizard",
                "text": JODAH["oracle_text"],
                "colors": list("WUBRG"),
                "colorIdentity": list("WUBRG"),
                "legalities": {"commander": "Legal"},
                "foreignData": [{"language": "Japanese", "name": "団結者、ヨーダ"}],
            }
        ]
    },
}


def newer_cards() -> list[dict]:
    """The deck tests' card subset, as Scryfall would serve it months later."""
    records = []
    for line in (DATA / "deck_cards.jsonl").read_text(encoding="utf-8").splitlines():
        record = {"object": "card", "lang": "en", **json.loads(line)}
        if record["name"] == "Armillary Sphere":
            record["legalities"] = {**record["legalities"], "commander": "banned"}
        records.append(record)
    return records + [JODAH]


class NewerScryfall:
    def __init__(self) -> None:
        self.base = ""
        self.requests: list[tuple[str, str]] = []

    async def bulk(self, request: web.Request) -> web.Response:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        return web.json_response(
            {
                "object": "list",
                "data": [
                    {
                        "object": "bulk_data",
                        "type": "oracle_cards",
                        "download_uri": f"{self.base}/oracle-cards.json",
                    }
                ],
            }
        )

    async def oracle(self, request: web.Request) -> web.Response:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        return web.Response(body=json.dumps(newer_cards()).encode(), content_type="application/json")

    async def atomic(self, request: web.Request) -> web.Response:
        self.requests.append((request.path, request.headers.get("User-Agent", "")))
        return web.Response(body=gzip.compress(json.dumps(ATOMIC).encode()), content_type="application/gzip")


@pytest.fixture
async def scryfall():
    fake = NewerScryfall()
    async with serving(fake):
        yield fake


def dms(h: DiscordHarness, who: str) -> list[str]:
    return [message.content for message in h.messages(h.dm_channel(who))]


async def test_scheduled_sync_swaps_rechecks_and_tells_each_owner_once(
    tmp_path: Path, scryfall: NewerScryfall
) -> None:
    async with DiscordHarness.start(
        tmp_path,
        cards_path=DATA / "deck_cards.jsonl",
        cards__auto_sync=True,
        cards__scryfall_bulk_url=f"{scryfall.base}/bulk-data",
        cards__mtgjson_url=f"{scryfall.base}/AtomicCards.json.gz",
    ) as h:
        kaalia = await h.slash(
            "deck register", user="alice", locale="ja", name="Kaalia", file=UploadFile("kaalia.txt", KAALIA)
        )
        assert "適正です" in kaalia.text
        await h.slash("deck register", user="bob", name="Coin flips", file=UploadFile("p.txt", PARTNERS))
        jodah = await h.slash("deck register", user="carol", name="Jodah", decklist=JODAH_DECK)
        assert "Can't be verified under commander" in jodah.text  # Jodah is newer than the bundled data
        assert h.bot.get_cog("CardSync").lease.held  # the schedule runs in the background (in this process)

        assert await h.bot.get_cog("CardSync").run_due()
        await h.settle()

        # The swap happened: the ban and the new card are known, Japanese names kept and added.
        assert h.bot.cards.get("Armillary Sphere").commander_legality == "banned"
        assert h.bot.cards.get("Jodah, the Unifier").printed_name("ja") == "団結者、ヨーダ"
        assert (
            h.bot.cards.get("Kaalia of the Vast").printed_name("ja") == "巨大なるカーリア"
        )  # kept from before
        assert {agent for _, agent in scryfall.requests} == {f"Podkeeper/{__version__}"}
        # Alice's deck is now illegal: one private notice, in Japanese, with the reason.
        [notice] = dms(h, "alice")
        assert "カードデータが更新され" in notice and "Kaalia" in notice and "適正 → 不適正" in notice
        assert "禁止カードです" in notice
        # Carol's deck became legal with the new card; Bob's verdict did not change: no message.
        [carol] = dms(h, "carol")
        assert "Jodah" in carol and "now legal" in carol
        assert dms(h, "bob") == []
        listed = await h.slash("deck list", user="alice", locale="ja")
        assert "カードデータ更新で変更：適正 → 不適正" in listed.text

        # Exactly once: neither the next poll of the card data nor the schedule says it again.
        assert not await h.bot.get_cog("CardSync").run_due()  # not due for a week
        await h.bot.get_cog("Decks").refresh_card_version()
        await h.settle()
        assert len(dms(h, "alice")) == 1 and len(dms(h, "carol")) == 1
        # Registering the deck again clears the note.
        again = await h.click(
            await h.slash(
                "deck register", user="alice", name="Kaalia", file=UploadFile("kaalia.txt", KAALIA)
            ),
            label="Replace",
        )
        assert "Armillary Sphere" in again.text
        assert "changed by new card data" not in (await h.slash("deck list", user="alice")).text


async def test_auto_sync_off_starts_no_task(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, cards_path=DATA / "deck_cards.jsonl") as h:
        cog = h.bot.get_cog("CardSync")
        assert cog.lease is None and not await cog.run_due()


# -- the schedule -------------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def cards(db: Database) -> CardDatabase:
    return await CardDatabase.open(db, DATA / "deck_cards.jsonl")


def config(tmp_path: Path, base: str, **values):
    return load_config(None, environ={}).with_values(
        database__path=str(tmp_path / "p.sqlite3"),
        cards__scryfall_bulk_url=f"{base}/bulk-data",
        cards__mtgjson_url=f"{base}/AtomicCards.json.gz",
        **values,
    )


async def test_due_at_once_then_after_the_interval(tmp_path, db, cards, scryfall) -> None:
    clock = Clock()
    autosync = CardAutoSync(
        cards, db, config(tmp_path, scryfall.base, cards__sync_interval_days=3), clock=clock
    )
    assert await autosync.run_if_due() is not None  # never synced: the bundled data is old
    assert cards.get("Jodah, the Unifier") is not None
    clock.now += timedelta(days=2, hours=23)
    assert await autosync.run_if_due() is None and len(scryfall.requests) == 3
    clock.now += timedelta(hours=1)
    assert await autosync.run_if_due() is not None and len(scryfall.requests) == 6


async def test_offline_retries_with_back_off_and_logs_once(tmp_path, db, cards, scryfall, caplog) -> None:
    clock = Clock()
    dead = f"http://127.0.0.1:{closed_port()}"
    autosync = CardAutoSync(cards, db, config(tmp_path, dead), clock=clock)
    before = cards.version
    caplog.set_level(logging.DEBUG, logger="bot.services.card_autosync")
    for hours in (0, 1, 2, 4):  # due again 1, 2, 4 hours after each failure
        clock.now += timedelta(hours=hours)
        assert await autosync.run_if_due() is None
        assert await autosync.next_due() > clock.now
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "retrying later" in warnings[0].getMessage()
    assert (await autosync.state.get()).failures == 4 and cards.version == before  # nothing swapped
    assert await autosync.next_due() == clock.now + timedelta(hours=8)
    # Back online: the next due attempt succeeds and resets the back-off.
    autosync.config = config(tmp_path, scryfall.base)
    clock.now += timedelta(hours=8)
    assert await autosync.run_if_due() is not None
    assert (await autosync.state.get()).failures == 0
    assert "succeeded after 4 failed attempts" in caplog.text


async def test_the_back_off_never_exceeds_a_day(tmp_path, db, cards) -> None:
    clock = Clock()
    autosync = CardAutoSync(cards, db, config(tmp_path, f"http://127.0.0.1:{closed_port()}"), clock=clock)
    for _ in range(8):
        clock.now = await autosync.next_due()
        await autosync.run_if_due()
    assert await autosync.next_due() - clock.now == timedelta(days=1)


def test_sync_interval_below_a_day_is_refused(tmp_path) -> None:
    with pytest.raises(ConfigError, match="minimum of 1"):
        load_config(None, environ={"PODKEEPER_CARDS_SYNC_INTERVAL_DAYS": "0"})
    assert load_config(None, environ={"PODKEEPER_CARDS_AUTO_SYNC": "false"}).auto_sync is False
    with pytest.raises(ConfigError, match="true or false"):
        load_config(None, environ={"PODKEEPER_CARDS_AUTO_SYNC": "sometimes"})
