"""Card names in every language Magic is printed in that the card data carries: MTGJSON
``foreignData`` (German, French, Italian, Spanish, Portuguese, Korean, Russian besides Japanese and Chinese)
is kept by the importer, resolves through the one CardIndex, and feeds autocomplete in the member's
Discord language. Real printed names (tests/cards/data/mtgjson_languages.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cards.importers import read_cards
from bot.cards.index import CardIndex, choice_id
from bot.cards.model import card_name_language
from bot.testing import DiscordHarness

LANGUAGES_FILE = Path(__file__).parent / "data" / "mtgjson_languages.json"


@pytest.fixture(scope="module")
def index() -> CardIndex:
    return CardIndex.from_cards(read_cards(LANGUAGES_FILE).cards)


def test_the_importer_keeps_every_printed_language(index: CardIndex) -> None:
    bolt = index.get("Lightning Bolt")
    assert bolt.printed_names == {
        "de": "Blitzschlag",
        "fr": "Foudre",
        "it": "Fulmine",
        "es": "Rayo",
        "pt": "Relâmpago",
        "ko": "번개",
        "ru": "Молния",
        "ja": "稲妻",
        "zh-Hans": "闪电击",
        "zh-Hant": "閃電擊",
    }


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("Blitzschlag", "Lightning Bolt"),
        ("foudre", "Lightning Bolt"),
        ("Fulmine", "Lightning Bolt"),
        ("RAYO", "Lightning Bolt"),
        ("Relampago", "Lightning Bolt"),
        ("번개", "Lightning Bolt"),
        ("молния", "Lightning Bolt"),
        ("Gegenzauber", "Counterspell"),
        ("Контрзаклинание", "Counterspell"),
        ("elfes de llanowar", "Llanowar Elves"),
        ("Mistico elfico", "Elvish Mystic"),
    ],
)
def test_printed_names_in_every_language_resolve(index: CardIndex, written: str, english: str) -> None:
    resolution = index.resolve(written)
    assert resolution.card is not None and resolution.card.name == english
    assert resolution.matched_by == "printed"


def test_an_english_name_still_wins_and_an_ambiguous_printed_name_still_asks(
    index: CardIndex, tmp_path
) -> None:
    assert index.resolve("Lightning Bolt").matched_by == "exact"
    # "Elfos de Llanowar" is both the Spanish and the Portuguese name of one card: not ambiguous.
    assert index.resolve("Elfos de Llanowar").card.name == "Llanowar Elves"
    shared = json.loads(LANGUAGES_FILE.read_text(encoding="utf-8"))  # two cards given one German name
    shared["data"]["Elvish Mystic"][0]["foreignData"][0]["name"] = "Llanowarelfen"
    path = tmp_path / "shared_name.json"
    path.write_text(json.dumps(shared, ensure_ascii=False), encoding="utf-8")
    ambiguous = CardIndex.from_cards(read_cards(path).cards).resolve("Llanowarelfen")
    assert ambiguous.card is None and ambiguous.ambiguous == ("Elvish Mystic", "Llanowar Elves")


def test_autocomplete_offers_the_member_language(index: CardIndex) -> None:
    assert index.autocomplete("Blitz", "de") == [("Blitzschlag (Lightning Bolt)", "Lightning Bolt")]
    assert index.autocomplete("bolt", "de") == [("Blitzschlag (Lightning Bolt)", "Lightning Bolt")]
    assert index.autocomplete("Контр", "ru") == [("Контрзаклинание (Counterspell)", "Counterspell")]
    assert index.autocomplete("Blitz", "ko") == []  # a Korean list has no German names


@pytest.mark.parametrize(
    ("language", "locale", "names"),
    [
        ("en", "de", "de"),
        ("en", "pt-BR", "pt"),
        ("en", "es-419", "es"),
        ("en", "ko", "ko"),
        ("ja", "ja", "ja"),
        ("en", "en-US", "en"),
        ("zh-Hans", "zh-CN", "zh-Hans"),
        ("en", None, "en"),
    ],
)
def test_card_names_follow_the_discord_language_when_cards_are_printed_in_it(language, locale, names) -> None:
    assert card_name_language(language, locale) == names


async def test_card_autocomplete_in_german_through_discord(tmp_path: Path) -> None:
    cards = tmp_path / "cards.jsonl"
    cards.write_text(
        "\n".join(
            json.dumps(card.to_scryfall(), ensure_ascii=False) for card in read_cards(LANGUAGES_FILE).cards
        ),
        encoding="utf-8",
    )
    async with DiscordHarness.start(tmp_path, cards_path=cards) as h:
        choices = await h.autocomplete("card", "name", "Gegen", locale="de")
        assert choices == [{"name": "Gegenzauber (Counterspell)", "value": choice_id("Counterspell")}]
        commander = await h.autocomplete("deck check", "commander", "Llanowar", locale="fr")
        assert commander[0] == {
            "name": "Elfes de Llanowar (Llanowar Elves)",
            "value": choice_id("Llanowar Elves"),
        }
