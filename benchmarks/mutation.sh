#!/usr/bin/env bash
# Mutation testing by hand (issue 21): mutmut changes the domain code one small bug at a time (a flipped
# comparison, an off-by-one, a dropped call) and runs the tests that cover it; a mutant the tests do not
# notice "survives". Prints the score (killed / all) and the survivors.
#
#   pip install -e '.[test,mutation]'
#   benchmarks/mutation.sh                                   # all of bot/domain against all of tests/ (hours)
#   benchmarks/mutation.sh bot/domain/pod.py tests/pods      # one module or package, its tests
#   benchmarks/mutation.sh "bot/domain/tournament/*" tests/tournament
#
# Arguments: a glob of files to mutate (relative to the repository), then the test paths to run.
# It works in a scratch copy of the repository (mutmut writes a mutants/ folder), so the checkout stays clean.
# MUTATION_JOBS sets mutmut's parallel workers (default 2).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-"bot/domain/*"}
shift || true
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(tests)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/podkeeper-mutation.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
tar -C "$repo" --exclude=.venv --exclude=mutants --exclude=.git --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.pytest_cache -cf - . \
    | tar -C "$scratch" -xf -
cd "$scratch"

to_toml_list() { local out="" item; for item in "$@"; do out+="\"$item\", "; done; echo "[${out%, }]"; }
cat >> pyproject.toml <<TOML

[tool.mutmut]
source_paths = ["bot"]
only_mutate = $(to_toml_list "$target")
pytest_add_cli_args_test_selection = $(to_toml_list "${tests[@]}")
pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-x"]
TOML

started=$SECONDS
mutmut run --max-children "${MUTATION_JOBS:-2}" > mutmut.log 2>&1 || { tail -40 mutmut.log; exit 1; }
mutmut results --all true > results.txt 2>&1 || true
python3 - "$target" "$((SECONDS - started))" <<'PY'
import re, sys
from collections import Counter
rows = [line.strip().rsplit(": ", 1) for line in open("results.txt", encoding="utf-8") if ": " in line]
status = Counter(state for _, state in rows)
killed = status["killed"] + status["timeout"]
total = sum(status.values()) - status["skipped"] - status["not checked"]
print(f"mutation: {sys.argv[1]}: {killed}/{total} killed ({100 * killed / max(total, 1):.1f} %) in {sys.argv[2]} s")
print("  " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
survivors = [name for name, state in rows if state in ("survived", "no tests")]
for name in survivors:
    print("  survived:", name)
PY
if [ -n "${MUTATION_SHOW:-}" ]; then  # MUTATION_SHOW=1: print each survivor's diff
    grep -E ': (survived|no tests)$' results.txt | cut -d: -f1 | while read -r name; do mutmut show "$name"; done
fi
