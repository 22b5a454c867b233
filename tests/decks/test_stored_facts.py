"""The rules' facts stored with the card data (bot/domain/rules/facts.py): tagged with a fingerprint of the
rules code, read back for the current data's own card objects only, worked out for any other."""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.cards.model import Card
from bot.domain.rules import facts as facts_module
from bot.domain.rules.identity import CR_903_4, D4_MANA_SYMBOLS


@pytest.fixture(autouse=True)
def _fresh_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facts_module, "_cache", {})
    monkeypatch.setattr(facts_module, "_stored", None)
    monkeypatch.setattr(facts_module, "_fingerprint", None)


def knight(cost: str, text: str = "") -> Card:
    return Card(
        name="Test Knight",
        mana_cost=cost,
        type_line="Creature — Knight",
        oracle_text=text,
        color_identity=cost.strip("{}"),
    )


def test_the_fingerprint_is_the_hash_of_the_rules_code_and_follows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_bytes(b"RULES = 1\n")
    second.write_bytes(b"MORE = 2\n")
    monkeypatch.setattr(
        facts_module,
        "_RULES_CODE",
        (SimpleNamespace(__file__=str(first)), SimpleNamespace(__file__=str(second))),
    )
    expected = "facts-" + hashlib.sha256(b"RULES = 1\nMORE = 2\n").hexdigest()[:16]
    assert facts_module.fingerprint() == expected
    first.write_bytes(b"RULES = 2\n")
    assert facts_module.fingerprint() == expected  # worked out once per process
    monkeypatch.setattr(facts_module, "_fingerprint", None)
    changed = facts_module.fingerprint()
    assert (
        changed == "facts-" + hashlib.sha256(b"RULES = 2\nMORE = 2\n").hexdigest()[:16]
        and changed != expected
    )


def test_no_fingerprint_when_the_rules_code_cannot_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facts_module, "_RULES_CODE", (SimpleNamespace(__file__=str(tmp_path / "gone.py")),))
    assert facts_module.fingerprint() is None
    assert facts_module.fingerprint() is None  # and it stays so: nothing is stored or read


def test_the_real_fingerprint_names_the_facts_format() -> None:
    assert facts_module.fingerprint() is not None
    assert facts_module.fingerprint() == facts_module.fingerprint()
    value = facts_module.fingerprint() or ""
    assert value.startswith("facts-") and len(value) == len("facts-") + 16 and int(value[6:], 16) >= 0


def test_stored_facts_answer_for_the_data_s_own_card_objects_only() -> None:
    red = knight("{R}", "A deck can have up to seven cards named Test Knight.")
    blob = facts_module.pack_facts([red])
    current = knight("{G}")  # the data's card of that name now: the stored facts speak for it, unread
    facts_module.use_stored_facts(blob, {"Test Knight": current}.get)
    stored = facts_module.facts_for(current)
    assert stored.card is current
    assert (stored.colours[CR_903_4], stored.colours[D4_MANA_SYMBOLS], stored.copy_limit) == ("R", "R", 7)
    assert [(o.colour, o.source.value, o.face) for o in stored.identities[CR_903_4].origins] == [
        ("R", "cost", None)
    ]
    other = knight("{U}")  # a test's own card, or one of older data: worked out from its text
    worked = facts_module.facts_for(other)
    assert (worked.colours[CR_903_4], worked.copy_limit) == ("U", 1)


def test_a_card_the_stored_facts_do_not_know_is_worked_out() -> None:
    blob = facts_module.pack_facts([knight("{R}")])
    newcomer = Card(name="Test Squire", mana_cost="{W}", type_line="Creature — Human", color_identity="W")
    facts_module.use_stored_facts(blob, {"Test Squire": newcomer}.get)
    assert facts_module.facts_for(newcomer).colours[CR_903_4] == "W"
