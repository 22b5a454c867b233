"""Deck list parsing: every format players paste or attach, one result shape.

Supported:

* plain lines ``1 Name``, ``1x Name``, ``Name`` (count 1);
* Arena/MTGO/Moxfield lines ``1 Name (SET) 123 *F*`` and Archidekt ``1x Name (set) 123 [Category]``;
* section headers ``Commander``, ``Companion``, ``Deck``/``Mainboard``, ``Sideboard``, ``Maybeboard``
  (with an optional ``:`` or ``(12)`` count, or as a ``// Commander`` comment), Arena's ``About`` block;
* ``Commander: Name`` header lines and ``SB: 1 Name`` sideboard lines;
* MTGO ``.dek`` XML, Cockatrice ``.cod`` XML and CSV exports (a header row naming the count and name columns);
* Forge ``.dck`` (``[metadata]``, ``[Commander]``, ``[Main]`` headers, ``1 Name|SET|1`` lines) and XMage / MTGO
  ``1 [SET:123] Name`` lines (``SB:`` sideboard, ``NAME:`` and ``LAYOUT`` metadata);
* published precon lists: ``Display Commander`` (oversized cards), ``Planar Deck``, ``Scheme Deck`` and token
  lines under ``Sideboard`` are noted, never counted;
* TappedOut / MTGGoldfish type headers (``Creatures (30)``), ``*CMDR*`` markers, ``#tag`` suffixes,
  ``<borderless>`` annotations, Archidekt ``{noDeck}`` categories (left out, as Archidekt means them);
* ``#`` and ``//`` comments, blank lines, CRLF/CR line ends, a UTF-8 BOM (or UTF-16 with its BOM),
  Japanese and Chinese card names (resolved later by the card index, not here).

Nothing is dropped silently: a line that can't be read becomes a ``LineIssue`` with its line number,
and maybeboard cards are kept in ``ignored`` so the verdict can say they were left out. Input that is
not a deck list at all (binary, over 1 MB or 1,000 lines, broken XML, or no card at all) raises
``DecklistRefused``: a file that yields no cards is never checked as an empty deck.

Pure: no I/O, no card data. The parser only splits text into (count, name, section, line).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache, partial
from itertools import repeat
from typing import Any, NamedTuple
from xml.parsers import expat

MAX_BYTES = 1_000_000
MAX_LINES = 1_000
MAX_COUNT = 999
MAX_NAME_LENGTH = 150
ISSUE_TEXT_LENGTH = 80


class Section(StrEnum):
    COMMANDER = "commander"
    COMPANION = "companion"
    MAIN = "main"
    SIDEBOARD = "sideboard"
    MAYBEBOARD = "maybeboard"
    ABOUT = "about"  # Arena's "About / Name ..." block: deck metadata, not cards
    # Listed with a product but no part of the deck: noted, never counted (kept in ``Decklist.ignored``).
    DISPLAY = "display"  # precon lists' "Display Commander": the oversized copy of the commander
    PLANAR = "planar"  # Planechase planes and phenomena
    SCHEME = "scheme"  # Archenemy schemes
    EXTRA = "extra"  # tokens, emblems and helper cards; Forge's [Avatar], [Dungeon], [Attractions]...


# Sections whose cards are not part of the deck, and the note (``deck.note.<key>``) that says so.
IGNORED_NOTES: dict[Section, str] = {
    Section.MAYBEBOARD: "maybeboard_ignored",
    Section.DISPLAY: "display_ignored",
    Section.PLANAR: "planar_ignored",
    Section.SCHEME: "scheme_ignored",
    Section.EXTRA: "extras_ignored",
}
NOTE_SECTIONS: dict[str, Section] = {note: section for section, note in IGNORED_NOTES.items()}

# The formats ``parse_decklist`` tells apart (``Decklist.format``; named by ``deck.format.<key>``).
FORMATS = ("text", "csv", "dek", "cod", "xml", "forge", "xmage")


_SECTION_WORDS: dict[str, Section] = {
    "commander": Section.COMMANDER,
    "commanders": Section.COMMANDER,
    "companion": Section.COMPANION,
    "companions": Section.COMPANION,
    "deck": Section.MAIN,
    "main": Section.MAIN,
    "maindeck": Section.MAIN,
    "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "side": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "maybe": Section.MAYBEBOARD,
    "considering": Section.MAYBEBOARD,
    "about": Section.ABOUT,
    "metadata": Section.ABOUT,
    "displaycommander": Section.DISPLAY,
    "displaycommanders": Section.DISPLAY,
    "oversized": Section.DISPLAY,
    "oversize": Section.DISPLAY,
    "oversizedcommander": Section.DISPLAY,
    "planardeck": Section.PLANAR,
    "planes": Section.PLANAR,
    "planechase": Section.PLANAR,
    "schemedeck": Section.SCHEME,
    "schemes": Section.SCHEME,
    "archenemy": Section.SCHEME,
    **dict.fromkeys(
        (
            "tokens",
            "token",
            "extras",
            "emblems",
            "avatar",
            "vanguard",
            "conspiracy",
            "conspiracies",
            "dungeon",
            "dungeons",
            "attractions",
            "contraptions",
            "stickers",
        ),
        Section.EXTRA,
    ),
    # Chinese and Japanese headers (GLOSSARY.md terms, and the seeds' older words 主将 / ジェネラル)
    "指挥官": Section.COMMANDER,
    "指揮官": Section.COMMANDER,
    "統率者": Section.COMMANDER,
    "主将": Section.COMMANDER,
    "ジェネラル": Section.COMMANDER,
    "统率者": Section.COMMANDER,
    "套牌": Section.MAIN,
    "主牌": Section.MAIN,
    "デッキ": Section.MAIN,
    "メインデッキ": Section.MAIN,
    "备牌": Section.SIDEBOARD,
    "備牌": Section.SIDEBOARD,
    "サイドボード": Section.SIDEBOARD,
}


# TappedOut / MTGGoldfish / Moxfield group the main deck by card type: "Creatures (30)", "Lands (37)".
# Only as a header line: Archidekt's "[Land]" category must not move a card out of its section.
_TYPE_HEADERS = frozenset(
    (
        "creature",
        "creatures",
        "land",
        "lands",
        "instant",
        "instants",
        "sorcery",
        "sorceries",
        "artifact",
        "artifacts",
        "enchantment",
        "enchantments",
        "planeswalker",
        "planeswalkers",
        "battle",
        "battles",
        "spells",
        "other",
        "others",
        "nonland",
        "nonlands",
    )
)


class DecklistRefused(ValueError):
    """The input is not something we read as a deck list at all (nothing of it was used).

    ``reason`` is a message key suffix (``deck.refused.<reason>``) and ``values`` its placeholders,
    so every front end (CLI, Discord) words the refusal in the user's language.
    """

    def __init__(self, reason: str, **values: Any) -> None:
        super().__init__(f"{reason}: {values}" if values else reason)
        self.reason = reason
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its reason and values (deck checks run in worker processes and raise it there)."""
        return _refusal, (self.reason, self.values)


def _refusal(reason: str, values: dict[str, Any]) -> DecklistRefused:
    return DecklistRefused(reason, **values)


class DeckLine(NamedTuple):
    """One card entry as written: ``count`` copies of ``name`` in ``section``, from line ``line``.

    A NamedTuple, not a dataclass: a parse builds ~100 of them and a frozen dataclass costs 4x more."""

    count: int  # type: ignore[assignment]  # copies of the card; shadows tuple.count(), never called
    name: str
    section: Section
    line: int


# ``DeckLine(*fields)`` without the Python frame of a NamedTuple's ``__new__``: a C call (every line of every
# deck makes one; see bench_decks.py).
_deck_line: Callable[[tuple[int, str, Section, int]], DeckLine] = partial(tuple.__new__, DeckLine)


@dataclass(frozen=True, slots=True)
class LineIssue:
    """A line we could not read. ``reason`` is a key suffix: ``deck.parse.<reason>``."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Decklist:
    """The parsed list. ``entries`` excludes the maybeboard, which is kept in ``ignored``."""

    entries: tuple[DeckLine, ...] = ()
    issues: tuple[LineIssue, ...] = ()
    ignored: tuple[DeckLine, ...] = ()
    format: str = "text"
    notes: tuple[str, ...] = field(default=())  # note keys: deck.note.<key>

    def in_section(self, section: Section) -> list[DeckLine]:
        return [entry for entry in self.entries if entry.section is section]

    @property
    def commander_names(self) -> list[str]:
        return [entry.name for entry in self.in_section(Section.COMMANDER)]


# -- decoding -------------------------------------------------------------------------------------


def decode(data: bytes | str) -> str:
    """Text from an upload or a paste, or ``DecklistRefused`` for binary or oversized input.

    UTF-8 (with or without BOM) is expected; UTF-16 is accepted when it carries a BOM (Windows
    Notepad's "Unicode"). Line ends are normalised to ``\\n``.
    """
    if isinstance(data, str):  # a lone surrogate cannot be shown or stored: it is refused like binary
        data = data.encode("utf-8", "surrogatepass")
    size = len(data)
    if size > MAX_BYTES:
        raise DecklistRefused("too_large", size=size, limit=MAX_BYTES)
    if isinstance(data, bytes):
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            try:
                text = data.decode("utf-16")
            except UnicodeDecodeError:
                raise DecklistRefused("binary") from None
        else:
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise DecklistRefused("binary") from None
    else:
        text = data
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _looks_binary(text):
        raise DecklistRefused("binary")
    # Trailing blank lines dropped without splitting the text into lines and joining it again (this runs
    # for every deck; see bench_decks.py): the text ends with the line of its last non-blank character.
    end = text.find("\n", len(text.rstrip()))
    if end != -1:
        text = text[:end]
    lines = text.count("\n") + 1 if text.strip() else 0
    if lines > MAX_LINES:
        raise DecklistRefused("too_many_lines", lines=lines, limit=MAX_LINES)
    return text if lines else ""


# The control characters that mark binary data (tab and line feed are text); counted by deleting them from
# the UTF-8 bytes of the text's start (a tenth of the time of a regex finding them all).
_CONTROL_BYTES = bytes((*range(0x00, 0x09), *range(0x0B, 0x20)))


def _looks_binary(text: str) -> bool:
    """NUL or many control characters: an image or archive that happens to decode."""
    if "\x00" in text:
        return True
    start = text[:4096].encode("utf-8", "surrogatepass")  # UTF-8 encodes a control character as its own byte
    return len(start) - len(start.translate(None, _CONTROL_BYTES)) > 8


# -- entry point ----------------------------------------------------------------------------------


def parse_decklist(data: bytes | str, filename: str | None = None) -> Decklist:
    """Parse a deck list in any supported format (chosen by file name, then by content).

    A list that yields no card of the deck is refused (``no_cards``, naming the format it looked like),
    never checked as an empty deck: it is almost always a format read wrongly, not a deck."""
    text = decode(data)
    if not text.strip():
        raise DecklistRefused("empty")
    decklist = _parse_any(text, (filename or "").lower())
    if not decklist.entries:
        raise DecklistRefused(
            "no_cards",
            format=decklist.format,
            unread=len(decklist.issues),
            ignored=sum(line.count for line in decklist.ignored),
        )
    return decklist


def _parse_any(text: str, filename: str) -> Decklist:
    head = text.lstrip()[:200].lower()
    if filename.endswith((".dek", ".cod")) or head.startswith(("<?xml", "<deck", "<cockatrice_deck")):
        return parse_xml(text)
    if filename.endswith(".csv") or _looks_like_csv_header(text.split("\n", 1)[0]):
        return parse_csv(text)
    return parse_text(text)


# -- plain text, Arena, MTGO, Moxfield, Archidekt -------------------------------------------------

_HEADER = re.compile(r"^(?P<word>[^\W\d_][^\W\d_ ]*(?: [^\W\d_]+)?)\s*(?:[(（]\s*\d+\s*[)）])?\s*[:：]?\s*$")
_BRACKET_HEADER = re.compile(r"^\[\s*(?P<word>[A-Za-z][A-Za-z _]{0,30}?)\s*\]$")  # Forge: [Main], [metadata]
_NAMED_HEADER = re.compile(
    r"^(?P<word>commanders?|companions?|指挥官|指揮官|統率者|统率者|主将|ジェネラル)\s*[:：]\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
_SIDEBOARD_PREFIX = re.compile(r"^SB:\s*(?P<rest>.*)$", re.IGNORECASE)
_XMAGE_METADATA = re.compile(r"^(?:NAME:|LAYOUT (?:MAIN|SIDEBOARD):)")
# XMage and MTGO put the printing before the name: "1 [C21:263] Sol Ring", "1 [CMD] Sol Ring".
_SET_PREFIX = re.compile(r"\[[A-Za-z0-9_]{1,8}(?::[A-Za-z0-9★\-]*)?\]\s+")
_TAGS = re.compile(r"\s+#\S.*$")  # TappedOut's "#Ramp #!Staple" tags run to the end of the line
_TOKEN_NAME = re.compile(r"\b(?:double-sided\s+)?token$", re.IGNORECASE)  # precon lists: "1 Angel Token"
# One printing detail at the end of a line: *F* foil / *E* etched / *CMDR* (Moxfield, Arena, TappedOut), ^tag^
# (Archidekt), [Ramp] or [Commander{top}] categories (Archidekt), <borderless> or <251> (MTGGoldfish),
# (SET) 123 (Arena, MTGO, Moxfield).
_SUFFIX_CHAIN = re.compile(
    r"(?:\s+(?:\*[A-Za-z]+\*|\^[^^]*\^|\[[^\]]*\]|<[\w\- '.]{1,40}>|\([A-Za-z0-9_]{2,8}\)(?:\s+[A-Za-z0-9★\-]+)?))+\s*"
)
_SUFFIX_START = re.compile(r"\s+(?=[(\[*^<])")
_CATEGORY = re.compile(r"\[([^\]]*)\]")
_COMMANDER_MARK = "*CMDR*"
# The common lines in one linear pass: "1 Name", "1x Name", "1 Name (SET) 123 *F*", "1x Name (set) 1 [Ramp]",
# "1x Name *F* *CMDR*", for a name that starts with a letter and has no brackets or odd characters. Everything
# else (and every line this refuses) takes the general path, which also explains what is wrong.
_NAME_START, _NAME_CHAR = r"[^\W\d_]", r"[^()\[\]*^<>{}|#\\\x00-\x1f]"
_PLAIN_NAME = rf"{_NAME_START}{_NAME_CHAR}*"
_FAST_NAME = re.compile(_PLAIN_NAME)
_FAST_ENTRY = re.compile(
    rf"(?P<count>[1-9]\d{{0,2}})[xX]?[ \t]+(?![xX][ \t])"
    r"(?P<prefix>\[[A-Za-z0-9_]{1,8}(?::[A-Za-z0-9★\-]*)?\][ \t]+)?"  # XMage "[C21:263] ", MTGO "[CMD] "
    rf"(?P<name>{_PLAIN_NAME})"
    r"(?:[ \t]+\([A-Za-z0-9_]{2,8}\)(?:[ \t]+[A-Za-z0-9★\-]+)?)?(?P<marks>(?:[ \t]+\*[A-Za-z]+\*)*)"
    r"(?:[ \t]+<[\w\- '.]{1,40}>)?"  # MTGGoldfish "<oversized>"
    r"(?:[ \t]+\[(?P<category>[^\]]*)\])?"
    r"(?:(?<![ \t])[ \t]*\|.*)?"
)  # Forge "|SET|1": the name ends at the first "|"
# Every line of a text in one C call (``findall``), each as (count, name, category, line): "1 Name", "1x Name",
# Arena's "1 Name (SET) 123" and Archidekt's "1x Name (set) 123 [Category]" as ``_PLAIN_ENTRY`` /
# ``_FAST_ENTRY`` read them, when the line has nothing to strip around it (it starts with a digit and the
# look-behind refuses a whitespace at its end, so it is its own ``strip()``) and a name of at most
# ``MAX_NAME_LENGTH``; else ("", "", "", the line as written) for the general path. Most
# lines of most lists are the first kind: no Python per line for the split, the strip or a regex call (see
# bench_decks.py; tests/decks/test_fast_paths.py checks that both paths read every list the same). A line with
# a character neither kind has is no such entry, and trying it first cost more than the regex saves: a "*F*"
# or "#tag" here and there is turned away by a look-ahead (``_GUARDED_LINES``, for a text with any) before
# the name is tried and given back one character at a time. MTGGoldfish's "<borderless>" and Forge's "|SET|1"
# tail are read too (``_TAILED_LINES``), as ``_FAST_ENTRY`` reads them (~11,600 instructions a line that way).
_ENTRY_START = (
    rf"([1-9]\d{{0,2}})[xX]?[ \t]+(?![xX][ \t])({_NAME_START}{_NAME_CHAR}{{0,{MAX_NAME_LENGTH - 1}}})"
)
_ENTRY_PRINTING = r"(?:[ \t]+\([A-Za-z0-9_]{2,8}\)(?:[ \t]+[A-Za-z0-9★\-]+)?)?"
_ENTRY_CATEGORY = r"(?:[ \t]+\[([^\]\n]*)\])?"
_LINE_ENTRY = rf"{_ENTRY_START}{_ENTRY_PRINTING}{_ENTRY_CATEGORY}(?<!\s)"
# The same with MTGGoldfish's "<oversized>" and Forge's "|SET|1" tail, for a text with a "<" or "|" only: the two
# more tries at each line's end cost every other text ~10% more steps.
_TAILED_ENTRY = (
    rf"{_ENTRY_START}{_ENTRY_PRINTING}(?:[ \t]+<[\w\- '.]{{1,40}}>)?{_ENTRY_CATEGORY}"
    r"(?:(?<![ \t])[ \t]*\|[^\n]*)?(?<!\s)"
)
_LINES = re.compile(rf"^(?:{_LINE_ENTRY}|([^\n]*))$", re.MULTILINE)
_GUARDED_LINES = re.compile(rf"^(?:(?=[1-9][^\n*#]*$){_LINE_ENTRY}|([^\n]*))$", re.MULTILINE)  # "*" or "#"
_TAILED_LINES = re.compile(rf"^(?:{_TAILED_ENTRY}|([^\n]*))$", re.MULTILINE)
_GUARDED_TAILED_LINES = re.compile(rf"^(?:(?=[1-9][^\n*#]*$){_TAILED_ENTRY}|([^\n]*))$", re.MULTILINE)
# A line without "(", "*", "<", "[" or "|" has no printing detail, prefix, mark, category or Forge suffix: what
# ``_FAST_ENTRY`` reads of it, this reads in half the steps (most lines of a plain list; see bench_decks.py).
_PLAIN_ENTRY = re.compile(rf"(?P<count>[1-9]\d{{0,2}})[xX]?[ \t]+(?![xX][ \t])(?P<name>{_PLAIN_NAME})")
_BAD_NAME_CHARS = re.compile(r"[<>{}\[\]|\\\x00-\x1f]")
_HAS_LETTER = re.compile(r"[^\W\d_]")


@dataclass
class _Reader:
    """Accumulates entries and issues while walking the lines."""

    entries: list[DeckLine] = field(default_factory=list)
    ignored: list[DeckLine] = field(default_factory=list)
    issues: list[LineIssue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    format: str = "text"

    def issue(self, line: int, text: str, reason: str) -> None:
        shown = text if len(text) <= ISSUE_TEXT_LENGTH else text[: ISSUE_TEXT_LENGTH - 1] + "…"
        self.issues.append(LineIssue(line, shown, reason))

    def add(self, entry: DeckLine) -> None:
        """Keep an entry: in the deck, or (maybeboard, display cards, tokens...) noted as not part of it."""
        section = entry.section
        if section is Section.MAIN or section is Section.COMMANDER:
            self.entries.append(entry)
        elif section in IGNORED_NOTES:
            self.ignored.append(entry)
        elif section is Section.SIDEBOARD and _TOKEN_NAME.search(entry.name):
            self.ignored.append(entry._replace(section=Section.EXTRA))
        else:
            self.entries.append(entry)

    def result(self) -> Decklist:
        notes = self.notes + [
            IGNORED_NOTES[section] for section in dict.fromkeys(e.section for e in self.ignored)
        ]
        return Decklist(
            tuple(self.entries),
            tuple(self.issues),
            tuple(self.ignored),
            self.format,
            tuple(dict.fromkeys(notes)),
        )


@lru_cache(maxsize=512)  # the same few header words and categories come back on every line and deck
def section_for(word: str) -> Section | None:
    """The section a header word names ("Mainboard", "commanders", "Main deck"), else None."""
    return _SECTION_WORDS.get(word.lower().replace(" ", "").replace("_", ""))


def parse_text(text: str) -> Decklist:
    """Line-based formats. A line is a header, a comment, metadata or one card entry."""
    reader = _Reader()
    section = Section.MAIN
    sections_named = about = False
    block_starts = [0]  # index in reader.entries where each blank-line-separated block starts
    entries = reader.entries
    lines: Iterable[tuple[str, str, str, str]]
    if "\nLAYOUT " in text:  # XMage's "1 [SET:n] Name" lines, which no findall reads: all to the general path
        lines = zip(repeat(""), repeat(""), repeat(""), text.split("\n"))
    elif "|" in text or "<" in text:
        lines = (_GUARDED_TAILED_LINES if "*" in text or "#" in text else _TAILED_LINES).findall(text)
    else:
        lines = (_GUARDED_LINES if "*" in text or "#" in text else _LINES).findall(text)
    for number, (count, name, category, raw) in enumerate(lines, start=1):
        if count:  # "1 Name", "1 Name (SET) 123 [Category]" (the general path reads them the same, later)
            in_section = (_category_section(category) or section) if category else section
            entry = _deck_line((int(count), name, in_section, number))
            entries.append(entry) if in_section is Section.MAIN else reader.add(entry)
            continue
        line = raw.strip()
        if not line:
            if reader.entries and block_starts[-1] != len(reader.entries):
                block_starts.append(len(reader.entries))
            continue
        if line[0].isdigit():  # the common case: "1 Name ..." is never a header
            if (
                section is Section.MAIN
                and "(" not in line
                and "*" not in line
                and "<" not in line
                and "[" not in line
                and "|" not in line
            ):
                plain = _PLAIN_ENTRY.fullmatch(line)  # "1 Name": read here, without a call per line
                if plain is not None and len(plain[2]) <= MAX_NAME_LENGTH:
                    reader.entries.append(_deck_line((int(plain[1]), plain[2], section, number)))
                    continue
            if not _read_common_entry(reader, line, section, number):
                _read_entry(reader, line, section, number, line)
            continue
        header = _line_header(reader, line, number, section)
        if header is not None:
            section, sections_named = header, True
            about |= header is Section.ABOUT
            continue
        if line.startswith(("#", "//")) or section is Section.ABOUT:
            continue  # a comment, Arena's "Name My Deck" line, Forge's "Name=My Deck"
        if _XMAGE_METADATA.match(line):
            reader.format = "xmage"
            continue
        named = _NAMED_HEADER.match(line)
        sideboard = _SIDEBOARD_PREFIX.match(line)
        if named or sideboard:
            sections_named = True
        if named:
            _read_entry(
                reader, named.group("rest"), section_for(named.group("word")) or section, number, line
            )
        elif sideboard:
            _read_entry(reader, sideboard.group("rest"), Section.SIDEBOARD, number, line)
        else:
            _read_entry(reader, line, section, number, line)
    if about:  # Arena's About block holds no cards: a card line there began the deck without its "Deck" line
        reader.entries = [
            e._replace(section=Section.MAIN) if e.section is Section.ABOUT else e for e in reader.entries
        ]
    if not sections_named and any(e.section is not Section.MAIN for e in reader.entries):
        sections_named = True  # an Archidekt [Commander] category
    if not sections_named and block_starts[-1] < len(reader.entries):
        _commanders_after_blank_line(reader, block_starts[-1])
    if reader.format == "xmage":
        _commanders_from_sideboard(reader)
    return reader.result()


def _line_header(reader: _Reader, line: str, number: int, current: Section) -> Section | None:
    """The section a header line starts: "Sideboard (15)", "// Commander", "Creatures (30)", Forge's "[Main]".

    An unknown Forge section is reported and changes nothing (``current``)."""
    if line[0] == "[":
        forge = _BRACKET_HEADER.match(line)
        if forge is None:
            return None
        reader.format = "forge"
        section = section_for(forge.group("word"))
        if section is None:
            reader.issue(number, line, "unknown_section")
        return section or current
    if line.startswith(("#", "//")):
        return _section_header(line.lstrip("#/ ").strip())
    return _section_header(line)


def _commanders_after_blank_line(reader: _Reader, start: int) -> None:
    """MTGO's .txt export has no headers: the sideboard follows a blank line, and a Commander deck's
    commander(s) are its sideboard. Read a last block of 1–2 cards after 98–99 as the commanders."""
    main = sum(e.count for e in reader.entries[:start])
    last = sum(e.count for e in reader.entries[start:])
    if 1 <= last <= 2 and main + last == 100:
        reader.entries[start:] = [e._replace(section=Section.COMMANDER) for e in reader.entries[start:]]
        reader.notes.append("commander_from_sideboard")


def _commanders_from_sideboard(reader: _Reader) -> None:
    """MTGO ``.dek``, Cockatrice and XMage keep a Commander deck's commander(s) as its only sideboard card(s):
    with no commander named, 98–99 main-deck cards and 1–2 sideboard cards, those are the commanders."""
    counts = dict.fromkeys(Section, 0)
    for entry in reader.entries:
        counts[entry.section] += entry.count
    main, side = counts[Section.MAIN], counts[Section.SIDEBOARD]
    if not counts[Section.COMMANDER] and 1 <= side <= 2 and main + side == 100:
        reader.entries = [
            e._replace(section=Section.COMMANDER) if e.section is Section.SIDEBOARD else e
            for e in reader.entries
        ]
        reader.notes.append("commander_from_sideboard")


def _section_header(line: str) -> Section | None:
    match = _HEADER.match(line)
    if match is None:
        return None
    word = match.group("word")
    return section_for(word) or (Section.MAIN if word.lower() in _TYPE_HEADERS else None)


def _read_common_entry(reader: _Reader, line: str, section: Section, number: int) -> bool:
    """The common line in one regex pass (``_FAST_ENTRY``); False when the general path must read it."""
    fast = _FAST_ENTRY.fullmatch(line)
    if fast is None:
        return False
    count, prefix, name, marks, category = fast.groups()  # in pattern order; cheaper than by name
    if len(name) > MAX_NAME_LENGTH:
        return False
    if prefix is not None and ":" in prefix:
        reader.format = "xmage"
    if category is not None:
        section = _category_section(category) or section
    if marks and _COMMANDER_MARK in marks.upper():
        section = Section.COMMANDER
    if section is Section.MAIN:  # most lines: no call to ``add`` (see bench_decks.py)
        reader.entries.append(_deck_line((int(count), name, section, number)))
    else:
        reader.add(_deck_line((int(count), name, section, number)))
    return True


def _read_entry(reader: _Reader, body: str, section: Section, number: int, original: str) -> None:
    """``[count][x] [[SET:n]] name [(SET) num] [*F*] [[Category]]`` -> an entry, or an issue."""
    body = body.strip()
    if _read_common_entry(reader, body, section, number):
        return
    count, body = _split_count(body)
    if body.startswith("["):
        prefix = _SET_PREFIX.match(body)
        if prefix is not None:
            body = body[prefix.end() :]
            reader.format = "xmage" if ":" in prefix.group(0) else reader.format
    _add_entry(reader, count, body, section, number, original)


def _add_entry(reader: _Reader, count: int, body: str, section: Section, number: int, original: str) -> None:
    """``name [(SET) num] [*F*] [[Category]]`` with its count -> an entry, or an issue."""
    if 0 < count <= MAX_COUNT and len(body) <= MAX_NAME_LENGTH and _FAST_NAME.fullmatch(body):
        reader.add(_deck_line((count, body, section, number)))  # a plain name (CSV and .dek rows)
        return
    name, marked_section = _strip_suffixes(body)
    if marked_section is not None:
        section = marked_section
    reason = _name_problem(name) or _count_problem(count)
    if reason:
        reader.issue(number, original, reason)
    else:
        reader.add(DeckLine(count, name, section, number))


_TIMES = ("x", "X", "×", "ｘ", "Ｘ")


def _split_count(body: str) -> tuple[int, str]:
    """``"2x Name"``, ``"2 x Name"``, ``"2 Name"`` -> (2, "Name"); no leading number -> (1, body).

    String operations, not a regex: this runs for every line of every deck (see bench_decks.py)."""
    parts = body.split(None, 1)
    head = parts[0] if parts else ""
    digits = head[:-1] if head.endswith(_TIMES) else head
    if not digits.isdecimal():  # not isdigit: "²" is a digit int() refuses
        return 1, body
    rest = parts[1] if len(parts) > 1 else ""
    if rest[:1] in _TIMES and rest[1:2].isspace() and not head.endswith(_TIMES):
        rest = rest[2:].lstrip()
    return _count_value(digits), rest


def _count_value(digits: str) -> int:
    """A decimal count as a number; thousands of digits would make ``int`` raise, so they read as too many."""
    return int(digits) if len(digits) <= 9 else MAX_COUNT + 1


def _strip_suffixes(body: str) -> tuple[str, Section | None]:
    """Remove printing details, tags and Archidekt categories; a category or ``*CMDR*`` may name the section.

    Forge's ``Name|SET|1`` ends the name at the first ``|``; TappedOut's ``#tags`` run to the end of the line.
    The chain of suffixes is matched once from where it starts (a space before "(", "[", "*", "^" or "<"),
    trying later starts when an earlier "(" belongs to the name ("Erase (Not the Urza's Legacy One)")."""
    if "|" in body:
        body = body.split("|", 1)[0].rstrip()
    if "#" in body:
        body = _TAGS.sub("", body)
    if "(" not in body and "[" not in body and "*" not in body and "^" not in body and "<" not in body:
        return body, None  # fast path: a plain "1 Name" line
    for start in _SUFFIX_START.finditer(body):
        if start.start() == 0:
            continue
        chain = _SUFFIX_CHAIN.fullmatch(body, start.start())
        if chain is None:
            continue
        suffixes = chain.group(0)
        section: Section | None = None
        if "[" in suffixes:
            for category in _CATEGORY.findall(suffixes):
                section = _category_section(category) or section
        if _COMMANDER_MARK in suffixes.upper():
            section = Section.COMMANDER
        return body[: start.start()], section
    return body, None


_CATEGORY_END = re.compile(r"[{,;]")


@lru_cache(maxsize=512)  # Archidekt and CSV name a category on every row: "Spell", "mainboard"
def _category_section(category: str) -> Section | None:
    """Archidekt's first category names the section: "Commander{top}", "Maybeboard{noDeck}{noPrice}".

    A category marked ``{noDeck}`` is, as Archidekt means it, not part of the deck: a custom one ("Ideas{noDeck}")
    is left out like the maybeboard. ``{noPrice}`` only keeps the card out of the price: still in the deck."""
    first = _CATEGORY_END.split(category, maxsplit=1)[0].strip()
    section = section_for(first)
    if section is None and "{nodeck}" in category.lower():
        section = section_for(first.split(None, 1)[0]) if first else None  # "Tokens & Extras{noDeck}"
        return section if section in IGNORED_NOTES else Section.MAYBEBOARD
    return section


def _name_problem(name: str) -> str | None:
    if not _HAS_LETTER.search(name):
        return "no_name"
    if len(name) > MAX_NAME_LENGTH:
        return "name_too_long"
    if _BAD_NAME_CHARS.search(name):
        return "bad_characters"
    return None


def _count_problem(count: int) -> str | None:
    if count < 1:
        return "zero_count"
    if count > MAX_COUNT:
        return "count_too_large"
    return None


# -- CSV exports ----------------------------------------------------------------------------------

_CSV_COUNT = ("count", "quantity", "qty", "amount", "number")
_CSV_NAME = ("name", "card", "card name", "cardname", "card_name")
_CSV_SECTION = ("board", "section", "category", "categories", "zone")


def _looks_like_csv_header(first_line: str) -> bool:
    cells = [cell.strip().strip('"').lower() for cell in first_line.split(",")]
    return len(cells) > 1 and any(c in _CSV_NAME for c in cells) and any(c in _CSV_COUNT for c in cells)


def parse_csv(text: str) -> Decklist:
    """A CSV export: a header row naming count and name columns (Moxfield, Archidekt, Deckbox), or
    header-less ``count,name`` rows."""
    reader = _Reader(format="csv")
    rows = csv.reader(io.StringIO(text))
    columns: dict[str, int] | None = None
    plain: tuple[int, int, int, int] | None = (
        None  # count, name, section (or -1) columns and the row width needed
    )
    entries = reader.entries
    try:
        for row in rows:
            if (
                plain is not None and len(row) > plain[3]
            ):  # most rows: a count and a plain name (see bench_decks.py)
                count, name = row[plain[0]].strip(), row[plain[1]].strip()
                section = (
                    _category_section(row[plain[2]].strip()) or Section.MAIN
                    if plain[2] >= 0
                    else Section.MAIN
                )
                if (
                    count.isdecimal()
                    and 0 < (number := _count_value(count)) <= MAX_COUNT
                    and len(name) <= MAX_NAME_LENGTH
                    and _FAST_NAME.fullmatch(name)
                ):
                    entry = _deck_line((number, name, section, rows.line_num))
                    entries.append(entry) if section is Section.MAIN else reader.add(entry)
                    continue
            cells = [cell.strip() for cell in row]  # anything else as ``_read_csv_row`` explains it
            if not any(cells):
                continue
            if columns is None and _looks_like_csv_header(",".join(cells)):
                columns = _csv_columns(cells)
                plain = _plain_csv_columns(columns)
                continue
            _read_csv_row(reader, cells, columns, rows.line_num)
    except csv.Error:
        raise DecklistRefused("bad_csv", line=rows.line_num) from None
    return reader.result()


def _csv_columns(cells: list[str]) -> dict[str, int]:
    lowered = [cell.lower() for cell in cells]
    found: dict[str, int] = {}
    for role, names in (("count", _CSV_COUNT), ("name", _CSV_NAME), ("section", _CSV_SECTION)):
        for position, cell in enumerate(lowered):
            if cell in names:
                found[role] = position
                break
    return found


def _plain_csv_columns(columns: dict[str, int]) -> tuple[int, int, int, int] | None:
    """The count, name and section (-1: none) columns and the width a row needs to have them all, or None."""
    if "count" not in columns or "name" not in columns:
        return None
    section = columns.get("section", -1)
    return columns["count"], columns["name"], section, max(columns["count"], columns["name"], section)


def _read_csv_row(reader: _Reader, cells: list[str], columns: dict[str, int] | None, number: int) -> None:
    original = ",".join(cells)
    if columns is None:
        columns = {"count": 0, "name": 1}
    try:
        count_text = cells[columns["count"]]
        name = cells[columns["name"]]
    except (IndexError, KeyError):
        reader.issue(number, original, "missing_column")
        return
    if not count_text.isdecimal():
        reader.issue(number, original, "bad_count")
        return
    section = Section.MAIN
    if "section" in columns and columns["section"] < len(cells):
        section = _category_section(cells[columns["section"]]) or Section.MAIN
    _add_entry(reader, _count_value(count_text), name, section, number, original)


# -- XML: MTGO .dek, Cockatrice .cod ---------------------------------------------------------------

_XML_FORMATS = {"Deck": "dek", "cockatrice_deck": "cod"}
_COD_ZONES = {"main": Section.MAIN, "side": Section.SIDEBOARD, "tokens": Section.EXTRA}


def parse_xml(text: str) -> Decklist:
    """MTGO's ``.dek`` (``<Cards Quantity="1" Sideboard="false" Name="..."/>``) or Cockatrice's ``.cod``
    (``<zone name="main"><card number="1" name="..."/></zone>``), told apart by the root element.

    Both keep a Commander deck's commander(s) as the only sideboard card(s) (see ``_commanders_from_sideboard``).
    Another XML document reads as format ``xml`` with no cards, and is refused as such.
    """
    if "<!ENTITY" in text or "<!DOCTYPE" in text:
        raise DecklistRefused("bad_xml", line=1)  # no entity expansion tricks in a deck file
    fast = _read_plain_xml(text)
    if fast is not None:
        return fast
    reader = _Reader(format="")
    zone = [Section.MAIN]
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "Cards" and reader.format == "dek":  # first: a .dek is almost only these
            in_sideboard = (attrs.get("Sideboard") or "").lower() == "true"
            _xml_card(
                reader,
                attrs.get("Quantity"),
                attrs.get("Name"),
                Section.SIDEBOARD if in_sideboard else Section.MAIN,
                parser.CurrentLineNumber,
            )
        elif not reader.format:
            reader.format = _XML_FORMATS.get(tag, "xml")  # the root element
        elif tag == "zone" and reader.format == "cod":
            name = (attrs.get("name") or "").strip()
            zone[0] = _COD_ZONES.get(name.lower()) or section_for(name) or Section.SIDEBOARD
        elif tag == "card" and reader.format == "cod":
            _xml_card(reader, attrs.get("number"), attrs.get("name"), zone[0], parser.CurrentLineNumber)

    parser.StartElementHandler = start
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise DecklistRefused("bad_xml", line=exc.lineno) from None
    _commanders_from_sideboard(reader)
    return reader.result()


def _xml_card(reader: _Reader, quantity: str | None, name: str | None, section: Section, number: int) -> None:
    """One card element: its count attribute must be a number, its name a card name."""
    quantity, name = (quantity or "").strip(), (name or "").strip()
    count = _count_value(quantity) if quantity.isdecimal() else 0
    if 0 < count <= MAX_COUNT and len(name) <= MAX_NAME_LENGTH and _FAST_NAME.fullmatch(name):
        entry = _deck_line((count, name, section, number))  # the common case, nothing to explain
        reader.entries.append(entry) if section is Section.MAIN else reader.add(entry)
        return
    shown = f'<card quantity="{quantity}" name="{name}">'
    if not quantity.isdecimal():
        reader.issue(number, shown, "bad_count")
        return
    _add_entry(reader, count, name, section, number, shown)


# The documents MTGO and Cockatrice write, read without expat (which called back into Python for every element:
# ~1.3 M instructions of a .dek's 2.8 M; see bench_decks.py). Only a document that is all of the strict shape
# below, with every card a plain count and name, is read here; anything else (other attribute orders, quotes,
# whitespace or entities, comments, a malformed document) goes to expat, which reads it or names its error.
# tests/decks/test_fast_paths.py checks that both read every document the same.
_XML_S = "[ \t\n]"  # XML's whitespace (line ends are already "\n"); not ``\s``, which has more
_XML_DECL = r'(?:<\?xml version="1\.0"(?: encoding="(?i:utf-8)")? ?\?>)?'
# An attribute value: no control character (expat turns a tab or line end into a space), XML's own entities.
# Written as runs of plain characters between entities: a character at a time costs twice the steps.
_XML_VALUE_RUN = r'[^"<&\x00-\x1f\ufffe\uffff]*'
_XML_VALUE = (
    rf"{_XML_VALUE_RUN}(?:&(?:amp|lt|gt|quot|apos|#[0-9]{{1,7}}|#x[0-9a-fA-F]{{1,6}});{_XML_VALUE_RUN})*"
)
# An element of text only (MTGO's <NetDeckID>, Cockatrice's <deckname>), never one the parser reads cards from.
_XML_SIMPLE = (
    r"<(?!(?:Cards|card|zone)[ \t\n/>])(?P<tag>[A-Za-z][A-Za-z0-9_]*)"
    r"(?:>[^<&\]\x00-\x08\x0b-\x1f\ufffe\uffff]*</(?P=tag)>|/>)"
)
# A name ``_xml_card`` reads as it stands (``_FAST_NAME``, nothing to strip, not too long) or one with entities.
_XML_CARD_NAME = (
    rf'(?:({_NAME_START}[^"&()\[\]*^<>{{}}|#\\\x00-\x1f\ufffe\uffff]{{0,{MAX_NAME_LENGTH - 1}}}'
    rf"(?<!\s))|({_XML_VALUE}))"
)
_XML_COUNT = "([1-9][0-9]{0,2})"  # 1 to MAX_COUNT, as written; "0", "01" or "1000" go to expat
_DEK_CARD = (
    rf'<Cards(?: CatID="[0-9]*")? Quantity="{_XML_COUNT}" Sideboard="(true|false)" Name="{_XML_CARD_NAME}"'
    r'(?: Annotation="[0-9]*")? ?/>'
)
_COD_CARD = rf'<card number="{_XML_COUNT}" name="{_XML_CARD_NAME}" ?/>'
_COD_ZONE = r'<zone name="(main|side|tokens)">'
# The whole document, each card element taken loosely (no "<" or ">" in it): that each is a card of the strict
# shape, alone on its line, is for the line pass to tell (``_read_plain_xml`` counts them).
_DEK_DOCUMENT = re.compile(
    rf'{_XML_DECL}{_XML_S}*<Deck(?: xmlns:xsd="{_XML_VALUE}")?(?: xmlns:xsi="{_XML_VALUE}")?{_XML_S}*>'
    rf"(?:{_XML_S}*(?:{_XML_SIMPLE}|<Cards [^<>]*/>))*{_XML_S}*</Deck>{_XML_S}*"
)
_COD_DOCUMENT = re.compile(
    rf'{_XML_DECL}{_XML_S}*<cockatrice_deck(?: version="{_XML_VALUE}")?{_XML_S}*>'
    rf"(?:{_XML_S}*(?:{_XML_SIMPLE}|{_COD_ZONE}(?:{_XML_S}*<card [^<>]*/>)*{_XML_S}*</zone>))*"
    rf"{_XML_S}*</cockatrice_deck>{_XML_S}*"
)
# The same documents line by line: a card alone on its line as (count, sideboard, plain name, escaped name) or
# (zone, count, plain name, escaped name), else empty groups.
_DEK_LINES = re.compile(rf"^(?:[ \t]*{_DEK_CARD}[ \t]*|[^\n]*)$", re.MULTILINE)
_COD_LINES = re.compile(rf"^(?:[ \t]*(?:{_COD_ZONE}|{_COD_CARD})[ \t]*|[^\n]*)$", re.MULTILINE)
_XML_REFERENCE = re.compile(r"&(?:#([0-9]+)|#x([0-9a-fA-F]+)|([a-z]+));")
_XML_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


class _NotPlain(Exception):
    """A document the strict reading leaves to expat."""


def _xml_character(reference: re.Match[str]) -> str:
    decimal, hexadecimal, entity = reference.groups()
    if entity:
        return _XML_ENTITIES[entity]
    code = int(decimal) if decimal else int(hexadecimal, 16)
    if not (0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF):
        raise _NotPlain  # a control character, or none that XML allows: expat's to judge
    return chr(code)


def _plain_xml_name(escaped: str) -> str:
    """A name with entities as ``_xml_card`` reads it when it has nothing to explain; else ``_NotPlain``."""
    name = _XML_REFERENCE.sub(_xml_character, escaped).strip()
    if len(name) > MAX_NAME_LENGTH or not _FAST_NAME.fullmatch(name):
        raise _NotPlain
    return name


def _read_plain_xml(text: str) -> Decklist | None:
    """A .dek or .cod of the strict shape read by two regex passes, or None for expat to read."""
    cards: list[tuple[int, str, Section, str, str]] = []  # line, count, section, plain name, escaped name
    if _DEK_DOCUMENT.fullmatch(text):
        cards = [
            (number, count, Section.SIDEBOARD if sideboard == "true" else Section.MAIN, plain, escaped)
            for number, (count, sideboard, plain, escaped) in enumerate(_DEK_LINES.findall(text), start=1)
            if count
        ]
        if len(cards) != text.count("<Cards "):
            return None  # two on a line, or not of the strict shape
        reader = _Reader(format="dek")
    elif _COD_DOCUMENT.fullmatch(text):
        zone, zones = Section.MAIN, 0
        for number, (zone_name, count, plain, escaped) in enumerate(_COD_LINES.findall(text), start=1):
            if zone_name:
                zone, zones = _COD_ZONES[zone_name], zones + 1
            elif count:
                cards.append((number, count, zone, plain, escaped))
        if len(cards) != text.count("<card ") or zones != text.count("<zone "):
            return None  # two on a line, or not of the strict shape
        reader = _Reader(format="cod")
    else:
        return None
    try:
        for number, count, section, plain, escaped in cards:
            entry = _deck_line((int(count), plain or _plain_xml_name(escaped), section, number))
            reader.entries.append(entry) if section is Section.MAIN else reader.add(entry)
    except _NotPlain:
        return None
    _commanders_from_sideboard(reader)
    return reader.result()
