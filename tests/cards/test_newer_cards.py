"""A name the card data does not know and that is close to none of its cards may be a card printed after
the data: ``/card``, the deck check and ``cards lookup`` say so, with how current the data is and how to
update it, instead of offering only unrelated older names."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot import paths
from bot.cards.bundled import BUNDLED_DATA_DATE, data_date_for
from bot.cards.database import CardDatabase
from bot.cards.importers import read_cards
from bot.cards.index import CLOSE_RATIO, CardIndex, NewerThanData
from bot.domain.decklist import parse_decklist
from bot.domain.rules import check_deck, get_ruleset, resolve_decklist
from bot.domain.rules.deck import SuggestionBudget
from bot.render.deck import problem_message
from bot.storage.db import Database
from bot.testing import DiscordHarness
from tests.cards.conftest import FIXTURES, MTGJSON_FILE, SUBSET, subset_cards

NEWER_NAMES = [
    line.strip()
    for line in (FIXTURES / "newer_card_names.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
LANGUAGES = ("en", "ja", "zh-Hans", "zh-Hant")


@pytest.fixture(scope="module")
def dated_index() -> CardIndex:
    index = CardIndex.from_cards(subset_cards())
    index.data_date = "2022-04-29"
    return index


def test_a_typo_and_a_partial_name_are_close_to_a_card(dated_index: CardIndex) -> None:
    for written in ("Lightnig Bolt", "counterspel", "Kenzo the"):
        resolution = dated_index.resolve(written)
        assert resolution.card is None and resolution.suggestions, written
        assert resolution.newer is None, written


def test_a_name_close_to_no_card_may_be_newer_than_the_data(dated_index: CardIndex) -> None:
    resolution = dated_index.resolve("The One Ring")
    assert resolution.card is None
    assert resolution.newer == NewerThanData("2022-04-29")


def test_switching_suggestions_off_judges_nothing(dated_index: CardIndex) -> None:
    """After the deck check's suggestion budget is spent no name is compared, so none is called newer."""
    quiet = dated_index.without_suggestions()
    assert quiet.resolve("The One Ring").newer is None and quiet.resolve("The One Ring").suggestions == ()
    assert quiet.resolve("Lightning Bolt").card is dated_index.resolve("Lightning Bolt").card
    assert dated_index.resolve("The One Ring").newer is not None  # the original is unchanged


def test_the_deck_check_says_a_card_may_be_newer_in_every_language(dated_index: CardIndex) -> None:
    deck = resolve_decklist(parse_decklist("1 Lightnig Bolt\n1 The One Ring\n"), dated_index)
    problems = check_deck(deck, get_ruleset("commander")).problems
    typo, newer = (p for p in problems if p.key == "deck.problem.unknown")
    assert "newer" not in typo.values and newer.values["newer"] == NewerThanData("2022-04-29")
    messages = {language: problem_message(newer, language) for language in LANGUAGES}
    assert messages["en"].startswith(
        "Line 2: unknown card “The One Ring”. No card in the card data comes close "
        "to it, and the data holds cards up to 2022-04-29: it may be a newer card. "
        "The bot's operator can bring current card data with `podkeeper cards sync`."
    )
    assert messages["ja"].startswith(
        "2行目：不明なカード「The One Ring」。カードデータにはこれに近いカードがなく"
    )
    for language, message in messages.items():
        assert "2022-04-29" in message and "`podkeeper cards sync`" in message, language
    assert "Did you mean" in problem_message(typo, "en")


def test_the_deck_check_still_shows_the_older_lookalikes_after_the_note(dated_index: CardIndex) -> None:
    deck = resolve_decklist(parse_decklist("1 The One Ring\n"), dated_index)
    problem = next(
        p for p in check_deck(deck, get_ruleset("commander")).problems if p.key == "deck.problem.unknown"
    )
    assert problem.values["suggestions"]
    message = problem_message(problem, "en")
    assert message.index("may be a newer card") < message.index("Older cards with similar names: “")
    assert "Did you mean" not in message


def test_after_the_budget_no_name_is_called_newer(dated_index: CardIndex) -> None:
    deck = resolve_decklist(parse_decklist("1 The One Ring\n"), dated_index, budget=SuggestionBudget(names=0))
    assert deck.cards[0].newer is None and deck.unsuggested == 1


def test_an_undated_data_set_says_so_without_a_date() -> None:
    index = CardIndex.from_cards(subset_cards())
    deck = resolve_decklist(parse_decklist("1 The One Ring\n"), index)
    problem = next(
        p for p in check_deck(deck, get_ruleset("commander")).problems if p.key == "deck.problem.unknown"
    )
    assert problem.values["newer"] == NewerThanData(None)
    for language in LANGUAGES:
        message = problem_message(problem, language)
        assert "`podkeeper cards sync`" in message and "{date}" not in message, language


# -- how current the data is -------------------------------------------------------------------------


def test_the_data_date_is_the_newest_release_date_or_the_files_own_date(tmp_path: Path) -> None:
    lines = SUBSET.read_text(encoding="utf-8").splitlines()
    dated = [json.loads(line) for line in lines if line.strip()]
    dated[0]["released_at"], dated[1]["released_at"], dated[2]["released_at"] = (
        "2024-11-15",
        "2025-02-07",
        "nonsense",
    )
    path = tmp_path / "dated.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in dated), encoding="utf-8")
    assert read_cards(path).data_date == "2025-02-07"
    assert read_cards(SUBSET).data_date is None
    assert read_cards(MTGJSON_FILE).data_date == "2025-04-01"  # MTGJSON's meta.date


def test_the_bundled_file_has_its_written_date() -> None:
    assert data_date_for(str(paths.BUNDLED_CARDS), None) == BUNDLED_DATA_DATE
    assert data_date_for(str(paths.BUNDLED_CARDS), "2024-01-01") == "2024-01-01"
    assert data_date_for(str(SUBSET), None) is None


async def test_the_data_date_is_stored_with_the_import_and_read_back(db: Database, tmp_path: Path) -> None:
    records = [json.loads(line) for line in SUBSET.read_text(encoding="utf-8").splitlines() if line.strip()]
    records[5]["released_at"] = "2023-06-23"
    path = tmp_path / "dated.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in records), encoding="utf-8")
    cards = await CardDatabase.open(db, path)
    assert cards.data_date == "2023-06-23" and cards.resolve("The One Ring").newer == NewerThanData(
        "2023-06-23"
    )
    assert (await cards.repository.last_import()).data_date == "2023-06-23"
    again = await CardDatabase.open(db)  # a later start reads the stored index and the date
    assert again.data_date == "2023-06-23"


# -- /card -----------------------------------------------------------------------------------------------


async def test_card_command_says_a_name_may_be_newer_in_every_language(tmp_path: Path) -> None:
    records = [json.loads(line) for line in SUBSET.read_text(encoding="utf-8").splitlines() if line.strip()]
    records[0]["released_at"] = "2022-04-29"
    path = tmp_path / "dated.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in records), encoding="utf-8")
    async with DiscordHarness.start(tmp_path, cards_path=str(path)) as harness:
        replies = {
            locale: (await harness.slash("card", name="Sheoldred, the Apocalypse", locale=locale)).content
            for locale in ("en-US", "ja", "zh-CN", "zh-TW")
        }
        typo = (await harness.slash("card", name="Lightnig Bolt")).content
    assert replies["en-US"].startswith(
        "No card is named “Sheoldred, the Apocalypse”. No card in the card data "
        "comes close to it, and the data holds cards up to 2022-04-29"
    )
    assert replies["ja"].startswith(
        "「Sheoldred, the Apocalypse」という名前のカードは見つかりません。カードデータには"
    )
    assert replies["zh-CN"].startswith("找不到名为“Sheoldred, the Apocalypse”的牌。牌数据中没有与之相近的牌")
    assert replies["zh-TW"].startswith(
        "找不到名為「Sheoldred, the Apocalypse」的牌。牌資料中沒有與之相近的牌"
    )
    assert all("2022-04-29" in reply and "`podkeeper cards sync`" in reply for reply in replies.values())
    assert typo.startswith("No card is named “Lightnig Bolt”. Did you mean: Lightning Bolt")


# -- the threshold, over the full bundled data --------------------------------------------------------


@pytest.fixture(scope="module")
def bundled_index() -> CardIndex:
    return CardIndex.from_cards(read_cards(paths.BUNDLED_CARDS).cards)


def typo(name: str, rng: random.Random) -> str:
    """One deleted, doubled or swapped letter."""
    i = rng.randrange(1, max(2, len(name) - 1))
    kind = rng.choice(("delete", "double", "swap"))
    if kind == "delete":
        return name[:i] + name[i + 1 :]
    if kind == "double":
        return name[:i] + name[i] + name[i:]
    return name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :]


@pytest.mark.slow  # the whole bundled card data set
def test_newer_cards_are_told_apart_from_typos_over_the_bundled_data(bundled_index: CardIndex) -> None:
    """The measured cases behind ``CLOSE_RATIO``: real cards printed after the data, and typos of real
    deck lists' cards (tests/data/decks), each judged by the same resolve the bot uses."""
    assert CLOSE_RATIO == 80.0
    newer = [bundled_index.resolve(name) for name in NEWER_NAMES]
    assert all(r.card is None for r in newer)
    called_newer = sum(1 for r in newer if r.newer is not None)
    assert called_newer >= 0.9 * len(newer), [r.query for r in newer if r.newer is None]
    rng = random.Random(7)
    deck_names = {
        entry.name
        for path in (Path(__file__).parent.parent / "data" / "decks").glob("*.txt")
        for entry in parse_decklist(path.read_text(encoding="utf-8")).entries
    }
    typos = [bundled_index.resolve(typo(name, rng)) for name in sorted(deck_names)]
    unknown = [r for r in typos if r.card is None and not r.ambiguous]
    assert len(unknown) > 50
    assert sum(1 for r in unknown if r.newer is not None) <= 0.01 * len(unknown)
    assert bundled_index.resolve("Kaalia").newer is None  # a partial name
