"""The action language (bot/domain/challenge/actions.py): the exact Action of every accepted line and the exact
message key and values of every refusal, verb by verb (the CLI, the buttons and replay all parse here)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.hydra.actions import ALL, MAX_AMOUNT, VERBS, Action, parse_action, parse_number
from bot.domain.hydra.errors import HydraError

USAGE = "hydra.error.usage"


def refusal(line: str, verbs: tuple[str, ...] = VERBS) -> tuple[str, dict[str, object]]:
    with pytest.raises(HydraError) as caught:
        parse_action(line, verbs)
    return caught.value.key, caught.value.values


def usage(text: str) -> tuple[str, dict[str, object]]:
    return USAGE, {"usage": text}


def negative(line: str) -> tuple[str, dict[str, object]]:
    return "hydra.error.negative", {"line": line}


def test_the_verbs_in_order() -> None:
    assert VERBS == (
        "attack",
        "damage",
        "loselife",
        "sweep",
        "weaken",
        "counters",
        "destroy",
        "exile",
        "bounce",
        "tap",
        "sacrifice",
        "freeze",
        "steal",
        "giveback",
        "cantattack",
        "cantblock",
        "copy",
        "tuck",
        "mill",
        "exilecards",
        "prevent",
        "extraturn",
        "hit",
        "life",
        "choose",
        "concede",
        "end",
    )
    assert ALL == "all" and MAX_AMOUNT == 1_000_000


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("attack 1 2", Action("attack", (1, 2))),
        ("  ATTACK 1 2 3 0  ", Action("attack", (1, 2, 3, 0))),
        ("damage 2 4", Action("damage", (2, 4))),
        ("loselife 1 0", Action("loselife", (1, 0))),
        ("life 2 -3", Action("life", (2, -3))),
        ("life 1 +2", Action("life", (1, 2))),
        ("destroy 1", Action("destroy", (1,))),
        ("exile 3 1", Action("exile", (3, 1))),
        ("bounce all", Action("bounce", (), "all")),
        ("tap ALL", Action("tap", (), "all")),
        ("sacrifice -1", Action("sacrifice", (-1,))),
        ("Freeze 2", Action("freeze", (2,))),
        ("sweep 2 all", Action("sweep", (2,), "all")),
        ("sweep 0 1 3", Action("sweep", (0, 1, 3))),
        ("weaken 1 All", Action("weaken", (1,), "all")),
        ("weaken 1 4", Action("weaken", (1, 4))),
        ("counters -2 all", Action("counters", (-2,), "all")),
        ("counters -1 2 3", Action("counters", (-1, 2, 3))),
        ("copy 2", Action("copy", (2,))),
        ("copy -2", Action("copy", (-2,))),
        ("mill 3", Action("mill", (3,))),
        ("mill 0", Action("mill", (0,))),
        ("concede", Action("concede")),
        ("concede 2", Action("concede", (2,))),
        ("end", Action("end")),
        ("EXTRATURN", Action("extraturn")),
        ("choose  Grizzly   Bears ", Action("choose", (), "Grizzly Bears")),
        ("CHOOSE 1 2", Action("choose", (), "1 2")),
        ("choose all", Action("choose", (), "all")),
        ("prevent 3", Action("prevent", (3,))),
        ("prevent 0 2", Action("prevent", (0, 2))),
        ("prevent 3 all", Action("prevent", (3,))),
        ("prevent 3 ALL", Action("prevent", (3,))),
        ("prevent 1 -2", Action("prevent", (1, -2))),
        ("prevent 3 from heads", Action("prevent", (3,), "from heads")),
        ("prevent 3 2 FROM Unified Lunge", Action("prevent", (3, 2), "from Unified Lunge")),
        ("prevent 3 all from Snapping Fang Head", Action("prevent", (3,), "from Snapping Fang Head")),
        ("prevent 2 from from", Action("prevent", (2,), "from from")),
        ("exilecards library 3", Action("exilecards", (3,), "library")),
        ("exilecards LIBRARY 0", Action("exilecards", (0,), "library")),
        ("exilecards graveyard all", Action("exilecards", (), "graveyard all")),
        (
            "exilecards Graveyard Grown from  the Stump",
            Action("exilecards", (), "graveyard Grown from the Stump"),
        ),
    ],
)
def test_accepted_lines(line: str, expected: Action) -> None:
    assert parse_action(line) == expected


def test_another_decks_verbs() -> None:
    """The Horde and the God parse with their own verb list; ``hit`` takes exactly one AMOUNT."""
    verbs = ("hit", "end")
    assert parse_action("hit 3", verbs) == Action("hit", (3,))
    assert refusal("hit", verbs) == usage("hit AMOUNT")
    assert refusal("hit 1 2", verbs) == usage("hit AMOUNT")
    assert refusal("hit -1", verbs) == negative("hit -1")
    assert refusal("attack 1 2", verbs) == (
        "hydra.error.unknown_verb",
        {"verb": "attack", "verbs": ("hit", "end")},
    )
    assert refusal("hit 1", ("end",)) == ("hydra.error.unknown_verb", {"verb": "hit", "verbs": ("end",)})


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", ("hydra.error.empty_action", {})),
        ("  \t ", ("hydra.error.empty_action", {})),
        ("Fly 1", ("hydra.error.unknown_verb", {"verb": "Fly", "verbs": tuple(VERBS)})),
        ("hit", usage("hit AMOUNT")),
        ("tuck 3", usage("tuck top|bottom|shuffle HEAD [HEAD ...] | tuck top|bottom|shuffle all")),
        ("tuck middle 3", usage("tuck top|bottom|shuffle HEAD [HEAD ...] | tuck top|bottom|shuffle all")),
        ("choose", usage("choose OPTION")),
        ("attack", usage("attack HEAD AMOUNT [HEAD AMOUNT ...]")),
        ("attack 1", usage("attack HEAD AMOUNT [HEAD AMOUNT ...]")),
        ("attack 1 2 3", usage("attack HEAD AMOUNT [HEAD AMOUNT ...]")),
        ("attack 1 2 3 -1", negative("attack 1 2 3 -1")),
        ("attack -1 2", negative("attack -1 2")),
        ("damage 1", usage("damage HEAD AMOUNT")),
        ("damage 1 2 3", usage("damage HEAD AMOUNT")),
        (" damage 1 -2 ", negative("damage 1 -2")),
        ("loselife", usage("loselife HEAD AMOUNT")),
        ("loselife 1 -1", negative("loselife 1 -1")),
        ("life 1", usage("life PLAYER DELTA")),
        ("life 1 2 3", usage("life PLAYER DELTA")),
        ("destroy", usage("destroy HEAD [HEAD ...] | destroy all")),
        ("destroy 1 all", usage("destroy HEAD [HEAD ...] | destroy all")),
        ("exile", usage("exile HEAD [HEAD ...] | exile all")),
        ("bounce 2 all", usage("bounce HEAD [HEAD ...] | bounce all")),
        ("tap", usage("tap HEAD [HEAD ...] | tap all")),
        ("sacrifice", usage("sacrifice HEAD [HEAD ...] | sacrifice all")),
        ("freeze", usage("freeze HEAD [HEAD ...] | freeze all")),
        ("sweep", usage("sweep AMOUNT HEAD [HEAD ...] | sweep AMOUNT all")),
        ("sweep all", usage("sweep AMOUNT HEAD [HEAD ...] | sweep AMOUNT all")),
        ("sweep 2", usage("sweep AMOUNT HEAD [HEAD ...] | sweep AMOUNT all")),
        ("sweep 2 1 all", usage("sweep AMOUNT HEAD [HEAD ...] | sweep AMOUNT all")),
        ("sweep -1 all", negative("sweep -1 all")),
        ("sweep 1 -2", negative("sweep 1 -2")),
        ("weaken 1", usage("weaken AMOUNT HEAD [HEAD ...] | weaken AMOUNT all")),
        ("weaken -1 2", negative("weaken -1 2")),
        ("counters 1", usage("counters DELTA HEAD [HEAD ...] | counters DELTA all")),
        ("copy", usage("copy HEAD")),
        ("copy 1 2", usage("copy HEAD")),
        ("mill", usage("mill AMOUNT")),
        ("mill 1 2", usage("mill AMOUNT")),
        ("mill -1", negative("mill -1")),
        ("concede 1 2", usage("concede [PLAYER]")),
        ("end 1", usage("end")),
        ("extraturn 2", usage("extraturn")),
        ("prevent", usage("prevent AMOUNT [PLAYER|all] [from SOURCE]")),
        ("prevent 3 from", usage("prevent AMOUNT [PLAYER|all] [from SOURCE]")),
        ("prevent from heads", usage("prevent AMOUNT [PLAYER|all] [from SOURCE]")),
        ("prevent 1 2 3", usage("prevent AMOUNT [PLAYER|all] [from SOURCE]")),
        ("prevent 1 all 2 3", usage("prevent AMOUNT [PLAYER|all] [from SOURCE]")),
        ("prevent 3 all 2", usage("prevent AMOUNT [PLAYER|all] [from SOURCE]")),  # a player and "all" at once
        ("prevent -1", negative("prevent -1")),
        ("prevent -1 2 from heads", negative("prevent -1 2 from heads")),
        ("exilecards", usage("exilecards library AMOUNT | exilecards graveyard all|CARD NAME")),
        ("exilecards library", usage("exilecards library AMOUNT | exilecards graveyard all|CARD NAME")),
        ("exilecards graveyard", usage("exilecards library AMOUNT | exilecards graveyard all|CARD NAME")),
        ("exilecards hand 1", usage("exilecards library AMOUNT | exilecards graveyard all|CARD NAME")),
        ("exilecards library 1 2", usage("exilecards library AMOUNT | exilecards graveyard all|CARD NAME")),
        ("exilecards library -1", negative("exilecards library -1")),
    ],
)
def test_refused_lines(line: str, expected: tuple[str, dict[str, object]]) -> None:
    assert refusal(line) == expected


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("attack 1 all", "all"),
        ("end all", "all"),
        ("damage 1 x", "x"),
        ("damage 1 1_0", "1_0"),
        ("damage 1 ²", "²"),
        ("damage 1 ①", "①"),
        ("damage 1 +", "+"),
        ("damage 1 ++5", "++5"),
        ("damage 1 +-5", "+-5"),
        ("prevent all", "all"),
        ("prevent 2 x", "x"),
        ("prevent x from heads", "x"),
        ("exilecards library x", "x"),
        ("concede x", "x"),
        ("damage 1 X5", "X5"),  # only a leading + or - is a sign
        ("damage 1 *x*", "*x*"),  # echoed as typed, not Markdown-escaped (the front end escapes)
    ],
)
def test_not_a_number(line: str, value: str) -> None:
    assert refusal(f"  {line}  ") == ("hydra.error.not_a_number", {"value": value, "line": line})


def test_numbers_of_any_script_with_a_sign() -> None:
    assert parse_number("１２", "x") == 12
    assert parse_number("+5", "x") == 5
    assert parse_number("-5", "x") == -5
    assert parse_number("٣", "x") == 3
    assert parse_number("0" * 29 + "7", "x") == 7  # 30 digits: still read
    assert parse_number(str(MAX_AMOUNT), "x") == MAX_AMOUNT
    assert parse_number(f"-{MAX_AMOUNT}", "x") == -MAX_AMOUNT
    assert parse_action("damage １ ２") == Action("damage", (1, 2))


@pytest.mark.parametrize(
    "token", [str(MAX_AMOUNT + 1), f"-{MAX_AMOUNT + 1}", "0" * 31, "+" + "0" * 31, "-" + "0" * 31]
)
def test_numbers_out_of_range(token: str) -> None:
    with pytest.raises(HydraError) as caught:
        parse_number(token, "mill " + token)
    assert (caught.value.key, caught.value.values) == (
        "hydra.error.number_out_of_range",
        {"value": token, "max": MAX_AMOUNT, "line": "mill " + token},
    )


def test_out_of_range_echoes_the_line_as_typed() -> None:
    assert refusal("mill 2000000 *_*") == (
        "hydra.error.number_out_of_range",
        {"value": "2000000", "max": MAX_AMOUNT, "line": "mill 2000000 *_*"},
    )


def test_a_number_too_long_to_read_is_out_of_range_and_echoed_short() -> None:
    token = "-" + "9" * 5000  # int() would refuse it: the length check comes first
    line = f"damage 1 {token}"
    assert refusal(line) == (
        "hydra.error.number_out_of_range",
        {"value": "-" + "9" * 98 + "…", "max": MAX_AMOUNT, "line": "damage 1 -" + "9" * 189 + "…"},
    )
    assert refusal("damage 1 " + "x" * 250) == (
        "hydra.error.not_a_number",
        {"value": "x" * 99 + "…", "line": "damage 1 " + "x" * 190 + "…"},
    )


@pytest.mark.parametrize(
    ("action", "line"),
    [
        (Action("end"), "end"),
        (Action("attack", (1, 2, 3, 4)), "attack 1 2 3 4"),
        (Action("sweep", (2,), "all"), "sweep 2 all"),
        (Action("destroy", (), "all"), "destroy all"),
        (Action("counters", (-1, 2)), "counters -1 2"),
        (Action("choose", (), "Grizzly Bears"), "choose Grizzly Bears"),
        (Action("prevent", (3, 1), "from heads"), "prevent 3 1 from heads"),
        (Action("exilecards", (3,), "library"), "exilecards library 3"),
        (Action("exilecards", (), "graveyard Neck Tangle"), "exilecards graveyard Neck Tangle"),
    ],
)
def test_canonical_lines(action: Action, line: str) -> None:
    assert action.line() == line
    assert parse_action(line) == action


def test_all_heads() -> None:
    assert parse_action("tap all").all_heads is True
    assert parse_action("tap 1").all_heads is False
    assert Action("tap", (), "All").all_heads is False
    assert Action("end").numbers == () and Action("end").text == ""


_HEADS = st.lists(st.integers(0, 99), min_size=1, max_size=4)
_AMOUNT = st.integers(0, MAX_AMOUNT)
_ACTIONS = st.one_of(
    st.builds(
        lambda pairs: Action("attack", tuple(n for pair in pairs for n in pair)),
        st.lists(st.tuples(st.integers(0, 99), _AMOUNT), min_size=1, max_size=3),
    ),
    st.builds(
        lambda verb, head, amount: Action(verb, (head, amount)),
        st.sampled_from(("damage", "loselife")),
        st.integers(0, 99),
        _AMOUNT,
    ),
    st.builds(
        lambda verb, heads: Action(verb, tuple(heads)),
        st.sampled_from(("destroy", "exile", "bounce", "tap", "sacrifice", "freeze")),
        _HEADS,
    ),
    st.builds(
        lambda verb: Action(verb, (), ALL),
        st.sampled_from(("destroy", "exile", "bounce", "tap", "sacrifice", "freeze")),
    ),
    st.builds(
        lambda verb, amount, heads: Action(verb, (amount, *heads)),
        st.sampled_from(("sweep", "weaken")),
        _AMOUNT,
        _HEADS,
    ),
    st.builds(lambda delta: Action("counters", (delta,), ALL), st.integers(-MAX_AMOUNT, MAX_AMOUNT)),
    st.builds(
        lambda amount, seat: Action("prevent", (amount, *seat)),
        _AMOUNT,
        st.lists(st.integers(1, 4), max_size=1),
    ),
    st.builds(lambda amount: Action("exilecards", (amount,), "library"), _AMOUNT),
    st.builds(lambda seat, delta: Action("life", (seat, delta)), st.integers(1, 4), st.integers(-99, 99)),
    st.builds(
        lambda text: Action("choose", (), text),
        st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8),
    ),
    st.sampled_from((Action("end"), Action("extraturn"), Action("concede"))),
)


@settings(max_examples=60, deadline=None)
@given(_ACTIONS)
def test_every_canonical_line_parses_back_to_its_action(action: Action) -> None:
    assert parse_action(action.line()) == action
