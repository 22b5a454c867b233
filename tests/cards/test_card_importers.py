"""Reading the three card data formats, and refusing bad files."""

from __future__ import annotations

import bz2
import gzip
import io
import json
from pathlib import Path

import pytest

from bot.cards.importers import CardImportError, JsonStream, detect_format, read_cards
from tests.cards.conftest import MTGJSON_FILE, SCRYFALL_FILE, SUBSET


def by_name(path: Path, fmt: str | None = None) -> dict:
    return {card.name: card for card in read_cards(path, fmt).cards}


@pytest.mark.parametrize(
    ("path", "fmt"), [(SUBSET, "jsonl"), (SCRYFALL_FILE, "scryfall"), (MTGJSON_FILE, "mtgjson")]
)
def test_format_is_detected_plain_and_compressed(tmp_path: Path, path: Path, fmt: str) -> None:
    assert detect_format(path) == fmt
    gz = tmp_path / (path.name + ".gz")
    gz.write_bytes(gzip.compress(path.read_bytes()))
    bz = tmp_path / (path.name + ".bz2")
    bz.write_bytes(bz2.compress(path.read_bytes()))
    assert detect_format(gz) == detect_format(bz) == fmt
    assert set(by_name(gz)) == set(by_name(path)) == set(by_name(bz))


def test_bundled_jsonl_keeps_every_field() -> None:
    cards = by_name(SUBSET)
    vault = cards["Lim-Dûl's Vault"]
    assert (vault.mana_cost, vault.color_identity, vault.commander_legality) == ("{U}{B}", "UB", "legal")
    assert vault.printed_names == {"ja": "リム＝ドゥールの櫃"}
    assert "Goblin" not in cards  # tokens are not cards a deck can hold


def test_scryfall_bulk_file() -> None:
    cards = by_name(SCRYFALL_FILE)
    assert len(cards) == 11  # 14 records: a second printing, a Japanese printing and a token fold away
    assert cards["Lightning Bolt"].printings == ("M10", "2X2")  # default_cards: printings merged
    assert cards["Sol Ring"].printed_names == {"ja": "太陽の指輪"}  # all_cards: a Japanese printing's name
    researcher = cards["Aberrant Researcher // Perfected Form"]
    # Scryfall gives a transform card's cost and colours only on its faces.
    assert (researcher.mana_cost, researcher.colors, researcher.layout) == ("{3}{U}", "U", "transform")
    assert researcher.faces[1].name == "Perfected Form"
    assert cards["Fire // Ice"].mana_cost == "{1}{R} // {1}{U}"
    assert cards["Fire // Ice"].colors == "UR"  # a split card is both halves' colours
    abbey = cards["Westvale Abbey // Ormendahl, Profane Prince"]
    assert (abbey.colors, abbey.faces[1].colors, abbey.color_identity) == (
        "",
        "B",
        "B",
    )  # the land is colourless
    assert cards["Brisela, Voice of Nightmares"].meld_parts[-1] == "Brisela, Voice of Nightmares"
    assert set(cards["Gisela, the Broken Blade"].meld_parts) == {
        "Gisela, the Broken Blade",
        "Bruna, the Fading Light",
        "Brisela, Voice of Nightmares",
    }


def test_mtgjson_atomic_cards_with_foreign_names() -> None:
    cards = by_name(MTGJSON_FILE)
    bolt = cards["Lightning Bolt"]
    assert bolt.printed_names == {
        "ja": "稲妻",
        "zh-Hans": "闪电击",
        "zh-Hant": "閃電擊",
        "de": "Deutsch Lightning Bolt",
    }  # German too: every printed language the file carries
    assert bolt.commander_legality == "legal" and bolt.color_identity == "R"
    researcher = cards["Aberrant Researcher // Perfected Form"]
    assert researcher.printed_names["ja"] == "逸脱した研究者 // 完成態"
    assert [f.name for f in researcher.faces] == ["Aberrant Researcher", "Perfected Form"]
    fire_ice = cards["Fire // Ice"]
    assert fire_ice.layout == "split" and fire_ice.mana_cost == "{1}{R} // {1}{U}"
    # A meld pair is listed twice in MTGJSON ("Bruna // Brisela", "Gisela // Brisela"): three cards.
    assert {"Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares"} <= set(
        cards
    )
    assert set(cards["Brisela, Voice of Nightmares"].meld_parts) == {
        "Gisela, the Broken Blade",
        "Bruna, the Fading Light",
        "Brisela, Voice of Nightmares",
    }
    assert cards["Brisela, Voice of Nightmares"].printed_names["ja"] == "悪夢の声、ブリセラ"


def test_mtgjson_variants_without_sides_are_one_card(tmp_path: Path) -> None:
    variant = {
        "name": "Everythingamajig",
        "layout": "normal",
        "manaCost": "{5}",
        "type": "Artifact",
        "colorIdentity": [],
        "legalities": {},
    }
    path = tmp_path / "AtomicCards.json"
    path.write_text(
        json.dumps({"meta": {}, "data": {"Everythingamajig": [variant, {**variant, "text": "b"}]}})
    )
    [card] = read_cards(path).cards
    assert (card.name, card.faces, card.commander_legality) == ("Everythingamajig", (), "not_legal")


def test_json_stream_reads_elements_across_chunk_boundaries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(JsonStream, "CHUNK", 7)  # every element spans many chunks
    text = '[ {"name": "A", "n": 12345}, {"name": "B // C", "s": "x\\"y"} ,\n{"name":"D","v":[1,2.5e3]} ]  \n'
    items = list(JsonStream(io.StringIO(text), "test").array_items())
    assert items == [
        {"name": "A", "n": 12345},
        {"name": "B // C", "s": 'x"y'},
        {"name": "D", "v": [1, 2500.0]},
    ]
    assert list(JsonStream(io.StringIO(" [ ] "), "test").array_items()) == []
    # A bare number cut by a chunk boundary is read whole, not as 1234 and 56789.
    assert list(JsonStream(io.StringIO("[123456789,true,null]"), "test").array_items()) == [
        123456789,
        True,
        None,
    ]


def test_streaming_a_large_scryfall_file_in_small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(JsonStream, "CHUNK", 1000)
    assert len(read_cards(SCRYFALL_FILE).cards) == 11


def test_progress_reports_bytes_of_the_file_on_disk(tmp_path: Path) -> None:
    gz = tmp_path / "cards.jsonl.gz"
    gz.write_bytes(gzip.compress(SUBSET.read_bytes()))
    seen: list[tuple[int, int]] = []
    read_cards(gz, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (gz.stat().st_size, gz.stat().st_size)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


# -- bad files --------------------------------------------------------------------------------------


def _bad(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CardImportError, match="no such file"):
        read_cards(tmp_path / "nope.jsonl")


def test_empty_file(tmp_path: Path) -> None:
    with pytest.raises(CardImportError, match="is empty"):
        read_cards(_bad(tmp_path, "empty.json", b""))
    with pytest.raises(CardImportError, match="is empty"):
        read_cards(_bad(tmp_path, "blank.json", b"  \n\n"))


def test_not_card_data(tmp_path: Path) -> None:
    with pytest.raises(CardImportError, match="not card data"):
        read_cards(_bad(tmp_path, "deck.txt", b"1 Sol Ring\n1 Lightning Bolt\n"))
    with pytest.raises(CardImportError, match="corrupt"):
        read_cards(_bad(tmp_path, "image.png", bytes(range(256)) * 4))


def test_truncated_gzip(tmp_path: Path) -> None:
    data = gzip.compress(SUBSET.read_bytes())
    with pytest.raises(CardImportError, match="corrupt or truncated"):
        read_cards(_bad(tmp_path, "cut.jsonl.gz", data[: len(data) // 2]))


def test_truncated_jsonl(tmp_path: Path) -> None:
    data = SUBSET.read_bytes()
    with pytest.raises(CardImportError, match=r"line \d+ is not valid JSON"):
        read_cards(_bad(tmp_path, "cut.jsonl", data[: len(data) // 2]))


def test_truncated_scryfall_array(tmp_path: Path) -> None:
    data = SCRYFALL_FILE.read_bytes()
    for cut in (len(data) // 2, len(data) - 3):
        with pytest.raises(CardImportError, match="corrupt, truncated"):
            read_cards(_bad(tmp_path, "cut.json", data[:cut]))


def test_truncated_mtgjson(tmp_path: Path) -> None:
    data = MTGJSON_FILE.read_bytes()
    for cut in (len(data) * 2 // 3, len(data) - 2):  # the first may split a multi-byte character
        with pytest.raises(CardImportError, match="truncated"):
            read_cards(_bad(tmp_path, "cut.json", data[:cut]))


def test_garbage_inside_a_scryfall_array(tmp_path: Path) -> None:
    path = _bad(tmp_path, "bad.json", b'[{"name": "Sol Ring", "layout": "normal"}, {"name": oops}]')
    with pytest.raises(CardImportError, match="invalid JSON"):
        read_cards(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{"object": "list", "data": []}\n',
            "not a card",
        ),  # the Scryfall bulk-data listing, not a bulk file
        (b'{"name": "Sol Ring"}\n[1, 2]\n', r"line 2 is not a card"),
        (b'[{"object": "set", "name": "Alpha"}]', "not a card"),
        (b'[{"name": "Sol Ring", "legalities": ["commander"]}]', "record 1 .*Sol Ring.* is not a card"),
        (b'[{"id": 1}]', r"element 1 is not a card"),
        (b"[]", "holds no cards"),
        (b'{"meta": {}, "data": {"Sol Ring": {"name": "Sol Ring"}}}', "not a list of card faces"),
        (b'{"meta": {"version": "5"}}', 'no "data" object'),
        (b'[{"name": "Sol Ring"}] trailing', "unexpected data after"),
    ],
)
def test_wrong_shaped_files(tmp_path: Path, content: bytes, message: str) -> None:
    with pytest.raises(CardImportError, match=message):
        read_cards(_bad(tmp_path, "wrong.json", content))


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(CardImportError, match="is a folder"):
        read_cards(tmp_path)


def test_unknown_format_name() -> None:
    with pytest.raises(CardImportError, match="unknown card data format"):
        read_cards(SUBSET, "csv")


def test_json_lines_with_a_byte_order_mark(tmp_path: Path) -> None:
    line = json.dumps({"name": "Sol Ring", "mana_cost": "{1}", "type_line": "Artifact"})
    path = _bad(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + line.encode() + b"\n")
    assert [c.name for c in read_cards(path).cards] == ["Sol Ring"]
