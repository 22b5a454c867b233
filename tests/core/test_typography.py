"""Typography of the Japanese and Chinese catalogues: one rule for each mark, the same in every message.

- No space between a number (a placeholder, a plural's ``#`` or digits) and the Japanese or Chinese word
  next to it: 3枚, {count}张, 第{turn}回合 — as printed card texts write 3点 / 3点伤害.
- Japanese puts a full-width colon after Japanese text and quotes with 「」, never “”.
- No space after 。？！ in any of the three.
"""

from __future__ import annotations

import re

import pytest

from bot.i18n import catalogue

CJK = "\u3040-\u30ff\u3400-\u9fff\uff01-\uff60\u3000-\u303f"
NUMBER = r"(?:\{[^{},]*\}|#|(?<![-A-Za-z.\d])\d+)"
RULES = {
    "a space between a number and its word": (
        ("ja", "zh-Hans", "zh-Hant"),
        rf"{NUMBER} +[{CJK}]|[{CJK}] +{NUMBER}(?![-A-Za-z\d])",
    ),
    "an ASCII colon after Japanese text": (("ja",), rf"[{CJK}}}]:"),
    "“” quotes in Japanese": (("ja",), "[“”]"),
    "a space after 。？！": (("ja", "zh-Hans", "zh-Hant"), "[。？！] "),
}


def problems_of(rule: str, texts: dict[str, dict[str, str]]) -> list[str]:
    languages, pattern = RULES[rule]
    return [
        f"{key} ({language}): {text}"
        for key, entry in texts.items()
        for language in languages
        if re.search(pattern, text := entry.get(language, ""))
    ]


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_message_follows_the_rule(rule: str) -> None:
    found = problems_of(rule, catalogue())
    assert not found, f"{len(found)} messages with {rule}:\n" + "\n".join(found[:40])


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        ("a space between a number and its word", "{count} 枚", "{count}枚"),
        ("a space between a number and its word", "第 {turn} 回合", "第{turn}回合"),
        ("a space between a number and its word", "最多 4 位", "最多4位"),
        ("an ASCII colon after Japanese text", "敗北: ライフ0", "敗北：ライフ0"),
        ("“” quotes in Japanese", "“願い”", "「願い」"),
        ("a space after 。？！", "完了。 次へ", "完了。次へ"),
        ("a space after 。？！", "終了しますか？ 元に戻せません", "終了しますか？元に戻せません"),
    ],
)
def test_each_rule_catches_what_it_names(rule: str, bad: str, good: str) -> None:
    languages = RULES[rule][0]
    assert problems_of(rule, {"k": dict.fromkeys(languages, bad)})
    assert not problems_of(rule, {"k": dict.fromkeys(languages, good)})


def test_a_version_or_ruleset_id_next_to_chinese_keeps_its_space() -> None:
    assert not problems_of(
        "a space between a number and its word", {"k": {"zh-Hans": "edh-2010 或 UTF-8 文本"}}
    )
