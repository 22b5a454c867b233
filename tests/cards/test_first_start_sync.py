"""The first start brings current card data in the background: from a local server on 127.0.0.1 serving a
small Scryfall bulk file it swaps the cards in and says so; offline it fails fast, says so once, and the bot
goes on answering from the cards it has. The schedule runs on the harness's fake clock."""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import socket
from pathlib import Path

import pytest
from aiohttp import web

from bot.testing import DiscordHarness
from cogs.card_sync import STARTUP_DELAY
from tests.cards.card_server import serving
from tests.cards.conftest import SUBSET

JODAH = {  # printed in Dominaria United (September 2022), after the bundled data ends
    "object": "card",
    "lang": "en",
    "name": "Jodah, the Unifier",
    "layout": "normal",
    "released_at": "2022-09-09",
    "mana_cost": "{W}{U}{B}{R}{G}",
    "type_line": "Legendary Creature — Human Wizard",
    "power": "5",
    "toughness": "5",
    "oracle_text": "Legendary creatures you control get +X/+X.",
    "colors": list("WUBRG"),
    "color_identity": list("WUBRG"),
    "legalities": {"commander": "legal"},
}


class SmallScryfall:
    """Scryfall's bulk-data list and a small oracle_cards file (the subset plus one newer card)."""

    def __init__(self) -> None:
        self.base = ""
        self.records = [
            {"object": "card", "lang": "en", **json.loads(line)}
            for line in SUBSET.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ] + [JODAH]

    async def bulk(self, request: web.Request) -> web.Response:
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
        return web.Response(body=json.dumps(self.records).encode(), content_type="application/json")

    async def atomic(self, request: web.Request) -> web.Response:
        atomic = {
            "meta": {"date": "2022-09-10"},
            "data": {
                "Jodah, the Unifier": [
                    {
                        "name": "Jodah, the Unifier",
                        "layout": "normal",
                        "manaCost": "{W}{U}{B}{R}{G}",
                        "type": JODAH["type_line"],
                        "text": JODAH["oracle_text"],
                        "colors": list("WUBRG"),
                        "colorIdentity": list("WUBRG"),
                        "legalities": {"commander": "Legal"},
                        "foreignData": [{"language": "Japanese", "name": "団結者、ヨーダ"}],
                    }
                ]
            },
        }
        return web.Response(body=gzip.compress(json.dumps(atomic).encode()), content_type="application/gzip")


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


async def test_the_first_start_brings_current_cards_and_says_when_they_are_in(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    fake = SmallScryfall()
    async with (
        serving(fake),
        DiscordHarness.start(
            tmp_path,
            cards_path=str(SUBSET),
            cards__auto_sync=True,
            cards__scryfall_bulk_url=f"{fake.base}/bulk-data",
            cards__mtgjson_url=f"{fake.base}/AtomicCards.json.gz",
        ) as h,
    ):
        before = (await h.slash("card", name="Jodah, the Unifier")).content
        assert "may be newer than the data" in before  # the subset has no date, Jodah is not in it
        assert any(
            line.startswith(
                "current card data: not synced yet; downloading it from Scryfall in the background in 60 s"
            )
            for line in said(caplog)
        )
        changed = asyncio.ensure_future(h.bot.wait_for("card_data_changed"))
        await h.advance(seconds=STARTUP_DELAY)
        await changed  # no wall-clock deadline: pytest-timeout ends a hang
        assert any(
            line == "current card data is in: 399 cards, up to 2022-09-09 (before: up to an unknown date); "
            "commands use them now"
            for line in said(caplog)
        )
        after = await h.slash("card", name="Jodah, the Unifier")
        assert after.embed["title"] == "Jodah, the Unifier"
        assert h.bot.cards.data_date == "2022-09-09"
        assert h.bot.cards.get("Jodah, the Unifier").printed_name("ja") == "団結者、ヨーダ"


async def test_offline_the_first_start_fails_fast_says_so_once_and_keeps_its_cards(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    dead = f"http://127.0.0.1:{closed_port()}"
    async with DiscordHarness.start(
        tmp_path,
        cards_path=str(SUBSET),
        cards__auto_sync=True,
        cards__scryfall_bulk_url=f"{dead}/bulk-data",
        cards__mtgjson_url=f"{dead}/AtomicCards.json.gz",
    ) as h:
        autosync = h.bot.get_cog("CardSync").autosync
        attempted = asyncio.Event()
        real_run = autosync.run

        async def run_and_tell():  # the attempt runs in the background: the test waits for its end
            try:
                return await real_run()
            finally:
                attempted.set()

        autosync.run = run_and_tell
        await h.advance(seconds=STARTUP_DELAY)
        await attempted.wait()
        assert (await autosync.state.get()).failures == 1
        warnings = [
            r.getMessage()
            for r in caplog.records
            if r.levelno == logging.WARNING and r.name == "bot.services.card_autosync"
        ]
        assert len(warnings) == 1
        assert warnings[0].startswith(
            f"automatic card sync failed, retrying later: cannot reach {dead[7:]} ("
        )
        assert "are you offline? The current card data is unchanged." in warnings[0]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        bolt = await h.slash("card", name="Lightning Bolt")
        assert bolt.embed["title"] == "Lightning Bolt"  # the bot goes on with the cards it has
        assert len(h.bot.cards) == 398
