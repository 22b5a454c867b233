"""Deck list parsing: every format players paste or attach, one result shape.

Supported (issue #3, "Input"):

* plain lines ``1 Name``, ``1x Name``, ``Name`` (count 1);
* Arena/MTGO/Moxfield lines ``1 Name (SET) 123 *F*`` and Archidekt ``1x Name (set) 123 [Category]``;
* section headers ``Commander``, ``Companion``, ``Deck``/``Mainboard``, ``Sideboard``, ``Maybeboard``
  (with an optional ``:`` or ``(12)`` count, or as a ``// Commander`` comment), Arena's ``About`` block;
* ``Commander: Name`` header lines and ``SB: 1 Name`` sideboard lines;
* MTGO ``.dek`` XML and CSV exports (a header row naming the count and name columns);
* ``#`` and ``//`` comments, blank lines, CRLF/CR line ends, a UTF-8 BOM (or UTF-16 with its BOM),
  Japanese and Chinese card names (resolved later by the card index, not here).

Nothing is dropped silently: a line that can't be read becomes a ``LineIssue`` with its line number,
and maybeboard cards are kept in ``ignored`` so the verdict can say they were left out. Input that is
not a deck list at all (binary, over 1 MB or 1,000 lines, broken XML) raises ``DecklistRefused``.

Pure: no I/O, no card data. The parser only splits text into (count, name, section, line).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from enum import StrEnum
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


_SECTION_WORDS: dict[str, Section] = {
    "commander": Section.COMMANDER, "commanders": Section.COMMANDER,
    "companion": Section.COMPANION, "companions": Section.COMPANION,
    "deck": Section.MAIN, "main": Section.MAIN, "maindeck": Section.MAIN, "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD, "side": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD, "maybe": Section.MAYBEBOARD, "considering": Section.MAYBEBOARD,
    "about": Section.ABOUT,
    # Chinese and Japanese headers (GLOSSARY.md terms, and the seeds' older words 主将 / ジェネラル)
    "指挥官": Section.COMMANDER, "指揮官": Section.COMMANDER, "統率者": Section.COMMANDER,
    "主将": Section.COMMANDER, "ジェネラル": Section.COMMANDER, "统率者": Section.COMMANDER,
    "套牌": Section.MAIN, "主牌": Section.MAIN, "デッキ": Section.MAIN, "メインデッキ": Section.MAIN,
    "备牌": Section.SIDEBOARD, "備牌": Section.SIDEBOARD, "サイドボード": Section.SIDEBOARD,
}


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

    count: int
    name: str
    section: Section
    line: int


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
    size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
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
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if _looks_binary(text):
        raise DecklistRefused("binary")
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) > MAX_LINES:
        raise DecklistRefused("too_many_lines", lines=len(lines), limit=MAX_LINES)
    return "\n".join(lines)


def _looks_binary(text: str) -> bool:
    """NUL or many control characters: an image or archive that happens to decode."""
    if "\x00" in text:
        return True
    return len(_CONTROL.findall(text, 0, 4096)) > 8


# -- entry point ----------------------------------------------------------------------------------


def parse_decklist(data: bytes | str, filename: str | None = None) -> Decklist:
    """Parse a deck list in any supported format (chosen by file name, then by content)."""
    text = decode(data)
    if not text.strip():
        raise DecklistRefused("empty")
    lowered = (filename or "").lower()
    head = text.lstrip()[:200].lower()
    if lowered.endswith(".dek") or head.startswith(("<?xml", "<deck")):
        return parse_dek(text)
    if lowered.endswith(".csv") or _looks_like_csv_header(text.split("\n", 1)[0]):
        return parse_csv(text)
    return parse_text(text)


# -- plain text, Arena, MTGO, Moxfield, Archidekt -------------------------------------------------

_HEADER = re.compile(r"^(?P<word>[^\W\d_][^\W\d_ ]*(?: [^\W\d_]+)?)\s*(?:[(（]\s*\d+\s*[)）])?\s*[:：]?\s*$")
_NAMED_HEADER = re.compile(
    r"^(?P<word>commanders?|companions?|指挥官|指揮官|統率者|统率者|主将|ジェネラル)\s*[:：]\s*(?P<rest>.+)$",
    re.IGNORECASE)
_SIDEBOARD_PREFIX = re.compile(r"^SB:\s*(?P<rest>.*)$", re.IGNORECASE)
# One printing detail at the end of a line: *F* foil / *E* etched (Moxfield, Arena), ^tag^ (Archidekt),
# [Ramp] or [Commander{top}] categories (Archidekt), (SET) 123 (Arena, MTGO, Moxfield).
_SUFFIX_CHAIN = re.compile(
    r"(?:\s+(?:\*[A-Za-z]+\*|\^[^^]*\^|\[[^\]]*\]|\([A-Za-z0-9_]{2,8}\)(?:\s+[A-Za-z0-9★\-]+)?))+\s*")
_SUFFIX_START = re.compile(r"\s+(?=[(\[*^])")
_CATEGORY = re.compile(r"\[([^\]]*)\]")
# The common lines in one linear pass: "1 Name", "1x Name", "1 Name (SET) 123 *F*", "1x Name (set) 1 [Ramp]",
# for a name that starts with a letter and has no brackets or odd characters. Everything else (and every
# line this refuses) takes the general path, which also explains what is wrong.
_PLAIN_NAME = r"[^\W\d_][^()\[\]*^<>{}|\\\x00-\x1f]*"
_FAST_NAME = re.compile(_PLAIN_NAME)
_FAST_ENTRY = re.compile(
    rf"(?P<count>[1-9]\d{{0,2}})[xX]?[ \t]+(?![xX][ \t])(?P<name>{_PLAIN_NAME})"
    r"(?:[ \t]+\([A-Za-z0-9_]{2,8}\)(?:[ \t]+[A-Za-z0-9★\-]+)?)?(?:[ \t]+\*[A-Za-z]+\*)?"
    r"(?:[ \t]+\[(?P<category>[^\]]*)\])?")
_BAD_NAME_CHARS = re.compile(r"[<>{}\[\]|\\\x00-\x1f]")
_HAS_LETTER = re.compile(r"[^\W\d_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f]")


@dataclass
class _Reader:
    """Accumulates entries and issues while walking the lines."""

    entries: list[DeckLine] = field(default_factory=list)
    ignored: list[DeckLine] = field(default_factory=list)
    issues: list[LineIssue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def issue(self, line: int, text: str, reason: str) -> None:
        shown = text if len(text) <= ISSUE_TEXT_LENGTH else text[: ISSUE_TEXT_LENGTH - 1] + "…"
        self.issues.append(LineIssue(line, shown, reason))

    def result(self, fmt: str) -> Decklist:
        notes = list(self.notes)
        if self.ignored:
            notes.append("maybeboard_ignored")
        return Decklist(tuple(self.entries), tuple(self.issues), tuple(self.ignored), fmt,
                        tuple(dict.fromkeys(notes)))


def section_for(word: str) -> Section | None:
    """The section a header word names ("Mainboard", "commanders", "Main deck"), else None."""
    return _SECTION_WORDS.get(word.lower().replace(" ", "").replace("_", ""))


def parse_text(text: str) -> Decklist:
    """Line-based formats. A line is a header, a comment, or one card entry."""
    reader = _Reader()
    section = Section.MAIN
    sections_named = False
    block_starts = [0]  # index in reader.entries where each blank-line-separated block starts
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            if reader.entries and block_starts[-1] != len(reader.entries):
                block_starts.append(len(reader.entries))
            continue
        if line[0].isdigit():  # the common case: "1 Name ..." is never a header
            if not _read_common_entry(reader, line, section, number):
                _read_entry(reader, line, section, number, line)
            continue
        if line.startswith(("#", "//")):
            # "// Commander" style headers are comments that name a section.
            header = _section_header(line.lstrip("#/ ").strip())
            if header is not None:
                section, sections_named = header, True
            continue
        header = _section_header(line)
        if header is not None:
            section, sections_named = header, True
            continue
        if section is Section.ABOUT:
            continue  # Arena's "Name My Deck" line
        named = _NAMED_HEADER.match(line)
        sideboard = _SIDEBOARD_PREFIX.match(line)
        if named or sideboard:
            sections_named = True
        if named:
            _read_entry(reader, named.group("rest"), section_for(named.group("word")) or section, number, line)
        elif sideboard:
            _read_entry(reader, sideboard.group("rest"), Section.SIDEBOARD, number, line)
        else:
            _read_entry(reader, line, section, number, line)
    if not sections_named and any(e.section is not Section.MAIN for e in reader.entries):
        sections_named = True  # an Archidekt [Commander] category
    if not sections_named and block_starts[-1] < len(reader.entries):
        _commanders_after_blank_line(reader, block_starts[-1])
    return reader.result("text")


def _commanders_after_blank_line(reader: _Reader, start: int) -> None:
    """MTGO's .txt export has no headers: the sideboard follows a blank line, and a Commander deck's
    commander(s) are its sideboard. Read a last block of 1–2 cards after 98–99 as the commanders."""
    main = sum(e.count for e in reader.entries[:start])
    last = sum(e.count for e in reader.entries[start:])
    if 1 <= last <= 2 and main + last == 100:
        reader.entries[start:] = [e._replace(section=Section.COMMANDER) for e in reader.entries[start:]]
        reader.notes.append("commander_from_sideboard")


def _section_header(line: str) -> Section | None:
    match = _HEADER.match(line)
    return section_for(match.group("word")) if match else None


def _read_common_entry(reader: _Reader, line: str, section: Section, number: int) -> bool:
    """The common line in one regex pass (``_FAST_ENTRY``); False when the general path must read it."""
    fast = _FAST_ENTRY.fullmatch(line)
    if fast is None:
        return False
    count, name, category = fast.group("count", "name", "category")
    if len(name) > MAX_NAME_LENGTH:
        return False
    if category is not None:
        section = _category_section(category) or section
    (reader.ignored if section is Section.MAYBEBOARD else reader.entries).append(
        DeckLine(int(count), name, section, number))
    return True


def _read_entry(reader: _Reader, body: str, section: Section, number: int, original: str) -> None:
    """``[count][x] name [(SET) num] [*F*] [[Category]]`` -> an entry, or an issue."""
    body = body.strip()
    if _read_common_entry(reader, body, section, number):
        return
    count, body = _split_count(body)
    _add_entry(reader, count, body, section, number, original)


def _add_entry(reader: _Reader, count: int, body: str, section: Section, number: int, original: str) -> None:
    """``name [(SET) num] [*F*] [[Category]]`` with its count -> an entry, or an issue."""
    if 0 < count <= MAX_COUNT and len(body) <= MAX_NAME_LENGTH and _FAST_NAME.fullmatch(body):
        entry = DeckLine(count, body, section, number)  # a plain name (CSV and .dek rows)
        (reader.ignored if section is Section.MAYBEBOARD else reader.entries).append(entry)
        return
    name, category_section = _strip_suffixes(body)
    if category_section is not None:
        section = category_section
    reason = _name_problem(name) or _count_problem(count)
    if reason:
        reader.issue(number, original, reason)
    elif section is Section.MAYBEBOARD:
        reader.ignored.append(DeckLine(count, name, section, number))
    else:
        reader.entries.append(DeckLine(count, name, section, number))


_TIMES = ("x", "X", "×", "ｘ", "Ｘ")


def _split_count(body: str) -> tuple[int, str]:
    """``"2x Name"``, ``"2 x Name"``, ``"2 Name"`` -> (2, "Name"); no leading number -> (1, body).

    String operations, not a regex: this runs for every line of every deck (see bench_decks.py)."""
    parts = body.split(None, 1)
    head = parts[0] if parts else ""
    digits = head[:-1] if head.endswith(_TIMES) else head
    if not digits.isdigit():
        return 1, body
    rest = parts[1] if len(parts) > 1 else ""
    if rest[:1] in _TIMES and rest[1:2].isspace() and not head.endswith(_TIMES):
        rest = rest[2:].lstrip()
    return int(digits), rest


def _strip_suffixes(body: str) -> tuple[str, Section | None]:
    """Remove printing details and Archidekt categories; a category may name the section.

    The chain of suffixes is matched once from where it starts (a space before "(", "[", "*" or "^"),
    trying later starts when an earlier "(" belongs to the name ("Erase (Not the Urza's Legacy One)")."""
    if "(" not in body and "[" not in body and "*" not in body and "^" not in body:
        return body, None  # fast path: a plain "1 Name" line
    for start in _SUFFIX_START.finditer(body):
        if start.start() == 0:
            continue
        chain = _SUFFIX_CHAIN.fullmatch(body, start.start())
        if chain is None:
            continue
        section: Section | None = None
        if "[" in chain.group(0):
            for category in _CATEGORY.findall(chain.group(0)):
                section = _category_section(category) or section
        return body[: start.start()], section
    return body, None


_CATEGORY_END = re.compile(r"[{,;]")


def _category_section(category: str) -> Section | None:
    """Archidekt's first category names the section: "Commander{top}", "Maybeboard{noDeck}{noPrice}"."""
    return section_for(_CATEGORY_END.split(category, maxsplit=1)[0].strip())


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
    reader = _Reader()
    rows = csv.reader(io.StringIO(text))
    columns: dict[str, int] | None = None
    try:
        for row in rows:
            number = rows.line_num
            cells = [cell.strip() for cell in row]
            if not any(cells):
                continue
            if columns is None and _looks_like_csv_header(",".join(cells)):
                columns = _csv_columns(cells)
                continue
            _read_csv_row(reader, cells, columns, number)
    except csv.Error:
        raise DecklistRefused("bad_csv", line=rows.line_num) from None
    return reader.result("csv")


def _csv_columns(cells: list[str]) -> dict[str, int]:
    lowered = [cell.lower() for cell in cells]
    found: dict[str, int] = {}
    for role, names in (("count", _CSV_COUNT), ("name", _CSV_NAME), ("section", _CSV_SECTION)):
        for position, cell in enumerate(lowered):
            if cell in names:
                found[role] = position
                break
    return found


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
    if not count_text.isdigit():
        reader.issue(number, original, "bad_count")
        return
    section = Section.MAIN
    if "section" in columns and columns["section"] < len(cells):
        section = _category_section(cells[columns["section"]]) or Section.MAIN
    _add_entry(reader, int(count_text), name, section, number, original)


# -- MTGO .dek XML --------------------------------------------------------------------------------


def parse_dek(text: str) -> Decklist:
    """MTGO's ``.dek``: ``<Cards Quantity="1" Sideboard="false" Name="..."/>`` elements.

    MTGO keeps a Commander deck's commander(s) as its only sideboard card(s): when the main deck has
    98–99 cards and the sideboard 1–2, those are read as the commanders (and a note says so).
    """
    if "<!ENTITY" in text or "<!DOCTYPE" in text:
        raise DecklistRefused("bad_xml", line=1)  # no entity expansion tricks in a deck file
    reader = _Reader()
    sideboard: list[DeckLine] = []
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag != "Cards":
            return
        number = parser.CurrentLineNumber
        name = (attrs.get("Name") or "").strip()
        quantity = (attrs.get("Quantity") or "").strip()
        if not quantity.isdigit():
            reader.issue(number, f'<Cards Quantity="{quantity}" Name="{name}">', "bad_count")
            return
        in_sideboard = (attrs.get("Sideboard") or "").lower() == "true"
        before = len(reader.entries)
        _add_entry(reader, int(quantity), name, Section.SIDEBOARD if in_sideboard else Section.MAIN, number,
                   f'<Cards Quantity="{quantity}" Name="{name}">')
        if in_sideboard and len(reader.entries) > before:
            sideboard.append(reader.entries[-1])

    parser.StartElementHandler = start
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise DecklistRefused("bad_xml", line=exc.lineno) from None
    main_count = sum(e.count for e in reader.entries if e.section is Section.MAIN)
    side_count = sum(e.count for e in sideboard)
    if 1 <= side_count <= 2 and main_count + side_count == 100:
        reader.entries = [e._replace(section=Section.COMMANDER) if e in sideboard else e for e in reader.entries]
        reader.notes.append("commander_from_sideboard")
    return reader.result("dek")
