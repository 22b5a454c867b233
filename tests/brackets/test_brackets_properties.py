"""Properties of the bracket check over user-built decks (Hypothesis): any mix of the cards the lists
know, of filler and of unknown names. The minimum is the highest finding's, never bracket 5; adding a
card never lowers it; every finding names only cards of the deck."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.domain.rules.brackets import CEDH, EXHIBITION, assess_bracket, bundled_bracket_data
from tests.decks.helpers import deck_text

DATA = bundled_bracket_data()
SIGNAL_CARDS = sorted(
    {
        "Rhystic Study",
        "Cyclonic Rift",
        "Mystical Tutor",
        "Force of Will",
        "Demonic Tutor",
        "Armageddon",
        "Blood Moon",
        "Time Warp",
        "Nexus of Fate",
        "Temporal Manipulation",
        "Capture of Jingzhou",
        "Temporal Mastery",
        "Curiosity",
        "Isochron Scepter",
        "Dramatic Reversal",
        "Thassa's Oracle",
        "Demonic Consultation",
    }
)
FILLER = ["Sol Ring", "Counterspell", "Lightning Bolt", "Arcane Signet", "No Such Card Anywhere"]
decks = st.lists(st.sampled_from(SIGNAL_CARDS + FILLER), unique=True, max_size=14)
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(cards=decks)
def test_the_minimum_is_the_highest_finding(resolve, cards: list[str]) -> None:
    result = assess_bracket(resolve(deck_text("Niv-Mizzet, Parun", cards, basics="Island")))
    assert result.minimum == max((f.minimum for f in result.findings), default=EXHIBITION)
    assert EXHIBITION <= result.minimum < CEDH
    in_deck = {name.casefold() for name in [*cards, "Niv-Mizzet, Parun"]}
    assert all(card.casefold() in in_deck for f in result.findings for card in f.cards)


@SETTINGS
@given(cards=decks, extra=st.sampled_from(SIGNAL_CARDS + FILLER))
def test_adding_a_card_never_lowers_the_bracket(resolve, cards: list[str], extra: str) -> None:
    before = assess_bracket(resolve(deck_text("Niv-Mizzet, Parun", cards, basics="Island")))
    more = cards if extra in cards else [*cards, extra]
    after = assess_bracket(resolve(deck_text("Niv-Mizzet, Parun", more, basics="Island")))
    assert after.minimum >= before.minimum
