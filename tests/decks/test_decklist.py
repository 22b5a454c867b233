"""The deck list parser: every format, and nothing dropped silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.domain.decklist import (
    MAX_BYTES,
    MAX_LINES,
    DecklistRefused,
    Section,
    parse_decklist,
)

DECKS = Path(__file__).parent.parent / "data" / "decks"


def entries(text: str, filename: str | None = None) -> list[tuple[int, str, str]]:
    return [(e.count, e.name, e.section.value) for e in parse_decklist(text, filename).entries]


def test_plain_count_forms_and_bare_names() -> None:
    text = "1 Sol Ring\n2x Island\n3 x Forest\nLightning Bolt\n4X Swamp\n"
    assert entries(text) == [
        (1, "Sol Ring", "main"),
        (2, "Island", "main"),
        (3, "Forest", "main"),
        (1, "Lightning Bolt", "main"),
        (4, "Swamp", "main"),
    ]


def test_arena_and_moxfield_printing_details_are_dropped() -> None:
    text = "1 Sol Ring (CMR) 472 *F*\n1 Counterspell (7ED) 67\n1 Arcane Signet (ELD) 331 *E*\n1 Ponder (M12)"
    assert [name for _, name, _ in entries(text)] == ["Sol Ring", "Counterspell", "Arcane Signet", "Ponder"]


def test_parentheses_that_belong_to_a_name_stay() -> None:
    assert entries("1 Erase (Not the Urza's Legacy One)") == [
        (1, "Erase (Not the Urza's Legacy One)", "main")
    ]


def test_sections_comments_blank_lines_and_headers() -> None:
    text = """# my deck
// a comment
Commander
1 Oona, Queen of the Fae

Companion:
1 Lurrus of the Dream-Den
Mainboard (2)
1 Sol Ring
1 Dimir Guildmage

Sideboard
1 Duress
SB: 1 Counterspell
Maybeboard
1 Black Lotus
"""
    parsed = parse_decklist(text)
    assert [(e.name, e.section) for e in parsed.entries] == [
        ("Oona, Queen of the Fae", Section.COMMANDER),
        ("Lurrus of the Dream-Den", Section.COMPANION),
        ("Sol Ring", Section.MAIN),
        ("Dimir Guildmage", Section.MAIN),
        ("Duress", Section.SIDEBOARD),
        ("Counterspell", Section.SIDEBOARD),
    ]
    assert [(e.name, e.line) for e in parsed.ignored] == [("Black Lotus", 16)]
    assert parsed.notes == ("maybeboard_ignored",)
    assert parsed.issues == ()


def test_commented_section_headers_switch_sections() -> None:
    assert entries("// Commander\n1 Progenitus\n// Deck\n1 Forest") == [
        (1, "Progenitus", "commander"),
        (1, "Forest", "main"),
    ]


def test_commander_header_lines() -> None:
    text = "Commander: Okaun, Eye of Chaos\nCommander: Zndrsplt, Eye of Wisdom\n1 Island"
    assert entries(text) == [
        (1, "Okaun, Eye of Chaos", "commander"),
        (1, "Zndrsplt, Eye of Wisdom", "commander"),
        (1, "Island", "main"),
    ]


def test_colon_inside_a_card_name_is_not_a_header() -> None:
    assert entries("1 Circle of Protection: Red") == [(1, "Circle of Protection: Red", "main")]


def test_crlf_bom_and_cjk_names() -> None:
    data = "\ufeffCommander: 仙儿女王欧娜\r\n1 底密尔公会法师\r\n1 祖先の幻視\r\n".encode()
    assert entries(data) == [
        (1, "仙儿女王欧娜", "commander"),
        (1, "底密尔公会法师", "main"),
        (1, "祖先の幻視", "main"),
    ]


def test_utf16_with_bom_is_read() -> None:
    assert entries("1 Sol Ring\r\n".encode("utf-16")) == [(1, "Sol Ring", "main")]


def test_arena_about_block_is_metadata() -> None:
    assert entries("About\nName My Deck\n\nDeck\n1 Sol Ring") == [(1, "Sol Ring", "main")]


def test_a_card_line_in_arenas_about_block_begins_the_deck() -> None:
    """An About block followed by cards without a "Deck" line: the cards were dropped from the deck, neither
    counted nor listed as ignored. Arena's About block holds only the name, so they are the main deck."""
    assert entries("About\nName My Deck\n1 Sol Ring\n1 Arcane Signet (C21) 1") == [
        (1, "Sol Ring", "main"),
        (1, "Arcane Signet", "main"),
    ]
    assert entries("About\nName My Deck\n\n1 Sol Ring\n\nSideboard\n1 Forest") == [
        (1, "Sol Ring", "main"),
        (1, "Forest", "sideboard"),
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("0 Sol Ring", "zero_count"),
        ("1x", "no_name"),
        ("3", "no_name"),
        ("1 ???", "no_name"),
        (
            "1 Sol Ring <img src=x>",
            "bad_characters",
        ),  # "<borderless>"-style annotations are stripped, HTML is not
        ("5000 Relentless Rats", "count_too_large"),
        ("1 " + "A" * 200, "name_too_long"),
        ("SB:", "no_name"),
    ],
)
def test_every_malformed_line_is_reported_with_its_number(line: str, reason: str) -> None:
    parsed = parse_decklist(f"1 Sol Ring\n\n{line}\n1 Island")
    assert [(i.line, i.reason) for i in parsed.issues] == [(3, reason)]
    assert [e.name for e in parsed.entries] == ["Sol Ring", "Island"]


def test_real_decklists_parse_without_issues() -> None:
    parsed = parse_decklist((DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_bytes())
    assert parsed.commander_names == ["Okaun, Eye of Chaos", "Zndrsplt, Eye of Wisdom"]
    assert sum(e.count for e in parsed.entries) == 100
    assert parsed.issues == ()


@pytest.mark.parametrize(
    "filename", ["kaalia_arena.txt", "kaalia_archidekt.txt", "kaalia_mtgo.dek", "kaalia_moxfield.csv"]
)
def test_every_export_format_gives_the_same_deck(filename: str) -> None:
    reference = parse_decklist((DECKS / "heavenly_inferno_cmd2011.txt").read_bytes())
    parsed = parse_decklist((DECKS / filename).read_bytes(), filename)
    assert parsed.issues == ()
    assert parsed.commander_names == ["Kaalia of the Vast"]
    main = sorted((e.count, e.name) for e in parsed.in_section(Section.MAIN))
    assert main == sorted((e.count, e.name) for e in reference.in_section(Section.MAIN))


def test_arena_export_keeps_sideboard_and_notes_maybeboard() -> None:
    parsed = parse_decklist((DECKS / "kaalia_arena.txt").read_bytes(), "kaalia_arena.txt")
    assert [e.name for e in parsed.in_section(Section.SIDEBOARD)] == ["Lightning Bolt"]
    assert [e.name for e in parsed.ignored] == ["Serra Angel"]


def test_archidekt_categories_name_sections() -> None:
    parsed = parse_decklist((DECKS / "kaalia_archidekt.txt").read_bytes())
    assert [e.name for e in parsed.ignored] == ["Serra Angel"]


def test_dek_reports_line_numbers_of_bad_elements() -> None:
    text = (
        '<?xml version="1.0"?>\n<Deck>\n  <Cards Quantity="1" Sideboard="false" Name="Sol Ring" />\n'
        '  <Cards Quantity="x" Sideboard="false" Name="Island" />\n  <Cards Quantity="1" Name="" />\n</Deck>'
    )
    parsed = parse_decklist(text, "deck.dek")
    assert [(i.line, i.reason) for i in parsed.issues] == [(4, "bad_count"), (5, "no_name")]
    assert [e.name for e in parsed.entries] == ["Sol Ring"]


def test_broken_or_entity_laden_xml_is_refused() -> None:
    with pytest.raises(DecklistRefused) as broken:
        parse_decklist('<?xml version="1.0"?>\n<Deck>\n<Cards Quantity="1"', "x.dek")
    assert broken.value.reason == "bad_xml"
    with pytest.raises(DecklistRefused, match="^bad_xml"):
        parse_decklist('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Deck/>', "x.dek")


def test_csv_without_header_and_with_bad_rows() -> None:
    parsed = parse_decklist("1,Sol Ring\nfour,Island\n2\n", "list.csv")
    assert [e.name for e in parsed.entries] == ["Sol Ring"]
    assert [(i.line, i.reason) for i in parsed.issues] == [(2, "bad_count"), (3, "missing_column")]


def test_oversized_input_is_refused() -> None:
    with pytest.raises(DecklistRefused) as too_big:
        parse_decklist(b"1 Island\n" * (MAX_BYTES // 9 + 1))
    assert too_big.value.reason == "too_large"
    with pytest.raises(DecklistRefused) as too_long:
        parse_decklist("1 Island\n" * (MAX_LINES + 1))
    assert too_long.value.reason == "too_many_lines"
    assert len(parse_decklist("1 Island\n" * MAX_LINES).entries) == MAX_LINES


@pytest.mark.parametrize(
    "data", [bytes(range(256)) * 4, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"\xff\xd8\xff\xe0 jfif"]
)
def test_binary_input_is_refused(data: bytes) -> None:
    with pytest.raises(DecklistRefused) as refused:
        parse_decklist(data)
    assert refused.value.reason == "binary"


def test_empty_input_is_refused() -> None:
    with pytest.raises(DecklistRefused) as refused:
        parse_decklist("\r\n  \n\t\n")
    assert refused.value.reason == "empty"


def test_chinese_and_japanese_headers() -> None:
    text = "指挥官：仙儿女王欧娜\n套牌\n1 底密尔公会法师\n备牌（1）\n1 逼从\n統率者\n1 妖精の女王、ウーナ"
    assert entries(text) == [
        (1, "仙儿女王欧娜", "commander"),
        (1, "底密尔公会法师", "main"),
        (1, "逼从", "sideboard"),
        (1, "妖精の女王、ウーナ", "commander"),
    ]


def test_a_card_named_like_a_word_is_still_a_card() -> None:
    assert entries("Island\nMain Deck\nForest") == [(1, "Island", "main"), (1, "Forest", "main")]


def test_mtgo_text_export_commander_after_the_blank_line() -> None:
    """MTGO .txt: 99 cards, a blank line, then the commander as the only sideboard card."""
    lines = (DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[1:]) + "\n\n1 Kaalia of the Vast\n"
    parsed = parse_decklist(text)
    assert parsed.commander_names == ["Kaalia of the Vast"]
    assert parsed.notes == ("commander_from_sideboard",)


def test_blank_lines_alone_do_not_make_commanders() -> None:
    """A short list with blank lines, or a list with headers, is taken as written."""
    assert parse_decklist("1 Sol Ring\n\n1 Island").commander_names == []
    lines = "\n".join(f"1 Card {i}" for i in range(99))
    assert parse_decklist(f"Deck\n{lines}\n\n1 Kaalia of the Vast").commander_names == []
