"""Deck links as plain Python: which URLs name an Archidekt or Moxfield deck (and the
look-alikes that don't), and a site's JSON turned into exact deck-list text, with every refusal's key and
values. No network: bot.services.deck_urls fetches, bot.domain.deck_sources only reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.domain.deck_sources import (
    MAX_NAME,
    SITES,
    DeckLink,
    FetchedDeck,
    deck_from_json,
    looks_like_url,
    parse_deck_url,
)
from bot.domain.decklist import DecklistRefused, Section, parse_decklist


def _refusal(call, *args) -> tuple[str, dict[str, object]]:
    with pytest.raises(DecklistRefused) as refused:
        call(*args)
    return refused.value.reason, refused.value.values


# -- links ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://archidekt.com/decks/1", True),
        ("http://x", True),
        ("www.moxfield.com", True),
        ("HTTPS://ARCHIDEKT.COM", True),
        ("WWW.x", True),
        ("  https://x.example/a?b=1  \n", True),
        ("https://", False),
        ("www.", False),
        ("ftp://x.example", False),
        ("https://a b", False),
        ("see https://x.example", False),
        ("https://x.example\nhttps://y.example", False),
        ("1 Sol Ring", False),
        ("", False),
        ("archidekt.com/decks/1", False),
    ],
)
def test_what_looks_like_a_web_address(text: str, expected: bool) -> None:
    assert looks_like_url(text) is expected


@pytest.mark.parametrize(
    ("url", "site", "deck_id"),
    [
        ("archidekt.com/decks/7", "archidekt", "7"),
        ("http://archidekt.com/decks/7", "archidekt", "7"),
        ("https://www.archidekt.com/decks/123456789012", "archidekt", "123456789012"),  # 12 digits at most
        ("https://archidekt.com/api/decks/55/", "archidekt", "55"),
        ("https://archidekt.com/decks/view/55?tab=1", "archidekt", "55"),
        ("HTTPS://WWW.ARCHIDEKT.COM/DECKS/9#x", "archidekt", "9"),
        ("  https://archidekt.com/decks/9/name  ", "archidekt", "9"),
        ("moxfield.com/decks/abcd", "moxfield", "abcd"),  # 4 characters at least
        ("http://www.moxfield.com/decks/" + "a" * 40, "moxfield", "a" * 40),  # 40 at most
        ("https://moxfield.com/decks/Ab_9-x?y", "moxfield", "Ab_9-x"),
        ("HTTPS://MOXFIELD.COM/DECKS/XyZ1#top", "moxfield", "XyZ1"),
        ("https://moxfield.com/decks/XyZ1/primer", "moxfield", "XyZ1"),
    ],
)
def test_deck_links_of_each_site(url: str, site: str, deck_id: str) -> None:
    assert parse_deck_url(url) == DeckLink(site, deck_id)


@pytest.mark.parametrize(
    "url",
    [
        "https://archidekt.com/decks/1234567890123",  # 13 digits
        "https://archidekt.com/decks/12a",
        "https://archidekt.com/decks/",
        "https://archidekt.com/decks/12.html",
        "https://notarchidekt.com/decks/1",
        "https://archidekt.com.evil.example/decks/1",
        "https://archidekt.co/decks/1",
        "https://archidektxcom/decks/1",  # the dot is a dot
        "https://www2.archidekt.com/decks/1",
        "ftp://archidekt.com/decks/1",
        "https://archidekt.com/view/decks/1",
        "https://archidekt.com/api/api/decks/1",
        "xhttps://archidekt.com/decks/1",
        "https://evil.example/archidekt.com/decks/1",
        "https://moxfield.com/decks/abc",  # 3 characters
        "https://moxfield.com/decks/" + "a" * 41,
        "https://moxfield.com/decks/ab.cd",
        "https://moxfield.com/deck/abcd",
        "https://moxfieldxcom/decks/abcd",
        "https://api2.moxfield.com/decks/abcd",
        "https://moxfield.com.evil.example/decks/abcd",
        "https://www.moxfield.com/decks/abcd!",
        "https://moxfield.com/api/decks/abcd",
    ],
)
def test_look_alike_links_are_refused_with_the_link(url: str) -> None:
    assert _refusal(parse_deck_url, url) == ("url_unsupported", {"url": url.strip()[:100]})


def test_a_refused_link_is_quoted_stripped_and_cut_to_100_characters() -> None:
    url = "https://example.com/" + "x" * 200
    assert _refusal(parse_deck_url, f"  {url}  ") == ("url_unsupported", {"url": url[:100]})


@given(st.text(max_size=150))
def test_any_text_is_a_deck_link_or_refused_with_it(text: str) -> None:
    try:
        link = parse_deck_url(text)
    except DecklistRefused as refused:
        assert (refused.reason, refused.values) == ("url_unsupported", {"url": text.strip()[:100]})
    else:
        assert link.site in SITES and link.deck_id in text


@given(
    st.sampled_from(["", "http://", "https://", "HTTPS://"]),
    st.sampled_from(["", "www."]),
    st.integers(min_value=0, max_value=10**12 - 1),
    st.sampled_from(["", "/", "/my-deck", "?a=b", "#c"]),
)
def test_every_archidekt_deck_number_is_read(scheme: str, www: str, number: int, tail: str) -> None:
    assert parse_deck_url(f"{scheme}{www}archidekt.com/decks/{number}{tail}") == DeckLink(
        "archidekt", str(number)
    )


@given(
    st.text(alphabet="abcXYZ019_-", min_size=4, max_size=40), st.sampled_from(["", "/", "/primer", "?x=1"])
)
def test_every_moxfield_public_id_is_read(public_id: str, tail: str) -> None:
    assert parse_deck_url(f"https://www.moxfield.com/decks/{public_id}{tail}") == DeckLink(
        "moxfield", public_id
    )


# -- JSON -------------------------------------------------------------------------------------------


def _archidekt_card(name: object, quantity: object = 1, *categories: object, oracle: bool = True) -> dict:
    card = {"oracleCard": {"name": name}} if oracle else {"name": name}
    return {"quantity": quantity, "categories": list(categories), "card": card}


def test_an_archidekt_deck_as_text_in_section_order() -> None:
    data = {
        "name": "  Heavenly Inferno  ",
        "categories": [
            {"name": "Considering", "includedInDeck": False},
            {"name": "Ramp", "includedInDeck": True},
            {"name": "Wishlist", "includedInDeck": False},
            {"name": "Later", "includedInDeck": None},
            "not a category",
        ],
        "cards": [
            _archidekt_card("Sol Ring", 1, "Ramp"),
            _archidekt_card("Kaalia of the Vast", 1, "Commander"),
            _archidekt_card("Mountain", 12, "Land"),
            _archidekt_card("Duress", 1, "Sideboard", "Ramp"),
            _archidekt_card("Lightning Greaves", 1, "Wishlist"),
            _archidekt_card("Gamble", 1, "Later"),  # includedInDeck None is not "outside the deck"
            _archidekt_card("Anger", 1, "About"),  # Arena's About is no section for a card
            _archidekt_card("Lurking Predators", 1, "Maybeboard"),
            _archidekt_card("Angel of Despair", 2),  # no category: the deck
            {
                "quantity": 1,
                "categories": "Commander",
                "card": {"oracleCard": {"name": "Swords to Plowshares"}},
            },
            _archidekt_card("Plains", 3, "Tokens"),
            _archidekt_card("Giant Growth", 1, "Companion"),
            _archidekt_card("Island", 1, "Ramp", oracle=False),  # no oracle card: the card's own name
            "not a card",
            _archidekt_card("Vow of Duty", 1, "Ramp"),  # read on after a skipped entry
            _archidekt_card(None, 1),
            _archidekt_card("Ghost", 0),
            _archidekt_card("Ghost", True),
            _archidekt_card("Anger", 1),
        ],
    }
    assert deck_from_json("archidekt", data) == FetchedDeck(
        "archidekt",
        "Heavenly Inferno",
        (
            "Commander\n1 Kaalia of the Vast\n\n"
            "Companion\n1 Giant Growth\n\n"
            "Deck\n1 Sol Ring\n12 Mountain\n1 Gamble\n1 Anger\n2 Angel of Despair\n1 Swords to Plowshares\n1 Island\n"
            "1 Vow of Duty\n1 Anger\n\n"
            "Sideboard\n1 Duress\n\n"
            "Maybeboard\n1 Lightning Greaves\n1 Lurking Predators\n\n"
            "Tokens\n3 Plains\n"
        ),
    )


def test_an_excluded_about_category_is_kept_aside() -> None:
    data = {
        "categories": [{"name": "About", "includedInDeck": False}],
        "cards": [_archidekt_card("Anger", 1, "About"), _archidekt_card("Sol Ring")],
    }
    assert deck_from_json("archidekt", data).text == "Deck\n1 Sol Ring\n\nMaybeboard\n1 Anger\n"


def test_a_moxfield_v3_deck_as_text_with_every_board() -> None:
    def board(*cards: tuple[str, int]) -> dict:
        return {"cards": {f"id{i}": {"quantity": q, "card": {"name": n}} for i, (n, q) in enumerate(cards)}}

    data = {
        "name": "Kaalia",
        "boards": {
            "mainboard": board(("Sol Ring", 1), ("Mountain", 20)),
            "commanders": board(("Kaalia of the Vast", 1)),
            "companions": board(("Lurrus of the Dream-Den", 1)),
            "sideboard": board(("Duress", 1)),
            "maybeboard": board(("Gamble", 1)),
            "tokens": board(("Treasure", 2)),
            "attractions": board(("Balloon Stand", 1)),
            "stickers": board(("Ancestral Hot Dog Minotaur", 1)),
            "contraptions": board(("Dicing Blade", 1)),
            "planes": board(("Akoum", 1)),
            "schemes": board(("All in Good Time", 1)),
            "signatureSpells": board(("Tamiyo's Safekeeping", 1)),
            "other": board(("Black Lotus", 1)),
        },
    }
    assert deck_from_json("moxfield", data) == FetchedDeck(
        "moxfield",
        "Kaalia",
        (
            "Commander\n1 Kaalia of the Vast\n\nCompanion\n1 Lurrus of the Dream-Den\n\nDeck\n1 Sol Ring\n20 Mountain\n\n"
            "Sideboard\n1 Duress\n\nMaybeboard\n1 Gamble\n\n"
            "Tokens\n2 Treasure\n1 Balloon Stand\n1 Ancestral Hot Dog Minotaur\n1 Dicing Blade\n1 Tamiyo's Safekeeping\n\n"
            "Planar Deck\n1 Akoum\n\nScheme Deck\n1 All in Good Time\n"
        ),
    )


def test_a_moxfield_v2_deck_has_its_boards_at_the_top_keyed_by_name() -> None:
    data = {
        "name": None,
        "mainboard": {
            "Sol Ring": {"quantity": 1, "card": {"name": "Sol Ring"}},
            "Bad": "not a card",
            "Nameless": {"quantity": 1, "card": "x"},
            "Zero": {"quantity": 0, "card": {"name": "Zero"}},
            "Many": {"quantity": 1000, "card": {"name": "Many"}},
            "Most": {"quantity": 999, "card": {"name": "Relentless Rats"}},
        },
        "commanders": {"Kaalia of the Vast": {"quantity": 1, "card": {"name": "Kaalia of the Vast"}}},
        "sideboard": "not a board",
    }
    assert deck_from_json("moxfield", data) == FetchedDeck(
        "moxfield", "", "Commander\n1 Kaalia of the Vast\n\nDeck\n1 Sol Ring\n999 Relentless Rats\n"
    )


def test_a_fetched_list_reads_back_as_the_same_deck() -> None:
    data = {
        "cards": [
            _archidekt_card("Kaalia of the Vast", 1, "Commander"),
            _archidekt_card("Mountain", 99),
            _archidekt_card("Duress", 1, "Sideboard"),
            _archidekt_card("Gamble", 1, "Maybeboard"),
        ]
    }
    deck = parse_decklist(deck_from_json("archidekt", data).text)
    assert [(e.section, e.count, e.name) for e in deck.entries] == [
        (Section.COMMANDER, 1, "Kaalia of the Vast"),
        (Section.MAIN, 99, "Mountain"),
        (Section.SIDEBOARD, 1, "Duress"),
    ]


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("Sol   Ring\n", "Sol Ring"),
        ("X", "X"),
        ("  Sol Ring", "Sol Ring"),
        ("x" * MAX_NAME, "x" * MAX_NAME),
        ("x" * (MAX_NAME + 1), None),
        ("   ", None),
        ("", None),
        (5, None),
        (None, None),
    ],
)
def test_card_names_from_the_json(raw: object, name: str | None) -> None:
    data = {"cards": [_archidekt_card(raw), _archidekt_card("Sol Ring")]}
    expected = "Deck\n1 Sol Ring\n" if name is None else f"Deck\n1 {name}\n1 Sol Ring\n"
    assert deck_from_json("archidekt", data).text == expected


@pytest.mark.parametrize(
    ("quantity", "kept"),
    [
        (1, True),
        (999, True),
        (0, False),
        (1000, False),
        (-1, False),
        (True, False),
        ("1", False),
        (1.0, False),
    ],
)
def test_quantities_from_the_json(quantity: object, kept: bool) -> None:
    data = {"cards": [_archidekt_card("Anger", quantity), _archidekt_card("Sol Ring")]}
    expected = f"Deck\n{quantity} Anger\n1 Sol Ring\n" if kept else "Deck\n1 Sol Ring\n"
    assert deck_from_json("archidekt", data).text == expected


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("x" * MAX_NAME, "x" * MAX_NAME),
        ("y" * (MAX_NAME + 5), "y" * MAX_NAME),
        (0, ""),
        ("", ""),
        (42, "42"),
        ("  a b  ", "a b"),
    ],
)
def test_the_deck_name(name: object, kept: str) -> None:
    assert (
        deck_from_json(
            "moxfield",
            {"name": name, "mainboard": {"c": {"quantity": 1, "card": {"name": "Sol Ring"}}}},
        ).name
        == kept
    )


@pytest.mark.parametrize(
    ("site", "data", "reason", "values"),
    [
        ("archidekt", [], "url_bad_response", {"site": "Archidekt"}),
        ("moxfield", "deck", "url_bad_response", {"site": "Moxfield"}),
        ("archidekt", {"cards": "x"}, "url_bad_response", {"site": "Archidekt"}),
        ("archidekt", {"name": "n"}, "url_bad_response", {"site": "Archidekt"}),
        ("moxfield", {"name": "n"}, "url_bad_response", {"site": "Moxfield"}),
        ("moxfield", {"boards": {"mainboard": []}}, "url_bad_response", {"site": "Moxfield"}),
        (
            "moxfield",
            {"boards": "x", "mainboard": {}},
            "url_empty",
            {"site": "Moxfield"},
        ),  # v2 read when boards is no object
        ("moxfield", {"boards": {"mainboard": {"cards": {}}}}, "url_empty", {"site": "Moxfield"}),
        ("archidekt", {"cards": []}, "url_empty", {"site": "Archidekt"}),
        (
            "archidekt",
            {"cards": [_archidekt_card("Gamble", 1, "Maybeboard")]},
            "url_empty",
            {"site": "Archidekt"},
        ),
        ("archidekt", {"cards": [_archidekt_card("Sol Ring", "1")]}, "url_empty", {"site": "Archidekt"}),
        (
            "moxfield",
            {"boards": {"maybeboard": {"cards": {"a": {"quantity": 1, "card": {"name": "Gamble"}}}}}},
            "url_empty",
            {"site": "Moxfield"},
        ),
    ],
)
def test_json_that_is_no_deck_is_refused_with_the_site(
    site: str, data: object, reason: str, values: dict
) -> None:
    assert _refusal(deck_from_json, site, data) == (reason, values)
