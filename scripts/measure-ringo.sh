#!/usr/bin/env bash
# Measures the Ringo engine's strength targets (issue 4) with `agon tournament`
# and writes one JSON file per match to docs/engine-results/. Levels 1-9 search
# to a fixed depth and their matches take seconds to minutes; every match with
# level 10 (1 s a move) takes about 20-40 s a game, so the full run takes hours
# on 2 cores. SCALE divides every game count for a quicker look, e.g.
# `SCALE=10 scripts/measure-ringo.sh`. `classic,attackers=5` is the balanced
# variant on which the level ladder can show (docs/engine-results/README.md).
# SEATS=1 measures instead level 10 against `greedy` and `cautious` one seat
# at a time, 100 games a seat (about 10 hours with THREADS=1, 5 with THREADS=2).
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${SCALE:-1}
THREADS=${THREADS:-1}
PRESETS=${PRESETS:-"classic encyclopedia globe classic,attackers=5"}
out=docs/engine-results
mkdir -p "$out"
cargo build --release -q -p agon-cli
agon=target/release/agon
n() { local g=$(( $1 / SCALE )); [ "$g" -lt 2 ] && g=2; echo $(( g + g % 2 )); }
match() { # preset a b games
  local file="$out/$1--$2--$3.json"
  echo "== $1: $2 vs $3 ($4 games)" >&2
  "$agon" tournament ringo --rules "$1" --a "$2" --b "$3" --games "$4" --threads "$THREADS" > "$file"
}
seat() { # preset b side games: level 10 in one seat only
  local file="$out/$1--level:10--$2--$3.json"
  echo "== $1: level:10 as $3 vs $2 ($4 games)" >&2
  "$agon" tournament ringo --rules "$1" --a level:10 --b "$2" --seat "$3" --games "$4" --threads "$THREADS" > "$file"
}
if [ "${SEATS:-0}" = 1 ]; then
  # "100 games a seat" (issue 21): level 10 against both baselines in each seat.
  for p in classic encyclopedia globe; do
    for b in greedy cautious; do
      for side in attackers defenders; do seat "$p" "$b" "$side" "$(n 100)"; done
    done
  done
  exit 0
fi
for p in $PRESETS; do
  for l in 2 3 4 5 6 7 8 9 10; do match "$p" "level:$l" "level:$((l - 1))" "$(n 200)"; done
  match "$p" level:10 random "$(n 100)"
  match "$p" level:10 greedy "$(n 100)"
  match "$p" level:10 cautious "$(n 100)"
  match "$p" level:10 level:10 "$(n 20)"
done
