"""/mulligan practice, /mulligan odds and /odds through the real bot (bot/testing harness: real
Interaction objects, real CommandTree and components; only Discord's HTTP edge is fake)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.render import hand as hand_render
from bot.services.decks import DeckService
from bot.testing import DiscordHarness

DATA = Path(__file__).parent.parent / "data"
INFERNO = (DATA / "mulligan_heavenly_inferno.txt").read_text(encoding="utf-8")


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=DATA / "mulligan_cards.jsonl") as harness:
        yield harness


async def register(h, name: str, text: str, user: str = "alice") -> None:
    service = DeckService(h.bot.db, h.bot.cards)
    await service.register(h.guild.id, h.user(user).id, name, text, "commander")


def hand_size(reply) -> int:
    """Cards in the hand image: its height grows by one row per card."""
    image = Image.open(io.BytesIO(reply.message.files["hand.png"]))
    assert image.format == "PNG" and image.size[0] == hand_render.WIDTH
    return (image.size[1] - hand_render.HEADER - hand_render.MARGIN) // (
        hand_render.ROW + hand_render.ROW_GAP
    )


def select_id(reply) -> str:
    return reply.message.selects[0]["custom_id"]


async def test_london_practice_mulligan_bottom_and_summary(h):
    await register(h, "Inferno", INFERNO)
    reply = await h.slash("mulligan practice", deck="Inferno", style="london", seed="table-7", players=2)
    assert reply.ephemeral and "Practice: Inferno · London mulligan" in reply.embed["title"]
    assert hand_size(reply) == 7 and "seed: table-7" in reply.text
    assert [b["label"] for b in reply.message.buttons] == ["Keep", "Mulligan"]
    again = await h.slash("mulligan practice", deck="Inferno", style="london", seed="table-7", players=2)
    assert again.message.files["hand.png"] == reply.message.files["hand.png"]  # same seed, same cards

    clicked = await h.click(reply, label="Mulligan")
    assert "Shuffle your hand into your library and draw 7." in clicked.text and hand_size(clicked) == 7
    kept = await h.click(clicked, label="Keep")
    assert "Choose 1 card to put on the bottom" in kept.text
    menu = kept.message.selects[0]
    assert (menu["min_values"], menu["max_values"], len(menu["options"])) == (1, 1, 7)
    done = await h.select(kept.message, select_id(kept), ["2"])
    assert hand_size(done) == 6 and done.message.components == []
    assert "Kept 6 cards" in done.text and "after 1 mulligan" in done.text
    assert "1 card went to the bottom" in done.text


async def test_partial_paris_practice_sets_aside_and_shuffles_back(h):
    await register(h, "Inferno", INFERNO)
    reply = await h.slash("mulligan practice", deck="Inferno", style="partial_paris", seed=5)
    assert "partial Paris" in reply.embed["title"]
    aside = await h.select(reply.message, select_id(reply), ["0", "1", "2"])
    assert "Draw 2." in aside.text and hand_size(aside) == 6
    assert len(aside.message.selects[0]["options"]) == 6
    done = await h.click(aside, label="Keep")
    assert "Kept 6 cards" in done.text and "The 3 cards you set aside were shuffled back" in done.text


async def test_practice_follows_the_users_language_and_the_rulesets_style(h):
    await register(h, "Inferno", INFERNO)
    reply = await h.slash("mulligan practice", deck="Inferno", locale="ja")
    assert "ロンドン・マリガン" in reply.embed["title"]  # commander ruleset: London
    assert [b["label"] for b in reply.message.buttons] == ["キープ", "マリガン"]


async def test_unregistered_deck_short_deck_and_expired_practice(h):
    reply = await h.slash("mulligan practice", deck="Nope")
    assert reply.ephemeral and "no registered deck named “Nope”" in reply.content
    await register(h, "Tiny", "Commander: Kaalia of the Vast\n3 Plains\n2 Sol Ring\n")
    reply = await h.slash("mulligan practice", deck="Tiny")
    assert reply.ephemeral and "only 5 cards" in reply.content
    await register(h, "Inferno", INFERNO)
    reply = await h.slash("mulligan practice", deck="Inferno", style="london")
    h.bot.get_cog("Mulligan").sessions.drop(select_or_button_session(reply))
    late = await h.click(reply, label="Keep")
    assert late.ephemeral and "expired" in late.content


async def test_practice_buttons_after_a_restart_say_expired(h):
    """Practice runs live in memory; after a restart their buttons still get a clear answer."""
    await register(h, "Inferno", INFERNO)
    reply = await h.slash("mulligan practice", deck="Inferno", style="partial_paris")
    await h.restart()
    late = await h.click(reply, label="Keep")
    assert late.ephemeral and "expired" in late.content
    late = await h.select(reply.message, select_id(reply), ["0"])
    assert late.ephemeral and "expired" in late.content


def select_or_button_session(reply) -> str:
    return reply.message.buttons[0]["custom_id"].split(":")[2]


async def test_odds_for_a_registered_deck(h):
    await register(h, "Inferno", INFERNO)
    reply = await h.slash("mulligan odds", deck="Inferno")
    assert not reply.ephemeral
    assert "Library: 99 cards (commanders left out), 38 lands." in reply.text
    assert "partial Paris mulligan: 7 → 81.7%" in reply.text
    chart = Image.open(io.BytesIO(reply.message.files["odds.png"]))
    assert chart.format == "PNG" and chart.width == 720 and chart.height > 600  # phone-shaped: tall
    narrow = await h.slash("mulligan odds", deck="Inferno", fewest=3, most=4)
    assert "Keepable (3–4 lands) in the first 7" in narrow.text


async def test_odds_refuses_a_deck_without_lands(h):
    await register(h, "Rings", "Commander: Kaalia of the Vast\n99 Sol Ring\n")
    reply = await h.slash("mulligan odds", deck="Rings")
    assert reply.ephemeral and "no lands" in reply.content


async def test_deck_autocomplete_lists_only_own_decks(h):
    await register(h, "Inferno", INFERNO)
    await register(h, "Rings", "Commander: Kaalia of the Vast\n99 Sol Ring\n")
    await register(h, "Bob's deck", INFERNO, user="bob")
    choices = await h.autocomplete("mulligan odds", "deck", "in")
    assert [c["value"] for c in choices] == ["Inferno", "Rings"]
    assert await h.autocomplete("mulligan practice", "deck", "bob") == []


async def test_free_calculator(h):
    reply = await h.slash("odds", deck_size=99, copies=1, drawn=8, want=1)
    assert "exactly 1: 8.1%" in reply.content and "at least 1: 8.1%" in reply.content
    bad = await h.slash("odds", deck_size=10, copies=11, drawn=3, want=1)
    assert bad.ephemeral and "between 0 and the deck size" in bad.content
