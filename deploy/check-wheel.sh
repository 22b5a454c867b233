#!/usr/bin/env bash
# The wheel as an operator gets it: built from this checkout, installed with its dependencies into a fresh
# virtualenv outside the checkout, and run from another folder with no configuration. It must find its own
# card data and fonts (inside the package) and keep its database in the user's data folder, which it names.
# Its first start must read the card index the wheel build shipped (bot/assets/cards/prebuilt), not the card
# data: told by the log, not by timing. Used by .ci/run; by hand: `bash deploy/check-wheel.sh` (needs network
# for the dependencies, ~1 min).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir "$scratch/dist" .
python -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet "$scratch"/dist/podkeeper-*.whl
mkdir "$scratch/elsewhere"
cd "$scratch/elsewhere"
export XDG_DATA_HOME="$scratch/user-data"
unset PODKEEPER_ASSETS PODKEEPER_CONFIG PODKEEPER_DATABASE_PATH PODKEEPER_DATABASE_URL PODKEEPER_CARDS_PATH
"$scratch/venv/bin/podkeeper" --version
"$scratch/venv/bin/podkeeper" cards lookup "Lightning Bolt" 2>"$scratch/lookup.log" | tee "$scratch/lookup.txt"
grep -q "ja: 稲妻" "$scratch/lookup.txt"
grep -q "keeping the data in $XDG_DATA_HOME/podkeeper/podkeeper.sqlite3" "$scratch/lookup.log"
grep -q "site-packages/bot/assets/cards/cards.jsonl.gz" "$scratch/lookup.log"
grep -q "first start: using the card index shipped with the package from the same file (.*/site-packages/bot/assets/cards/prebuilt/cards-" "$scratch/lookup.log"
if grep "reading cards.jsonl.gz" "$scratch/lookup.log"; then echo "the first start read the card data" >&2; exit 1; fi
"$scratch/venv/bin/podkeeper" deck check "$checkout/tests/data/decks/kaalia_arena.txt" --json >"$scratch/deck.json"
grep -q '"legal": true' "$scratch/deck.json"
test -f "$XDG_DATA_HOME/podkeeper/podkeeper.sqlite3" && test ! -e data
echo "wheel: installed outside the checkout, first start from the shipped card index, card lookup and deck check from $PWD: ok"
