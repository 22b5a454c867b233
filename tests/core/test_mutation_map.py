"""benchmarks/mutation_map.txt covers all of bot/domain (the mutation score is over the whole
domain) and some of the rest of bot/: ``benchmarks/mutation.sh --map`` runs each line's glob against its
tests, so a domain file in no line would never be mutated, a file in two lines would be counted twice, and
a test path that no longer exists would make mutmut run nothing at all for its line."""

from __future__ import annotations

import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def map_lines() -> list[tuple[str, list[str]]]:
    """The map's (glob, test paths) lines, read as mutation.sh reads them."""
    lines = []
    for raw in (ROOT / "benchmarks" / "mutation_map.txt").read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        glob, _, tests = raw.partition("|")
        lines.append(("".join(glob.split()), tests.split()))
    return lines


def test_every_domain_file_is_in_exactly_one_line_of_the_map_and_no_file_in_two() -> None:
    globs = [glob for glob, _ in map_lines()]
    code = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "bot").rglob("*.py"))
    matches = {path: [glob for glob in globs if fnmatch.fnmatch(path, glob)] for path in code}  # as mutmut
    assert {path: found for path, found in matches.items()
            if len(found) > 1 or (not found and path.startswith("bot/domain/"))} == {}
    assert all(any(matches[path] == [glob] for path in code) for glob in globs), "a line that mutates nothing"


def test_every_line_names_a_glob_mutmut_accepts_and_tests_that_exist() -> None:
    for glob, tests in map_lines():
        assert glob.endswith(("*", ".py")), glob  # mutmut ignores any other only_mutate pattern
        assert tests, glob
        for test in tests:
            assert (ROOT / test.split("::")[0]).exists(), test
