#!/usr/bin/env bash
# Measures the Urgammon engine's strength targets (issue 5) with `agon
# tournament urgammon` and its accuracy with `agon urgammon calibrate`, writing
# JSON to docs/urgammon-results/. About half an hour on 2 cores; SCALE divides
# every game count for a quicker look, e.g. `SCALE=10 scripts/measure-urgammon.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${SCALE:-1}
THREADS=${THREADS:-2}
out=docs/urgammon-results
mkdir -p "$out"
cargo build --release -q -p agon-cli
agon=target/release/agon
n() { local g=$(( $1 / SCALE )); [ "$g" -lt 2 ] && g=2; echo $(( g + g % 2 )); }
match() { # a b games [match-to]
  local file="$out/$1--$2${4:+--match$4}.json"
  echo "== $1 vs $2 ($3 $([ -n "${4:-}" ] && echo "matches to $4" || echo games))" >&2
  "$agon" tournament urgammon --a "$1" --b "$2" --games "$3" --threads "$THREADS" \
    ${4:+--match-to "$4"} > "$file"
}
for l in 2 3 4 5 6 7 8 9 10; do match "level:$l" "level:$((l - 1))" "$(n 1000)"; done
match level:10 random "$(n 1000)"
match level:10 greedy "$(n 2000)"
match level:10 greedy "$(n 200)" 7
match level:10 level:8 "$(n 300)" 7
"$agon" urgammon calibrate --positions "$(n 500)" --rollouts 2000 --threads "$THREADS" > "$out/calibration.json"
"$agon" urgammon met --to 7 --json > "$out/met-7.json"
python3 scripts/urgammon-plots.py "$out"
python3 scripts/results-table.py urgammon
