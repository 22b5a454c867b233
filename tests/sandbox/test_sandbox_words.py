"""How the sandbox reads a client command's words and picks a menu option or button (no bot needed)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.sandbox.client import ClientError, _field_values, menu_value, split_words


def test_a_number_picks_the_option_with_that_number_before_one_with_that_value() -> None:
    menu = {"type": 3, "options": [{"label": f"Card {v}", "value": str(v)} for v in (3, 4, 5, 6, 7, 8, 9)]}
    assert menu_value(menu, "5") == "7", "option 5 of the list, not the option whose value is 5"
    assert menu_value(menu, "9") == "9", "past the last number: the value"
    assert menu_value(menu, "Card 4") == "4" and menu_value(menu, "card 8") == "8"
    with pytest.raises(ClientError, match="several"):
        menu_value(menu, "Card")


def test_apostrophes_are_letters_and_quotes_group_whole_words() -> None:
    assert split_words("click #15 I'm here") == ["click", "#15", "I'm", "here"]
    assert split_words('submit 1="Urza\'s Saga" name=x') == ["submit", "1=\"Urza's", 'Saga"', "name=x"]
    assert split_words('click "Keep 6" now') == ["click", "Keep 6", "now"]
    assert _field_values(["1=Urza's", "Saga", "name=x"]) == [("1", "Urza's Saga"), ("name", "x")]


@given(
    st.lists(
        st.text(
            alphabet=st.characters(blacklist_categories=("Z", "C"), blacklist_characters="\"'"), min_size=1
        ),
        max_size=6,
    )
)
def test_plain_words_split_back_unchanged(words: list[str]) -> None:
    assert split_words(" ".join(words)) == words
