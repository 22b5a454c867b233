"""Exact behaviour of the deck-list parser's corners: the decoded text, the refusal keys and values,
each parsed entry (count, name, section, line), each issue and note, for every format's odd inputs."""

from __future__ import annotations

import pytest

from bot.domain import decklist
from bot.domain.decklist import (
    MAX_BYTES,
    MAX_LINES,
    DeckLine,
    Decklist,
    DecklistRefused,
    LineIssue,
    Section,
    decode,
    parse_csv,
    parse_decklist,
    parse_text,
    parse_xml,
)

M, C, S = Section.MAIN, Section.COMMANDER, Section.SIDEBOARD


def refusal(call, *args) -> tuple[str, dict]:
    with pytest.raises(DecklistRefused) as refused:
        call(*args)
    return refused.value.reason, refused.value.values


# -- decode -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"\xef\xbb\xbf1 Sol Ring\r\n2 Island\r3 Forest\n\n  \n\t\n", "1 Sol Ring\n2 Island\n3 Forest"),
        ("\ufeff\ufeff1 Sol Ring", "1 Sol Ring"),  # a second BOM (or one in a str) is dropped too
        (b"\xef\xbb\xbf\xef\xbb\xbf1 Sol Ring", "1 Sol Ring"),
        ("1 Sol Ring".encode("utf-16"), "1 Sol Ring"),
        (b"\xfe\xff" + "1 Æther Vial\r\n".encode("utf-16-be"), "1 Æther Vial"),
        (b"\xff\xfe" + "1 祖神兽\n".encode("utf-16-le"), "1 祖神兽"),
        ("1 A\n", "1 A"),
        ("1 A  \n \n", "1 A  "),  # the last line with a card keeps its own spaces
        ("  1 A\n\n1 B\r\n", "  1 A\n\n1 B"),
        ("\r\n \n", ""),
        ("", ""),
        ("1 A" + "\x01" * 8, "1 A" + "\x01" * 8),  # a few control characters are still text
        ("A" * 4096 + "\x01" * 9, "A" * 4096 + "\x01" * 9),  # only the start is looked at
        ("é" * 4096 + "\x01" * 9, "é" * 4096 + "\x01" * 9),  # ... its first 4,096 characters
    ],
)
def test_decode_gives_the_exact_text(data: bytes | str, text: str) -> None:
    assert decode(data) == text


@pytest.mark.parametrize(
    "data",
    [
        b"1 Lim-D\xfbl's Vault",  # latin-1, not UTF-8
        b"\xff\xfe1",  # UTF-16 cut in the middle of a character
        b"\xfe\xff\xd8\x00",  # UTF-16 with a lone surrogate
        "1 Sol Ring\ud800",  # a str with a lone surrogate
        "1 A\x00",
        "1 A" + "\x01" * 9,
        "1 A" + "\x1f\x0b\x0c\x0e\x10\x11\x12\x13\x14",
        "A" * 4087 + "\x01" * 9,
        "é" * 4087 + "\x01" * 9,
    ],
)
def test_binary_is_refused_with_no_values(data: bytes | str) -> None:
    assert refusal(decode, data) == ("binary", {})


def test_tabs_and_line_ends_are_not_control_characters() -> None:
    text = "\t1 A\n" * 20
    assert decode(text) == text.rstrip("\n")


def test_size_and_line_limits_are_exact() -> None:
    assert decode(b"A" * MAX_BYTES) == "A" * MAX_BYTES
    assert refusal(decode, b"A" * (MAX_BYTES + 1)) == (
        "too_large",
        {"size": MAX_BYTES + 1, "limit": MAX_BYTES},
    )
    assert refusal(decode, "é" * (MAX_BYTES // 2 + 1)) == (
        "too_large",
        {"size": MAX_BYTES + 2, "limit": MAX_BYTES},
    )
    assert decode("A\n" * MAX_LINES) == "\n".join(["A"] * MAX_LINES)
    assert refusal(decode, "A\n" * (MAX_LINES + 1)) == (
        "too_many_lines",
        {"lines": MAX_LINES + 1, "limit": MAX_LINES},
    )
    assert refusal(decode, "\n" * 5 + "A\n" * MAX_LINES) == (
        "too_many_lines",
        {"lines": MAX_LINES + 5, "limit": MAX_LINES},
    )
    assert decode("\n" * 5000) == ""


def test_refusal_message_and_pickling() -> None:
    import pickle

    refused = DecklistRefused("too_large", size=3, limit=2)
    assert str(refused) == "too_large: {'size': 3, 'limit': 2}"
    assert str(DecklistRefused("binary")) == "binary"
    again = pickle.loads(pickle.dumps(refused))
    assert (type(again), again.reason, again.values, str(again)) == (
        DecklistRefused,
        "too_large",
        {"size": 3, "limit": 2},
        str(refused),
    )


# -- suffixes and categories ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "stripped"),
    [
        ("Sol Ring", ("Sol Ring", None)),
        ("Erase (Not the Urza's Legacy One)|CMD|1", ("Erase (Not the Urza's Legacy One)", None)),
        ("Sol Ring |CMD|1 (C21) 3", ("Sol Ring", None)),
        ("Sol Ring\t#Ramp #!Staple", ("Sol Ring", None)),
        ("Sol#Ring", ("Sol#Ring", None)),  # a "#" inside the name is no tag
        ("Sol Ring (CMR) 472 *F*", ("Sol Ring", None)),
        ("Sol Ring (SLD) 12a *E* ^Have,#37d67a^", ("Sol Ring", None)),
        ("Sol Ring *F*", ("Sol Ring", None)),
        ("Sol Ring ^Buy^", ("Sol Ring", None)),
        ("Sol Ring <borderless>", ("Sol Ring", None)),
        ("Sol Ring [Ramp]", ("Sol Ring", None)),
        ("Sol Ring (C21)", ("Sol Ring", None)),
        ("Kaalia *CMDR*", ("Kaalia", C)),
        ("Kaalia *cmdr*", ("Kaalia", C)),
        ("Kaalia [Commander{top}]", ("Kaalia", C)),
        ("Kaalia [Sideboard] [Ramp]", ("Kaalia", S)),  # a later category that names nothing keeps the section
        ("Kaalia [Ramp] [Sideboard]", ("Kaalia", S)),
        ("Kaalia [Sideboard] [Commander] *F*", ("Kaalia", C)),
        ("Kaalia [Sideboard] *CMDR*", ("Kaalia", C)),
        ("Kaalia [Maybeboard{noDeck}]", ("Kaalia", Section.MAYBEBOARD)),
        ("Erase (Not the Urza's Legacy One) (CMD) 1 *F*", ("Erase (Not the Urza's Legacy One)", None)),
        ("Name (with space) x", ("Name (with space) x", None)),  # no chain of suffixes: all of it is the name
        ("Name [unclosed", ("Name [unclosed", None)),
        (" (CMD) 1", (" (CMD) 1", None)),  # a suffix with nothing before it is no suffix
        (" (x y) Name (CMD) 1", (" (x y) Name", None)),
        ("A (CMD) 1 (C21) 2", ("A", None)),
    ],
)
def test_strip_suffixes(body: str, stripped: tuple[str, Section | None]) -> None:
    assert decklist._strip_suffixes(body) == stripped


@pytest.mark.parametrize(
    ("category", "section"),
    [
        ("Commander{top}", C),
        (" Commander ", C),
        ("Sideboard,Ramp", S),
        ("Ramp;Commander", None),
        ("Ramp", None),
        ("Land", None),  # a type is a header word, not an Archidekt category that moves the card
        ("Ramp{noPrice}", None),
        ("Maybeboard{noDeck}{noPrice}", Section.MAYBEBOARD),
        ("Ideas{noDeck}", Section.MAYBEBOARD),
        ("{noDeck}", Section.MAYBEBOARD),
        ("Tokens & Extras{noDeck}", Section.EXTRA),
        ("Planes and more{NODECK}", Section.PLANAR),
        ("Commander stuff{noDeck}", Section.MAYBEBOARD),  # "Commander" is not a section left out of the deck
        ("Sideboard{noDeck}", S),
        ("Display Commander{noDeck}", Section.DISPLAY),
        ("", None),
    ],
)
def test_category_section(category: str, section: Section | None) -> None:
    assert decklist._category_section(category) is section


# -- XML: the documents the strict reading leaves to expat ------------------------------------------------------


def test_dek_in_another_attribute_order_with_every_odd_card() -> None:
    text = (
        '<?xml version="1.0"?>\n<Deck>\n'
        '<Cards Name=" Sol Ring " Quantity=" 2 " Sideboard="False"/>\n'
        '<Cards Name="Kaalia of the Vast" Quantity="1" Sideboard="TRUE"/>\n'
        '<Cards Name="Island (C21) 3 *F*" Quantity="10"/>\n'
        '<Cards Name="Angel Token" Quantity="1" Sideboard="true"/>\n'
        '<Cards Name="Island" Quantity="0" Sideboard="false"/>\n'
        '<Cards Name="Island" Quantity="1000" Sideboard="false"/>\n'
        '<Cards Name="Island" Quantity="x" Sideboard="false"/>\n'
        '<Cards Quantity="1"/>\n'
        f'<Cards Name="{"B" * 151}" Quantity="1"/>\n'
        '<card number="1" name="Not a dek element"/>\n'
        "</Deck>"
    )
    assert parse_xml(text) == Decklist(
        entries=(
            DeckLine(2, "Sol Ring", M, 3),
            DeckLine(1, "Kaalia of the Vast", S, 4),
            DeckLine(10, "Island", M, 5),
        ),
        issues=(
            LineIssue(7, '<card quantity="0" name="Island">', "zero_count"),
            LineIssue(8, '<card quantity="1000" name="Island">', "count_too_large"),
            LineIssue(9, '<card quantity="x" name="Island">', "bad_count"),
            LineIssue(10, '<card quantity="1" name="">', "no_name"),
            LineIssue(11, '<card quantity="1" name="' + "B" * 54 + "…", "name_too_long"),
        ),
        ignored=(DeckLine(1, "Angel Token", Section.EXTRA, 6),),
        format="dek",
        notes=("extras_ignored",),
    )


def test_cod_zones_by_name_and_cards_in_another_order() -> None:
    text = (
        '<cockatrice_deck version="1">\n'
        '<card number="3" name="Before Any Zone"/>\n'
        '<zone name=" Main "><card name="Sol Ring" number="2"/></zone>\n'
        '<zone name="SIDE">\n<card name="Kaalia of the Vast" number="1"/>\n</zone>\n'
        '<zone name="tokens"><card name="Angel" number="1"/></zone>\n'
        '<zone name="maybeboard"><card name="Serra Angel" number="1"/></zone>\n'
        '<zone name="Commander"><card name="Oona" number="1"/></zone>\n'
        '<zone name="x"><card name="Duress" number="1"/></zone>\n'
        '<zone><card name="Opt" number="1"/><card name="Opt"/><Cards Quantity="1" Name="Dek element"/></zone>\n'
        "</cockatrice_deck>"
    )
    assert parse_xml(text) == Decklist(
        entries=(
            DeckLine(3, "Before Any Zone", M, 2),
            DeckLine(2, "Sol Ring", M, 3),
            DeckLine(1, "Kaalia of the Vast", S, 5),
            DeckLine(1, "Oona", C, 9),
            DeckLine(1, "Duress", S, 10),
            DeckLine(1, "Opt", S, 11),
        ),
        issues=(LineIssue(11, '<card quantity="" name="Opt">', "bad_count"),),
        ignored=(DeckLine(1, "Angel", Section.EXTRA, 7), DeckLine(1, "Serra Angel", Section.MAYBEBOARD, 8)),
        format="cod",
        notes=("extras_ignored", "maybeboard_ignored"),
    )


def test_another_xml_document_has_no_format_of_ours() -> None:
    text = '<?xml version="1.0"?>\n<deckfile><Cards Quantity="1" Name="A"/><card number="1" name="B"/></deckfile>'
    assert parse_xml(text) == Decklist(format="xml")
    assert refusal(parse_decklist, text) == ("no_cards", {"format": "xml", "unread": 0, "ignored": 0})


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('<?xml version="1.0"?>\n<Deck>\n<Cards Quantity="1"', 3),
        ("<Deck>\n\n</Dek>", 3),
        ("<Deck>&bad;</Deck>", 1),
        ('<?xml version="1.0"?>\n<!DOCTYPE d>\n<Deck/>', 1),
        ('<Deck>\n<!ENTITY a "b">\n</Deck>', 1),
    ],
)
def test_broken_xml_is_refused_with_its_line(text: str, line: int) -> None:
    assert refusal(parse_xml, text) == ("bad_xml", {"line": line})


def _dek(main: int, side: list[str], commander: bool = False) -> str:
    cards = [f'<Cards Quantity="{main}" Sideboard="false" Name="Island"/>']
    cards += [f'<Cards Quantity="1" Sideboard="true" Name="{name}"/>' for name in side]
    return "<Deck>\n" + "\n".join(cards) + "\n</Deck>"


@pytest.mark.parametrize(
    ("main", "side", "commanders"),
    [
        (99, ["Kaalia"], ["Kaalia"]),
        (98, ["Okaun", "Zndrsplt"], ["Okaun", "Zndrsplt"]),
        (98, ["Kaalia"], []),
        (100, ["Kaalia"], []),
        (97, ["A", "B", "C"], []),
        (100, [], []),
    ],
)
def test_commanders_from_the_sideboard_of_a_dek(main: int, side: list[str], commanders: list[str]) -> None:
    for text in (_dek(main, side), _dek(main, side).replace("<Deck>", "<Deck><!-- c -->")):  # both readings
        parsed = parse_xml(text)
        assert parsed.commander_names == commanders
        assert [e.name for e in parsed.in_section(S)] == ([] if commanders else side)
        assert parsed.notes == (("commander_from_sideboard",) if commanders else ())


# -- which reader: file name, then content ----------------------------------------------------------------------

_DEK = '<Deck>\n<Cards Quantity="1" Sideboard="false" Name="Sol Ring"/>\n</Deck>'
_COD = (
    '<cockatrice_deck>\n<zone name="main">\n<card number="1" name="Sol Ring"/>\n</zone>\n</cockatrice_deck>'
)


@pytest.mark.parametrize(
    ("text", "filename", "fmt", "line"),
    [
        (_DEK, None, "dek", 2),
        (" \n\t" + _DEK, None, "dek", 3),  # spaces before the document
        ('<?xml version="1.0"?>\n' + _DEK, "deck.txt", "dek", 3),
        (_COD, None, "cod", 3),
        (_COD, "DECK.COD", "cod", 3),
        (_DEK, "My Deck.DEK", "dek", 2),
        ("Card Name,Quantity\nSol Ring,1", None, "csv", 2),  # a header cell with a space
        ("Count,Name\n1,Sol Ring\n1,Island", None, "csv", 2),
        ("1,Sol Ring", "deck.CSV", "csv", 1),
        ("1 Sol Ring", "deck.dck", "text", 1),
    ],
)
def test_the_reader_is_chosen_by_file_name_then_content(
    text: str, filename: str | None, fmt: str, line: int
) -> None:
    parsed = parse_decklist(text, filename)
    assert (parsed.format, parsed.entries[0]) == (fmt, DeckLine(1, "Sol Ring", M, line))


@pytest.mark.parametrize("filename", ["deck.dek", "DECK.COD"])
def test_a_text_list_named_as_xml_is_refused_as_xml(filename: str) -> None:
    assert refusal(parse_decklist, "1 Sol Ring\n1 Island", filename) == ("bad_xml", {"line": 1})


def test_empty_and_cardless_lists_are_refused_with_their_counts() -> None:
    assert refusal(parse_decklist, " \n\t\n") == ("empty", {})
    assert refusal(parse_decklist, "Maybeboard\n2 Serra Angel\n1 Opt\n0 Island\nx Island") == (
        "no_cards",
        {"format": "text", "unread": 1, "ignored": 4},
    )
    assert refusal(parse_decklist, "Count,Name\n0,Sol Ring", "d.csv") == (
        "no_cards",
        {"format": "csv", "unread": 1, "ignored": 0},
    )


# -- text: every kind of line, each entry exact ------------------------------------------------------------------


def _read(text: str) -> tuple[list, list, list, str, tuple[str, ...]]:
    parsed = parse_text(text)
    return (
        [(e.count, e.name, e.section.value, e.line) for e in parsed.entries],
        [(i.line, i.text, i.reason) for i in parsed.issues],
        [(e.count, e.name, e.section.value, e.line) for e in parsed.ignored],
        parsed.format,
        parsed.notes,
    )


_MIXED = """// Heavenly Inferno
About
Name Heavenly Inferno
Deck
1 Sol Ring
<spaced island>
3 x Forest
4X Swamp
1 Lim-Dûl's Vault (ALL) 21a *F*
1 Erase (Not the Urza's Legacy One)
1 Kaalia of the Vast *CMDR*
1x Akroma (cmd) 1 [Commander{top}]
1 Angel [Sideboard]
1 Fire // Ice
Circle of Protection: Red
SB: 2 Duress
sb: Opt
Commander: Oona
Companions: Lurrus
# a comment
Creatures (30)
1 Llanowar Elves #Ramp #!Staple
1 Sol Ring <borderless>
1 Island|CMD|1
2 Mountain (CMD) 1 [Maybeboard{noDeck}]
1 Ideas [Ideas{noDeck}]
Sideboard:
1 Angel Token
1 Spirit Double-Sided Token
1 Oppression
Display Commander
1 Kaalia of the Vast
Planar Deck
1 Akoum
Scheme Deck
1 All in Good Time
""".replace("<spaced island>", " 2x  Island  ")  # spaces around: the long way


def test_every_kind_of_text_line() -> None:
    assert _read(_MIXED) == (
        [
            (1, "Sol Ring", "main", 5),
            (2, "Island", "main", 6),
            (3, "Forest", "main", 7),
            (4, "Swamp", "main", 8),
            (1, "Lim-Dûl's Vault", "main", 9),
            (1, "Erase (Not the Urza's Legacy One)", "main", 10),
            (1, "Kaalia of the Vast", "commander", 11),
            (1, "Akroma", "commander", 12),
            (1, "Angel", "sideboard", 13),
            (1, "Fire // Ice", "main", 14),
            (1, "Circle of Protection: Red", "main", 15),
            (2, "Duress", "sideboard", 16),
            (1, "Opt", "sideboard", 17),
            (1, "Oona", "commander", 18),
            (1, "Lurrus", "companion", 19),
            (1, "Llanowar Elves", "main", 22),
            (1, "Sol Ring", "main", 23),
            (1, "Island", "main", 24),
            (1, "Oppression", "sideboard", 30),
        ],
        [],
        [
            (2, "Mountain", "maybeboard", 25),
            (1, "Ideas", "maybeboard", 26),
            (1, "Angel Token", "extra", 28),
            (1, "Spirit Double-Sided Token", "extra", 29),
            (1, "Kaalia of the Vast", "display", 32),
            (1, "Akoum", "planar", 34),
            (1, "All in Good Time", "scheme", 36),
        ],
        "text",
        ("maybeboard_ignored", "extras_ignored", "display_ignored", "planar_ignored", "scheme_ignored"),
    )


def test_forge_sections_and_an_unknown_one() -> None:
    text = (
        "[metadata]\nName=Heavenly Inferno\n[Commander]\n1 Kaalia of the Vast|CMD|1\n[Main]\n1 Sol Ring|C21\n"
        "[Unknown Thing]\n1 Island\n[Main\n[Sideboard]\n1 Duress"
    )
    assert _read(text) == (
        [
            (1, "Kaalia of the Vast", "commander", 4),
            (1, "Sol Ring", "main", 6),
            (1, "Island", "main", 8),
            (1, "Duress", "sideboard", 11),
        ],
        [(7, "[Unknown Thing]", "unknown_section"), (9, "[Main", "bad_characters")],
        [],
        "forge",
        (),
    )


def test_xmage_lines_metadata_and_commander_from_the_sideboard() -> None:
    text = (
        "NAME:My Deck\n1 [C21:263] Sol Ring\n98 [CMD] Island\nSB: 1 [CMD:1] Kaalia of the Vast\n"
        "LAYOUT MAIN:(1,1)|([C21:263])\nLAYOUT SIDEBOARD:(1,1)"
    )
    assert _read(text) == (
        [(1, "Sol Ring", "main", 2), (98, "Island", "main", 3), (1, "Kaalia of the Vast", "commander", 4)],
        [],
        [],
        "xmage",
        ("commander_from_sideboard",),
    )
    assert _read("1 [CMD] Sol Ring\n2 [C21] Island")[3] == "text"  # MTGO's set prefix alone is no XMage list
    assert _read("1 [CMD] Sol Ring\n2 [C21:1] Island")[0] == [
        (1, "Sol Ring", "main", 1),
        (2, "Island", "main", 2),
    ]
    assert _read("1 Sol Ring\n2 [C21:1] Island")[3] == "xmage"
    assert _read("  1 [C21:1] Island")[3] == "xmage"  # read the long way (a line with spaces around)
    assert _read("1 [C21:1] Island (XLN) 1 *F*")[:4] == ([(1, "Island", "main", 1)], [], [], "xmage")


def test_header_lines_in_every_form() -> None:
    text = (
        "# Sideboard\n1 Duress\n//Commander\n1 Kaalia\n// my deck\n1 Opt\nSideboard（15）：\n1 Negate\n"
        "Main Deck\n1 Ponder\ncommander (1):\n1 Oona\nLands (37)\n1 Forest\nSol Ring 2\n#Maybe\n1 Serra Angel"
    )
    assert _read(text) == (
        [
            (1, "Duress", "sideboard", 2),
            (1, "Kaalia", "commander", 4),
            (1, "Opt", "commander", 6),
            (1, "Negate", "sideboard", 8),
            (1, "Ponder", "main", 10),
            (1, "Oona", "commander", 12),
            (1, "Forest", "main", 14),
            (1, "Sol Ring 2", "main", 15),
        ],
        [],
        [(1, "Serra Angel", "maybeboard", 17)],
        "text",
        ("maybeboard_ignored",),
    )


def test_named_header_and_sideboard_lines() -> None:
    assert _read(
        "Commander: 1 Kaalia\ncompanion: 2x Lurrus\nSB:1 Duress\nsb:  Opt\n指挥官：仙儿\nSideboard\n"
        "Commander:Oona"
    ) == (
        [
            (1, "Kaalia", "commander", 1),
            (2, "Lurrus", "companion", 2),
            (1, "Duress", "sideboard", 3),
            (1, "Opt", "sideboard", 4),
            (1, "仙儿", "commander", 5),
            (1, "Oona", "commander", 7),
        ],
        [],
        [],
        "text",
        (),
    )


def test_counts_and_malformed_lines() -> None:
    text = (
        "0 Sol Ring\n1000 Island\n1234567890 Forest\n² Island\n2 x Island\n2 × Plains\n2× Swamp\n2ｘ Mountain\n"
        "2 x\n2x x Island\n3 X Opt\n1 "
        + "L" * 150
        + "\n1 "
        + "M" * 151
        + " (CMD) 1\n1 Sol Ring <img src=x>\n"
        "1 Sol Ring {x}\n999 Relentless Rats"
    )
    assert _read(text) == (
        [
            (1, "² Island", "main", 4),
            (2, "Island", "main", 5),
            (2, "Plains", "main", 6),
            (2, "Swamp", "main", 7),
            (2, "Mountain", "main", 8),
            (2, "x", "main", 9),
            (2, "x Island", "main", 10),
            (3, "Opt", "main", 11),
            (1, "L" * 150, "main", 12),
            (999, "Relentless Rats", "main", 16),
        ],
        [
            (1, "0 Sol Ring", "zero_count"),
            (2, "1000 Island", "count_too_large"),
            (3, "1234567890 Forest", "count_too_large"),
            (13, "1 " + "M" * 77 + "…", "name_too_long"),
            (14, "1 Sol Ring <img src=x>", "bad_characters"),
            (15, "1 Sol Ring {x}", "bad_characters"),
        ],
        [],
        "text",
        (),
    )


@pytest.mark.parametrize(
    ("text", "commanders"),
    [
        ("99 Island\n\n1 Kaalia", ["Kaalia"]),
        ("\n\n98 Island\n\n\n1 Okaun\n1 Zndrsplt", ["Okaun", "Zndrsplt"]),
        ("98 Island\n\n2 Kaalia", ["Kaalia"]),
        ("50 Island\n\n49 Forest\n\n1 Kaalia", ["Kaalia"]),
        ("97 Island\n\n1 A\n1 B\n1 C", []),
        ("100 Island\n\n1 Kaalia", []),
        ("98 Island\n\n1 Kaalia", []),
        ("99 Island\n1 Kaalia", []),
        ("99 Island\nSB: 1 Kaalia", []),
        ("98 Island\n1 Opt [Sideboard]\n\n1 Kaalia", []),
        ("Deck\n99 Island\n\n1 Kaalia", []),
        ("Commander: Oona\n98 Island\n\n1 Kaalia", ["Oona"]),
    ],
)
def test_commanders_after_the_last_blank_line(text: str, commanders: list[str]) -> None:
    parsed = parse_decklist(text)
    assert parsed.commander_names == commanders
    assert parsed.notes == (("commander_from_sideboard",) if commanders and "Oona" not in commanders else ())


@pytest.mark.parametrize(
    ("line", "shown"), [("0 " + "x" * 78, "0 " + "x" * 78), ("0 " + "x" * 79, "0 " + "x" * 77 + "…")]
)
def test_an_issue_shows_at_most_80_characters(line: str, shown: str) -> None:
    assert parse_text(f"1 Sol Ring\n{line}").issues == (LineIssue(2, shown, "zero_count"),)


# -- CSV ----------------------------------------------------------------------------------------------------------


def _csv(text: str) -> tuple[list, list, list, str, tuple[str, ...]]:
    parsed = parse_csv(text)
    return (
        [(e.count, e.name, e.section.value, e.line) for e in parsed.entries],
        [(i.line, i.text, i.reason) for i in parsed.issues],
        [(e.count, e.name, e.section.value, e.line) for e in parsed.ignored],
        parsed.format,
        parsed.notes,
    )


def test_csv_export_with_every_kind_of_row() -> None:
    text = (
        '"Count","Tradelist Count","Name","Edition","Board"\n1,1,Sol Ring,C21,mainboard\n'
        "1,0,Kaalia of the Vast,CMD,commander\n1,0,Angel Token,,sideboard\n2,0,Island\n0,0,Opt,,main\n"
        '1,0," Serra Angel ",,maybeboard\n1,0,"Akroma, Angel of Fury",,Commander{top}\n1,0,Opt (CMD) 1,,\n'
        "01,0,Ponder,,Ramp\n,,,\nx,0,Duress,,\n3"
    )
    assert _csv(text) == (
        [
            (1, "Sol Ring", "main", 2),
            (1, "Kaalia of the Vast", "commander", 3),
            (2, "Island", "main", 5),
            (1, "Akroma, Angel of Fury", "commander", 8),
            (1, "Opt", "main", 9),
            (1, "Ponder", "main", 10),
        ],
        [(6, "0,0,Opt,,main", "zero_count"), (12, "x,0,Duress,,", "bad_count"), (13, "3", "missing_column")],
        [(1, "Angel Token", "extra", 4), (1, "Serra Angel", "maybeboard", 7)],
        "csv",
        ("extras_ignored", "maybeboard_ignored"),
    )


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (
            "Name,Count\nSol Ring,1\nIsland\n",
            ([(1, "Sol Ring", "main", 2)], [(3, "Island", "missing_column")]),
        ),
        (
            '"Count,x",Name\n1,Sol Ring',
            ([], [(2, "1,Sol Ring", "missing_column")]),
        ),  # a header without a count column
        (
            "Name,Board\n1,Sol Ring",
            ([(1, "Sol Ring", "main", 2)], [(1, "Name,Board", "bad_count")]),
        ),  # no header
        (
            "Count\n1,Sol Ring\n2,Island,extra",
            ([(1, "Sol Ring", "main", 2), (2, "Island", "main", 3)], [(1, "Count", "missing_column")]),
        ),
        ("1,Sol Ring\nCount,Name\n2,Island", ([(1, "Sol Ring", "main", 1), (2, "Island", "main", 3)], [])),
        ("Count,Name,Board\n1,Sol Ring\n1,Opt,", ([(1, "Sol Ring", "main", 2), (1, "Opt", "main", 3)], [])),
        (
            'Count,Name\n1,Sol Ring\n1,"unclosed\n2,Island',
            ([(1, "Sol Ring", "main", 2)], [(4, "1,unclosed\n2,Island", "bad_characters")]),
        ),
        (
            "Quantity,Card Name,Category\n1,Sol Ring,Commander\n1,Forest, sideboard \n1,Kaalia of the Vast *CMDR*,",
            (
                [
                    (1, "Sol Ring", "commander", 2),
                    (1, "Forest", "sideboard", 3),
                    (1, "Kaalia of the Vast", "commander", 4),
                ],
                [],
            ),
        ),
        ("qty, name ,zone\n 2 , Island , side ", ([(2, "Island", "sideboard", 2)], [])),
        (
            "Board,Name,Amount\nside,Duress,2\nmain,Opt,1",
            ([(2, "Duress", "sideboard", 2), (1, "Opt", "main", 3)], []),
        ),
        (
            "Count,Name\n1000,Island\n1234567890,Island\n1," + "A" * 151,
            (
                [],
                [
                    (2, "1000,Island", "count_too_large"),
                    (3, "1234567890,Island", "count_too_large"),
                    (4, "1," + "A" * 77 + "…", "name_too_long"),
                ],
            ),
        ),
    ],
)
def test_csv_rows(text: str, read: tuple[list, list]) -> None:
    assert _csv(text)[:2] == read


def test_a_csv_cell_over_the_field_limit_is_refused_with_its_line() -> None:
    assert refusal(parse_csv, 'Count,Name\n1,Sol Ring\n1,"' + "a" * 140_000 + '"') == ("bad_csv", {"line": 3})


# -- counts -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "split"),
    [
        ("2x Name", (2, "Name")),
        ("2 x Name", (2, "Name")),
        ("2 X  Name", (2, "Name")),
        ("2 Name", (2, "Name")),
        ("2× Name", (2, "Name")),
        ("2 ｘ Name", (2, "Name")),
        ("2Ｘ Name", (2, "Name")),
        ("2x x Name", (2, "x Name")),
        ("2 xName", (2, "xName")),
        ("12x Name", (12, "Name")),
        ("2 x", (2, "x")),
        ("2x", (2, "")),
        ("2", (2, "")),
        ("x2 Name", (1, "x2 Name")),
        ("Name", (1, "Name")),
        ("", (1, "")),
        ("² Name", (1, "² Name")),
        ("1234567890 A", (1000, "A")),
        ("123456789 A", (123456789, "A")),
        ("007 A", (7, "A")),
    ],
)
def test_split_count(body: str, split: tuple[int, str]) -> None:
    assert decklist._split_count(body) == split


def test_lines_read_the_long_way_keep_their_section() -> None:
    """Lines with spaces around skip the whole-text regex; outside the main deck they still go where their
    section says (the maybeboard and tokens out of the deck)."""
    assert _read(
        "Maybeboard\n 1 Serra Angel \nSideboard\n 1 Angel Token\t\n 2 Duress\nCommander\n  1 Kaalia"
    ) == (
        [(2, "Duress", "sideboard", 5), (1, "Kaalia", "commander", 7)],
        [],
        [(1, "Serra Angel", "maybeboard", 2), (1, "Angel Token", "extra", 4)],
        "text",
        ("maybeboard_ignored", "extras_ignored"),
    )


def test_csv_header_takes_the_first_column_of_each_role() -> None:
    assert parse_decklist("Name,Card,Count\nSol Ring,Island,2").entries == (DeckLine(2, "Sol Ring", M, 2),)
    assert parse_decklist("Count,Qty,Name,Board,Zone\n2,3,Sol Ring,side,main").entries == (
        DeckLine(2, "Sol Ring", S, 2),
    )
    # a header cell is only a column name when it is one, quotes aside
    assert parse_decklist("Count,XName\n1,Sol Ring").entries == (
        DeckLine(1, "Count,XName", M, 1),
        DeckLine(1, "1,Sol Ring", M, 2),
    )


# -- XML entities and the strict reading --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "character"),
    [
        ("&#65;", "A"),
        ("&#x41;", "A"),
        ("&#x4a;", "J"),
        ("&#32;", " "),
        ("&#xD7FF;", "\ud7ff"),
        ("&#xE000;", "\ue000"),
        ("&#xFFFD;", "\ufffd"),
        ("&#x10000;", "\U00010000"),
        ("&#x10FFFF;", "\U0010ffff"),
        ("&amp;", "&"),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&quot;", '"'),
        ("&apos;", "'"),
        ("&#31;", None),
        ("&#x1f;", None),
        ("&#0;", None),
        ("&#xD800;", None),
        ("&#xDFFF;", None),
        ("&#xFFFE;", None),
        ("&#xFFFF;", None),
        ("&#x110000;", None),
    ],
)
def test_xml_character_references(reference: str, character: str | None) -> None:
    match = decklist._XML_REFERENCE.fullmatch(reference)
    assert match is not None
    if character is None:
        with pytest.raises(decklist._NotPlain):
            decklist._xml_character(match)
    else:
        assert decklist._xml_character(match) == character


def _one_card(name: str, quantity: str = "1", sideboard: str = "false") -> str:
    return f'<Deck>\n<Cards Quantity="{quantity}" Sideboard="{sideboard}" Name="{name}"/>\n</Deck>'


def test_names_with_entities_take_the_strict_reading() -> None:
    text = (
        '<Deck>\n<Cards Quantity="1" Sideboard="false" Name="Akroma&#x27;s Vengeance"/>\n'
        '<Cards Quantity="2" Sideboard="false" Name="Fire &amp; Ice"/>\n'
        '<Cards Quantity="1" Sideboard="true" Name="Lim-D&#251;l&apos;s Vault"/>\n'
        '<Cards Quantity="1" Sideboard="false" Name="&#32;Island&#x20;"/>\n</Deck>'
    )
    expected = Decklist(
        entries=(
            DeckLine(1, "Akroma's Vengeance", M, 2),
            DeckLine(2, "Fire & Ice", M, 3),
            DeckLine(1, "Lim-Dûl's Vault", S, 4),
            DeckLine(1, "Island", M, 5),
        ),
        format="dek",
    )
    assert decklist._read_plain_xml(text) == expected
    assert parse_xml(text) == expected
    longest = "A" * 149 + "&#66;"
    assert decklist._read_plain_xml(_one_card(longest)) == Decklist(
        entries=(DeckLine(1, "A" * 149 + "B", M, 2),), format="dek"
    )


@pytest.mark.parametrize(
    ("name", "issue"),
    [
        ("A&#x1F;B", ("bad_xml", 2)),  # a control character: expat's error
        ("A&#xD800;", ("bad_xml", 2)),
        ("A &#40;CMD&#41; 1", None),  # a printing detail to strip: the general reading
        ("x&quot;y&lt;z&gt;", '<card quantity="1" name="x"y<z>">'),
        ("A" * 150 + "&amp;", '<card quantity="1" name="' + "A" * 54 + "…"),
    ],
)
def test_names_with_entities_the_strict_reading_leaves_to_expat(name: str, issue: object) -> None:
    text = _one_card(name)
    assert decklist._read_plain_xml(text) is None
    if isinstance(issue, tuple):
        assert refusal(parse_xml, text) == (issue[0], {"line": issue[1]})
    elif issue is None:
        assert parse_xml(text).entries == (DeckLine(1, "A", M, 2),)
    else:
        reason = "bad_characters" if "&lt;" in name else "name_too_long"
        assert parse_xml(text).issues == (LineIssue(2, issue, reason),)


@pytest.mark.parametrize(
    "text",
    [
        '<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A"/><Cards Quantity="1" Sideboard="false" Name="B"/>\n</Deck>',
        '<Deck>\n<Cards Sideboard="false" Quantity="1" Name="A"/>\n</Deck>',
        '<Deck>\n<Cards Quantity="0" Sideboard="false" Name="A"/>\n</Deck>',
        '<cockatrice_deck>\n<zone name="main">\n<card number="1" name="A"/><card number="1" name="B"/>\n</zone>\n'
        "</cockatrice_deck>",
        '<cockatrice_deck>\n<zone name="main"><zone name="side">\n</zone>\n</zone>\n</cockatrice_deck>',
        "<deckfile/>",
    ],
)
def test_documents_not_of_the_strict_shape_are_left_to_expat(text: str) -> None:
    assert decklist._read_plain_xml(text) is None


def test_cod_of_the_strict_shape_with_zones_and_commander() -> None:
    main = "".join(
        f'\n<card number="1" name="Card {chr(65 + i // 26)}{chr(65 + i % 26)}"/>' for i in range(99)
    )
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n<deckname>X</deckname>\n'
        f'<zone name="main">{main}\n</zone>\n<zone name="side">\n<card number="1" name="Kaalia of the Vast"/>\n'
        '</zone>\n<zone name="tokens">\n<card number="2" name="Angel"/>\n</zone>\n</cockatrice_deck>'
    )
    parsed = decklist._read_plain_xml(text)
    assert parsed is not None and parsed == parse_xml(text)
    assert parsed.entries[0] == DeckLine(1, "Card AA", M, 5)
    assert parsed.entries[-1] == DeckLine(1, "Kaalia of the Vast", C, 106)
    assert (len(parsed.entries), parsed.ignored, parsed.notes) == (
        100,
        (DeckLine(2, "Angel", Section.EXTRA, 109),),
        ("commander_from_sideboard", "extras_ignored"),
    )


# -- more corners: each asserts a value one small change in the parser would alter --------------------------------


@pytest.mark.parametrize(
    ("word", "section"),
    [
        ("Main Deck", M),
        ("main_deck", M),
        ("Display_Commander", Section.DISPLAY),
        ("SIDEBOARD", S),
        ("side board", S),
        ("Planar Deck", Section.PLANAR),
        ("Commanders", C),
        ("Creatures", None),
        ("", None),
    ],
)
def test_section_words(word: str, section: Section | None) -> None:
    assert decklist.section_for(word) is section


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ("  \t ", ""),  # blank without a line end
        ("Xenagos, God of Revels", "Xenagos, God of Revels"),
        ("A" * 4088 + "\x01" * 9, "A" * 4088 + "\x01" * 9),  # the 4,096th character is the last one looked at
    ],
)
def test_decode_edges(data: str, text: str) -> None:
    assert decode(data) == text


def test_header_edges() -> None:
    assert _read("#\tSideboard\n1 Duress\n[Sideboard]\n[Unknown]\n1 Opt")[:2] == (
        [(1, "Duress", "sideboard", 2), (1, "Opt", "sideboard", 5)],
        [(4, "[Unknown]", "unknown_section")],
    )


def test_lines_the_general_reader_takes_apart() -> None:
    name_150 = "A" * 144 + " (x y)"
    text = (
        "1 [CMD] Erase (Not the Urza's Legacy One)\n999 Erase (Not the Urza's Legacy One)\n"
        f"1 {name_150}\n1 B{name_150}\n1 Opt *F* [Sideboard]\n 1 Angel [Commander{{top}}] \n1 [Ramp Deck] X"
    )
    assert _read(text) == (
        [
            (1, "Erase (Not the Urza's Legacy One)", "main", 1),
            (999, "Erase (Not the Urza's Legacy One)", "main", 2),
            (1, name_150, "main", 3),
            (1, "Opt", "sideboard", 5),
            (1, "Angel", "commander", 6),
        ],
        [(4, "1 B" + name_150[:76] + "…", "name_too_long"), (7, "1 [Ramp Deck] X", "bad_characters")],
        [],
        "text",
        (),
    )
    assert _read("1 [CMD:1] Erase (Not the Urza's Legacy One)")[0::3] == (
        [(1, "Erase (Not the Urza's Legacy One)", "main", 1)],
        "xmage",
    )
    assert _read("NAME:My Deck\n1 Sol Ring")[0::3] == ([(1, "Sol Ring", "main", 2)], "xmage")


def test_a_sideboard_line_that_is_not_read_still_names_the_sections() -> None:
    assert parse_text("SB: 0 Opt\n99 Island\n\n1 Kaalia").commander_names == []
    assert parse_text("Commander: \u200b\n99 Island\n\n1 Kaalia").commander_names == []


def test_csv_a_second_header_row_is_a_row() -> None:
    assert _csv("Count,Name\n1,Sol Ring\nCount,Name\n2,Island")[:2] == (
        [(1, "Sol Ring", "main", 2), (2, "Island", "main", 4)],
        [(3, "Count,Name", "bad_count")],
    )


def test_plain_csv_columns() -> None:
    assert decklist._plain_csv_columns({"count": 0, "name": 1}) == (0, 1, -1, 1)
    assert decklist._plain_csv_columns({"count": 3, "name": 1, "section": 2}) == (3, 1, 2, 3)
    assert decklist._plain_csv_columns({"name": 1, "section": 2}) is None
    assert decklist._plain_csv_columns({"count": 1}) is None


def test_csv_rows_read_the_long_way_keep_their_section() -> None:
    entries, _, ignored, _, _ = _csv(
        "Count,Name,Board\n1,Erase (Not the Urza's Legacy One),side\n"
        "1,Opt (CMD) 1,Commander{top}\n2,Island *F*,Maybeboard"
    )
    assert (entries, ignored) == (
        [(1, "Erase (Not the Urza's Legacy One)", "sideboard", 2), (1, "Opt", "commander", 3)],
        [(2, "Island", "maybeboard", 4)],
    )


def test_a_quoted_csv_header_is_recognised_without_a_file_name() -> None:
    parsed = parse_decklist('"Count","Name"\n1,Sol Ring')
    assert (parsed.format, parsed.entries) == ("csv", (DeckLine(1, "Sol Ring", M, 2),))


def test_cod_with_two_zones_on_a_line_is_left_to_expat() -> None:
    text = (
        '<cockatrice_deck><zone name="main">\n<card number="1" name="A"/>\n</zone><zone name="side">\n'
        '<card number="1" name="B"/>\n</zone></cockatrice_deck>'
    )
    assert decklist._read_plain_xml(text) is None
    assert parse_xml(text).entries == (DeckLine(1, "A", M, 2), DeckLine(1, "B", S, 4))
