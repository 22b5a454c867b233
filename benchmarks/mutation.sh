#!/usr/bin/env bash
# Mutation testing by hand: mutmut changes the domain code one small bug at a time (a flipped
# comparison, an off-by-one, a dropped call) and runs the tests that cover it; a mutant the tests do not
# notice "survives". Prints the score (killed / all) and the survivors.
#
#   pip install -e '.[test,mutation]'
#   benchmarks/mutation.sh --map                             # each module of benchmarks/mutation_map.txt
#                                                            # against its own tests, then a table and the total
#   benchmarks/mutation.sh --map rules hydra                 # only the map's lines whose glob contains a word
#   benchmarks/mutation.sh bot/domain/pod.py tests/pods      # one module or package, its tests
#   benchmarks/mutation.sh "bot/domain/tournament/*" tests/tournament
#   benchmarks/mutation.sh                                   # all of bot/domain against all of tests/ (hours)
#
# Arguments: a glob of files to mutate (relative to the repository), then the test paths to run.
# It works in a scratch copy of the repository (mutmut writes a mutants/ folder), so the checkout stays clean.
# MUTATION_JOBS sets mutmut's parallel workers (default 2); MUTATION_MAP another map file. The tests run on
# SQLite only (PostgreSQL's half of the both-engines tests is skipped: the domain code is the same on both,
# and each mutant would otherwise pay for schemas); MUTATION_POSTGRES=1 keeps it.
# A map line that starts with the tag [postgres] is always run with MUTATION_POSTGRES=1: code whose bugs show
# on PostgreSQL only (storage: the advisory locks, the placeholders, an unordered read) or whose tests are
# PostgreSQL's alone (the leases) would otherwise be judged by SQLite, or by no test at all:
#   [postgres] bot/storage/db.py | tests/core/test_db.py
# It needs the server of PODKEEPER_TEST_POSTGRES_URL (the test suite's, postgresql://postgres@127.0.0.1:5432/test).
# MUTATION_ONLY="bot.storage.db.x_redact* *ǁ_joined*" runs only the mutants whose names match (mutmut's names,
# as the survivors are printed): a re-run of a large module's survivors after new tests; its score is theirs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = "--map" ]; then  # one run per line of the map, then the table and the sums
    shift
    map=${MUTATION_MAP:-"$repo/benchmarks/mutation_map.txt"}
    export MUTATION_SUMMARY
    MUTATION_SUMMARY=$(mktemp "${TMPDIR:-/tmp}/podkeeper-mutation-summary.XXXXXX")
    trap 'rm -f "$MUTATION_SUMMARY"' EXIT
    while IFS='|' read -r glob tests; do
        glob=${glob//[[:space:]]/}  # tabs and spaces out (globs have none)
        [ -z "$glob" ] || [ "${glob:0:1}" = "#" ] && continue
        postgres=${MUTATION_POSTGRES:-}
        if [ "${glob:0:10}" = "[postgres]" ]; then glob=${glob:10}; postgres=1; fi  # both engines, always
        if [ $# -gt 0 ]; then
            wanted=""; for word in "$@"; do [[ "$glob" == *"$word"* ]] && wanted=1; done
            [ -z "$wanted" ] && continue
        fi
        read -r -a test_args <<< "$tests"
        MUTATION_POSTGRES=$postgres "$0" "$glob" "${test_args[@]}" || echo "$glob	0	0	0	failed" >> "$MUTATION_SUMMARY"
    done < "$map"
    python3 - "$MUTATION_SUMMARY" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
width = max([len(r[0]) for r in rows] + [6])
print(f"\n{'module':<{width}}  {'killed':>9}  {'score':>7}  {'time':>7}")
killed = total = seconds = 0
for glob, k, t, s, *note in rows:
    killed, total, seconds = killed + int(k), total + int(t), seconds + int(s)
    print(f"{glob:<{width}}  {k + '/' + t:>9}  {100 * int(k) / max(int(t), 1):6.1f} %  {s:>5} s  {' '.join(note)}")
print(f"{'total':<{width}}  {f'{killed}/{total}':>9}  {100 * killed / max(total, 1):6.1f} %  {seconds:>5} s")
PY
    exit 0
fi

target=${1:-"bot/domain/*"}
shift || true
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(tests)
# pyproject's addopts leave the PostgreSQL runs (and the slow tests) out of a plain pytest run; with
# MUTATION_POSTGRES=1 the PostgreSQL runs come back (slow tests never: a mutant must be quick to judge).
marks='"-m", "not slow and not postgres"'
[ "${MUTATION_POSTGRES:-}" = 1 ] && marks='"-m", "not slow"'
[ "${MUTATION_POSTGRES:-}" = 1 ] || export PODKEEPER_TEST_POSTGRES_URL="postgresql://nobody@127.0.0.1:1/none"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/podkeeper-mutation.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
tar -C "$repo" --exclude=.venv --exclude=mutants --exclude=.git --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.pytest_cache -cf - . \
    | tar -C "$scratch" -xf -
cd "$scratch"
cp "$repo/benchmarks/mutation_fresh_caches.py" tests/_mutation_fresh_caches.py
# mutmut runs the tests in mutants/, a copy of bot/ (and tests/) only: bot/paths.py finds assets/ beside the
# package it runs from, so the bundled cards and fonts would be missing there. The scratch copy's own assets/
# (the documented override) keeps every test reading the real files.
export PODKEEPER_ASSETS="$scratch/assets"

to_toml_list() { local out="" item; for item in "$@"; do out+="\"$item\", "; done; echo "[${out%, }]"; }
# mutmut copies (and its tests import) only its source_paths from mutants/: a glob under cogs/ needs the cogs
# there too, or the tests would import the unmutated cogs of the checkout and every mutant would survive.
sources=(bot)
[ "${target:0:5}" = "cogs/" ] && sources+=(cogs)
cat >> pyproject.toml <<TOML

[tool.mutmut]
source_paths = $(to_toml_list "${sources[@]}")
only_mutate = $(to_toml_list "$target")
pytest_add_cli_args_test_selection = $(to_toml_list "${tests[@]}")
pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:randomly", "-p", "tests._mutation_fresh_caches", $marks, "-q", "-x"]
TOML

started=$SECONDS
read -r -a only <<< "${MUTATION_ONLY:-}"  # mutant name patterns: only those are run (and scored)
mutmut run --max-children "${MUTATION_JOBS:-2}" "${only[@]}" > mutmut.log 2>&1 &
runner=$!
# mutmut's own process can stay at its exit, every result written, waiting for a thread a test of its
# first (in-process) run left behind (a bot's): once its closing line is out it gets 30 s, then is ended.
while kill -0 "$runner" 2>/dev/null && ! grep -q "mutations/second" mutmut.log; do sleep 5; done
for _ in $(seq 30); do kill -0 "$runner" 2>/dev/null || break; sleep 1; done
kill "$runner" 2>/dev/null || true
wait "$runner" || grep -q "mutations/second" mutmut.log || { tail -40 mutmut.log; exit 1; }
mutmut results --all true > results.txt 2>&1 || true
engines="SQLite"; [ "${MUTATION_POSTGRES:-}" = 1 ] && engines="SQLite and PostgreSQL"
[ -n "${MUTATION_ONLY:-}" ] && engines="$engines, only $MUTATION_ONLY"
python3 - "$target" "$((SECONDS - started))" "${MUTATION_SUMMARY:-}" "$engines" <<'PY'
import re, sys
from collections import Counter
rows = [line.strip().rsplit(": ", 1) for line in open("results.txt", encoding="utf-8") if ": " in line]
status = Counter(state for _, state in rows)
killed = status["killed"] + status["timeout"]
total = sum(status.values()) - status["skipped"] - status["not checked"]
print(f"mutation: {sys.argv[1]}: {killed}/{total} killed ({100 * killed / max(total, 1):.1f} %) in {sys.argv[2]} s"
      f" on {sys.argv[4]}")
print("  " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
survivors = [name for name, state in rows if state in ("survived", "no tests")]
for name in survivors:
    print("  survived:", name)
if sys.argv[3]:  # --map collects one line per run
    with open(sys.argv[3], "a", encoding="utf-8") as out:
        out.write(f"{sys.argv[1]}\t{killed}\t{total}\t{sys.argv[2]}\t{'both engines' if 'Postgre' in sys.argv[4] else ''}{' (only some mutants)' if 'only' in sys.argv[4] else ''}\n")
PY
if [ -n "${MUTATION_SHOW:-}" ]; then  # MUTATION_SHOW=1: print each survivor's diff
    { grep -E ': (survived|no tests)$' results.txt || true; } | cut -d: -f1 \
        | while read -r name; do mutmut show "$name"; done  # no survivors is no failure
fi
