"""Message catalogues in English, Japanese, Simplified and Traditional Chinese.

Each feature keeps its strings in ``bot/i18n/messages/<feature>.toml``; a key is a table with one
entry per language, so all four translations of a message sit together and a missing one is easy
to spot (``tests/test_i18n.py`` fails on a missing language or differing ``{placeholders}``)::

    ["deck.size"]
    en = "The deck has {count} cards; it needs {needed}."
    ja = "..."
    zh-Hans = "..."
    zh-Hant = "..."

A count is written as an ICU-style plural block so each language gets its CLDR plural forms
(English "1 card" / "2 cards"; Japanese and Chinese have one form): see ``bot.i18n.plural``.

Keys starting with ``app.`` localise slash-command names, descriptions and choices: the key is
``app.`` + the English text that the command declares (see ``PodkeeperTranslator``).
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import marshal
import os
import re
import string
import sys
import time
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.i18n import plural
from bot.i18n.glossary import join_list
from bot.i18n.phrase import Phrase

LANGUAGES: tuple[str, ...] = ("en", "ja", "zh-Hans", "zh-Hant")
DEFAULT_LANGUAGE = "en"
MESSAGES_DIR = Path(__file__).with_name("messages")

# Discord locale codes (discord.Locale values) to our catalogue languages.
_DISCORD_LOCALES = {
    "en-US": "en",
    "en-GB": "en",
    "ja": "ja",
    "zh-CN": "zh-Hans",
    "zh-TW": "zh-Hant",
}


class MissingMessage(KeyError):
    """A key that no catalogue defines: a programming error, caught by the catalogue tests."""


def language_for(locale: Any, fallback: str | None = None) -> str | None:
    """Map a Discord locale (``discord.Locale`` or its string value) or a language code to ours.

    Returns ``fallback`` when the locale is not one we translate.
    """
    if locale is None:
        return fallback
    value = str(getattr(locale, "value", locale))
    if value in LANGUAGES:
        return value
    if value in _DISCORD_LOCALES:
        return _DISCORD_LOCALES[value]
    lowered = value.lower().replace("_", "-")
    if lowered.startswith("zh"):
        return _chinese_script(lowered.split("-")[1:])
    if lowered.startswith("ja"):
        return "ja"
    if lowered.startswith("en"):
        return "en"
    return fallback


def _chinese_script(subtags: list[str]) -> str:
    """Traditional or Simplified for a Chinese tag: its script subtag when it names one (``zh-Hant-HK``,
    ``zh-Hans-HK``), else its region (Taiwan, Hong Kong and Macau read Traditional), else Simplified."""
    if "hant" in subtags:
        return "zh-Hant"
    if "hans" in subtags:
        return "zh-Hans"
    return "zh-Hant" if {"tw", "hk", "mo"} & set(subtags) else "zh-Hans"


def pick_language(*locales: Any, default: str = DEFAULT_LANGUAGE) -> str:
    """The first of ``locales`` we translate (user, then guild), else ``default``."""
    for locale in locales:
        language = language_for(locale)
        if language:
            return language
    return default


# Where a language came from, in the order the rule tries them (see ``choose_language``).
MEMBER_CHOICE, DISCORD_LANGUAGE, SERVER_SETTING, SERVER_DISCORD_LANGUAGE, BOT_DEFAULT = (
    "member",
    "discord",
    "server",
    "server_discord",
    "default",
)


@dataclass(frozen=True)
class LanguageChoice:
    """The language a reply uses and which step of the rule chose it (``/config show`` explains it)."""

    language: str
    source: str


def choose_language(
    *,
    member_choice: Any = None,
    discord_locale: Any = None,
    server_setting: Any = None,
    server_locale: Any = None,
    default: str = DEFAULT_LANGUAGE,
) -> LanguageChoice:
    """The one language rule, for every reply, private or public.

    A member's own ``/config my-language`` choice, else their Discord language if we translate it, else the
    server's ``/config locale``, else the server's Discord language, else the bot's default (English). Messages
    that belong to no one member (a shared board, an event announcement) pass no member values and so get
    the server's language by the same rule.
    """
    steps = (
        (member_choice, MEMBER_CHOICE),
        (discord_locale, DISCORD_LANGUAGE),
        (server_setting, SERVER_SETTING),
        (server_locale, SERVER_DISCORD_LANGUAGE),
    )
    for locale, source in steps:
        language = language_for(locale)
        if language:
            return LanguageChoice(language, source)
    return LanguageChoice(language_for(default, DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE, BOT_DEFAULT)


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    """All messages: key -> {language: text}. Loaded once from every ``messages/*.toml``.

    Parsing the ~1,400 messages in four languages with ``tomllib`` (pure Python) is ~30 ms of every start,
    so the parsed catalogue is kept in a cache file (``marshal``, ~3 ms to read) named by a hash of the
    files' bytes and the Python version: a changed file, or another Python, simply misses the cache. The cache is an optimisation
    only: a folder that cannot be written or a damaged file means parsing, as before."""
    sources = [(path.name, path.read_bytes()) for path in sorted(MESSAGES_DIR.glob("*.toml"))]
    digest = hashlib.blake2b(f"{CACHE_LAYOUT}/{sys.version}/{marshal.version}".encode(), digest_size=16)
    for name, data in sources:
        digest.update(b"%d:%s%d:" % (len(name), name.encode(), len(data)))
        digest.update(data)
    cache = cache_dir() / f"messages-{digest.hexdigest()}.marshal"
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        cached = marshal.loads(cache.read_bytes())
        if isinstance(cached, dict):
            _mark_used(cache)
            return cached
    messages = _parse(sources)
    with contextlib.suppress(OSError):
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps(messages))
        os.replace(partial, cache)  # whole or not at all, whichever process writes it
        _drop_unused(cache)
    return messages


CACHE_UNUSED_DAYS = 30  # a cache file no start has read for this long (an older release's) is deleted


def _mark_used(cache: Path) -> None:
    """Keep a cache file's time recent while some install reads it (at most one write a day)."""
    with contextlib.suppress(OSError):
        if time.time() - cache.stat().st_mtime > 86_400:
            os.utime(cache)


def _drop_unused(kept: Path) -> None:
    """Each upgrade that changes the messages writes a new cache file: those no start has read for
    ``CACHE_UNUSED_DAYS`` are deleted when a new one is written, so the folder does not grow forever. Files
    still read (another install sharing the folder) are kept: ``_mark_used`` keeps their time recent."""
    cutoff = time.time() - CACHE_UNUSED_DAYS * 86_400
    for old in kept.parent.glob("messages-*.marshal*"):
        with contextlib.suppress(OSError):
            if old != kept and old.stat().st_mtime < cutoff:
                old.unlink()


CACHE_LAYOUT = 1  # bump when ``_parse`` changes what it makes of the files


def cache_dir() -> Path:
    """Where derived files are kept between runs: ``PODKEEPER_CACHE_DIR``, else the user's cache folder."""
    configured = os.environ.get("PODKEEPER_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "podkeeper"


def _parse(sources: list[tuple[str, bytes]]) -> dict[str, dict[str, str]]:
    messages: dict[str, dict[str, str]] = {}
    for name, data in sources:
        for key, table in tomllib.loads(data.decode("utf-8")).items():
            if key in messages:
                raise ValueError(f"message key {key!r} defined twice (again in {name})")
            messages[key] = {lang: str(text) for lang, text in table.items()}
    return messages


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message expects, in any of its plural variants (used to check translations agree)."""
    parse = string.Formatter().parse
    return {name for variant in plural.all_variants(text) for _, name, _, _ in parse(variant) if name}


# The language the Discord client of the member being answered lists slash commands in (their
# interaction's locale), which may differ from the language they chose for replies: command paths in a
# message follow it. Set per interaction (each runs in a task of its own) by ``name_commands_as_client``.
_CLIENT_COMMAND_NAMES: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "client_command_names", default=None
)


def name_commands_as_client(locale: Any) -> None:
    """From now on in this task, messages name commands as a Discord client in ``locale`` lists them:
    Discord shows a member the command names of their client's locale, whatever language the bot answers
    them in, so "/config my-language" must read as the member can find it. A locale we do not translate
    (French) sees the English names, as Discord falls back to the commands' own names."""
    _CLIENT_COMMAND_NAMES.set(language_for(locale, DEFAULT_LANGUAGE))


def context_for_everyone() -> contextvars.Context:
    """A copy of the current context without the answered member's command names, for a task that shows
    something to everyone later: a board redrawn after a press, a timer armed by it. Tasks inherit their
    creator's context, so without this a Hydra table paused an hour later named its commands as the
    client of whoever pressed last; shared messages name them in their own language."""
    context = contextvars.copy_context()
    context.run(_CLIENT_COMMAND_NAMES.set, None)
    return context


def t(key: str, language: str | None = None, /, **values: Any) -> str:
    """The message ``key`` in ``language`` (falling back to English), formatted with ``values``. Command
    paths in it read as the answered member's client lists them (``name_commands_as_client``), else in
    ``language``."""
    entry = catalogue().get(key)
    if entry is None:
        raise MissingMessage(key)
    language = language if language and entry.get(language) else DEFAULT_LANGUAGE
    text = command_paths_in(entry[language], _CLIENT_COMMAND_NAMES.get() or language)
    if not values:
        return text
    values = {name: _sentence_value(value, language) for name, value in values.items()}
    return plural.resolve(text, language, values).format(**values)


def _sentence_value(value: Any, language: str) -> Any:
    """A list value reads as one phrase of the language ("A, B" / "A、B"): callers pass lists, never a
    string they joined themselves, so no language gets another's comma. A ``Phrase`` (a key and values
    the domain names instead of assembling English) is worded in the sentence's language, alone or in a
    list."""
    if isinstance(value, Phrase):
        return t(value.key, language, **value.values)
    if isinstance(value, (list, tuple)):
        return join_list([_sentence_value(item, language) for item in value], language)
    return value


_COMMAND_PATH = re.compile(r"(?<![\w/])/([a-z][a-z-]*(?: [a-z][a-z-]*){0,2})")


@lru_cache(maxsize=4096)
def command_paths_in(text: str, language: str) -> str:
    """``text`` with each slash command it names ("/config my-language") written as the member's Discord
    client shows it in ``language`` ("/設定 自分の言語"): the names the command tree is localised with
    (``app.<name>`` keys, see ``PodkeeperTranslator``). A path with a word that is not a command name
    (an option, a value) keeps its words from there on as written."""

    def localised(match: re.Match[str]) -> str:
        words = match.group(1).split(" ")
        shown: list[str] = []
        for index, word in enumerate(words):
            entry = catalogue().get(f"app.{word}")
            if entry is None or not entry.get(language):
                return "/" + " ".join(shown + words[index:])
            shown.append(entry[language])
        return "/" + " ".join(shown)

    if language == DEFAULT_LANGUAGE:  # the messages are written with the commands' own (English) names
        return text
    return _COMMAND_PATH.sub(localised, text)


def has(key: str) -> bool:
    return key in catalogue()


class Translate:
    """A language bound to ``t``: ``tr = Translate('ja'); tr('deck.size', count=3)``."""

    __slots__ = ("language",)

    def __init__(self, language: str) -> None:
        self.language = language

    def __call__(self, key: str, /, **values: Any) -> str:
        return t(key, self.language, **values)


class EventTranslate(Translate):
    """The words of a server-wide event of one challenge deck. Events began as Hydra nights, so their
    messages (``hydra_events.*``) name the Hydra and its heads; for the Horde and the God, a key
    ``hydra_events.X`` reads ``hydra_events.deck.X`` where that exists, with ``{foe}`` the deck's foe."""

    __slots__ = ("deck",)

    def __init__(self, language: str, deck: str = "hydra") -> None:
        super().__init__(language)
        self.deck = deck

    def __call__(self, key: str, /, **values: Any) -> str:
        if self.deck != "hydra" and key.startswith("hydra_events."):
            special = "hydra_events.deck." + key.removeprefix("hydra_events.")
            if has(special):
                foe = t(f"hydra_events.foe.{self.deck}", self.language)
                return t(special, self.language, **{"foe": foe, **values})
        return t(key, self.language, **values)
