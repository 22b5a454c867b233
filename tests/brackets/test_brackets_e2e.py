"""End to end: brackets through the bot's real start-up path (``serve``) against the local Discord stand-in
over real HTTP and a real gateway. A member registers a deck with a Game Changer, declares a lower bracket
at the pod, and the board warns; after a SIGTERM restart the declaration is still on the board. The CLI's
``deck check`` prints the same report from a real SQLite card database."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.testing import FakeDiscord
from bot.testing.fakediscord.server import FakeDiscordServer
from bot.testing.harness import default_config, standard_world
from tests.conftest import write_cli_config
from tests.e2e.test_startup import TOKEN, Running

from .conftest import CARD_FILES, DECKS

WAIT = 600  # tenths of a second a board edit may take on a busy machine
NIV_LIST = "Commander\n1 Niv-Mizzet, Parun\n\nDeck\n1 Rhystic Study\n1 Curiosity\n1 Counterspell\n"


def _cards(tmp_path: Path) -> Path:
    cards = tmp_path / "cards.jsonl"
    cards.write_text("".join(path.read_text(encoding="utf-8") for path in CARD_FILES), encoding="utf-8")
    return cards


async def _board_saying(driver, text: str):
    for _ in range(WAIT):
        for message in reversed(driver.messages()):
            if any(text in (embed.get("description") or "") for embed in message.embeds):
                return message
        await asyncio.sleep(0.1)
    raise AssertionError(f"no board says {text!r}")


@pytest.mark.slow  # a real gateway and HTTP on 127.0.0.1
async def test_a_declared_bracket_and_its_warning_survive_a_restart(tmp_path: Path) -> None:
    fake = FakeDiscord()
    guild = standard_world(fake)
    async with FakeDiscordServer.running(fake, token=TOKEN) as server:
        config = default_config(tmp_path, _cards(tmp_path), discord__token=TOKEN)
        run = Running(server, config, guild)
        await run.start()
        alice, bob = run.driver.user("alice"), run.driver.user("bob")
        registered = await run.driver.slash("deck register", user="alice", name="Niv", decklist=NIV_LIST)
        assert "Bracket: at least 3 (Upgraded)" in " ".join(
            f["value"] for f in registered.embeds[0]["fields"]
        )
        await run.driver.slash("pod start", players=f"{alice.mention} {bob.mention}")
        board = await _board_saying(run.driver, "1. alice → 2. bob")
        panel = await run.driver.click(board, label="My commanders", user="alice")
        await run.driver.select(panel, label="Your registered decks", values=["Niv"], user="alice")
        await run.driver.slash("pod bracket", user="alice", level=2)
        warning = "⚠️ alice declared bracket 2, but their deck “Niv” checks at least bracket 3."
        await _board_saying(run.driver, warning)
        assert await run.stop_with_sigterm() == 0

        again = Running(server, config, guild)
        await again.start()
        await again.driver.slash("pod show", user="bob")
        shown = await _board_saying(again.driver, "Brackets: alice 2")
        assert warning in shown.embeds[0]["description"]
        assert await again.stop_with_sigterm() == 0


def test_the_cli_prints_the_report_and_its_json(tmp_path: Path, capsys) -> None:
    config = write_cli_config(tmp_path, CARD_FILES[0])
    deck = DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt"
    assert main(["--config", str(config), "deck", "check", str(deck), "--language", "zh-Hans"]) == 0
    text = capsys.readouterr().out
    assert "分级：至少3（升级）" in text and "[BR2] 改变局势卡1张（Gamble）" in text
    assert "改变局势卡：内置的2025-10-21版列表。" in text
    assert main(["--config", str(config), "deck", "check", str(deck), "--json"]) == 0
    bracket = json.loads(capsys.readouterr().out)["bracket"]
    assert bracket["minimum"] == 3
    assert [(f["rule"], f["minimum"], f["cards"]) for f in bracket["findings"]] == [
        ("BR2", 3, ["Gamble"]),
        ("BR4", 2, ["Stitch in Time"]),
    ]
    assert bracket["game_changers"] == {"source": "bundled", "date": "2025-10-21"}
