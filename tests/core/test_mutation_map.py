"""benchmarks/mutation_map.txt covers all of bot/domain (the mutation score is over the whole
domain) and some of the rest of bot/ and cogs/: ``benchmarks/mutation.sh --map`` runs each line's glob
against its tests, so a domain file in no line would never be mutated, a file in two lines would be counted twice, and
a test path that no longer exists would make mutmut run nothing at all for its line. A line tagged
``[postgres]`` runs its tests on PostgreSQL too (mutation.sh's header): code whose tests are PostgreSQL's alone
judged without the tag would be judged by no test at all."""

from __future__ import annotations

import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


POSTGRES_TAG = "[postgres]"  # mutation.sh: the line's tests run on both engines


def tagged_map_lines() -> list[tuple[bool, str, list[str]]]:
    """The map's (tagged [postgres], glob, test paths) lines, read as mutation.sh reads them."""
    lines = []
    for raw in (ROOT / "benchmarks" / "mutation_map.txt").read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        glob, _, tests = raw.partition("|")
        glob = "".join(glob.split())
        tagged = glob.startswith(POSTGRES_TAG)
        lines.append((tagged, glob.removeprefix(POSTGRES_TAG), tests.split()))
    return lines


def map_lines() -> list[tuple[str, list[str]]]:
    """The map's (glob, test paths) lines, without their tags."""
    return [(glob, tests) for _, glob, tests in tagged_map_lines()]


def test_every_domain_file_is_in_exactly_one_line_of_the_map_and_no_file_in_two() -> None:
    globs = [glob for glob, _ in map_lines()]
    code = sorted(  # the cogs too: mutation.sh mutates a glob under cogs/ as well
        str(path.relative_to(ROOT)) for top in ("bot", "cogs") for path in (ROOT / top).rglob("*.py")
    )
    matches = {path: [glob for glob in globs if fnmatch.fnmatch(path, glob)] for path in code}  # as mutmut
    assert {
        path: found
        for path, found in matches.items()
        if len(found) > 1 or (not found and path.startswith("bot/domain/"))
    } == {}
    assert all(any(matches[path] == [glob] for path in code) for glob in globs), "a line that mutates nothing"


def test_every_line_names_a_glob_mutmut_accepts_and_tests_that_exist() -> None:
    for glob, tests in map_lines():
        assert glob.endswith(("*", ".py")), glob  # mutmut ignores any other only_mutate pattern
        assert tests, glob
        for test in tests:
            assert (ROOT / test.split("::")[0]).exists(), test


def _runs_on_postgresql_only(test: str) -> bool:
    """A test path (a file, or one test of it) whose every test is marked ``postgresql_only``, so without
    PostgreSQL it runs nothing."""
    path, _, name = test.partition("::")
    text = (ROOT / path).read_text(encoding="utf-8")
    if name:
        before = text.split(f"def {name}(", 1)[0].rsplit("\n\n\n", 1)[-1]  # its decorators
        return "postgresql_only" in before or "pytestmark = pytest.mark.postgresql_only" in text
    return "pytestmark = pytest.mark.postgresql_only" in text


def test_a_line_whose_tests_need_postgresql_is_tagged_and_no_other_tag_is_used() -> None:
    """Without the tag such a line's mutants meet no test and are counted as survivors (or the run stops)."""
    for raw in (ROOT / "benchmarks" / "mutation_map.txt").read_text(encoding="utf-8").splitlines():
        glob = "".join(raw.partition("|")[0].split())
        if glob.startswith("["):  # a glob of mutation.sh starts with bot/ or cogs/: a bracket there is a tag
            assert glob.startswith(POSTGRES_TAG), f"unknown tag: {raw}"
    untagged = [
        glob
        for tagged, glob, tests in tagged_map_lines()
        if not tagged and tests and all(_runs_on_postgresql_only(test) for test in tests)
    ]
    assert untagged == []
