"""The bracket a deck's contents allow at the least (docs/rules/BRACKETS.md, BR1–BR6), on real decks and
real card data, and the dated lists the check goes by."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.domain.rules.brackets import (
    CORE,
    EXHIBITION,
    OPTIMIZED,
    UPGRADED,
    BracketReport,
    assess_bracket,
    bundled_bracket_data,
    newest,
    read_bracket_data,
)
from bot.paths import ASSETS_DIR
from tests.decks.helpers import deck_text

from .conftest import CARD_FILES, DECKS

# Game Changers printed after the bundled data set (mid-2022): on the list, not in the data.
NEWER_THAN_BUNDLED = {"Orcish Bowmasters", "The One Ring"}


def report(resolve, cards: list[str], commander: str = "Niv-Mizzet, Parun") -> BracketReport:
    return assess_bracket(resolve(deck_text(commander, cards, basics="Island")))


def found(result: BracketReport) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(f.rule, f.minimum, f.cards) for f in result.findings]


# -- the real decks -----------------------------------------------------------------------------------


def test_the_real_precon_has_nothing_the_brackets_limit(resolve) -> None:
    result = assess_bracket(resolve((DECKS / "heavenly_inferno_cmd2011.txt").read_text(encoding="utf-8")))
    assert (result.minimum, result.findings) == (EXHIBITION, ())
    assert (result.game_changers_from.scryfall, result.game_changers_from.date) == (False, "2025-10-21")


def test_the_real_partners_deck_is_at_least_upgraded_for_gamble(resolve) -> None:
    text = (DECKS / "heads_i_win_tails_you_lose_sld2021_partners.txt").read_text(encoding="utf-8")
    result = assess_bracket(resolve(text))
    assert result.minimum == UPGRADED
    assert found(result) == [("BR2", UPGRADED, ("Gamble",)), ("BR4", CORE, ("Stitch in Time",))]


# -- BR2 Game Changers --------------------------------------------------------------------------------


def test_three_game_changers_fit_bracket_three_and_a_fourth_does_not(resolve) -> None:
    three = ["Rhystic Study", "Cyclonic Rift", "Mystical Tutor"]
    assert found(report(resolve, three)) == [("BR2", UPGRADED, tuple(three))]
    four = found(report(resolve, [*three, "Force of Will"]))
    assert four == [("BR2", OPTIMIZED, (*three, "Force of Will"))]
    assert report(resolve, three).findings[0].values == {"count": 3}


def test_a_commander_on_the_list_counts(resolve) -> None:
    result = report(resolve, ["Counterspell"], commander="Grand Arbiter Augustin IV")
    assert found(result) == [("BR2", UPGRADED, ("Grand Arbiter Augustin IV",))]


def test_the_card_datas_own_flag_wins_over_the_bundled_list(resolve) -> None:
    """BR6: with Scryfall's flag on every card (after `cards sync`), the list is not used: a card the list
    has but the data clears is no Game Changer, a card the data flags is one; the report says so."""
    deck = resolve(deck_text("Niv-Mizzet, Parun", ["Rhystic Study", "Sol Ring"], basics="Island"))
    flagged = replace(
        deck,
        cards=tuple(
            entry._replace(card=replace(entry.card, game_changer=entry.card.name == "Sol Ring"))
            if entry.card is not None
            else entry
            for entry in deck.cards
        ),
    )
    result = assess_bracket(flagged, "2026-11-30")
    assert found(result) == [("BR2", UPGRADED, ("Sol Ring",))]
    assert (result.game_changers_from.scryfall, result.game_changers_from.date) == (True, "2026-11-30")


def test_a_deck_with_some_cards_unflagged_goes_by_the_bundled_list(resolve) -> None:
    deck = resolve(deck_text("Niv-Mizzet, Parun", ["Rhystic Study"], basics="Island"))
    first = deck.cards[0]
    partly = replace(
        deck, cards=(first._replace(card=replace(first.card, game_changer=False)), *deck.cards[1:])
    )
    result = assess_bracket(partly, "2026-11-30")
    assert result.game_changers_from.scryfall is False
    assert found(result) == [("BR2", UPGRADED, ("Rhystic Study",))]


# -- BR3 mass land denial, BR4 extra turns ---------------------------------------------------------------


def test_mass_land_denial_is_bracket_four(resolve) -> None:
    assert found(report(resolve, ["Armageddon", "Winter Orb"], commander="Grand Arbiter Augustin IV")) == [
        ("BR2", UPGRADED, ("Grand Arbiter Augustin IV",)),
        ("BR3", OPTIMIZED, ("Armageddon", "Winter Orb")),
    ]


def test_a_few_extra_turns_are_bracket_two_and_many_or_looping_ones_bracket_four(resolve) -> None:
    few = ["Time Warp", "Temporal Manipulation", "Capture of Jingzhou"]
    assert found(report(resolve, few)) == [("BR4", CORE, tuple(few))]
    many = [*few, "Temporal Mastery"]
    assert [(f.key, f.minimum) for f in report(resolve, many).findings] == [
        ("extra_turns_chained", OPTIMIZED)
    ]
    assert [(f.key, f.minimum) for f in report(resolve, ["Nexus of Fate"]).findings] == [
        ("extra_turns_chained", OPTIMIZED)
    ]


# -- BR5 two-card combos ----------------------------------------------------------------------------------


def test_a_cheap_combo_is_early_and_a_costly_one_late(resolve) -> None:
    early = report(resolve, ["Dramatic Reversal", "Isochron Scepter"])
    assert [(f.key, f.minimum, f.cards, f.values) for f in early.findings] == [
        ("combo_early", OPTIMIZED, ("Dramatic Reversal", "Isochron Scepter"), {"result": "mana", "mana": 4})
    ]
    late = report(resolve, ["Curiosity"])  # the commander is the other half
    assert [(f.key, f.minimum, f.cards) for f in late.findings] == [
        ("combo_late", UPGRADED, ("Niv-Mizzet, Parun", "Curiosity"))
    ]


def test_half_a_combo_is_no_combo(resolve) -> None:
    assert report(resolve, ["Isochron Scepter", "Demonic Consultation"]).findings == ()


def test_sideboard_cards_are_not_in_the_hundred(resolve) -> None:
    text = deck_text("Niv-Mizzet, Parun", ["Counterspell"], basics="Island", sideboard=["Armageddon"])
    assert assess_bracket(resolve(text)).findings == ()


def test_a_report_is_above_a_lower_declared_bracket_only(resolve) -> None:
    result = report(resolve, ["Rhystic Study"])
    assert (result.above(CORE), result.above(UPGRADED), result.above(OPTIMIZED)) == (True, False, False)


# -- the dated lists ----------------------------------------------------------------------------------------


def test_every_name_on_the_bundled_lists_is_a_real_card() -> None:
    """A typo in a list would silently never match: each name is a card of the bundled data set (the test
    subset was copied from it), or a Game Changer printed after it."""
    known: set[str] = set()
    for path in CARD_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            name = json.loads(line)["name"]
            known |= {name.casefold(), *(part.casefold() for part in name.split(" // "))}
    data = bundled_bracket_data()
    listed = (
        data.game_changers
        | data.mass_land_denial
        | data.extra_turns
        | data.chaining_turns
        | {name.casefold() for combo in data.combos for name in combo.cards}
    )
    assert listed - known == {name.casefold() for name in NEWER_THAN_BUNDLED}
    assert data.chaining_turns <= data.extra_turns
    assert len(data.game_changers) == 51 and data.game_changers_date == "2025-10-21"


def test_the_newest_dated_file_is_used(tmp_path: Path) -> None:
    for name in ("signals-2025-10-21.toml", "game_changers-2025-10-21.toml"):
        (tmp_path / name).write_bytes((ASSETS_DIR / "brackets" / name).read_bytes())
    (tmp_path / "game_changers-2026-02-09.toml").write_text(
        'date = "2026-02-09"\nsource = "x"\ncards = ["Sol Ring"]\n', encoding="utf-8"
    )
    (tmp_path / "game_changers-notes.toml").write_text("not = 'a list'\n", encoding="utf-8")
    assert newest(tmp_path, "game_changers").name == "game_changers-2026-02-09.toml"
    data = read_bracket_data(tmp_path)
    assert (data.game_changers, data.game_changers_date) == (frozenset({"sol ring"}), "2026-02-09")


def test_a_folder_without_lists_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="game_changers-YYYY-MM-DD.toml"):
        read_bracket_data(tmp_path)


def test_a_double_faced_card_is_known_by_its_front_face(resolve) -> None:
    """The list names Tergrid by her front face; the card data names the whole card "A // B"."""
    result = report(resolve, ["Counterspell"], commander="Tergrid, God of Fright")
    assert found(result) == [("BR2", UPGRADED, ("Tergrid, God of Fright // Tergrid's Lantern",))]
