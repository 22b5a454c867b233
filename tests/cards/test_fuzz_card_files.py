"""Bad card files get a clear ``CardImportError``, never a traceback, and change nothing, fuzzed
with Hypothesis: a real record of the committed subset with fields replaced by deep nesting, huge numbers,
non-object ``legalities``/``foreignData``, list-valued ``layout``, non-string names and lone surrogates, in
JSON Lines, Scryfall and MTGJSON files, plain or gzip (whole or truncated). 2,000 files are read; a sample
also goes through ``CardDatabase.import_file`` on a real SQLite file, whose cards must stay as they were."""

from __future__ import annotations

import gzip
import json
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cards.database import CardDatabase
from bot.cards.importers import CardImportError, read_cards
from bot.storage.db import Database
from tests.cards.conftest import SUBSET

RECORD = json.loads(SUBSET.read_text(encoding="utf-8").splitlines()[0])
FIELDS = [
    "name",
    "layout",
    "legalities",
    "printed_names",
    "card_faces",
    "type_line",
    "mana_cost",
    "cmc",
    "color_identity",
    "oracle_text",
    "power",
    "foreignData",
    "object",
]
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(),
    st.text(max_size=20),
    st.just("\ud800"),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)
deep = st.integers(min_value=1, max_value=5000).map(
    lambda n: json.loads("[" * min(n, 900) + "]" * min(n, 900))
)


@st.composite
def card_files(draw) -> tuple[str, bytes]:
    record = dict(RECORD)
    for field in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True)):
        record[field] = draw(st.one_of(values, deep))
    kind = draw(st.sampled_from(["jsonl", "scryfall", "mtgjson"]))
    if kind == "jsonl":
        text = json.dumps(record)
    elif kind == "scryfall":
        text = json.dumps([record])
    else:
        text = json.dumps({"meta": {}, "data": {str(record.get("name")): [record]}})
    raw = text.encode("utf-8", "surrogatepass")
    packing = draw(st.sampled_from(["plain", "gzip", "truncated gzip"]))
    if packing != "plain":
        raw = gzip.compress(raw)
        if packing == "truncated gzip":
            raw = raw[: draw(st.integers(min_value=1, max_value=max(1, len(raw) - 1)))]
    return kind, raw


def report(capsys, what: str, outcomes: Counter[str]) -> None:
    with capsys.disabled():
        print(f"\n{what}: {sum(outcomes.values())} inputs, {dict(sorted(outcomes.items()))}, 0 uncaught")


def test_card_files_are_read_or_refused_clearly(tmp_path, capsys, full_run) -> None:
    outcomes: Counter[str] = Counter()
    wanted = 2_000 if full_run else 200

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
    @given(card_files())
    @example(("jsonl", json.dumps({**RECORD, "legalities": ["commander"]}).encode()))
    @example(("mtgjson", json.dumps({"data": {"X": [{**RECORD, "foreignData": "ja"}]}}).encode()))
    @example(("jsonl", gzip.compress(json.dumps(RECORD).encode())[:20]))
    @example(("jsonl", ("{" * 5000 + "}" * 5000).encode()))
    def check(case: tuple[str, bytes]) -> None:
        _kind, raw = case
        path = tmp_path / "cards.json"
        path.write_bytes(raw)
        try:
            imported = read_cards(path)
        except CardImportError as error:
            assert "cards.json" in str(error)
            outcomes["refused"] += 1
            return
        assert imported.cards
        outcomes["read"] += 1

    check()
    report(capsys, "card files", outcomes)
    assert sum(outcomes.values()) >= wanted


async def test_a_refused_card_file_leaves_the_database_as_it_was(tmp_path) -> None:
    """A sample of the refused files above through the real import: the stored cards do not change."""
    db = await Database.open(tmp_path / "podkeeper.sqlite3")
    cards = await CardDatabase.open(db, SUBSET)
    before = (len(cards), await cards.repository.version())
    bad = [
        {**RECORD, "legalities": ["commander"]},
        {**RECORD, "layout": ["normal"]},
        {**RECORD, "name": 5},
        {**RECORD, "name": "\ud800"},
        {**RECORD, "cmc": 10**400},
        {**RECORD, "card_faces": [[[[[]]]]]},
    ]
    refused = 0
    for number, record in enumerate(bad):
        path = tmp_path / f"bad{number}.jsonl"
        path.write_bytes(json.dumps(record).encode("utf-8", "surrogatepass"))
        try:
            await cards.import_file(path)
        except CardImportError:
            refused += 1
            assert (len(cards), await cards.repository.version()) == before
        else:  # a record that is still a card (e.g. a huge cmc) is a real import: start again from the subset
            await cards.import_file(SUBSET)
            before = (len(cards), await cards.repository.version())
    truncated = tmp_path / "truncated.jsonl.gz"
    truncated.write_bytes(gzip.compress(SUBSET.read_bytes())[:500])
    try:
        await cards.import_file(truncated)
    except CardImportError:
        refused += 1
    assert (len(cards), await cards.repository.version()) == before
    assert refused >= 4
    await db.close()
