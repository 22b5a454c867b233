"""The ``players:`` text of /pod start read into mentions and typed words (bot.domain.player_list)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.domain.player_list import Mentioned, Typed, parse_players


def test_mentions_ids_and_typed_words_keep_their_order() -> None:
    text = "<@11> @dave Mary Jane, <@!22>; 123456789012345678 @ bob"
    assert parse_players(text) == [
        Mentioned(11),
        Typed(("dave", "Mary", "Jane")),
        Mentioned(22),
        Mentioned(123456789012345678),
        Typed(("bob",)),
    ]
    assert parse_players("") == [] and parse_players(" , ;@ ") == []


def test_only_the_leading_at_signs_of_a_typed_name_are_dropped() -> None:
    """Every other letter of the name stays, whatever it is: "@@Xena" is Xena, "X" and "Bob@" are names."""
    assert parse_players("@@Xena X Bob@ x@y") == [Typed(("Xena", "X", "Bob@", "x@y"))]


ids = st.integers(min_value=1, max_value=10**20)
# Typed text of any script, spaces and punctuation, but no "<" or digits (so no mention or id inside it).
words = st.text(st.characters(blacklist_categories=("Cs", "Nd"), blacklist_characters="<"), max_size=12)


@given(st.lists(st.one_of(ids.map(lambda i: f"<@{i}>"), words), max_size=12))
def test_any_text_parses_and_every_mention_is_kept_in_order(parts: list[str]) -> None:
    text = " ".join(parts)
    pieces = parse_players(text)
    mentioned = [p.user_id for p in pieces if isinstance(p, Mentioned)]
    wanted = [int(part[2:-1]) for part in parts if part.startswith("<@") and part[2:-1].isdigit()]
    assert mentioned == wanted
    for piece in pieces:
        if isinstance(piece, Typed):
            assert piece.words and all(
                w and not any(c.isspace() or c in ",;" for c in w) and not w.startswith("@")
                for w in piece.words
            )
