"""Message catalogues: every key in all four languages with the same placeholders."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, MissingMessage, catalogue, language_for, pick_language, placeholders, t


def test_every_message_has_all_languages_and_matching_placeholders() -> None:
    problems = []
    for key, entry in catalogue().items():
        missing = [lang for lang in LANGUAGES if not entry.get(lang, "").strip()]
        if missing:
            problems.append(f"{key}: missing {', '.join(missing)}")
            continue
        extra = set(entry) - set(LANGUAGES)
        if extra:
            problems.append(f"{key}: unknown languages {sorted(extra)}")
        expected = placeholders(entry["en"])
        for lang in LANGUAGES[1:]:
            if placeholders(entry[lang]) != expected:
                problems.append(
                    f"{key}: {lang} placeholders {sorted(placeholders(entry[lang]))} != en {sorted(expected)}"
                )
    assert not problems, "\n".join(problems)


def test_keys_are_namespaced_by_their_file() -> None:
    import tomllib

    from bot.i18n import MESSAGES_DIR

    for path in MESSAGES_DIR.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for key in data:
            assert key.startswith(("app.", f"{path.stem}.")), (
                f"{path.name}: key {key!r} outside its namespace"
            )


def test_lookup_formats_and_falls_back() -> None:
    assert t("core.page", "ja", page=2, pages=5) == "2/5ページ"
    assert t("core.page", None, page=1, pages=1) == "Page 1/1"
    with pytest.raises(MissingMessage, match="core.no_such_key"):
        t("core.no_such_key", "en")


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("ja", "ja"),
        ("zh-CN", "zh-Hans"),
        ("zh-TW", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("fr", None),
        # Chinese tags Discord does not send but people type in the configuration: Hong Kong and Macau read
        # Traditional; a script subtag decides over the region.
        ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"),
        ("zh_TW", "zh-Hant"),
        ("zh-Hant-HK", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant"),
        ("zh-Hans-HK", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh", "zh-Hans"),
    ],
)
def test_discord_locales_map_to_catalogue_languages(locale: str, language: str | None) -> None:
    assert language_for(locale) == language


def test_pick_language_prefers_user_then_guild_then_default() -> None:
    assert pick_language("fr", "zh-TW", default="en") == "zh-Hant"
    assert pick_language("ja", "zh-TW") == "ja"
    assert pick_language(None, None, default="zh-Hans") == "zh-Hans"


def test_choose_language_follows_the_rule_in_order() -> None:
    from bot.i18n import choose_language

    full = dict(member_choice="ja", discord_locale="zh-TW", server_setting="zh-Hans", server_locale="en-US")
    first = choose_language(**full)
    assert (first.language, first.source) == ("ja", "member")
    steps = [
        ("member_choice", "zh-Hant", "discord"),
        ("discord_locale", "zh-Hans", "server"),
        ("server_setting", "en", "server_discord"),
    ]
    for dropped, expected, source in steps:
        full[dropped] = None if dropped != "discord_locale" else "fr"  # an untranslated locale is skipped
        choice = choose_language(**full)
        assert (choice.language, choice.source) == (expected, source)
    full["server_locale"] = None
    assert choose_language(**full).source == "default"


def test_the_parsed_catalogue_is_cached_and_a_changed_file_misses_the_cache(tmp_path, monkeypatch) -> None:
    import shutil

    import bot.i18n as i18n

    messages = tmp_path / "messages"
    shutil.copytree(i18n.MESSAGES_DIR, messages)
    monkeypatch.setattr(i18n, "MESSAGES_DIR", messages)
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(tmp_path / "cache"))
    real = catalogue()
    try:
        i18n.catalogue.cache_clear()
        parsed = catalogue()
        assert len(list((tmp_path / "cache").glob("messages-*.marshal"))) == 1
        i18n.catalogue.cache_clear()
        assert catalogue() == parsed == real  # read back from the cache: the same messages

        core = messages / "core.toml"
        fresh = '\n["core.test_only"]\nen = "Fresh"\n'
        core.write_text(core.read_text(encoding="utf-8") + fresh, encoding="utf-8")
        i18n.catalogue.cache_clear()
        assert catalogue()["core.test_only"] == {"en": "Fresh"}, "a changed file is parsed again"
        assert len(list((tmp_path / "cache").glob("messages-*.marshal"))) == 2

        core.write_text(
            core.read_text(encoding="utf-8") + '\n["core.test_only_2"]\nen = "Twice"\n'
            '\n["core.test_only_2"]\nen = "Again"\n',
            encoding="utf-8",
        )
        i18n.catalogue.cache_clear()
        with pytest.raises(ValueError):  # tomllib refuses a table defined twice in one file, as before
            catalogue()
    finally:
        i18n.catalogue.cache_clear()


def test_cache_files_no_start_has_read_for_30_days_are_deleted_when_a_new_one_is_written(
    tmp_path, monkeypatch
) -> None:
    import os
    import time

    import bot.i18n as i18n

    folder = tmp_path / "cache"
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(folder))
    folder.mkdir()
    day = 86_400
    stale, recent, unrelated = (
        folder / "messages-old.marshal",
        folder / "messages-other.marshal",
        folder / "x.txt",
    )
    for path, age_days in ((stale, 31), (recent, 29), (unrelated, 400)):
        path.write_bytes(b"")
        os.utime(path, (time.time() - age_days * day,) * 2)
    try:
        i18n.catalogue.cache_clear()
        catalogue()  # a miss: the catalogue is parsed and written, and the stale file goes
        written = [p for p in folder.glob("messages-*.marshal") if p not in (recent, stale)]
        assert len(written) == 1 and not stale.exists() and recent.exists() and unrelated.exists()

        os.utime(written[0], (time.time() - 40 * day,) * 2)
        i18n.catalogue.cache_clear()
        catalogue()  # a hit on a file last marked 40 days ago marks it as used again
        assert time.time() - written[0].stat().st_mtime < 60
    finally:
        i18n.catalogue.cache_clear()


def test_an_unwritable_cache_folder_only_means_parsing(tmp_path, monkeypatch) -> None:
    import bot.i18n as i18n

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PODKEEPER_CACHE_DIR", str(blocker / "cache"))
    try:
        i18n.catalogue.cache_clear()
        assert t("core.error.generic", "en") == i18n.catalogue()["core.error.generic"]["en"]
    finally:
        i18n.catalogue.cache_clear()
