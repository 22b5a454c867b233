"""Name resolution and autocomplete over real card data."""

from __future__ import annotations

import pytest

from bot.cards.importers import read_cards
from bot.cards.index import CardIndex, normalise
from bot.cards.model import Card
from tests.cards.conftest import TESTS_DIR
from tests.cards.seed_names import NOT_IN_DATA, SEED_NAMES

TESTS_DATA = TESTS_DIR / "data"


@pytest.mark.parametrize(
    ("seed", "written", "english"), SEED_NAMES, ids=[f"{s}-{w}" for s, w, _ in SEED_NAMES]
)
def test_every_seed_card_name_resolves(
    subset_index: CardIndex, seed: str, written: str, english: str
) -> None:
    resolution = subset_index.resolve(written)
    assert resolution.card is not None, (seed, written, resolution.suggestions)
    assert resolution.card.name == english


@pytest.mark.parametrize("written", NOT_IN_DATA)
def test_seed_names_missing_from_the_data_resolve_to_nothing(subset_index: CardIndex, written: str) -> None:
    assert subset_index.resolve(written).card is None


def test_exact_english_name(subset_index: CardIndex) -> None:
    resolution = subset_index.resolve("Lim-Dûl's Vault")
    assert resolution.card is not None and resolution.card.name == "Lim-Dûl's Vault"
    assert resolution.matched_by == "exact"
    assert resolution.suggestions == () and resolution.ambiguous == ()


@pytest.mark.parametrize(
    "written", ["Lim-Dul's Vault", "lim dul's vault", "LIM-DÛL'S VAULT", "  limdul’s vault "]
)
def test_case_accent_and_punctuation_insensitive(subset_index: CardIndex, written: str) -> None:
    resolution = subset_index.resolve(written)
    assert resolution.card is not None and resolution.card.name == "Lim-Dûl's Vault"
    assert resolution.matched_by == "normalised"


def test_ligatures_meet_their_spelled_out_letters(subset_index: CardIndex) -> None:
    resolution = subset_index.resolve("Æther Vial")  # old printings spell it with Æ; the data says Aether
    assert resolution.card is not None and resolution.card.name == "Aether Vial"
    assert resolution.matched_by == "normalised"


@pytest.mark.parametrize(
    ("written", "matched_by"),
    [
        ("Fire", "face"),
        ("ice", "face"),
        ("Fire/Ice", "normalised"),
        ("Fire // Ice", "exact"),
        ("fire//ice", "normalised"),
        ("ＦＩＲＥ／ＩＣＥ", "normalised"),
    ],
)
def test_either_face_of_a_split_card(subset_index: CardIndex, written: str, matched_by: str) -> None:
    resolution = subset_index.resolve(written)
    assert resolution.card is not None and resolution.card.name == "Fire // Ice"
    assert resolution.matched_by == matched_by


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("Kenzo the Hardhearted", "Bushi Tenderfoot // Kenzo the Hardhearted"),  # flip
        ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),  # transform
        ("Stomp", "Bonecrusher Giant // Stomp"),  # adventure
        ("Agadeem, the Undercrypt", "Agadeem's Awakening // Agadeem, the Undercrypt"),  # modal_dfc
        ("Memory", "Commit // Memory"),  # aftermath
    ],
)
def test_back_faces_of_every_multi_face_layout(subset_index: CardIndex, written: str, english: str) -> None:
    resolution = subset_index.resolve(written)
    assert resolution.card is not None and resolution.card.name == english
    assert resolution.matched_by == "face"


def test_meld_cards_are_each_their_own_card(subset_index: CardIndex) -> None:
    brisela = subset_index.resolve("brisela, voice of nightmares").card
    assert brisela is not None and brisela.layout == "meld"
    assert "Gisela, the Broken Blade" in brisela.meld_parts
    assert subset_index.resolve("Bruna, the Fading Light").card is not None


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("稲妻", "Lightning Bolt"),  # Japanese
        ("闪电击", "Lightning Bolt"),  # Simplified Chinese
        ("閃電擊", "Lightning Bolt"),  # Traditional Chinese
        ("リム=ドゥールの櫃", "Lim-Dûl's Vault"),  # the data has a full-width ＝; NFKC makes them meet
        ("无情的谦造", "Bushi Tenderfoot // Kenzo the Hardhearted"),  # one face of a printed name
    ],
)
def test_printed_names(subset_index: CardIndex, written: str, english: str) -> None:
    resolution = subset_index.resolve(written)
    assert resolution.card is not None and resolution.card.name == english
    assert resolution.matched_by == "printed"


def test_a_key_shared_by_two_cards_is_ambiguous(subset_index: CardIndex) -> None:
    resolution = subset_index.resolve("重生")  # the Chinese name of both Regenerate and Regeneration
    assert resolution.card is None
    assert resolution.ambiguous == ("Regenerate", "Regeneration")
    assert set(resolution.suggestions) == {"Regenerate", "Regeneration"}


def test_a_token_never_hides_the_card_of_the_same_name() -> None:
    real = Card(name="Goblin Guide", layout="normal", type_line="Creature — Goblin Scout")
    token = Card(name="Goblin Guide", layout="token", type_line="Token Creature — Goblin")
    for order in ([real, token], [token, real]):
        assert CardIndex.from_cards(order).get("Goblin Guide") is real


@pytest.mark.parametrize(
    ("typo", "expected"),
    [
        ("Lightnig Bolt", "Lightning Bolt"),
        ("Sol Rnig", "Sol Ring"),
        ("Counterspel", "Counterspell"),
        ("水没洞穴", "Drowned Catacomb"),  # the seed's older Chinese name for 水没墓穴
    ],
)
def test_unknown_names_get_the_best_suggestions(subset_index: CardIndex, typo: str, expected: str) -> None:
    resolution = subset_index.resolve(typo)
    assert resolution.card is None and resolution.matched_by == "none"
    assert resolution.suggestions[0] == expected
    assert len(resolution.suggestions) <= 5
    assert len(set(resolution.suggestions)) == len(resolution.suggestions)


def test_nonsense_gets_no_suggestions(subset_index: CardIndex) -> None:
    assert subset_index.resolve("qqqqxzzzvv").suggestions == ()
    assert subset_index.resolve("   ").card is None


def test_get_is_exact_english_only(subset_index: CardIndex) -> None:
    assert subset_index.get("Sol Ring") is not None
    assert subset_index.get("sol ring") is None
    assert subset_index.get("稲妻") is None


def test_normalise_keeps_japanese_sound_marks() -> None:
    # NFD would split ド into ト + ゛; stripping "accents" there would change the name.
    assert normalise("ドゥール") != normalise("トゥール")
    assert normalise("Lim-Dûl's") == normalise("lim duls") == "limduls"
    assert normalise("_____") == "_____"


def test_autocomplete_prefix_before_substring(subset_index: CardIndex) -> None:
    results = subset_index.autocomplete("light", "en")
    names = [english for _, english in results]
    assert names[:1] == ["Lightning Axe"]  # shortest prefix match first
    assert "Lightning Bolt" in names
    prefix_positions = [i for i, n in enumerate(names) if normalise(n).startswith("light")]
    assert prefix_positions == list(range(len(prefix_positions)))
    assert all(display == english for display, english in results)


def test_autocomplete_in_the_users_language(subset_index: CardIndex) -> None:
    assert subset_index.autocomplete("稲妻", "ja")[0] == ("稲妻 (Lightning Bolt)", "Lightning Bolt")
    assert subset_index.autocomplete("闪电", "zh-Hans")[0][1] == "Lightning Bolt"
    # English text still finds cards for a Japanese user, shown with the Japanese name.
    assert ("稲妻 (Lightning Bolt)", "Lightning Bolt") in subset_index.autocomplete("lightning bolt", "ja")


def test_autocomplete_limits_and_empty_text(subset_index: CardIndex) -> None:
    assert len(subset_index.autocomplete("a", "en")) == 25
    assert len(subset_index.autocomplete("a", "en", limit=3)) == 3
    assert subset_index.autocomplete("", "en") == []
    assert subset_index.autocomplete("qqqqxzzzvv", "en") == []
    assert subset_index.autocomplete("sol", "xx")[0][1] == "Sol Ring"  # unknown language → English
    assert all(len(display) <= 100 for display, _ in subset_index.autocomplete("e", "ja", limit=25))


@pytest.fixture(scope="module")
def lookalikes() -> CardIndex:
    """Real cards whose names collide once normalised or translated."""
    return CardIndex.from_cards(read_cards(TESTS_DATA / "cards_ambiguities.jsonl").cards)


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("wasteland", "Wasteland"),  # not Unhinged's "Waste Land": written the same up to case
        ("WASTE LAND", "Waste Land"),
        ("Will Kenrith", "Will Kenrith // Rowan Kenrith"),  # the card whose front face it is
        ("Rowan Kenrith", "Rowan Kenrith // Will Kenrith"),
        ("ウィルケンリス", "Will Kenrith // Rowan Kenrith"),
        ("波洛斯公会门", "Boros Guildgate"),  # not its art variants "Boros Guildgate (a)"/"(b)"
    ],
)
def test_collisions_with_one_clear_meaning_resolve(lookalikes: CardIndex, written: str, english: str) -> None:
    resolution = lookalikes.resolve(written)
    assert resolution.card is not None and resolution.card.name == english


@pytest.mark.parametrize(
    ("written", "candidates"),
    [
        ("waste-land", ("Waste Land", "Wasteland")),
        ("重生", ("Regenerate", "Regeneration")),
        ("スゥルタイの隆盛", ("Sultai Ascendacy", "Sultai Ascendancy")),  # the data's misspelt duplicate
    ],
)
def test_real_collisions_stay_ambiguous(
    lookalikes: CardIndex, written: str, candidates: tuple[str, ...]
) -> None:
    resolution = lookalikes.resolve(written)
    assert resolution.card is None and resolution.ambiguous == candidates
