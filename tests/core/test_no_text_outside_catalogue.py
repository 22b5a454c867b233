"""No user-visible text is built outside the catalogue: lists, ruleset ids and card names reach a reader in
their language's form.

An AST scan refuses a list joined with an English comma (``", ".join``) anywhere in ``bot/`` and ``cogs/``
except where the text is not a reader's (SQL, operator-only command lines, configuration errors, the test
stand-in), and replies rendered in Japanese and Chinese are checked for English words that are not names.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.hydra.engine import GameSetup, HydraGame, PlayerSetup
from bot.i18n.glossary import glossary
from bot.render import challenge as challenge_render
from bot.render import hydra as hydra_render

ROOT = Path(__file__).resolve().parents[2]
SEPARATORS = (", ", " / ")  # "; " separates clauses (swaps, wishes) and reads the same in every language

# Text no member reads: SQL, operators' command-line tools and configuration, the Discord stand-in.
NOT_READERS_TEXT = (
    "bot/storage/",
    "bot/testing/",
    "bot/sandbox/",
    "bot/config.py",
    "bot/cards/importers.py",
    "bot/cli/db.py",
    "bot/cli/cards.py",
    "bot/cli/tournament.py",
    "bot/reference.py",  # writes the manual's command reference, which lists every language side by side
)


def english_joins() -> Counter[str]:
    found: Counter[str] = Counter()
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where.startswith(NOT_READERS_TEXT):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "join"
                    and isinstance(node.func.value, ast.Constant)
                    and node.func.value.value in SEPARATORS
                ):
                    found[where] += 1
    return found


def test_lists_for_readers_are_joined_in_their_language() -> None:
    found = dict(english_joins())
    assert not found, (
        f"lists joined with an English separator in {found}: pass the list to t() (it joins in the "
        "reader's language; a part worded differently per language is a bot.i18n.phrase.Phrase) or use "
        "bot.i18n.glossary.join_list"
    )


def test_the_scan_sees_a_join_in_a_function() -> None:
    tree = ast.parse('def f(names):\n    return t("k", "ja", names=", ".join(names))\n')
    assert any(isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "join" for n in ast.walk(tree))


# ---------------------------------------------------------------- replies rendered in Japanese and Chinese
PLAYERS = ("Alice", "Bob")
# Words that may stay Latin: the players, card names without a name in the language, the bot's name.
NAMES = {*PLAYERS, "Podkeeper", "The Slayer"}


def latin_words(text: str, language: str) -> set[str]:
    english_cards = {name for name, names in glossary()["card"].items() if language not in names}
    for name in sorted(english_cards | _deck_card_names(), key=len, reverse=True):
        text = text.replace(name, "")
    for name in NAMES:
        text = text.replace(name, "")
    return set(re.findall(r"[A-Za-z]{3,}", text))


def _deck_card_names() -> set[str]:
    from bot.domain.challenge import god, horde
    from bot.domain.hydra import cards

    return {*god.CARDS, *horde.CARDS, *cards.CARDS, *cards.HEROES}


def _hydra_game() -> HydraGame:
    game = HydraGame(GameSetup(heads=3, players=tuple(PlayerSetup(name) for name in PLAYERS), seed=3))
    for line in ("attack 1 3", "end"):
        game.apply(line)
    return game


@pytest.mark.parametrize("language", ["ja", "zh-Hans", "zh-Hant"])
def test_challenge_replies_read_without_english_words(language: str) -> None:
    hydra = _hydra_game()
    horde = HordeGame([Seat(PLAYERS[0])], seed=2)
    god = GodGame([Seat(name) for name in PLAYERS], seed=1)
    god.apply("end")
    texts = [
        *hydra_render.log_lines(hydra.events, language),
        hydra_render.board_text(hydra, language),
        *challenge_render.log_lines(horde.events + god.events, language),
        challenge_render.board_text(horde, language),
        challenge_render.board_text(god, language),
    ]
    if hydra.pending is not None:
        texts.append(hydra_render.decision_text(hydra, hydra.pending, language))
    if god.pending is not None:
        texts.append(challenge_render.decision_text(god, god.pending, language))
    words = {word: text for text in texts for word in latin_words(text, language)}
    assert not words, f"English words in {language}: {words}"
    english_marks = [text for text in texts if re.search(r", |\(|\)", text)]
    assert not english_marks, f"an English comma or parenthesis in {language}: {english_marks}"


def test_the_engines_name_their_list_phrases_and_each_language_words_them() -> None:
    """An attack and the end of Swallow the Hero Whole list parts that read differently per language (a
    number, a name and a power, a player and a creature): the engines name them (a ``Phrase``), and the
    Japanese and Chinese lines get their own parentheses, colon and list comma."""
    from tests.challenge.helpers import play, rig
    from tests.hydra.hydra_helpers import HH, LUNGE, hydra_turn, new_game

    horde = HordeGame([Seat(PLAYERS[0])], seed=1, difficulty=2)
    rig(horde, top=["Minotaur Goreseeker", "Minotaur Younghorn"])
    play(horde, "end", "end", "choose pass", "choose pass")  # two turns of the players, then the Horde's
    attack = next(e for e in horde.events if e.key == "challenge.log.attack")
    assert challenge_render.log_lines([attack], "ja") == [
        "攻撃：1. 《ミノタウルスの流血探し》（3/2）、2. Minotaur Younghorn（2/2）。ブロック・クリーチャーを指定してください。"
    ]
    assert challenge_render.log_lines([attack], "en") == [
        "Attacking: 1. Minotaur Goreseeker (3/2), 2. Minotaur Younghorn (2/2). Declare your blockers."
    ]

    hydra = new_game(battlefield=[HH, HH], players=2, top=["Swallow the Hero Whole", LUNGE, LUNGE])
    hydra_turn(hydra, "pass", "Grizzly Bears")
    hydra_turn(hydra)
    closed = next(e for e in hydra.events if e.key == "hydra.log.swallow_closed")
    assert "P1：Grizzly Bears、P2：a creature" in hydra_render.log_lines([closed], "zh-Hans")[0]
    assert "P1: Grizzly Bears, P2: a creature" in hydra_render.log_lines([closed], "en")[0]


def test_the_check_sees_an_english_word() -> None:
    assert latin_words("Alice：ライフ20 [tapped]", "ja") == {"tapped"}
    assert latin_words("《ハイドラの頭》、Unified Lunge", "ja") == set()


# ---------------------------------------------------------------- command paths as the client shows them
def test_messages_name_commands_as_the_members_client_shows_them() -> None:
    from bot.i18n import command_paths_in, t

    assert "/設定 自分の言語" in t("admin.config.why.member", "ja", language="日本語")
    assert "/设置 我的语言" in t("admin.config.why.member", "zh-Hans", language="简体中文")
    assert "/config my-language" in t("admin.config.why.member", "en", language="English")
    # A word that names no command (an option, a value) stays as written, and so does what follows it.
    assert command_paths_in("（/hydra no-such-word resume）", "ja") == "（/ハイドラ no-such-word resume）"
    assert (
        command_paths_in("https://example.com/decks/1 と a/b", "ja") == "https://example.com/decks/1 と a/b"
    )


def test_command_paths_follow_the_client_named_for_the_task() -> None:
    """A task answering a member names commands as their client lists them, whatever the reply language;
    other tasks (and code outside any interaction) keep the reply language's names."""
    import contextvars

    from bot.i18n import name_commands_as_client, t

    def answered_with_client(locale: str, language: str) -> str:
        name_commands_as_client(locale)
        return t("admin.config.why.member", language, language="-")

    assert "（/設定 自分の言語）" in contextvars.copy_context().run(answered_with_client, "ja", "zh-Hans")
    assert "(/设置 我的语言)" in contextvars.copy_context().run(answered_with_client, "zh-CN", "en")
    assert "（/config my-language）" in contextvars.copy_context().run(answered_with_client, "fr", "ja")
    assert "/设置 我的语言" in t("admin.config.why.member", "zh-Hans", language="-")
