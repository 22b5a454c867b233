"""Every refusal the Discord stand-in can answer with is provoked by one of its own tests.

The stand-in is what the Discord-layer tests trust: a refusal it stops making (a loosened check) passes every
bot test silently, so each rule it enforces needs a test that breaks the rule and gets Discord's code. This
test reads the stand-in's code for every error code it raises and looks for each in its own tests
(tests/discord/test_standin_*.py): a new refusal without a test fails here, naming its code."""

from __future__ import annotations

import re
from pathlib import Path

import bot.testing.fakediscord.backend as backend

RAISED = (
    r"DiscordError\(\s*\d+,\s*(\d+)",  # DiscordError(status, code, ...)
    r"_missing\(\s*(\d+)",  # an unknown object: 404 with its own code
    r"rate_limited\(\s*(\d+)",  # a 429 with its code (0: the global limit)
)
STANDIN_TESTS = sorted(Path(__file__).parent.glob("test_standin_*.py"))


def raised_codes() -> set[int]:
    source = Path(backend.__file__).read_text(encoding="utf-8")
    return {int(code) for pattern in RAISED for code in re.findall(pattern, source)}


def test_the_stand_in_raises_the_codes_this_test_knows_how_to_find() -> None:
    """The patterns must keep finding the refusals (an edit of the backend's style would hide them all)."""
    assert {50035, 50013, 50001, 10008, 10062, 30046, 0} <= raised_codes()


def test_every_code_the_stand_in_refuses_with_is_asserted_by_one_of_its_tests() -> None:
    tests = "\n".join(
        path.read_text(encoding="utf-8") for path in STANDIN_TESTS if path.name != Path(__file__).name
    )
    untested = sorted(code for code in raised_codes() if code and not re.search(rf"\b{code}\b", tests))
    assert untested == [], f"refusals of the stand-in that none of its own tests provokes: {untested}"
