"""The catalogue's lookups and fallbacks as a reader meets them: which language a locale gets, what an
untranslated language reads, how values, lists, phrases and counts are worded, what the command tree is
localised with, and that the catalogue's cache file never changes what is read.

``test_i18n.py`` checks the catalogue's contents; these check the code that picks and words an entry.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import time
from pathlib import Path

import discord
import pytest
from discord import app_commands

import bot.i18n as i18n
from bot.i18n import (
    CACHE_LAYOUT,
    DEFAULT_LANGUAGE,
    EventTranslate,
    Translate,
    catalogue,
    choose_language,
    has,
    language_for,
    pick_language,
    placeholders,
    plural,
    t,
)
from bot.i18n.glossary import (
    card_name,
    is_challenge_card,
    join_list,
    list_separator,
    localized_values,
    ruleset_name,
)
from bot.i18n.phrase import Phrase
from bot.i18n.translator import PodkeeperTranslator, app_key

# -- which language a locale gets --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.japanese, "ja"),
        (discord.Locale.taiwan_chinese, "zh-Hant"),
        (discord.Locale.chinese, "zh-Hans"),
        (discord.Locale.american_english, "en"),
        ("ja-JP", "ja"),
        ("JA", "ja"),
        ("en-AU", "en"),
        ("EN_gb", "en"),
        ("ZH_hk", "zh-Hant"),
        ("zh-hant", "zh-Hant"),
        ("zh-Hant-CN", "zh-Hant"),  # the script decides over the region
        ("zh-Hans-TW", "zh-Hans"),
    ],
)
def test_locales_in_any_spelling_reach_our_language(locale: object, language: str) -> None:
    assert language_for(locale) == language


def test_an_untranslated_or_missing_locale_gives_the_callers_fallback() -> None:
    assert language_for("fr", "en") == "en"
    assert language_for(discord.Locale.french, "ja") == "ja"
    assert language_for(None, "zh-Hant") == "zh-Hant"
    assert language_for(None) is None and language_for("de") is None
    assert pick_language("fr", None, "de") == DEFAULT_LANGUAGE
    assert pick_language("fr", default="ja") == "ja"
    assert pick_language(None, "ZH-tw") == "zh-Hant"


def test_the_bots_default_is_the_last_step_and_an_untranslated_default_reads_english() -> None:
    assert choose_language(default="ja") == i18n.LanguageChoice("ja", "default")
    assert choose_language(default="fr") == i18n.LanguageChoice("en", "default")
    assert choose_language(server_locale="zh-TW", default="ja") == i18n.LanguageChoice(
        "zh-Hant", "server_discord"
    )
    assert choose_language(member_choice="fr", discord_locale="ja").source == "discord"


# -- what a message reads ---------------------------------------------------------------------------------------


def test_a_language_we_do_not_translate_reads_english() -> None:
    english = t("core.page", "en", page=3, pages=4)
    assert english == "Page 3/4"
    assert t("core.page", "fr", page=3, pages=4) == english
    assert t("core.page", "", page=3, pages=4) == english
    assert t("core.page", "zh-Hant", page=3, pages=4) == "第3/4頁"


def test_a_message_without_values_is_returned_as_written_braces_and_all() -> None:
    assert t("core.page", "ja") == "{page}/{pages}ページ"
    assert Translate("zh-Hans")("core.page", page=1, pages=2) == "第1/2页"


def test_lists_and_phrases_are_worded_in_the_sentences_language() -> None:
    key = "challenge.log.reveal"
    assert t(key, "en", cards=["A", "B", "C"]) == "Revealed: A, B, C."
    assert t(key, "ja", cards=("A", "B")) == "公開：A、B。"
    page = Phrase("core.page", {"page": 1, "pages": 2})
    assert t(key, "zh-Hans", cards=[page, "C"]) == t(key, "zh-Hans", cards=["第1/2页", "C"])
    assert t(key, "ja", cards=page) == t(key, "ja", cards=["1/2ページ"])
    assert t(key, "fr", cards=[page]) == "Revealed: Page 1/2."  # a phrase in English too, not French


def test_has_tells_a_defined_key_from_an_unknown_one() -> None:
    assert has("core.page") and not has("core.page.nope") and not has("")


def test_an_events_words_name_its_own_deck_and_foe() -> None:
    values = {"start": "S", "heads": 5, "size": 4, "grace": 10}
    hydra = EventTranslate("en")("hydra_events.ui.announcement", **values)
    assert hydra == t("hydra_events.ui.announcement", "en", **values) and "Hydra night" in hydra
    horde = EventTranslate("en", "horde")("hydra_events.ui.announcement", **values)
    assert horde.startswith("A night against the Horde for everyone!")
    god = EventTranslate("ja", "god")("hydra_events.ui.announcement", **values)
    assert god.startswith("みんなでゼナゴスに挑む夜")
    assert EventTranslate("en", "horde")("core.page", page=1, pages=2) == "Page 1/2"  # not an event key
    assert EventTranslate("ja", "horde")("core.page", page=1, pages=2) == "1/2ページ"
    # A key with no deck wording of its own reads the Hydra's words.
    plain = next(
        k
        for k in catalogue()
        if k.startswith("hydra_events.")
        and not has("hydra_events.deck." + k.removeprefix("hydra_events."))
        and not placeholders(catalogue()[k]["en"])
    )
    assert EventTranslate("en", "horde")(plain) == t(plain, "en")


def test_placeholders_are_found_in_every_plural_variant() -> None:
    text = "{count, plural, =0 {none in {zone}} one {# card} other {# cards of {owner}}} left"
    assert placeholders(text) == {"count", "zone", "owner"}
    assert placeholders("no names here") == set()


# -- counts --------------------------------------------------------------------------------------------------


CARDS = "{count, plural, =0 {no cards} one {# card} other {# cards}}"


@pytest.mark.parametrize(
    ("count", "shown"),
    [
        (0, "no cards"),
        (1, "1 card"),
        (2, "2 cards"),
        (-1, "-1 card"),
        ("1", "1 card"),
        ("1,024", "1,024 cards"),
        (1.5, "1.5 cards"),
        ("many", "many cards"),
        (None, "None cards"),
    ],
)
def test_a_count_picks_its_variant(count: object, shown: str) -> None:
    assert plural.resolve(CARDS, "en", {"count": count}).format(count=count) == shown


def test_a_missing_count_reads_as_zero_and_japanese_has_one_form() -> None:
    assert plural.resolve(CARDS, "en", {}) == "no cards"
    assert plural.resolve("{n, plural, one {# card} other {# cards}}", "ja", {"n": 1}) == "{n} cards"
    assert plural.category("xx-nowhere", 1) == "one"  # an unknown language gets English's rules
    assert plural.category("ja", 1) == "other"
    assert plural.category("en", 1.0) == "one" and plural.category("en", 1.5) == "other"
    for unreadable in ("many", None, [1]):  # a value that is no number reads as "other"
        assert plural.category("en", unreadable) == "other"


def test_several_blocks_in_one_message_each_take_their_own_count() -> None:
    text = "{a, plural, one {# head} other {# heads}} and {b, plural, one {# player} other {# players}}!"
    assert plural.resolve(text, "en", {"a": 1, "b": 3}) == "{a} head and {b} players!"
    assert plural.all_variants(text) == [
        "{a} head and {b} player!",
        "{a} head and {b} players!",
        "{a} heads and {b} player!",
        "{a} heads and {b} players!",
    ]
    assert plural.all_variants("plain {x}") == ["plain {x}"]
    side_by_side = "{a, plural, one {# head}other {# heads}}{b, plural, one {# player}other {# players}}"
    assert plural.resolve(side_by_side, "en", {"a": 2, "b": 1}) == "{a} heads{b} player"  # no spaces needed
    assert plural.resolve("{n, plural, other {# cards}}", "en", {"n": 1}) == "{n} cards"  # no "one": "other"
    assert plural.resolve("a plural word, no block", "en", {}) == "a plural word, no block"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{n, plural, one {# card} other {# cards}", "unbalanced"),
        ("{n, plural, one {# card} other {# cards}}, {m, plural, other {# {x}}", "unbalanced"),
        ("{n, plural, one {# card}}", "without 'other'"),
        ("{n, plural, some {# card} other {x}}", "bad plural selector"),
        ("{n, plural, one {# card} other}", "bad plural selector"),
    ],
)
def test_a_malformed_block_names_its_defect(text: str, why: str) -> None:
    with pytest.raises(plural.PluralSyntaxError, match=why):
        plural.blocks(text)


def test_a_block_keeps_its_position_name_and_variants() -> None:
    text = "Now {n, plural,  one {# card}   other {# cards} } left"
    (block,) = plural.blocks(text)
    assert (text[: block.start], text[block.end :], block.name) == ("Now ", " left", "n")
    assert block.variants == {"one": "# card", "other": "# cards"}
    assert plural.choose(block, "en", 1) == "{n} card"


# -- the glossary's words --------------------------------------------------------------------------------------


def test_list_separators_and_card_names_by_language() -> None:
    assert list_separator(None) == ", " and list_separator("fr") == ", " and list_separator("ja") == "、"
    assert join_list([1, 2, 3], "zh-Hans") == "1、2、3" and join_list([], "en") == ""
    assert card_name("Hydra Head", None) == "Hydra Head"
    assert card_name("Hydra Head", "fr") == "Hydra Head"
    assert is_challenge_card("Hydra Head") and not is_challenge_card("Sol Ring") and not is_challenge_card(7)


def test_challenge_card_names_in_values_are_localised_in_lists_and_phrases() -> None:
    inner = Phrase("core.page", {"card": "Hydra Head", "other": "Sol Ring"})
    values = {"cards": ["Hydra Head", ["Hydra Head"]], "phrase": inner, "count": 2}
    assert localized_values(values, "ja") == {
        "cards": ["《ハイドラの頭》", ["《ハイドラの頭》"]],
        "phrase": Phrase("core.page", {"card": "《ハイドラの頭》", "other": "Sol Ring"}),
        "count": 2,
    }
    assert localized_values(values, None) == {
        "cards": ["Hydra Head", ["Hydra Head"]],
        "phrase": inner,
        "count": 2,
    }
    assert localized_values({"card": "Xenagos Ascended"}, "zh-Hans") == {"card": "登神谢纳戈斯"}  # no quotes


def test_a_ruleset_reads_as_players_call_it_and_an_unknown_id_as_it_is() -> None:
    assert ruleset_name("commander", "en") == t("deck.ruleset_name.commander", "en")
    assert (
        ruleset_name("commander", "ja")
        == t("deck.ruleset_name.commander", "ja")
        != ruleset_name("commander", "en")
    )
    assert ruleset_name("no-such-ruleset", "ja") == "no-such-ruleset"


# -- the command tree's localisations ------------------------------------------------------------------------


def _context(location: app_commands.TranslationContextLocation) -> app_commands.TranslationContext:
    return app_commands.TranslationContext(location=location, data=None)  # type: ignore[arg-type]


async def test_the_translator_answers_from_the_app_keys_for_the_languages_we_translate() -> None:
    translator = PodkeeperTranslator()
    name = _context(app_commands.TranslationContextLocation.command_name)
    help_ja = catalogue()[app_key("help")]["ja"]
    assert (
        await translator.translate(app_commands.locale_str("help"), discord.Locale.japanese, name) == help_ja
    )
    assert (
        await translator.translate(app_commands.locale_str("help"), discord.Locale.american_english, name)
        is None
    )
    assert await translator.translate(app_commands.locale_str("help"), discord.Locale.french, name) is None
    unknown = app_commands.locale_str("no command is called this")
    assert await translator.translate(unknown, discord.Locale.japanese, name) is None


async def test_a_choice_label_tries_its_choice_key_first_and_an_explicit_key_wins() -> None:
    translator = PodkeeperTranslator()
    choice = _context(app_commands.TranslationContextLocation.choice_name)
    name = _context(app_commands.TranslationContextLocation.command_name)
    label = app_commands.locale_str("Discord language")
    chosen = catalogue()["app.choice.Discord language"]["zh-Hant"]
    assert await translator.translate(label, discord.Locale.taiwan_chinese, choice) == chosen
    assert await translator.translate(label, discord.Locale.taiwan_chinese, name) is None  # no app.<label>
    assert not has("app.choice.help")  # a choice label with no choice key reads its plain key
    help_zh = catalogue()["app.help"]["zh-Hans"]
    assert (
        await translator.translate(app_commands.locale_str("help"), discord.Locale.chinese, choice) == help_zh
    )
    both = app_commands.locale_str("commander")  # an option's name and a choice's label alike
    as_choice, as_name = catalogue()["app.choice.commander"]["ja"], catalogue()["app.commander"]["ja"]
    assert as_choice != as_name
    assert await translator.translate(both, discord.Locale.japanese, choice) == as_choice
    assert await translator.translate(both, discord.Locale.japanese, name) == as_name
    keyed = app_commands.locale_str("anything", key="app.help")
    assert await translator.translate(keyed, discord.Locale.chinese, name) == help_zh


# -- the catalogue's cache file ---------------------------------------------------------------------------------


def _cache_file(folder: Path) -> Path:
    """The cache file the catalogue reads for the current message files (as ``catalogue`` names it)."""
    sources = [(path.name, path.read_bytes()) for path in sorted(i18n.MESSAGES_DIR.glob("*.toml"))]
    digest = hashlib.blake2b(f"{CACHE_LAYOUT}/{sys.version}/{marshal.version}".encode(), digest_size=16)
    for name, data in sources:
        digest.update(b"%d:%s%d:" % (len(name), name.encode(), len(data)))
        digest.update(data)
    return folder / f"messages-{digest.hexdigest()}.marshal"


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(folder))
    i18n.catalogue.cache_clear()
    yield folder
    i18n.catalogue.cache_clear()


@pytest.mark.parametrize(
    "damage", [b"", b"not marshal at all", marshal.dumps(["a", "list"]), marshal.dumps(None)]
)
def test_a_damaged_cache_file_means_parsing_and_is_replaced(cache_folder: Path, damage: bytes) -> None:
    real = catalogue()
    cache = _cache_file(cache_folder)
    assert marshal.loads(cache.read_bytes()) == real  # the first start wrote it, under this name
    cache.write_bytes(damage)
    i18n.catalogue.cache_clear()
    assert catalogue() == real
    assert marshal.loads(cache.read_bytes()) == real
    assert [p.name for p in cache_folder.iterdir()] == [cache.name]  # no partial file left behind


def test_the_cache_file_is_what_is_read(cache_folder: Path) -> None:
    catalogue()
    cache = _cache_file(cache_folder)
    cache.write_bytes(marshal.dumps({"core.page": {"en": "from the cache"}}))
    i18n.catalogue.cache_clear()
    assert t("core.page", "en") == "from the cache"


def test_reading_a_cache_file_marks_it_used_at_most_once_a_day(cache_folder: Path) -> None:
    catalogue()
    cache = _cache_file(cache_folder)
    hours_ago = time.time() - 20 * 3600
    os.utime(cache, (hours_ago, hours_ago))
    i18n.catalogue.cache_clear()
    catalogue()
    assert abs(cache.stat().st_mtime - hours_ago) < 1  # read within the day: left alone
    days_ago = time.time() - 2 * 86_400
    os.utime(cache, (days_ago, days_ago))
    written = cache.stat().st_ino
    i18n.catalogue.cache_clear()
    catalogue()
    assert time.time() - cache.stat().st_mtime < 60
    assert cache.stat().st_ino == written  # marked, not parsed and written again


def test_writing_a_new_cache_file_drops_old_ones_and_stale_partial_files(cache_folder: Path) -> None:
    cache_folder.mkdir()
    old_partial = cache_folder / "messages-old.marshal.123.tmp"
    young_partial = cache_folder / "messages-young.marshal.456.tmp"
    month = time.time() - 31 * 86_400
    for path in (old_partial, young_partial):
        path.write_bytes(b"")
    os.utime(old_partial, (month, month))
    just_over, just_under = cache_folder / "messages-over.marshal", cache_folder / "messages-under.marshal"
    for path, age in ((just_over, 30 * 86_400 + 15), (just_under, 30 * 86_400 - 15)):
        path.write_bytes(b"")
        os.utime(path, (time.time() - age,) * 2)
    catalogue()
    assert not old_partial.exists() and young_partial.exists() and _cache_file(cache_folder).exists()
    assert not just_over.exists() and just_under.exists()  # thirty days to the quarter minute


def test_the_cache_folder_is_the_configured_one_else_the_users(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(tmp_path / "mine"))
    assert i18n.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert i18n.cache_dir() == tmp_path / "xdg" / "podkeeper"
    monkeypatch.delenv("PODKEEPER_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert i18n.cache_dir() == tmp_path / "home" / ".cache" / "podkeeper"


def test_a_key_defined_in_two_files_is_refused_with_both_names(
    cache_folder: Path, tmp_path, monkeypatch
) -> None:
    messages = tmp_path / "messages"
    messages.mkdir()
    (messages / "a.toml").write_text('["a.one"]\nen = "One"\nja = "一"\n', encoding="utf-8")
    (messages / "b.toml").write_text('["a.one"]\nen = "Again"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "MESSAGES_DIR", messages)
    with pytest.raises(ValueError, match=r"message key 'a.one' defined twice \(again in b.toml\)"):
        catalogue()
    (messages / "b.toml").write_text('["b.two"]\nen = 2\n', encoding="utf-8")
    assert catalogue() == {"a.one": {"en": "One", "ja": "一"}, "b.two": {"en": "2"}}  # values read as text
