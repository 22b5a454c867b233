"""Bad deck input gets a clear refusal, never a traceback, fuzzed with Hypothesis through the real
entry points: parse + resolve + check (``check_deck_text``) and ``podkeeper deck check`` (exit 0/1/2).

Counts written with superscripts, circled or full-width digits or thousands of digits, lone surrogates, binary
and huge lines, in text, CSV, MTGO .dek, Cockatrice .cod and Forge/XMage .dck lists. A small count by default;
``--full`` runs 10,000 (parse + check) and 300 (CLI). Counts are printed; 0 uncaught."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.domain.decklist import DecklistRefused
from bot.services.decks import check_deck_text
from tests.conftest import write_cli_config

DATA = Path(__file__).parent.parent / "data"
ODD_DIGITS = "0123456789²³①٣９"
NAMES = ["Sol Ring", "Kaalia of the Vast", "Plains", "Sol Rign", "", "\ud800", "Ａ" * 300]
counts = st.one_of(
    st.integers(min_value=-5, max_value=10**30).map(str),
    st.text(ODD_DIGITS, min_size=1, max_size=40),
    st.integers(min_value=1, max_value=5000).map(lambda n: "9" * n),
    st.sampled_from(["²", "①", "９"]),
)
names = st.one_of(st.sampled_from(NAMES), st.text(max_size=40))
FORMATS = {
    "deck.txt": lambda c, n: f"{c} {n}",
    "deck.csv": lambda c, n: f'{c},"{n}"',
    "deck.dek": lambda c, n: f'<Cards CatID="1" Quantity="{c}" Sideboard="false" Name="{n}" />',
    "deck.cod": lambda c, n: f'<card number="{c}" name="{n}"/>',
    "deck.dck": lambda c, n: f"{c} {n}",
}
HEADS = {
    "deck.csv": "Count,Name\n",
    "deck.dek": '<?xml version="1.0"?><Deck>',
    "deck.cod": '<?xml version="1.0"?><cockatrice_deck><zone name="main">',
    "deck.dck": "[Main]\n",
}
TAILS = {"deck.dek": "</Deck>", "deck.cod": "</zone></cockatrice_deck>"}


@st.composite
def deck_inputs(draw) -> tuple[str, bytes | str]:
    filename = draw(st.sampled_from(sorted(FORMATS)))
    lines = draw(st.lists(st.tuples(counts, names), min_size=1, max_size=6))
    body = "\n".join(FORMATS[filename](count, name) for count, name in lines)
    if draw(st.booleans()):
        body += "\n" + "x" * draw(st.sampled_from([10, 70_000, 300_000]))  # huge line
    text = HEADS.get(filename, "") + body + "\n" + TAILS.get(filename, "")
    kind = draw(st.sampled_from(["str", "utf-8", "binary", "utf-16"]))
    if kind == "str":
        return filename, text
    if kind == "binary":
        return filename, draw(st.binary(max_size=300)) + text.encode("utf-8", "surrogatepass")
    return filename, text.encode(kind, "surrogatepass")


def report(capsys, what: str, outcomes: Counter[str]) -> None:
    with capsys.disabled():
        print(f"\n{what}: {sum(outcomes.values())} inputs, {dict(sorted(outcomes.items()))}, 0 uncaught")


def test_deck_inputs_are_checked_or_refused(index, capsys, full_run) -> None:
    outcomes: Counter[str] = Counter()
    wanted = 10_000 if full_run else 300

    @settings(
        max_examples=wanted,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(deck_inputs())
    @example(("deck.txt", "² Sol Ring\n"))
    @example(("deck.txt", "①　Sol Ring\n"))
    @example(("deck.csv", "Count,Name\n" + "9" * 5000 + ",Sol Ring\n"))
    @example(("deck.dek", '<Deck><Cards Quantity="９" Name="Sol Ring"/></Deck>'))
    @example(("deck.txt", "1 \ud800\n"))
    @example(("deck.txt", b"\xff\xfe\x00\xd8"))
    def check(case: tuple[str, bytes | str]) -> None:
        filename, data = case
        try:
            result = check_deck_text(data, index, "commander", filename)
        except DecklistRefused as refusal:
            assert refusal.reason
            outcomes[f"refused:{refusal.reason}"] += 1
            return
        outcomes["legal" if result.verdict.legal else "illegal"] += 1

    check()
    report(capsys, "deck inputs (parse + resolve + check)", outcomes)
    assert sum(outcomes.values()) >= wanted


def test_deck_check_cli_exits_0_1_or_2(tmp_path, capsys, full_run) -> None:
    config = write_cli_config(tmp_path, DATA / "deck_cards.jsonl")
    outcomes: Counter[str] = Counter()
    wanted = 300 if full_run else 15

    @settings(
        max_examples=wanted,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )
    @given(deck_inputs())
    def check(case: tuple[str, bytes | str]) -> None:
        filename, data = case
        path = tmp_path / filename
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        code = main(["--config", str(config), "deck", "check", str(path)])
        assert code in (0, 1, 2)
        captured = capsys.readouterr()
        assert "Traceback" not in captured.out + captured.err
        outcomes[f"exit {code}"] += 1

    check()
    report(capsys, "podkeeper deck check", outcomes)
    assert sum(outcomes.values()) >= wanted
