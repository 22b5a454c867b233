"""The glossary (bot/i18n/glossary.toml) is the one source of game terms: every catalogue uses its words."""

from __future__ import annotations

import re

import pytest

from bot.i18n import LANGUAGES, catalogue, t
from bot.i18n.glossary import card_name, glossary, join_list, localized_values

TRANSLATED = LANGUAGES[1:]


def _entries(table: str) -> list[tuple[str, dict]]:
    return list(glossary()[table].items())


def _older_forms(entry: dict, language: str) -> set[str]:
    """ "統率者（ジェネラル）": the 2010 word in parentheses after the modern one is allowed (seed rulesets)."""
    return {f"{entry[language]}（{older}）" for older in entry.get("older", {}).get(language, [])}


def test_every_term_has_its_four_words_and_avoids_only_other_words() -> None:
    for idea, entry in _entries("term") + _entries("deck"):
        assert all(entry.get(language, "").strip() for language in LANGUAGES), idea
        for language, avoided in entry.get("avoid", {}).items():
            assert language in TRANSLATED, (idea, language)
            assert entry[language] not in avoided, f"{idea}: {language} avoids its own word"


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalogue_uses_a_variant_the_glossary_refuses(language: str) -> None:
    problems = []
    for idea, entry in _entries("term") + _entries("deck"):
        allowed = _older_forms(entry, language)
        for variant in entry.get("avoid", {}).get(language, []):
            for key, texts in catalogue().items():
                text = texts.get(language, "")
                for form in allowed:
                    text = text.replace(form, "")
                if variant in text:
                    problems.append(
                        f"{key}: {variant!r} (the glossary's word for {idea} is {entry[language]!r})"
                    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_challenge_card_named_in_english_is_named_by_its_glossary_name(language: str) -> None:
    problems = []
    for english, names in _entries("card"):
        if language not in names:
            continue
        for key, texts in catalogue().items():
            named = re.search(rf"\b{re.escape(english)}s?\b", texts["en"])
            if named and (english in texts[language] or names[language] not in texts[language]):
                problems.append(f"{key}: {english!r} should read {names[language]!r}")
    assert not problems, "\n".join(problems)


def test_a_deck_name_in_a_choice_is_the_glossary_name() -> None:
    for deck in glossary()["deck"].values():
        for language in TRANSLATED:
            assert t(f"app.choice.{deck['en']}", language) == deck[language]


def test_card_names_come_from_the_glossary_and_other_names_stay_as_they_are() -> None:
    assert card_name("Hydra Head", "ja") == "ハイドラの頭"
    assert card_name("Xenagos Ascended", "zh-Hans") == "登神谢纳戈斯"
    assert card_name("Unified Lunge", "ja") == "一斉突進"  # the Japanese MTG Wiki's card page
    assert card_name("Rip to Pieces", "ja") == "引き千切り"  # printed, not the earlier 八つ裂き
    assert card_name("Shrieking Titan Head", "ja") == "Shrieking Titan Head"  # no source: English
    assert card_name("Sol Ring", "ja") == "Sol Ring"  # not a challenge card: the caller's name
    assert card_name("Hydra Head", "en") == "Hydra Head"


def test_event_values_read_in_the_language_with_its_comma_and_japanese_card_quotes() -> None:
    values = {
        "cards": ("Hydra Head", "Ravenous Brute Head"),
        "numbers": (1, 2),
        "player": "Hydra Head fan, 2",
    }
    assert localized_values(values, "ja") == {
        "cards": ["《ハイドラの頭》", "《貪欲で粗暴な頭》"],
        "numbers": [1, 2],
        "player": "Hydra Head fan, 2",
    }
    assert (
        t("challenge.log.reveal", "ja", **localized_values(values, "ja"))
        == "公開：《ハイドラの頭》、《貪欲で粗暴な頭》。"
    )
    assert (
        t("challenge.log.reveal", "en", **localized_values(values, "en"))
        == "Revealed: Hydra Head, Ravenous Brute Head."
    )
    assert join_list(["a", "b"], "zh-Hant") == "a、b" and join_list(["a", "b"], None) == "a, b"
