"""Plural forms: CLDR categories per language, and every catalogue entry rendered with real counts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import LANGUAGES, catalogue, placeholders, plural, t

COUNTS = (0, 1, 2, 21)

# Words that may follow a number or a name without being a plural noun ("{player} draws", "{event} is").
NOT_PLURAL_NOUNS = frozenset(
    {
        "is",
        "was",
        "has",
        "does",
        "its",
        "this",
        "ms",
        "always",
        "enters",
        "targets",
        "deals",
        "sacrifices",
        "taps",
        "loses",
        "exiles",
        "controls",
        "returns",
        "dies",
        "concedes",
        "wins",
        "reports",
        "as",
        "plus",
    }
)
# "1 cards", "1 more cards", "1 nonland cards", "1 starting heads": the number, an optional adjective, a noun.
_ADJECTIVE = r"(?:(?:more|other|extra|new|nonland|starting|active|revealed) )?"
_ONE_WITH_PLURAL = re.compile(r"(?<![\d.,/–-])1 " + _ADJECTIVE + r"([A-Za-z]+(?:s\b|\(s\)))")


def _render(key: str, language: str, number: int) -> str:
    """The entry with every placeholder set to ``number`` (names too: it must still format)."""
    return t(key, language, **{name: number for name in placeholders(catalogue()[key]["en"])})


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_renders_with_counts_0_1_2_21(language: str) -> None:
    failures = []
    for key in catalogue():
        for number in COUNTS:
            try:
                text = _render(key, language, number)
            except (KeyError, IndexError, ValueError) as error:
                failures.append(f"{key} [{language}, {number}]: {error!r}")
                continue
            if "plural," in text:
                failures.append(f"{key} [{language}, {number}]: unresolved plural block: {text!r}")
    assert not failures, "\n".join(failures)


def test_english_counts_agree_in_number() -> None:
    """With every count at 1 no English entry says "1 cards", "1 minutes", "after 1 mulligans"..."""
    offenders = []
    for key in catalogue():
        text = _render(key, "en", 1)
        for match in _ONE_WITH_PLURAL.finditer(text):
            if match.group(1).lower() not in NOT_PLURAL_NOUNS:
                offenders.append(f"{key}: {text!r}")
    assert not offenders, "\n".join(offenders)


def _singular_nouns() -> set[str]:
    """The singular nouns the English plural blocks use ("card", "head", "minute", ...)."""
    nouns = set()
    for entry in catalogue().values():
        for block in plural.blocks(entry["en"]):
            words = block.variants.get("one", "").split()
            if words[:1] == ["#"] and len(words) > 1:
                nouns.add(
                    words[2] if len(words) > 2 and re.fullmatch(_ADJECTIVE, words[1] + " ") else words[1]
                )
    return nouns - {"other"}


@pytest.mark.parametrize("number", [0, 2, 21])
def test_english_counts_other_than_one_take_the_plural(number: int) -> None:
    """The other direction: no "2 card" or "21 minute" where a count stands before a known noun."""
    nouns = "|".join(sorted(_singular_nouns()))
    singular = re.compile(rf"(?<![\d.,/–-]){number} {_ADJECTIVE}({nouns})\b(?!-| damage)")
    offenders = [
        f"{key}: {text!r}" for key in catalogue() if singular.search(text := _render(key, "en", number))
    ]
    assert not offenders, "\n".join(offenders)


def test_english_plural_blocks_use_the_plural_for_other_counts() -> None:
    """The other side: a block's ``one`` variant is used for 1 only; 0, 2 and 21 take ``other``."""
    checked = 0
    for key, entry in catalogue().items():
        for block in plural.blocks(entry["en"]):
            checked += 1
            assert "one" in block.variants, f"{key}: English block for {block.name} lacks 'one'"
            assert plural.choose(block, "en", 1) != plural.choose(block, "en", 2), key
            for number in (0, 2, 21):
                if f"={number}" not in block.variants:
                    assert plural.choose(block, "en", number) == block.variants["other"].replace(
                        "#", "{" + block.name + "}"
                    ), key
    assert checked >= 40, "the count-bearing English messages should use plural blocks"


@pytest.mark.parametrize(
    ("language", "number", "expected"),
    [
        ("en", 1, "one"),
        ("en", 0, "other"),
        ("en", 2, "other"),
        ("en", 21, "other"),
        ("ja", 1, "other"),
        ("zh-Hans", 1, "other"),
        ("zh-Hant", 21, "other"),
    ],
)
def test_cldr_categories(language: str, number: int, expected: str) -> None:
    assert plural.category(language, number) == expected


def test_resolve_picks_exact_match_then_category() -> None:
    text = "{n, plural, =0 {no cards} one {# card} other {# cards}} left, {who}"
    assert [plural.resolve(text, "en", {"n": n}).format(n=n, who="A") for n in (0, 1, 5)] == [
        "no cards left, A",
        "1 card left, A",
        "5 cards left, A",
    ]
    assert plural.resolve(text, "ja", {"n": 1}).format(n=1, who="A") == "1 cards left, A"


def test_plain_entries_are_untouched() -> None:
    assert plural.resolve("Page {page}/{pages}", "en", {"page": 1}) == "Page {page}/{pages}"


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("{n, plural, one {# card}}", "without 'other'"),
        ("{n, plural, other {# cards}", "unbalanced braces"),
        ("{n, plural, lots {x} other {y}}", "bad plural selector"),
    ],
)
def test_malformed_blocks_are_reported(bad: str, why: str) -> None:
    with pytest.raises(plural.PluralSyntaxError, match=why):
        plural.resolve(bad, "en", {"n": 1})


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_english_one_only_for_plus_minus_one(number: int) -> None:
    text = "{n, plural, one {# card} other {# cards}}"
    rendered = plural.resolve(text, "en", {"n": number}).format(n=number)
    assert rendered.endswith("card" if abs(number) == 1 else "cards")
