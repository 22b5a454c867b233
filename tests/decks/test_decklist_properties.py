"""Property tests of the deck-list parser: arbitrary text or bytes never raise anything but
``DecklistRefused``, and a generated deck written in each export format reads back as the same deck."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from xml.sax.saxutils import quoteattr

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.domain.decklist import DecklistRefused, Section, parse_decklist

FILENAMES = st.sampled_from([None, "deck.txt", "deck.dek", "deck.cod", "deck.csv", "deck.dck"])
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.text(max_size=600), FILENAMES)
@example("²", None)  # found by this test: a digit int() refuses crashed the count reader
@example('<?xml version="1.0"?><Deck><Cards Quantity="²" Name="A"/></Deck>', None)
@example("Count,Name\n²,Sol Ring", "x.csv")
def test_arbitrary_text_is_read_or_refused(text: str, filename: str | None) -> None:
    try:
        parsed = parse_decklist(text, filename)
    except DecklistRefused as refusal:
        assert refusal.reason
    else:
        assert parsed.entries  # a list with no card is refused, never returned empty
        assert all(0 < e.count < 1000 and e.name.strip() for e in parsed.entries)


@SETTINGS
@given(st.binary(max_size=600), FILENAMES)
def test_arbitrary_bytes_are_read_or_refused(data: bytes, filename: str | None) -> None:
    try:
        parsed = parse_decklist(data, filename)
    except DecklistRefused as refusal:
        assert refusal.reason
    else:
        assert parsed.entries


# Deck-like text: lines of format syntax in any order (headers, markers, brackets, XML), shuffled.
PIECES = st.sampled_from(
    [
        "1 Sol Ring",
        "1x Sol Ring *CMDR*",
        "[Main]",
        "[metadata]",
        "Name=X",
        "SB: 1 [C21:1] Island",
        "NAME:x",
        "Creatures (3)",
        "Display Commander",
        "Sideboard",
        "1 Angel Token",
        "1x A (cmd) 1 [Maybe{noDeck}]",
        "#tag",
        "1 A <borderless> [SLD]",
        "1 A|CMD|1",
        '<card number="1" name="A"/>',
        '<zone name="side">',
        "Count,Name",
        "1,Island",
        "// Commander",
        "Commander: Kaalia",
        "1 Name #a #b",
        "2 x Island",
        "LAYOUT MAIN:(1,1)",
        "",
    ]
)


@SETTINGS
@given(st.lists(PIECES, max_size=40), FILENAMES)
def test_shuffled_format_syntax_is_read_or_refused(pieces: list[str], filename: str | None) -> None:
    try:
        parsed = parse_decklist("\n".join(pieces), filename)
    except DecklistRefused:
        return
    assert parsed.entries


# -- round trip ---------------------------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéöñ"
_WORD = st.text(alphabet=_LETTERS, min_size=1, max_size=8)
_NAME = st.builds(
    lambda first, rest, sep: (first.capitalize() + sep + " ".join(rest)).strip(),
    _WORD,
    st.lists(_WORD, max_size=3),
    st.sampled_from([" ", ", ", "'s ", "-"]),
).filter(
    lambda name: (
        name.lower() != "x"
        and not name.lower().startswith("x ")  # "1 x Name" is a count form
        and not name.lower().endswith("token")
    )
)  # a sideboard "... Token" is noted as a token


@st.composite
def decks(draw) -> tuple[list[str], list[tuple[int, str]], list[tuple[int, str]]]:
    """(commanders, main deck, sideboard) with counts."""
    commanders = draw(st.lists(_NAME, min_size=0, max_size=2, unique=True))
    main = draw(st.lists(st.tuples(st.integers(1, 30), _NAME), min_size=1, max_size=25))
    side = draw(st.lists(st.tuples(st.integers(1, 4), _NAME), max_size=4))
    return commanders, main, side


def _arena(c, m, s):
    out = [
        "Commander",
        *[f"1 {n} (CMD) 12" for n in c],
        "",
        "Deck",
        *[f"{k} {n} (C21) 263 *F*" for k, n in m],
    ]
    return "\n".join(out + (["", "Sideboard", *[f"{k} {n}" for k, n in s]] if s else []))


def _archidekt(c, m, s):
    return "\n".join(
        [f"1x {n} (cmd) 1 [Commander{{top}}]" for n in c]
        + [f"{k}x {n} (c21) 2 [Ramp,Draw]" for k, n in m]
        + [f"{k}x {n} (m10) 3 [Sideboard{{noDeck}}{{noPrice}}]" for k, n in s]
    )


def _tappedout(c, m, s):
    out = (
        [f"1x {n} *CMDR* #Commander" for n in c]
        + ["", "Creatures (0)"]
        + [f"{k}x {n} *f* #Tag #!Pin" for k, n in m]
    )
    return "\n".join(out + (["", "Sideboard:", *[f"{k}x {n}" for k, n in s]] if s else []))


def _mtggoldfish(c, m, s):
    out = [
        "Commander",
        *[f"1 {n} <extended> [CMD]" for n in c],
        "",
        "Lands (3)",
        *[f"{k} {n} <251> [ZNR]" for k, n in m],
    ]
    return "\n".join(out + (["", "Sideboard", *[f"{k} {n}" for k, n in s]] if s else []))


def _forge(c, m, s):
    return "\n".join(
        [
            "[metadata]",
            "Name=Generated",
            "[Commander]",
            *[f"1 {n}|CMD|1" for n in c],
            "[Main]",
            *[f"{k} {n}|C21" for k, n in m],
            "[Sideboard]",
            *[f"{k} {n}|M10|2" for k, n in s],
        ]
    )


def _xmage(c, m, s):
    """XMage has no commander section: generated commanders go to the sideboard (checked below)."""
    return "\n".join(
        [
            "NAME:Generated",
            *[f"{k} [C21:{i}] {n}" for i, (k, n) in enumerate(m, 1)],
            *[f"SB: {k} [M10:{i}] {n}" for i, (k, n) in enumerate(s + [(1, n) for n in c], 1)],
            "LAYOUT MAIN:(1,1)(NONE,false,50)|([C21:1])",
        ]
    )


def _dek(c, m, s):
    rows = [
        f'  <Cards CatID="1" Quantity="{k}" Sideboard="false" Name={quoteattr(n)} Annotation="0" />'
        for k, n in m
    ]
    rows += [
        f'  <Cards CatID="2" Quantity="{k}" Sideboard="true" Name={quoteattr(n)} />'
        for k, n in s + [(1, n) for n in c]
    ]
    return '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n' + "\n".join(rows) + "\n</Deck>"


def _cod(c, m, s):
    main = [f'    <card number="{k}" name={quoteattr(n)}/>' for k, n in m]
    side = [f'    <card number="{k}" name={quoteattr(n)}/>' for k, n in s + [(1, n) for n in c]]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n<deckname>g</deckname>\n'
        '  <zone name="main">\n'
        + "\n".join(main)
        + '\n  </zone>\n  <zone name="side">\n'
        + "\n".join(side)
        + "\n  </zone>\n</cockatrice_deck>"
    )


def _csv(c, m, s):
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow(["Count", "Tradelist Count", "Name", "Edition", "Board"])
    writer.writerows(
        [[1, 0, n, "cmd", "commander"] for n in c]
        + [[k, 0, n, "c21", "mainboard"] for k, n in m]
        + [[k, 0, n, "m10", "sideboard"] for k, n in s]
    )
    return out.getvalue()


WRITERS: dict[
    str, tuple[Callable, str | None, bool]
] = {  # writer, file name, commanders kept in the sideboard
    "arena": (_arena, None, False),
    "archidekt": (_archidekt, None, False),
    "tappedout": (_tappedout, None, False),
    "mtggoldfish": (_mtggoldfish, None, False),
    "forge": (_forge, "g.dck", False),
    "xmage": (_xmage, "g.dck", True),
    "dek": (_dek, "g.dek", True),
    "cod": (_cod, "g.cod", True),
    "csv": (_csv, "g.csv", False),
}


def _expected(commanders, main, side, in_sideboard: bool):
    if in_sideboard:
        side = side + [(1, n) for n in commanders]
        main_count, side_count = sum(k for k, _ in main), sum(k for k, _ in side)
        commanders = []
        if 1 <= side_count <= 2 and main_count + side_count == 100:  # the MTGO/Cockatrice/XMage convention
            commanders, side = [n for _, n in side], []
    return sorted(commanders), sorted(main), sorted(side)


@settings(max_examples=60, deadline=None)
@given(decks(), st.sampled_from(sorted(WRITERS)))
def test_a_generated_deck_round_trips_through_each_format(deck, fmt: str) -> None:
    commanders, main, side = deck
    writer, filename, in_sideboard = WRITERS[fmt]
    parsed = parse_decklist(writer(commanders, main, side), filename)
    assert parsed.issues == ()
    got = (
        sorted(parsed.commander_names),
        sorted((e.count, e.name) for e in parsed.in_section(Section.MAIN)),
        sorted((e.count, e.name) for e in parsed.in_section(Section.SIDEBOARD)),
    )
    assert got == _expected(commanders, main, side, in_sideboard)
