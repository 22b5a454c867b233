"""Brackets through the real bot (bot.testing.DiscordHarness, real SQLite or PostgreSQL, real card data):
the deck check's Bracket field, and /pod bracket on the live board, its message and its decoded image."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.render import board
from bot.testing import DiscordHarness, UploadFile

from .conftest import CARD_FILES, DECKS

pytestmark = pytest.mark.both_engines

PARTNERS = (DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_bytes()
NIV_LIST = "Commander\n1 Niv-Mizzet, Parun\n\nDeck\n1 Rhystic Study\n1 Cyclonic Rift\n1 Counterspell\n"


@pytest.fixture
async def h(tmp_path: Path):
    cards = tmp_path / "cards.jsonl"
    cards.write_text("".join(path.read_text(encoding="utf-8") for path in CARD_FILES), encoding="utf-8")
    async with DiscordHarness.start(tmp_path, cards_path=cards, members=("alice", "bob", "carol")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


def fields(reply) -> dict[str, str]:
    return {field["name"]: field["value"] for field in reply.embed["fields"]}


async def test_the_deck_check_shows_the_bracket_with_its_reasons(h) -> None:
    reply = await h.slash("deck check", file=UploadFile("heads_i_win.txt", PARTNERS))
    bracket = fields(reply)["Bracket"]
    assert bracket.startswith("**Bracket: at least 3 (Upgraded)**")
    assert "`BR2` Game Changers, 1 card (Gamble)" in bracket
    assert "`BR4` Extra turns, 1 card (Stitch in Time)" in bracket
    assert bracket.endswith("Game Changers: the bundled list of 2025-10-21.")


async def test_the_bracket_field_in_japanese(h) -> None:
    reply = await h.slash("deck check", locale="ja", file=UploadFile("heads_i_win.txt", PARTNERS))
    bracket = fields(reply)["ブラケット"]
    assert "ブラケット：3以上（アップグレード）" in bracket and "同梱の2025-10-21版リスト" in bracket


async def test_registering_shows_the_bracket_and_stores_it_with_the_verdict(h) -> None:
    reply = await h.slash("deck register", user="carol", name="Niv", decklist=NIV_LIST)
    assert "Bracket: at least 3 (Upgraded)" in fields(reply)["Bracket"]
    record = await h.bot.get_cog("Pods").decks().get(h.guild.id, h.user("carol").id, "Niv")
    from bot.services.decks import deck_bracket

    assert deck_bracket(record) == 3


def _warn_pixels(png: bytes, state, seat: int) -> int:
    """Amber pixels in one player's card (cards grow together with the fullest one's lines)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    box = board.card_box(seat, board.snapshot(state).card_height)
    counts = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return sum(count for count, colour in counts if colour == board.WARN)


async def test_declared_brackets_on_the_board_and_a_warning_for_a_deck_above(h) -> None:
    pods = h.bot.get_cog("Pods")
    saved = await pods.decks().register(h.guild.id, h.user("alice").id, "Niv", NIV_LIST, "commander")
    assert saved.record is not None
    reply = await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
    panel = await h.click(reply, label="My commanders", user="alice")
    await h.select(panel.message, panel.message.selects[0]["custom_id"], ["Niv"], user="alice")
    await h.slash("pod bracket", user="alice", level=2)
    await h.slash("pod bracket", user="bob", level=3)
    await h.settle()
    await pods.updater.flush()
    state = (await pods.service.get(1)).state
    alice, bob = state.player(h.user("alice").id), state.player(h.user("bob").id)
    assert (alice.bracket, alice.deck_bracket, bob.bracket, bob.deck_bracket) == (2, 3, 3, None)
    message = h.fake.messages[reply.message.id]
    description = message.embeds[0]["description"]
    assert "Brackets: alice 2, bob 3" in description
    assert "⚠️ alice declared bracket 2, but their deck “Niv” checks at least bracket 3." in description
    png = message.files["pod-1.png"]
    assert _warn_pixels(png, state, 0) > 150  # alice's card: "Deck checks at least 3" in amber
    assert _warn_pixels(png, state, 1) == 0  # bob has no deck to check

    await h.slash("pod bracket", user="alice", level=3)  # talked it over: she plays it as a 3
    await h.settle()
    await pods.updater.flush()
    message = h.fake.messages[reply.message.id]
    assert "⚠️" not in message.embeds[0]["description"]
    assert _warn_pixels(message.files["pod-1.png"], (await pods.service.get(1)).state, 0) == 0
    history = await h.slash("pod history", user="bob")
    assert "alice: alice, bracket 3 declared" in history.text


async def test_only_players_declare_and_only_for_themselves(h) -> None:
    await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
    refused = await h.slash("pod bracket", user="carol", level=1, game=1)
    assert refused.ephemeral and "not playing in this game" in refused.content
    assert (await h.bot.get_cog("Pods").service.get(1)).state.players[0].bracket is None
