"""The fast paths of the deck check read every input exactly as the general paths do.

* ``parse_text`` reads "1 Name" and "1 Name (SET) 123" lines from one ``findall`` over the whole text
  (``decklist._LINES``); with that regex made to match no entry, every line takes the general path (strip,
  ``_PLAIN_ENTRY`` / ``_FAST_ENTRY``, ``_read_entry``). Both must give the same ``Decklist``.
* ``check_deck`` decides a legal deck with screens (``Ruleset.may_object``, colour sets, one line per name):
  with them and without them (``legality._SCREENS``) every ruleset gives the same verdict of random decks of
  real cards, and ``Ruleset.may_object`` agrees with ``is_banned`` / ``legality_problem`` for every card.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cards.importers import read_cards
from bot.cards.model import Card
from bot.domain import decklist
from bot.domain.decklist import DeckLine, DecklistRefused, Section, parse_decklist
from bot.domain.rules import RULESETS, DeckCard, ResolvedDeck, Ruleset, check_deck, legality
from bot.domain.rules.facts import facts_for
from bot.paths import BUNDLED_CARDS

# Every line to the general path: no count or name group ever matches.
_GENERAL_ONLY = re.compile(r"^(?:(\d\b\B)(\d\b\B)(\d\b\B)|([^\n]*))$", re.MULTILINE)

# Line pieces near the edges of the fast path: spaces and tabs around, "x" counts, long names, printings,
# marks and categories the fast path leaves to the general one, headers, blank lines, Unicode whitespace.
_NAMES = st.sampled_from(
    [
        "Sol Ring",
        "Kaalia of the Vast",
        "Lim-Dûl's Vault",
        "x Island",
        "X",
        "Fire // Ice",
        "祖神兽",
        "Erase (Not the Urza's Legacy One)",
        "A" * 150,
        "B" * 151,
        "Name\u00a0",
        "Na\tme",
        "Ash Barrens",
        "Æther Vial",
        "Island  ",
    ]
)
_COUNTS = st.sampled_from(["1", "1x", "1X", "2 x", "10", "999", "1000", "0", "01", "²", "", "3×"])
# Tails without "|" or "<" (a text with one of those takes the general path alone), then all of them.
_SIMPLE_TAILS = [
    "",
    " (CMD) 197",
    " *F*",
    " *CMDR*",
    " (C21)",
    " (SLD) 12a *E*",
    " #tag",
    "\t(M21) 1",
    " (A) 1",
    "  (CMD)  12",
    " (CMD) 12 ",
    " (TOOLONGSET) 1",
    " (CMD) 1 (C21) 2",
    " (C★1) 1-a",
    " (cmd) 1 [Commander{top}]",
    " [Ramp]",
    " []",
    " [Maybeboard{noDeck}]",
    " (CMD) 1 [Ramp] ",
    " [Tokens & Extras{noDeck}]",
    " [Sideboard]",
    " [Land] [Ramp]",
    " (CMD) 1 *F* [Ramp]",
]
_ALL_TAILS = [*_SIMPLE_TAILS, " <borderless>", " |CMD|1", " <251> [SLD]"]
_SPACE = st.sampled_from(["", " ", "\t", "\u00a0", "\u3000", "  "])
_OTHER_LINES = st.sampled_from(
    [
        "",
        "Commander",
        "Sideboard",
        "// Commander",
        "Creatures (30)",
        "Deck",
        "Maybeboard",
        "[Main]",
        "About",
        "Name Heavenly Inferno",
        "SB: 1 Island",
        "Commander: Kaalia of the Vast",
        "# comment",
        "Tokens",
        "   ",
        "1",
    ]
)


@st.composite
def _lines(draw: st.DrawFn, tails: list[str]) -> str:
    if draw(st.booleans()):
        return draw(_OTHER_LINES)
    count = draw(_COUNTS)
    return f"{draw(_SPACE)}{count}{' ' if count else ''}{draw(_NAMES)}{draw(st.sampled_from(tails))}{draw(_SPACE)}"


def _general(text: str, monkeypatch: pytest.MonkeyPatch) -> decklist.Decklist:
    with monkeypatch.context() as patched:
        patched.setattr(decklist, "_LINES", _GENERAL_ONLY)
        patched.setattr(decklist, "_GUARDED_LINES", _GENERAL_ONLY)
        patched.setattr(decklist, "_TAILED_LINES", _GENERAL_ONLY)
        patched.setattr(decklist, "_GUARDED_TAILED_LINES", _GENERAL_ONLY)
        return decklist.parse_text(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.one_of(st.lists(_lines(_SIMPLE_TAILS), max_size=30), st.lists(_lines(_ALL_TAILS), max_size=30))
)
@example(lines=["1 Sol Ring", "1 Kaalia of the Vast (CMD) 197"])
@example(lines=["Commander", "1 Kaalia of the Vast", "", "Sideboard", "1 Angel Token", "1 Island (C21) 1 "])
@example(lines=["1 " + "A" * 150, "1 " + "B" * 151, "1 " + "C" * 150 + " (CMD) 1"])
def test_the_whole_text_regex_reads_every_line_as_the_general_path(
    lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "\n".join(lines)
    assert decklist.parse_text(text) == _general(text, monkeypatch)


# Forge ("1 Name|SET|1") and MTGGoldfish ("1 Name <oversized> [SET]") lines, which the one findall reads too.
_FORGE_TAILS = st.sampled_from(
    ["|CMD|1", " |CMD|1", "\t|CMD", "  |", "|", "|CMD|1 ", "| (CMD) 1", "||", "|*F*"]
)
_GOLDFISH_TAILS = st.sampled_from(
    [
        " <oversized>",
        "<oversized>",
        " <251> [SLD]",
        " <a b> [CMD]",
        " <>",
        " < x>",
        " <" + "x" * 41 + ">",
        " (CMD) 1 <foil>",
        " <foil> (CMD) 1",
        " <foil>|CMD|1",
        "\t<borderless>",
        " <étched>",
    ]
)


@st.composite
def _forge_goldfish_lines(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 3)) == 0:
        return draw(
            st.sampled_from(
                [
                    "[Main]",
                    "[Commander]",
                    "[metadata]",
                    "Name=Heavenly Inferno",
                    "Lands (38)",
                    "Commander",
                    "",
                    "SB: 1 Island|CMD",
                    "1 [CMD:1] Sol Ring",
                ]
            )
        )
    count = draw(st.sampled_from(["1", "2", "1x", "10", "0", "1000", ""]))
    tail = draw(st.one_of(_FORGE_TAILS, _GOLDFISH_TAILS))
    end = draw(st.sampled_from(["", "", " ", "\t"]))
    return f"{count}{' ' if count else ''}{draw(_NAMES)}{tail}{end}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_forge_goldfish_lines(), max_size=30))
@example(lines=["1 Sol Ring |CMD|1", "1 Sol Ring<oversized>", "1 Sol Ring\t|CMD"])
@example(lines=["NAME:Deck", "1 [CMD:1] Sol Ring", "1 Island|CMD", "LAYOUT MAIN:(1,7)|([CMD:1])"])
def test_forge_and_mtggoldfish_lines_read_as_the_general_path(
    lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "\n".join(lines)
    assert decklist.parse_text(text) == _general(text, monkeypatch)


def test_the_general_path_is_really_taken_when_the_regex_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something only if the replaced regex sends every line the long way."""
    assert all(not count and not name for count, name, *_ in _GENERAL_ONLY.findall("1 Sol Ring\n2x Island"))
    assert decklist._GUARDED_LINES.findall(
        "1 Sol Ring\n1 Kaalia of the Vast (CMD) 197 [Commander]\n1 A *F*"
    ) == [("1", "Sol Ring", "", ""), ("1", "Kaalia of the Vast", "Commander", ""), ("", "", "", "1 A *F*")]
    assert decklist._LINES.findall("1 Sol Ring\nCommander") == [
        ("1", "Sol Ring", "", ""),
        ("", "", "", "Commander"),
    ]
    assert _general("1 Sol Ring", monkeypatch).entries == decklist.parse_text("1 Sol Ring").entries


def test_real_deck_files_read_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "data" / "decks"
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        text = decklist.decode(path.read_bytes())
        assert decklist.parse_text(text) == _general(text, monkeypatch), path.name
    with pytest.raises(DecklistRefused):
        parse_decklist("\n\n")


@pytest.mark.slow  # the whole bundled card data set, under every ruleset (3.6 s)
def test_may_object_agrees_with_the_per_card_rules_for_every_card() -> None:
    """The screen of a legal deck says "nothing to object" exactly when no card is banned or not legal: for
    every card of the bundled data, under every ruleset."""
    cards = read_cards(BUNDLED_CARDS).cards
    for ruleset in RULESETS.values():
        objected = 0
        for card in cards:
            vintage = facts_for(card).vintage_problem
            per_card = ruleset.is_banned(card) or ruleset.legality_problem(card, vintage) is not None
            assert ruleset.may_object([card], [vintage]) is per_card, (ruleset.name, card.name)
            objected += per_card
        assert 0 < objected < len(cards), ruleset.name  # both answers occur


@st.composite
def _decks(draw: st.DrawFn, cards: list[Card]) -> ResolvedDeck:
    """Random decks of real cards: one or two commanders (eligible or not), main-deck lines with names on
    one or several lines and counts above one, a sideboard, unknown names."""
    picked = st.sampled_from(cards)
    lines: list[DeckCard] = []
    for card in draw(st.lists(picked, min_size=0, max_size=2)):
        lines.append(DeckCard(DeckLine(1, card.name, Section.COMMANDER, len(lines) + 1), card))
    for section, size in ((Section.MAIN, 40), (Section.SIDEBOARD, 6), (Section.COMPANION, 1)):
        for card in draw(st.lists(picked, max_size=size)):
            count = draw(st.sampled_from([1, 1, 1, 2, 7]))
            lines.append(DeckCard(DeckLine(count, card.name, section, len(lines) + 1), card))
    if draw(st.booleans()):
        lines.append(DeckCard(DeckLine(1, "Not A Card", Section.MAIN, len(lines) + 1), None))
    return ResolvedDeck(tuple(draw(st.permutations(lines))))


def test_check_screens_give_the_verdicts_of_the_per_card_code(
    cards: dict[str, Card], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the screens (singleton, identity, bans) and without them, every ruleset says the same of every deck."""
    pool = sorted(cards.values(), key=lambda card: card.name)

    @settings(max_examples=300, deadline=None)
    @given(_decks(pool))
    def compare(deck: ResolvedDeck) -> None:
        for ruleset in RULESETS.values():
            screened = check_deck(deck, ruleset)
            with monkeypatch.context() as patched:
                patched.setattr(legality, "_SCREENS", False)
                assert check_deck(ResolvedDeck(deck.cards), ruleset) == screened, ruleset.name

    compare()
    with monkeypatch.context() as patched:  # the switch reaches the code it claims to switch off
        patched.setattr(legality, "_SCREENS", False)
        patched.setattr(Ruleset, "may_object", None)  # not called without the screens
        check_deck(
            ResolvedDeck((DeckCard(DeckLine(1, pool[0].name, Section.MAIN, 1), pool[0]),)),
            RULESETS["commander"],
        )


# -- MTGO .dek and Cockatrice .cod without expat (decklist._read_plain_xml) ------------------------------------

_XML_NAMES = st.sampled_from(
    [
        "Sol Ring",
        "Akroma&#x27;s Vengeance",
        "Akroma&apos;s Vengeance",
        "Fire &amp; Ice",
        "Lim-D&#251;l's Vault",
        "Æther Vial",
        "祖神兽",
        " Island ",
        "&#32;Island",
        "Na&#10;me",
        "Na&#9;me",
        "&#0;",
        "&#xD800;",
        "&#1114112;",
        "&eacute;",
        "&amp",
        "A&lt;B",
        "Name (X)",
        "",
        "1",
        "A" * 150,
        "B" * 151,
        "Tab\there",
        "Kaalia&#x20;of the Vast",
        "Angel Token",
        "x&quot;y",
        "&#xFFFE;",
        "Ful\u3000lwidth",
        "ok&gt;",
    ]
)
_QUANTITIES = st.sampled_from(["1", "2", "01", "0", "999", "1000", " 1", "", "x", "١"])
# Mostly names and counts the strict reading takes (one odd card sends the whole document to expat).
_PLAIN_NAMES = st.sampled_from(
    [
        "Sol Ring",
        "Akroma&#x27;s Vengeance",
        "Fire &amp; Ice",
        "Æther Vial",
        "祖神兽",
        "Kaalia of the Vast",
        "Angel Token",
        "Lim-D&#251;l&apos;s Vault",
        " Island ",
        "Island ",
        "Island\u3000",
        "Island&#32;",
    ]
)
_CARD_NAMES = st.one_of(_PLAIN_NAMES, _PLAIN_NAMES, _PLAIN_NAMES, _PLAIN_NAMES, _XML_NAMES)
_PLAIN_COUNTS = st.sampled_from(["1", "1", "1", "2", "10", "01", "0", "999"])
_COUNTS_OFTEN_PLAIN = st.one_of(_PLAIN_COUNTS, _QUANTITIES)
_PLAIN_SPACES = st.sampled_from(["\n", "\n  ", "\n\t", "\n\n "])
_SPACES = st.sampled_from(["\n", "\n  ", "", " ", "  ", "\t", "\u3000"])


@st.composite
def _dek_card(draw: st.DrawFn, plain: bool) -> str:
    sideboard = draw(st.sampled_from(["true", "false", "false"] + ([] if plain else ["True", ""])))
    attributes = [
        f'Quantity="{draw(_PLAIN_COUNTS if plain else _COUNTS_OFTEN_PLAIN)}"',
        f'Sideboard="{sideboard}"',
        f'Name="{draw(_CARD_NAMES)}"',
    ]
    if draw(st.booleans()):
        attributes = [f'CatID="{draw(st.integers(0, 9999))}"', *attributes, 'Annotation="0"']
    if not plain and draw(st.integers(0, 4)) == 0:
        attributes = draw(st.permutations(attributes))
    if not plain and draw(st.integers(0, 9)) == 0:
        attributes.append(draw(st.sampled_from(['Name="Other"', "Extra='1'", 'Sideboard="false"'])))
    close = draw(st.sampled_from([" ", ""] if plain else [" ", "", "  ", "\n"]))
    return f"<Cards {' '.join(attributes)}{close}/>"


@st.composite
def _cod_zone(draw: st.DrawFn, plain: bool) -> str:
    name = draw(
        st.sampled_from(["main", "main", "side", "tokens"] + ([] if plain else ["Main", "maybeboard", "x"]))
    )
    cards = [
        f'<card number="{draw(_PLAIN_COUNTS if plain else _COUNTS_OFTEN_PLAIN)}" name="{draw(_CARD_NAMES)}"{draw(st.sampled_from(["", " "]))}/>'
        if plain or draw(st.integers(0, 4))
        else f'<card name="{draw(_XML_NAMES)}" number="1"/>'
        for _ in range(draw(st.integers(0, 6)))
    ]
    spaces = _PLAIN_SPACES if plain else _SPACES
    return f'<zone name="{name}">' + "".join(f"{draw(spaces)}{card}" for card in cards) + "\n</zone>"


_EXTRAS = st.sampled_from(
    [
        "<NetDeckID>0</NetDeckID>",
        "<deckname>Heavenly &amp; Inferno</deckname>",
        "<comments/>",
        "<!-- a comment -->",
        "<comments>a]]>b</comments>",
        "<card/>",
        "<Cards>1</Cards>",
        "<zone/>",
        "<?pi x?>",
        "<deckname>x",
        "</Deck>",
        "&bad;",
    ]
)


@st.composite
def _xml_documents(draw: st.DrawFn) -> str:
    """Documents of the strict shape, or near it (``plain`` False: odd quotes, orders, spaces, elements, ends)."""
    dek, plain = draw(st.booleans()), draw(st.booleans())
    cards = _dek_card(plain) if dek else _cod_zone(plain)
    items = draw(st.lists(cards if plain else st.one_of(cards, _EXTRAS), max_size=12))
    declaration = draw(
        st.sampled_from(
            ['<?xml version="1.0" encoding="utf-8"?>\n', '<?xml version="1.0"?>', ""]
            + ([] if plain else [' <?xml version="1.0"?>\n', '<?xml version="1.1" encoding="UTF-8" ?>\n'])
        )
    )
    root = draw(
        st.sampled_from(
            [
                '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
                "<Deck>",
                "<Deck >",
            ]
            if dek
            else ['<cockatrice_deck version="1">', "<cockatrice_deck>"]
        )
    )
    end = "</Deck>" if dek else "</cockatrice_deck>"
    body = "".join(f"{draw(_PLAIN_SPACES if plain else _SPACES)}{item}" for item in items)
    tail = draw(st.sampled_from([end, end + "\n"] if plain else [end, end + "\n", "", end + "x"]))
    return f"{declaration}{root}{body}\n{tail}"


def _outcome(text: str) -> object:
    try:
        return decklist.parse_xml(text)
    except DecklistRefused as refused:
        return (refused.reason, refused.values)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=_xml_documents())
@example(
    document='<?xml version="1.0"?>\n<Deck>\n  <Cards Quantity="1" Sideboard="false" Name="Sol Ring" />\n</Deck>'
)
@example(
    document='<cockatrice_deck version="1">\n<zone name="main">\n<card number="1" name="A&#x27;s"/>\n</zone>'
    '\n<zone name="side">\n<card number="1" name="Kaalia of the Vast"/>\n</zone>\n</cockatrice_deck>'
)
@example(
    document='<cockatrice_deck><zone name="main">\n<card number="1" name="A"/>\n</zone><zone name="side">\n'
    '<card number="1" name="B"/>\n</zone></cockatrice_deck>'
)
@example(
    document='<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A"/><Cards Quantity="1" Sideboard="true" '
    'Name="B"/>\n</Deck>'
)
@example(document='<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A&#xD800;"/>\n</Deck>')
@example(document='<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A&#xFFFE;"/>\n</Deck>')
@example(document='<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A&#1114112;"/>\n</Deck>')
@example(document='<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A"/>\u3000\n</Deck>')
@example(document='<Deck>\n<Cards Quantity="1" Sideboard="false" Name="A"/>\n</Deck>\u2028')
@example(document=f'<Deck>\n<Cards Quantity="1" Sideboard="false" Name="{"B" * 151}"/>\n</Deck>')
@example(
    document=f'<cockatrice_deck>\n<zone name="side">\n<card number="2" name="{"B" * 151}"/>\n</zone>\n'
    "</cockatrice_deck>"
)
def test_plain_xml_is_read_as_expat_reads_it(document: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same Decklist, or the same refusal (a malformed document: expat's error and line), both ways."""
    fast = _outcome(document)
    with monkeypatch.context() as patched:
        patched.setattr(decklist, "_read_plain_xml", lambda text: None)
        assert _outcome(document) == fast


def test_plain_xml_reads_the_real_exports_without_expat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something only if real files take the strict reading."""
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "data" / "decks"
    for name in ("kaalia_mtgo.dek", "kaalia_cockatrice.cod"):
        text = decklist.decode((folder / name).read_bytes())
        fast = decklist._read_plain_xml(text)
        assert fast is not None and sum(entry.count for entry in fast.entries) == 100, name
        with monkeypatch.context() as patched:
            patched.setattr(decklist, "_read_plain_xml", lambda text: None)
            assert decklist.parse_xml(text) == fast, name


# -- CSV rows read without building every cell (decklist.parse_csv's ``plain`` columns) ------------------------

_CSV_HEADERS = st.sampled_from(
    [
        '"Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Board"',
        "Count,Name",
        "Name,Count",
        "Quantity,Card Name,Category",
        "count,name,section,extra",
        "Name,Board,Qty",
        "Name,Board",
        "Board,Name,Amount",
        "qty, name ,zone",
        "",
    ]
)
_CSV_CELLS = st.sampled_from(
    [
        "1",
        "1",
        "2",
        "01",
        "0",
        "1000",
        "",
        " 3 ",
        "x",
        "²",
        "Sol Ring",
        "Island ",
        " Island ",
        "Kaalia of the Vast",
        "Angel Token",
        "Fire // Ice",
        "A" * 151,
        "Name (CMD) 1",
        "祖神兽",
        "mainboard",
        "commander",
        "sideboard",
        "maybeboard",
        "Tokens & Extras{noDeck}",
        "Ramp",
        "Commander{top}",
        '"Akroma, Angel of Fury"',
        '"quoted ""twice"""',
        "cmd",
    ]
)


@st.composite
def _csv_texts(draw: st.DrawFn) -> str:
    rows = [draw(_CSV_HEADERS)]
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.integers(0, 9)) == 0:
            rows.append(draw(st.sampled_from(["", ",,,", '1,"unclosed', "1", "Count,Name"])))
        else:
            rows.append(",".join(draw(st.lists(_CSV_CELLS, min_size=1, max_size=9))))
    return "\n".join(rows)


def _csv_outcome(text: str) -> object:
    try:
        return decklist.parse_csv(text)
    except DecklistRefused as refused:
        return (refused.reason, refused.values)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_csv_texts())
@example(
    text="Count,Name,Board\n1,Sol Ring,mainboard\n1,Kaalia of the Vast,commander\n1,Angel Token,sideboard\n"
    "2,Island\n0,Island,main\n1, Island ,maybeboard"
)
def test_csv_rows_read_as_the_general_path(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _csv_outcome(text)
    with monkeypatch.context() as patched:
        patched.setattr(decklist, "_plain_csv_columns", lambda columns: None)
        assert _csv_outcome(text) == fast


def test_csv_plain_rows_are_really_read_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something only if the real export takes the plain rows: none of its rows
    reaches the general row reader."""
    from pathlib import Path

    text = decklist.decode(
        (Path(__file__).resolve().parent.parent / "data" / "decks" / "kaalia_moxfield.csv").read_bytes()
    )
    assert decklist._plain_csv_columns({"count": 0, "name": 2, "section": 7}) == (0, 2, 7, 7)
    rows: list[int] = []
    monkeypatch.setattr(decklist, "_read_csv_row", lambda reader, cells, columns, number: rows.append(number))
    assert sum(entry.count for entry in decklist.parse_csv(text).entries) == 100
    assert rows == []
