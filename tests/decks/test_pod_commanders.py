"""The commanders a player names at the table (/pod commander) under each ruleset: the first
reason they can't lead, as the deck checks' key and exact values — D3 / CR 903.3 who may lead, CR 702.124
which two may lead together, D5's "banned as commander" list — or None. Real card data; the Background
pair is transcribed from the printed cards (newer than the bundled data), as in test_legality."""

from __future__ import annotations

import pytest

from bot.cards.model import Card
from bot.domain.pod_commanders import commander_problem

from .test_legality import SAGE, WILSON


@pytest.mark.parametrize(
    ("names", "ruleset", "problem"),
    [
        ([], "commander", None),
        (["Kaalia of the Vast"], "commander", None),
        (["Kaalia of the Vast"], "edh-2010", None),
        (["Thrasios, Triton Hero", "Tymna the Weaver"], "commander", None),  # both Partner (CR 702.124)
        (
            ["Pir, Imaginative Rascal", "Toothy, Imaginary Friend"],
            "commander",
            None,
        ),  # each other's "Partner with"
        (["Daretti, Scrap Savant"], "commander", None),  # "can be your commander"
        (["Braids, Cabal Minion"], "commander", None),
        (
            ["Thrasios, Triton Hero", "Tymna the Weaver"],
            "edh-2010",
            ("deck.problem.too_many_commanders", {"count": 2, "limit": 1}),
        ),  # D3: exactly one
        (
            ["Kaalia of the Vast", "Thrasios, Triton Hero", "Tymna the Weaver"],
            "commander",
            ("deck.problem.too_many_commanders", {"count": 3, "limit": 2}),
        ),
        (
            ["Sol Ring"],
            "commander",
            (
                "deck.problem.commander_ineligible",
                {"card": "Sol Ring", "reason": "deck.commander.not_legendary_creature"},
            ),
        ),
        (
            ["Daretti, Scrap Savant"],
            "edh-2010",
            (
                "deck.problem.commander_ineligible",
                {"card": "Daretti, Scrap Savant", "reason": "deck.commander.planeswalker"},
            ),
        ),
        (
            ["Jace, the Mind Sculptor"],
            "duel-zh",
            (
                "deck.problem.commander_ineligible",
                {"card": "Jace, the Mind Sculptor", "reason": "deck.commander.planeswalker"},
            ),
        ),
        (
            ["Kaalia of the Vast", "Sol Ring"],
            "commander",  # the first reason: before the pair
            (
                "deck.problem.commander_ineligible",
                {"card": "Sol Ring", "reason": "deck.commander.not_legendary_creature"},
            ),
        ),
        (
            ["Anger", "Sol Ring"],
            "commander",
            (
                "deck.problem.commander_ineligible",
                {"card": "Anger", "reason": "deck.commander.not_legendary"},
            ),
        ),
        (
            ["Braids, Cabal Minion"],
            "edh-2010",
            ("deck.problem.banned_as_commander", {"card": "Braids, Cabal Minion"}),
        ),
        (
            ["Braids, Cabal Minion"],
            "duel-zh",
            ("deck.problem.banned_as_commander", {"card": "Braids, Cabal Minion"}),
        ),
        (
            ["Kaalia of the Vast", "Braids, Cabal Minion"],
            "commander",
            ("deck.problem.invalid_pair", {"card": "Kaalia of the Vast", "other": "Braids, Cabal Minion"}),
        ),
        (
            ["Okaun, Eye of Chaos", "Toothy, Imaginary Friend"],
            "commander",  # partnered with somebody else
            (
                "deck.problem.invalid_pair",
                {"card": "Okaun, Eye of Chaos", "other": "Toothy, Imaginary Friend"},
            ),
        ),
    ],
)
def test_the_first_problem_of_named_commanders(
    cards: dict[str, Card], names: list[str], ruleset: str, problem: tuple[str, dict[str, object]] | None
) -> None:
    assert commander_problem([cards[name] for name in names], ruleset) == problem


def test_a_background_leads_only_beside_a_choose_a_background_creature() -> None:
    assert commander_problem([WILSON, SAGE], "commander") is None
    assert commander_problem([SAGE, WILSON], "commander") is None
    assert commander_problem([SAGE], "commander") == (
        "deck.problem.commander_ineligible",
        {"card": "Candlekeep Sage", "reason": "deck.commander.background_alone"},
    )
    assert commander_problem([SAGE, SAGE], "commander") == (  # a Background beside itself is no pair
        "deck.problem.commander_ineligible",
        {"card": "Candlekeep Sage", "reason": "deck.commander.background_alone"},
    )
    assert commander_problem([SAGE, WILSON], "edh-2010") == (
        "deck.problem.too_many_commanders",
        {"count": 2, "limit": 1},
    )
