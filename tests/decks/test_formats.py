"""The export formats real players have, each read from a realistic file of the same precon
(Commander 2011 "Heavenly Inferno") and checked on real card data: every one gives the deck the plain list
gives, with the same verdict. A file that yields no cards is refused, naming the format it looked like."""

from __future__ import annotations

import pytest

from bot.domain.decklist import DecklistRefused, Section, parse_decklist
from bot.domain.rules import check_deck, get_ruleset, resolve_decklist
from bot.render.deck import note_message, refusal_message

from .conftest import DECKS

REFERENCE = parse_decklist((DECKS / "heavenly_inferno_cmd2011.txt").read_bytes())
REFERENCE_MAIN = sorted((e.count, e.name) for e in REFERENCE.in_section(Section.MAIN))

FILES = [
    ("kaalia_cockatrice.cod", "cod"),
    ("kaalia_forge.dck", "forge"),
    ("kaalia_xmage.dck", "xmage"),
    ("kaalia_tappedout.txt", "text"),
    ("kaalia_mtggoldfish.txt", "text"),
    ("kaalia_archidekt_categories.txt", "text"),
    ("heavenly_inferno_cmd2011_precon.txt", "text"),
]


def parse_file(filename: str):
    return parse_decklist((DECKS / filename).read_bytes(), filename)


@pytest.mark.parametrize(("filename", "fmt"), FILES)
def test_each_format_reads_the_same_deck(filename: str, fmt: str) -> None:
    parsed = parse_file(filename)
    assert parsed.format == fmt
    assert parsed.issues == ()
    assert parsed.commander_names == ["Kaalia of the Vast"]
    assert sorted((e.count, e.name) for e in parsed.in_section(Section.MAIN)) == REFERENCE_MAIN


@pytest.mark.parametrize(("filename", "fmt"), FILES)
def test_each_format_is_legal_on_real_card_data(filename: str, fmt: str, index) -> None:
    verdict = check_deck(resolve_decklist(parse_file(filename), index), get_ruleset("commander"))
    assert verdict.status == "legal", verdict.problems
    assert verdict.card_count == 100
    assert verdict.colour_identity == "WBR"


def test_cockatrice_commander_in_the_sideboard_and_tokens_zone_noted() -> None:
    parsed = parse_file("kaalia_cockatrice.cod")
    assert parsed.notes == ("commander_from_sideboard", "extras_ignored")
    assert [(e.name, e.section) for e in parsed.ignored] == [
        ("Angel", Section.EXTRA),
        ("Dragon", Section.EXTRA),
    ]


def test_cod_content_is_recognised_without_its_file_name() -> None:
    """It used to be read as an MTGO .dek with no <Cards> element: 0 cards, "no commander"."""
    data = (DECKS / "kaalia_cockatrice.cod").read_bytes()
    assert parse_decklist(data).format == "cod"
    assert parse_decklist(data, "upload.dek").format == "cod"  # a misnamed file is read by what it is
    assert sum(e.count for e in parse_decklist(data).entries) == 100


def test_forge_metadata_is_not_cards_and_unknown_sections_are_reported() -> None:
    parsed = parse_decklist(
        "[metadata]\nName=Kaalia\n[Commander]\n1 Kaalia of the Vast|CMD|1\n[Main]\n"
        "1 Sol Ring|C21\n[Planes]\n1 Agyrem|HOP\n[Avatar]\n1 Eladamri|VAN\n[Wishlist]\n"
        "1 Island",
        "k.dck",
    )
    assert [(e.name, e.section) for e in parsed.entries] == [
        ("Kaalia of the Vast", Section.COMMANDER),
        ("Sol Ring", Section.MAIN),
    ]
    # An unknown section is reported (the deck can't be verified) and its cards stay where they were.
    assert [(e.name, e.section) for e in parsed.ignored] == [
        ("Agyrem", Section.PLANAR),
        ("Eladamri", Section.EXTRA),
        ("Island", Section.EXTRA),
    ]
    assert [(i.line, i.text, i.reason) for i in parsed.issues] == [(11, "[Wishlist]", "unknown_section")]


def test_xmage_sideboard_commander_and_layout_lines() -> None:
    parsed = parse_file("kaalia_xmage.dck")
    assert parsed.notes == ("commander_from_sideboard",)
    assert [(e.name, e.line) for e in parsed.in_section(Section.COMMANDER)] == [("Kaalia of the Vast", 80)]


def test_set_code_prefix_without_number() -> None:
    """MTGO-style "1 [CMD] Name" as well as XMage's "1 [CMD:12] Name"."""
    parsed = parse_decklist("1 [CMD] Sol Ring\n2 [C21:263] Arcane Signet\nSB: 1 [M10:146] Lightning Bolt")
    assert [(e.count, e.name, e.section) for e in parsed.entries] == [
        (1, "Sol Ring", Section.MAIN),
        (2, "Arcane Signet", Section.MAIN),
        (1, "Lightning Bolt", Section.SIDEBOARD),
    ]


def test_published_precon_display_commander_and_tokens_are_noted_not_counted(check) -> None:
    """It used to read "Display Commander" as a card and count the oversized cards: 104 cards and
    false singleton errors."""
    parsed = parse_file("heavenly_inferno_cmd2011_precon.txt")
    assert [(e.name, e.section) for e in parsed.ignored] == [
        ("Kaalia of the Vast", Section.DISPLAY),
        ("Basandra, Battle Seraph", Section.DISPLAY),
        ("Malfegor", Section.DISPLAY),
        ("Angel Token", Section.EXTRA),
        ("Dragon Token", Section.EXTRA),
        ("Spirit Token", Section.EXTRA),
    ]
    verdict = check((DECKS / "heavenly_inferno_cmd2011_precon.txt").read_text(encoding="utf-8"))
    assert verdict.status == "legal"
    assert [(n.key, n.values) for n in verdict.notes] == [
        ("display_ignored", {"count": 3}),
        ("extras_ignored", {"count": 3}),
    ]
    assert note_message(verdict.notes[0]) == (
        "The oversized display commander (3 cards) is noted, not counted: it is not part of the deck."
    )


def test_planar_and_scheme_decks_are_noted_not_counted() -> None:
    """Planechase 2012 and Archenemy precon lists put their planes and schemes in their own sections."""
    parsed = parse_decklist(
        "Deck\n1 Sol Ring\n1 Island\n\nPlanar Deck\n1 Agyrem\n1 Sea of Sand\n1 Chaotic Aether\n"
        "\nScheme Deck (2)\n2 Behold the Power of Destruction\n\nSideboard\n1 Leering Emblem"
    )
    assert [e.name for e in parsed.entries] == ["Sol Ring", "Island", "Leering Emblem"]  # a real card stays
    assert [(e.count, e.section) for e in parsed.ignored] == [(1, Section.PLANAR)] * 3 + [(2, Section.SCHEME)]
    assert parsed.notes == ("planar_ignored", "scheme_ignored")


def test_tappedout_markers_headers_and_tags() -> None:
    parsed = parse_decklist(
        "1x Kaalia of the Vast *CMDR* #Commander\n\nCreatures (2)\n1x Serra Angel #Flyer #!Fav\n"
        "1x Baneslayer Angel *f* *CMDR*\nLands (1)\n1x Command Tower *f* #Land #Mana Fixing"
    )
    assert [(e.name, e.section) for e in parsed.entries] == [
        ("Kaalia of the Vast", Section.COMMANDER),
        ("Serra Angel", Section.MAIN),
        ("Baneslayer Angel", Section.COMMANDER),
        ("Command Tower", Section.MAIN),
    ]
    assert parsed.issues == ()


def test_type_headers_do_not_break_a_commander_section() -> None:
    parsed = parse_decklist(
        "Commander (1)\n1 Kaalia of the Vast\nCreatures (1)\n1 Serra Angel\nLand\n1 Island"
    )
    assert [(e.name, e.section) for e in parsed.entries] == [
        ("Kaalia of the Vast", Section.COMMANDER),
        ("Serra Angel", Section.MAIN),
        ("Island", Section.MAIN),
    ]


def test_mtggoldfish_annotations_are_dropped() -> None:
    parsed = parse_decklist(
        "1 Sol Ring <borderless> [SLD]\n1 Mountain <251> [CMD]\n1 Arcane Signet <extended>\n"
        "1 Command Tower <foil etched> (CMR) 350"
    )
    assert [e.name for e in parsed.entries] == ["Sol Ring", "Mountain", "Arcane Signet", "Command Tower"]


def test_archidekt_nodeck_is_out_of_the_deck_and_noprice_is_in() -> None:
    parsed = parse_file("kaalia_archidekt_categories.txt")
    assert [(e.count, e.name, e.section) for e in parsed.ignored] == [
        (1, "Serra Angel", Section.MAYBEBOARD),
        (1, "Lightning Bolt", Section.MAYBEBOARD),
        (2, "Angel // Demon Double-Sided Token", Section.EXTRA),
    ]
    assert {"Sol Ring", "Armillary Sphere"} <= {e.name for e in parsed.in_section(Section.MAIN)}  # {noPrice}
    assert parsed.notes == ("maybeboard_ignored", "extras_ignored")


# -- a list that yields no cards is refused, never checked as an empty deck ---------------------------


@pytest.mark.parametrize(
    ("data", "filename", "fmt"),
    [
        (
            '<?xml version="1.0"?>\n<cockatrice_deck version="1"><deckname>x</deckname></cockatrice_deck>',
            "x.cod",
            "cod",
        ),
        ('<?xml version="1.0"?>\n<Deck><NetDeckID>0</NetDeckID></Deck>', "x.dek", "dek"),
        ('<?xml version="1.0"?>\n<html><body>Sol Ring</body></html>', None, "xml"),
        ("[metadata]\nName=Nothing yet\n[Main]\n", "x.dck", "forge"),
        ("NAME:Empty\nLAYOUT MAIN:(0,0)(NONE,false,50)|", "x.dck", "xmage"),
        ("Quantity,Name\n", "x.csv", "csv"),
        ("// my deck\nCommander\n\nMaybeboard\n1 Serra Angel\n", None, "text"),
        ("0 Sol Ring\n1 Sol Ring <img src=x>", None, "text"),
    ],
)
def test_a_list_without_cards_is_refused_naming_its_format(data: str, filename: str | None, fmt: str) -> None:
    with pytest.raises(DecklistRefused) as refused:
        parse_decklist(data, filename)
    assert refused.value.reason == "no_cards"
    assert refused.value.values["format"] == fmt


def test_the_refusal_is_worded_in_each_language() -> None:
    with pytest.raises(DecklistRefused) as refused:
        parse_decklist('<?xml version="1.0"?>\n<cockatrice_deck version="1"/>', "deck.cod")
    assert refusal_message(refused.value, "en").startswith(
        "No card of a deck was found in that list (it looked like a Cockatrice .cod file;"
    )
    assert "Cockatrice の .cod ファイル" in refusal_message(refused.value, "ja")
    assert "Cockatrice .cod 文件" in refusal_message(refused.value, "zh-Hans")
    assert "Cockatrice .cod 檔案" in refusal_message(refused.value, "zh-Hant")
