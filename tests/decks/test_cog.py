"""``/deck ...`` through the real command tree (bot.testing.DiscordHarness): real bot, real SQLite file,
real card data subset; only Discord's HTTP edge is fake."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.cards.index import choice_id
from bot.testing import DiscordHarness, UploadFile

# Discord-layer suite run on both engines (tests/conftest.py): the bot's database is SQLite, then PostgreSQL.
pytestmark = pytest.mark.both_engines

DATA = Path(__file__).resolve().parent.parent / "data"
DECKS = DATA / "decks"
KAALIA = (DECKS / "heavenly_inferno_cmd2011.txt").read_bytes()
PARTNERS = (DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_bytes()


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=DATA / "deck_cards.jsonl") as harness:
        yield harness


async def test_check_an_attached_file_shows_verdict_summary_and_curve(h) -> None:
    reply = await h.slash("deck check", file=UploadFile("kaalia.txt", KAALIA))
    assert reply.ephemeral
    embed = reply.embed
    assert "Legal under commander." in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Commander"] == "Kaalia of the Vast"
    assert fields["Colour identity"] == "WBR (white/black/red)"
    assert fields["Cards"] == "100"
    assert "Creature: 29" in fields["Card types"]
    image = Image.open(io.BytesIO(reply.files["deck.png"]))
    assert image.size == (720, 360)
    assert embed["image"]["url"] == "attachment://deck.png"


async def test_check_in_japanese_uses_printed_names(h) -> None:
    reply = await h.slash(
        "deck check",
        locale="ja",
        decklist="Commander: 仙儿女王欧娜 1 Goblin Piker 98 Island",
        ruleset="edh-2010",
    )
    text = reply.text
    assert "統率者戦（2010年ルール）で不適正です" in text
    assert "`D4`" in text and "赤" in text
    assert {f["name"]: f["value"] for f in reply.embed["fields"]}["統率者"] == "妖精の女王、ウーナ"
    assert "ゴブリンの長槍使い" in text  # printed name, never translated by us


async def test_no_list_opens_a_modal_and_its_text_is_checked(h) -> None:
    opened = await h.slash("deck check")
    assert opened.modal is not None
    text = (DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8")
    reply = await h.submit_modal(opened, {"deck:modal:list": text})
    assert "Legal under commander." in reply.text


async def test_long_verdicts_paginate_and_nothing_is_cut(h) -> None:
    typos = "\n".join(f"1 Unknown Card Number {i}" for i in range(30))
    reply = await h.slash(
        "deck check", file=UploadFile("typos.txt", f"Commander: Kaalia of the Vast\n{typos}".encode())
    )
    assert reply.embed["footer"]["text"] == "Page 1/3"
    seen = set()
    message = reply
    for page in range(3):
        for i in range(30):
            if f"Unknown Card Number {i}”" in message.embed["description"]:
                seen.add(i)
        if page < 2:
            message = await h.click(reply, label="Next")
    assert seen == set(range(30))
    assert message.embed["footer"]["text"] == "Page 3/3"


async def test_wrong_or_binary_attachments_are_refused(h) -> None:
    wrong = await h.slash("deck check", file=UploadFile("deck.png", b"\x89PNG"))
    assert wrong.ephemeral and ".txt, .dek, .cod, .dck or .csv" in wrong.content
    binary = await h.slash("deck check", file=UploadFile("deck.txt", b"\x00\x01\x02\x03 binary"))
    assert binary.ephemeral and "not a text deck list" in binary.content


async def test_register_asks_before_overwriting(h) -> None:
    saved = await h.slash("deck register", name="Kaalia", file=UploadFile("k.txt", KAALIA))
    assert "Saved “Kaalia”" in saved.text
    again = await h.slash("deck register", name="kaalia", file=UploadFile("p.txt", PARTNERS))
    assert "already have a deck named" in again.content
    cancelled = await h.click(again, label="Cancel")
    assert "nothing was changed" in cancelled.message.content
    record = await _record(h, "Kaalia")
    assert record.raw_list.startswith("Commander: Kaalia")
    again = await h.slash("deck register", name="kaalia", file=UploadFile("p.txt", PARTNERS))
    replaced = await h.click(again, label="Replace")
    assert "Replaced" in replaced.text
    assert (await _record(h, "Kaalia")).raw_list.startswith("Commander: Okaun")


async def _record(h, name: str, user: str = "alice"):
    from bot.storage.decks import DeckRepository

    return await DeckRepository(h.bot.db).get(h.guild.id, h.user(user).id, name)


async def test_list_show_export_and_names_escaped(h) -> None:
    name = "**Bold** @everyone"
    await h.slash("deck register", name=name, file=UploadFile("k.txt", KAALIA))
    listed = await h.slash("deck list")
    assert (
        "\\*\\*Bold\\*\\*" in listed.embed["description"] and "@\u200beveryone" in listed.embed["description"]
    )
    assert "bob" not in listed.text
    assert (await h.slash("deck list", user="bob")).content.startswith("You have no registered decks")
    shown = await h.slash("deck show", name=name)
    assert not shown.ephemeral and "Legal under commander." in shown.text
    missing = await h.slash("deck show", user="bob", name=name)
    assert missing.ephemeral and "no deck named" in missing.content
    exported = await h.slash("deck export", name=name)
    [(filename, content)] = exported.files.items()
    assert filename.endswith(".txt")
    assert content.decode().startswith("Commander\n1 Kaalia of the Vast\n\nDeck\n1 Akoum Refuge\n")


async def test_delete_needs_confirmation_and_ownership(h) -> None:
    await h.slash("deck register", name="Mine", file=UploadFile("k.txt", KAALIA))
    refused = await h.slash("deck delete", user="bob", name="Mine", owner=h.user("alice"))
    assert "Manage Server" in refused.content
    asked = await h.slash("deck delete", name="Mine")
    not_yours = await h.click(asked, label="Delete", user="bob")
    assert "someone else" in not_yours.text
    assert await _record(h, "Mine") is not None
    done = await h.click(asked, label="Delete")
    assert "Deleted" in done.message.content
    assert await _record(h, "Mine") is None


async def test_a_moderator_may_delete_another_members_deck_after_confirming(h) -> None:
    await h.slash("deck register", name="Theirs", file=UploadFile("k.txt", KAALIA))
    asked = await h.slash("deck delete", user="admin", name="Theirs", owner=h.user("alice"))
    assert "<@" in asked.content and await _record(h, "Theirs") is not None
    await h.restart()  # the confirmation carries the deck id: still works
    done = await h.click(asked, label="Delete", user="admin")
    assert "Deleted" in done.message.content
    assert await _record(h, "Theirs") is None


async def test_ruleset_change_rechecks_registered_decks(h) -> None:
    await h.slash("deck register", name="Partners", file=UploadFile("p.txt", PARTNERS))
    assert (await _record(h, "Partners")).status == "legal"
    await h.slash("config ruleset", user="admin", ruleset="edh-2010")
    await h.settle()
    record = await _record(h, "Partners")
    assert (record.ruleset, record.status) == ("edh-2010", "illegal")


async def test_autocomplete_deck_and_card_names(h) -> None:
    await h.slash("deck register", name="Kaalia Angels", file=UploadFile("k.txt", KAALIA))
    choices = await h.autocomplete("deck show", "name", "angel")
    assert [c["value"] for c in choices] == ["Kaalia Angels"]
    assert await h.autocomplete("deck show", "name", "angel", user="bob") == []
    cards = await h.autocomplete("deck check", "commander", "phelddag")
    assert cards[0] == {"name": "Phelddagrif", "value": choice_id("Phelddagrif")}


async def test_page_buttons_after_a_restart_say_expired(h) -> None:
    typos = "\n".join(f"1 Unknown Card Number {i}" for i in range(30))
    reply = await h.slash("deck check", decklist=f"Commander: Kaalia of the Vast\n{typos}")
    await h.restart()
    expired = await h.click(reply, label="Next")
    assert "expired" in expired.text


async def test_a_name_over_64_characters_is_refused_and_nothing_saved(h) -> None:
    reply = await h.slash("deck register", name="x" * 65, file=UploadFile("k.txt", KAALIA))
    assert reply.ephemeral and "at most 64 characters (this one has 65)" in reply.content
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM decks") == 0


async def test_register_through_the_modal(h) -> None:
    opened = await h.slash("deck register", name="Typed", commander="Kaalia of the Vast")
    body = (DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8").split("\n", 1)[1]  # no header
    reply = await h.submit_modal(opened, {"deck:modal:list": body})
    assert "Saved “Typed”" in reply.text and "Legal under commander." in reply.text
    assert (await _record(h, "Typed")).commanders == ("Kaalia of the Vast",)


async def test_card_data_change_rechecks_registered_decks(h, tmp_path) -> None:
    await h.slash("deck register", name="Kaalia", file=UploadFile("k.txt", KAALIA))
    assert (await _record(h, "Kaalia")).status == "legal"
    lines = (DATA / "deck_cards.jsonl").read_text(encoding="utf-8").splitlines()
    smaller = tmp_path / "no_sol_ring.jsonl"
    smaller.write_text(
        "\n".join(line for line in lines if '"name": "Sol Ring"' not in line) + "\n", encoding="utf-8"
    )
    await h.bot.cards.import_file(smaller)
    cog = h.bot.get_cog("Decks")
    await cog.follow_card_data.coro(cog)
    record = await _record(h, "Kaalia")
    assert record.status == "unverifiable" and record.cards_version == str(h.bot.cards.version)


async def test_localized_command_and_option_names_are_valid_discord_names(h) -> None:
    """Discord rejects a sync whose localized names have capitals or spaces or exceed 32 characters."""
    import re

    from discord import Locale, app_commands

    from bot.i18n.translator import PodkeeperTranslator

    translator = PodkeeperTranslator()
    valid = re.compile(r"^[-_\w]{1,32}$")
    group = h.bot.tree.get_command("deck")
    names = [group._locale_name]
    for command in group.commands:
        names.append(command._locale_name)
        names += [parameter._Parameter__parent._rename for parameter in command.parameters]
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, group)
    checked = 0
    for name in names:
        for locale in (Locale.japanese, Locale.chinese, Locale.taiwan_chinese):
            text = await translator.translate(name, locale, context)
            assert text is not None, name.message
            assert valid.match(text) and text == text.lower(), (name.message, text)
            checked += 1
    assert checked >= 3 * 14


async def test_a_long_deck_list_pages_instead_of_cutting(h) -> None:
    from bot.services.decks import DeckService

    service = DeckService(h.bot.db, h.bot.cards)
    for number in range(45):
        await service.register(h.guild.id, h.user("alice").id, f"Deck {number:02d}", KAALIA, "commander")
    listed = await h.slash("deck list")
    assert listed.embed["title"] == "Your decks (45)" and listed.embed["footer"]["text"] == "Page 1/3"
    shown = listed.embed["description"]
    for _ in range(2):
        page = await h.click(listed, label="Next")
        shown += page.embed["description"]
    assert all(f"Deck {number:02d}" in shown for number in range(45))


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en-US",
            "The commander option names an unknown card “Kalia of teh Vast”. Did you mean “Kaalia of the Vast”?",
        ),
        ("ja", "commander オプションのカード「Kalia of teh Vast」が見つかりません。"),
    ],
)
async def test_a_bad_commander_option_is_named_as_the_option_not_line_0(
    h, locale: str, expected: str
) -> None:
    reply = await h.slash(
        "deck check", file=UploadFile("kaalia.txt", KAALIA), commander="Kalia of teh Vast", locale=locale
    )
    assert expected in reply.text and "Line 0" not in reply.text and "0 行目" not in reply.text
