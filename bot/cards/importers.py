"""Reading card data files into ``Card`` objects.

Three formats, detected from the first bytes (after gzip/bz2/xz decompression):

- ``jsonl``: the bundled data set, one Scryfall-shaped card object per line.
- ``scryfall``: a Scryfall bulk file (``oracle_cards``, ``default_cards``, ``all_cards``), one JSON array.
- ``mtgjson``: MTGJSON ``AtomicCards.json``: ``{"meta": ..., "data": {name: [face, ...]}}`` with
  ``foreignData`` giving the Japanese and Chinese printed names.

The real Scryfall and MTGJSON files are 100+ MB, so they are never ``json.load``-ed whole:
``JsonStream`` walks the outer array/object by hand and lets ``json``'s C decoder parse one element
at a time, so memory holds the cards, not the file. It is kept over ijson (even with its C backend) because
it is faster on the real formats: ijson took 1.09-1.15 times as long for the reader alone and 1.15 times
for a whole Scryfall import (``benchmarks/bench_bulk_reader.py``, figures in
docs/contributors/benchmarks.md), and it needs no dependency. Everything that can go wrong with a file
(missing, corrupt, truncated, wrong shape, no cards) raises ``CardImportError`` with a message for a
person; nothing is written anywhere by this module, so a failed read changes no data.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, cast

from bot.cards.model import Card

FORMATS = ("jsonl", "scryfall", "mtgjson")
ProgressCallback = Callable[[int, int], None]  # (bytes read, total bytes of the file on disk)

# Scryfall objects that are not cards a deck can hold.
_FRONT_FACE_LAYOUTS = frozenset({"transform", "modal_dfc", "meld", "flip", "reversible_card"})
_SKIPPED_LAYOUTS = frozenset({"art_series", "token", "double_faced_token", "emblem"})
# Scryfall's language codes and MTGJSON's language names for the printed names we keep.
_SCRYFALL_LANGUAGES = {
    "ja": "ja",
    "zhs": "zh-Hans",
    "zht": "zh-Hant",
    "de": "de",
    "fr": "fr",
    "it": "it",
    "es": "es",
    "pt": "pt",
    "ko": "ko",
    "ru": "ru",
}
_MTGJSON_LANGUAGES = {
    "Japanese": "ja",
    "Chinese Simplified": "zh-Hans",
    "Chinese Traditional": "zh-Hant",
    "German": "de",
    "French": "fr",
    "Italian": "it",
    "Spanish": "es",
    "Portuguese (Brazil)": "pt",
    "Korean": "ko",
    "Russian": "ru",
}
_DECOMPRESSORS: dict[bytes, Callable[[IO[bytes]], IO[bytes]]] = {
    b"\x1f\x8b": lambda raw: cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb")),
    b"BZh": bz2.BZ2File,
    b"\xfd7zXZ\x00": lzma.LZMAFile,
}
_READ_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, UnicodeDecodeError)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class CardImportError(Exception):
    """A card data file can't be imported; the message names the file and what is wrong with it."""


@dataclass(frozen=True)
class ImportedCards:
    """The cards read from one file, and what the file was."""

    cards: list[Card]
    format: str
    source: str
    skipped: int = 0
    # The newest release date the file gives (Scryfall's ``released_at``, MTGJSON's ``meta.date``), as
    # YYYY-MM-DD; None when it gives none (the bundled data: ``bot.cards.data_date`` knows its date).
    data_date: str | None = None


# -- opening files -------------------------------------------------------------------------------


class _ProgressReader(io.RawIOBase):
    """A raw file that reports how many bytes were read, so progress follows the file on disk
    (compressed bytes for a .gz) and needs no size of the decompressed data."""

    def __init__(self, handle: IO[bytes], total: int, progress: ProgressCallback | None) -> None:
        self._handle = handle
        self._total = total
        self._progress = progress
        self._done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = self._handle.readinto(buffer)  # type: ignore[attr-defined]
        self._done += count or 0
        if self._progress is not None:
            self._progress(self._done, self._total)
        return count or 0

    def close(self) -> None:
        self._handle.close()
        super().close()


def open_text(path: Path, progress: ProgressCallback | None = None) -> IO[str]:
    """The decompressed text of ``path`` (plain, gzip, bz2 or xz, recognised by their magic bytes)."""
    if not path.exists():
        raise CardImportError(f"{path}: no such file")
    if path.is_dir():
        raise CardImportError(f"{path} is a folder, not a card data file")
    total = path.stat().st_size
    if total == 0:
        raise CardImportError(f"{path} is empty")
    handle = path.open("rb")
    head = handle.read(6)
    handle.seek(0)
    # Small reads when someone follows the progress: the bundled file is 2 MB, read 1 MB at a time it
    # showed 51 % at once and then nothing until 100 %.
    buffer = 1 << 20 if progress is None else 1 << 16
    binary: IO[bytes] = io.BufferedReader(_ProgressReader(handle, total, progress), buffer_size=buffer)
    for magic, decompress in _DECOMPRESSORS.items():
        if head.startswith(magic):
            binary = decompress(binary)
            break
    return io.TextIOWrapper(binary, encoding="utf-8-sig")


def detect_format(path: Path) -> str:
    """``jsonl``, ``scryfall`` or ``mtgjson``, from the first characters of the (decompressed) file."""
    try:
        with open_text(path) as text:
            sample = text.read(4096).lstrip()
    except CardImportError:
        raise
    except _READ_ERRORS as exc:
        raise CardImportError(f"{path}: cannot read it ({_describe(exc)}); the file is corrupt") from None
    if not sample:
        raise CardImportError(f"{path} is empty")
    if sample.startswith("["):
        return "scryfall"
    if re.match(r'\{\s*"(meta|data)"\s*:', sample):
        return "mtgjson"
    if sample.startswith("{"):
        return "jsonl"
    raise CardImportError(
        f"{path} is not card data: expected JSON Lines (the bundled format), a Scryfall "
        f"bulk JSON array or MTGJSON AtomicCards.json"
    )


def read_cards(
    path: str | Path, fmt: str | None = None, progress: ProgressCallback | None = None
) -> ImportedCards:
    """Every card in ``path``; ``fmt`` None detects the format. Raises ``CardImportError``."""
    path = Path(path)
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise CardImportError(f"unknown card data format {fmt!r}; use one of {', '.join(FORMATS)}")
    reader = {"jsonl": _jsonl_records, "scryfall": _scryfall_records, "mtgjson": _mtgjson_records}[fmt]
    collector = _Collector(path)
    try:
        with open_text(path, progress) as text:
            for number, record in reader(text, str(path), collector.note_date):
                collector.add(number, record)
    except CardImportError:
        raise
    except _READ_ERRORS as exc:
        raise CardImportError(
            f"{path}: cannot read it ({_describe(exc)}); the file is corrupt or truncated"
        ) from None
    cards = collector.cards()
    if not cards:
        raise CardImportError(f"{path} holds no cards (format {fmt})")
    return ImportedCards(cards, fmt, str(path), collector.skipped, collector.data_date)


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


# -- the incremental JSON reader -----------------------------------------------------------------


class JsonStream:
    """Walks one large JSON document without holding it: the caller steps through the outer
    structure (``expect``/``peek``/``string``) and ``value()`` decodes one element with the C decoder.

    An element cut by the end of the buffer fails to decode; we then read more and try again,
    up to ``MAX_ELEMENT`` characters, so a corrupt element is reported instead of eating the file.
    """

    CHUNK = 1 << 20
    MAX_ELEMENT = 32 << 20
    _SPACE = " \t\r\n"

    def __init__(self, text: IO[str], where: str) -> None:
        self._text = text
        self._where = where
        self._buffer = ""
        self._pos = 0
        self._offset = 0  # characters dropped from the front of the buffer
        self._eof = False
        self._decoder = json.JSONDecoder()

    def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = self._text.read(self.CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._offset += self._pos
        self._buffer = self._buffer[self._pos :] + chunk
        self._pos = 0
        return True

    def _error(self, what: str) -> CardImportError:
        return CardImportError(
            f"{self._where}: {what} at character {self._offset + self._pos}; "
            f"the file is corrupt, truncated or not card data"
        )

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the file)."""
        while True:
            while self._pos < len(self._buffer) and self._buffer[self._pos] in self._SPACE:
                self._pos += 1
            if self._pos < len(self._buffer):
                return self._buffer[self._pos]
            if not self._fill():
                return ""

    def expect(self, allowed: str) -> str:
        found = self.peek()
        if not found:
            raise self._error(f"the file ends early (expected {' or '.join(allowed)})")
        if found not in allowed:
            raise self._error(f"expected {' or '.join(repr(c) for c in allowed)}, found {found!r}")
        self._pos += 1
        return found

    def value(self) -> Any:
        if not self.peek():
            raise self._error("the file ends early")
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buffer, self._pos)
            except json.JSONDecodeError as exc:
                if len(self._buffer) - self._pos > self.MAX_ELEMENT or not self._fill():
                    raise self._error(f"invalid JSON ({exc.msg})") from None
                continue
            # A number or literal that touches the end of the buffer may continue in the next chunk.
            if end == len(self._buffer) and not isinstance(value, dict | list | str) and self._fill():
                continue
            self._pos = end
            return value

    def string(self) -> str:
        value = self.value()
        if not isinstance(value, str):
            raise self._error("expected a name in quotes")
        return value

    def array_items(self) -> Iterator[Any]:
        """The elements of the array starting here."""
        self.expect("[")
        if self.peek() == "]":
            self._pos += 1
            return
        while True:
            yield self.value()
            if self.expect(",]") == "]":
                return

    def object_keys(self) -> Iterator[str]:
        """The keys of the object starting here; after each key the caller reads its value."""
        self.expect("{")
        if self.peek() == "}":
            self._pos += 1
            return
        while True:
            key = self.string()
            self.expect(":")
            yield key
            if self.expect(",}") == "}":
                return

    def expect_end(self) -> None:
        if self.peek():
            raise self._error("unexpected data after the end of the JSON document")


# -- the three formats -----------------------------------------------------------------------------

Record = tuple[int, dict[str, Any]]
DateSink = Callable[[object], None]  # told of a date the file states about its data (MTGJSON's meta.date)


def _jsonl_records(text: IO[str], where: str, note_date: DateSink) -> Iterator[Record]:
    for number, line in enumerate(text, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CardImportError(
                f"{where}: line {number} is not valid JSON ({exc.msg}); the file is corrupt or truncated"
            ) from None
        yield number, _require_card_object(record, where, f"line {number}")


def _scryfall_records(text: IO[str], where: str, note_date: DateSink) -> Iterator[Record]:
    stream = JsonStream(text, where)
    for number, record in enumerate(stream.array_items(), start=1):
        record = _require_card_object(record, where, f"element {number}")
        if record.get("object", "card") != "card":
            raise CardImportError(
                f"{where}: element {number} is a Scryfall {record.get('object')!r}, not a card; "
                f"download a bulk card file (oracle_cards or default_cards)"
            )
        yield number, record
    stream.expect_end()


def _mtgjson_records(text: IO[str], where: str, note_date: DateSink) -> Iterator[Record]:
    stream = JsonStream(text, where)
    saw_data = False
    number = 0
    for key in stream.object_keys():
        if key != "data":
            meta = stream.value()  # "meta": only its date (when the data was made) is of use
            if key == "meta" and isinstance(meta, dict):
                note_date(meta.get("date"))
            continue
        saw_data = True
        for name in stream.object_keys():
            faces = stream.value()
            number += 1
            if not isinstance(faces, list) or not faces or not all(isinstance(f, dict) for f in faces):
                raise CardImportError(
                    f"{where}: data[{name!r}] is not a list of card faces; is this MTGJSON AtomicCards.json?"
                )
            try:  # a face's fields may be any JSON ("foreignData": "ja"); the converter expects MTGJSON's shapes
                records = mtgjson_to_scryfall(name, faces)
            except (AttributeError, TypeError, ValueError, KeyError):
                raise CardImportError(
                    f"{where}: data[{name!r}] has a field of the wrong type; is this "
                    f"MTGJSON AtomicCards.json?"
                ) from None
            for record in records:
                yield number, record
    stream.expect_end()
    if not saw_data:
        raise CardImportError(f'{where} has no "data" object; is this MTGJSON AtomicCards.json?')


def _require_card_object(record: Any, where: str, position: str) -> dict[str, Any]:
    if not isinstance(record, dict) or not isinstance(record.get("name"), str) or not record["name"].strip():
        raise CardImportError(f'{where}: {position} is not a card (a JSON object with a "name")')
    return record


def mtgjson_to_scryfall(name: str, faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One MTGJSON atomic entry (a list of faces) as Scryfall-shaped records.

    A meld pair becomes one record per face (Scryfall and the bundled data treat each meld card as
    a card of its own); every other multi-face layout becomes one record with ``card_faces``.
    """
    faces = sorted(faces, key=lambda f: str(f.get("side") or "a"))
    front = faces[0]
    layout = {"aftermath": "split"}.get(
        str(front.get("layout") or "normal"), str(front.get("layout") or "normal")
    )
    if layout == "meld":
        parts = [str(f.get("faceName") or f.get("name")) for f in faces]
        return [
            _mtgjson_single(face, str(face.get("faceName") or face.get("name")), layout, parts)
            for face in faces
        ]
    if len(faces) == 1 or not any(f.get("side") for f in faces):
        # One face, or several variants of one card under one name (Un-sets): the first speaks for all.
        return [_mtgjson_single(front, name, layout, [])]
    record = _mtgjson_single(front, name, layout, [])
    record["card_faces"] = [_mtgjson_face(f) for f in faces]
    record["printed_names"] = _mtgjson_printed_names(faces)
    for key in (
        "mana_cost",
        "type_line",
        "oracle_text",
        "power",
        "toughness",
        "loyalty",
        "colors",
        "color_indicator",
    ):
        record.pop(key, None)
    return [complete_multiface(record)]


def _mtgjson_face(face: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": face.get("faceName") or face.get("name"),
        "mana_cost": face.get("manaCost") or "",
        "type_line": face.get("type") or "",
        "oracle_text": face.get("text") or "",
        "power": face.get("power"),
        "toughness": face.get("toughness"),
        "loyalty": face.get("loyalty"),
        "colors": face.get("colors") or [],
        "color_indicator": face.get("colorIndicator") or [],
    }


def _mtgjson_single(face: dict[str, Any], name: str, layout: str, meld_parts: list[str]) -> dict[str, Any]:
    record = _mtgjson_face(face)
    record.update(
        {
            "name": name,
            "layout": layout,
            "color_identity": face.get("colorIdentity") or [],
            "legalities": {str(k): str(v).lower() for k, v in (face.get("legalities") or {}).items()},
            "printings": face.get("printings") or [],
            "printed_names": _mtgjson_printed_names([face]),
        }
    )
    if face.get("isGameChanger"):  # MTGJSON sets the flag only on Game Changers: absent is "not said"
        record["game_changer"] = True
    if meld_parts:
        record["meld_parts"] = meld_parts
    return record


def _mtgjson_printed_names(faces: list[dict[str, Any]]) -> dict[str, str]:
    """Printed names by language; a multi-face card's face names are joined with " // " like its English name."""
    per_language: dict[str, list[str]] = {}
    for face in faces:
        for foreign in face.get("foreignData") or ():
            language = _MTGJSON_LANGUAGES.get(str(foreign.get("language")))
            printed = (
                foreign.get("faceName") or foreign.get("name") if len(faces) > 1 else foreign.get("name")
            )
            if language and isinstance(printed, str) and printed.strip():
                names = per_language.setdefault(language, [])
                if printed not in names:
                    names.append(printed.strip())
    return {language: " // ".join(names) for language, names in per_language.items()}


def complete_multiface(record: dict[str, Any]) -> dict[str, Any]:
    """Fill a multi-face record's card-level fields from its faces, as the bundled data has them:
    a split card's cost is both halves ("{1}{R} // {1}{U}"), every other layout's is its front face's;
    colours, unless the record gives them, are the front face's for cards that turn over (a
    transformed Westvale Abbey is black, the land is colourless) and both halves' otherwise."""
    faces = record.get("card_faces") or []
    if not faces:
        return record
    costs = [f.get("mana_cost") or "" for f in faces]
    if record.get("layout") == "split":
        record["mana_cost"] = " // ".join(costs)
    elif not record.get("mana_cost") or " // " in str(record.get("mana_cost")):
        record["mana_cost"] = costs[0]
    if not record.get("type_line"):
        record["type_line"] = " // ".join(f.get("type_line") or "" for f in faces)
    if not record.get("colors"):
        shown = faces[:1] if record.get("layout") in _FRONT_FACE_LAYOUTS else faces
        record["colors"] = sorted({c for f in shown for c in f.get("colors") or ()})
    return record


# -- collecting ----------------------------------------------------------------------------------


def card_type_problem(card: Card) -> str | None:
    """Why ``card`` has a field of the wrong type (a printed name that is a number, a face name that
    is a list …), or None. Checked while reading, so such a file is refused before anything is saved
    rather than breaking the index (and the next start) after the commit."""
    texts: dict[str, object] = {
        "name": card.name,
        "layout": card.layout,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "oracle_text": card.oracle_text,
        "colors": card.colors,
        "color_identity": card.color_identity,
        "commander legality": card.commander_legality,
    }
    optional: dict[str, object] = {"power": card.power, "toughness": card.toughness, "loyalty": card.loyalty}
    for index, face in enumerate(card.faces):
        texts.update(
            {
                f"card_faces[{index}].{key}": getattr(face, key)
                for key in ("name", "mana_cost", "type_line", "oracle_text")
            }
        )
        optional.update(
            {f"card_faces[{index}].{key}": getattr(face, key) for key in ("power", "toughness", "loyalty")}
        )
    texts.update({f"printings[{i}]": value for i, value in enumerate(card.printings)})
    texts.update({f"meld_parts[{i}]": value for i, value in enumerate(card.meld_parts)})
    if not isinstance(card.printed_names, dict):
        return f"printed_names is {type(card.printed_names).__name__}, not an object"
    texts.update({f"printed_names.{language}": name for language, name in card.printed_names.items()})
    for field, value in texts.items():
        if not isinstance(value, str):
            return f"{field} is {type(value).__name__}, not text"
    for field, optional_value in optional.items():
        if optional_value is not None and not isinstance(optional_value, str):
            return f"{field} is {type(optional_value).__name__}, not text"
    if card.game_changer is not None and not isinstance(card.game_changer, bool):
        return f"game_changer is {type(card.game_changer).__name__}, not true or false"
    return None


class _Collector:
    """Turns records into cards: one card per English name (a ``default_cards`` file has one record
    per printing, whose set codes are merged), printed names from non-English printings folded in."""

    def __init__(self, path: Path) -> None:
        self._where = str(path)
        self._cards: dict[str, Card] = {}
        self._more_printings: dict[str, list[str]] = {}
        self._printed: dict[str, dict[str, str]] = {}
        self._meld_parts: dict[str, set[str]] = {}
        self.skipped = 0
        self.data_date: str | None = None

    def note_date(self, value: object) -> None:
        """Keep the newest YYYY-MM-DD date seen (a release date or the file's own date); other values are
        ignored: a date is only ever shown to people, never trusted for anything else."""
        date = value[:10] if isinstance(value, str) else ""
        if _ISO_DATE.fullmatch(date) and (self.data_date is None or date > self.data_date):
            self.data_date = date

    def add(self, number: int, record: dict[str, Any]) -> None:
        """Add one record; any field of the wrong shape (``"lang": []``, ``"printings": 5``) is a clear error."""
        if not isinstance(record.get("layout", ""), str):
            raise CardImportError(
                f"{self._where}: record {number} is not a card (layout is "
                f"{type(record['layout']).__name__}, not text)"
            )
        try:
            self._add(number, record)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise CardImportError(
                f"{self._where}: record {number} is not a card ({_describe(exc)})"
            ) from None

    def _add(self, number: int, record: dict[str, Any]) -> None:
        if record.get("layout") in _SKIPPED_LAYOUTS:
            self.skipped += 1
            return
        name = record["name"]
        self.note_date(record.get("released_at"))
        language = record.get("lang", "en")
        if language != "en":  # Scryfall all_cards: a foreign printing only lends its printed name
            ours = _SCRYFALL_LANGUAGES.get(language)
            if ours and isinstance(record.get("printed_name"), str) and record["printed_name"]:
                self._printed.setdefault(name, {}).setdefault(ours, record["printed_name"])
            else:
                self.skipped += 1
            return
        printings = record.get("printings") or ([str(record["set"]).upper()] if record.get("set") else [])
        if name in self._cards:
            self._more_printings.setdefault(name, []).extend(printings)
            self._meld_parts.setdefault(name, set()).update(record.get("meld_parts") or ())
            return
        record["printings"] = printings
        try:
            card = Card.from_scryfall(complete_multiface(record))
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise CardImportError(
                f"{self._where}: record {number} ({name!r}) is not a card ({_describe(exc)})"
            ) from None
        problem = card_type_problem(card)
        if problem:
            raise CardImportError(f"{self._where}: record {number} ({name!r}) is not a card ({problem})")
        self._cards[name] = card

    def _complete_meld_groups(self) -> dict[str, tuple[str, ...]]:
        """Every card of a meld group names the whole group (MTGJSON lists each pair separately):
        the fronts first, the melded back (no mana cost) last, as Scryfall does."""
        related: dict[str, set[str]] = {}
        for name, card in self._cards.items():
            parts = set(card.meld_parts) | self._meld_parts.get(name, set())
            for part in parts:
                related.setdefault(part, set()).update(parts)
        out = {}
        for name, card in self._cards.items():
            if card.meld_parts:
                group = set().union(*(related[p] for p in card.meld_parts))
                backs = {n for n in group if n in self._cards and not self._cards[n].mana_cost}
                out[name] = tuple(sorted(group, key=lambda n: (n in backs, n)))
        return out

    def cards(self) -> list[Card]:
        meld_groups = self._complete_meld_groups()
        out = []
        for name, card in self._cards.items():
            if name in meld_groups and set(meld_groups[name]) != set(card.meld_parts):
                card = replace(card, meld_parts=meld_groups[name])
            extra_names = self._printed.get(name)
            if extra_names:
                card = replace(card, printed_names={**extra_names, **card.printed_names})
            more = self._more_printings.get(name)
            if more:
                card = replace(card, printings=tuple(dict.fromkeys((*card.printings, *more))))
            out.append(card)
        return out


def with_printed_names(
    cards: list[Card], names: dict[str, dict[str, str]], *, overwrite: bool = True
) -> list[Card]:
    """``cards`` with printed names taken from ``names`` (English name -> {language: name}).

    ``cards sync`` uses this to lay MTGJSON's Japanese and Chinese names over Scryfall's English-only
    oracle cards; an import of an English-only file uses it (``overwrite=False``) to keep the printed
    names the database already had. ``cards`` itself comes back when no name changes (a first import):
    the caller can then keep the index it built of them.
    """
    if not names:
        return cards
    out = []
    changed = False
    for card in cards:
        extra = names.get(card.name)
        if extra:
            merged = {**card.printed_names, **extra} if overwrite else {**extra, **card.printed_names}
            if merged != card.printed_names:
                card = replace(card, printed_names=merged)
                changed = True
        out.append(card)
    return out if changed else cards
