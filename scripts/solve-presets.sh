#!/usr/bin/env bash
# The proofs of docs/balance/README.md: builds the endgame tablebases of each
# preset (every class of at most five pieces: 3v2, 2v3, 4v1 and the smaller
# ones), verifies them, then runs `agon ringo solve` from the start of each
# preset and of classic,attackers=5 with the same node budget.
#
#   cargo build --release && scripts/solve-presets.sh   # writes docs/balance/proofs.json
#
# NODES (default 100000000) is the budget of each solve; TABLES the directory
# for the tables (default agon-data/tablebases, where `agon serve` reads them,
# so the run also installs them for the web app; about 190 MB a preset, not
# committed), emptied first so that every table is built and timed by this run.
set -euo pipefail
cd "$(dirname "$0")/.."
agon=target/release/agon
nodes=${NODES:-100000000}
tables=${TABLES:-agon-data/tablebases}
out=docs/balance/proofs.json
tmp="$(mktemp -d /tmp/agon-proofs.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tables"

for rules in classic encyclopedia globe; do
  for top in "3 2" "2 3" "4 1"; do
    set -- $top
    /usr/bin/env time -f "%e s %M KB" -o "$tmp/time-$rules-$1v$2" \
      "$agon" ringo tablebase build --rules "$rules" --attackers "$1" --defenders "$2" \
      --dir "$tables" --threads 2 >"$tmp/build-$rules-$1v$2.json"
  done
  "$agon" ringo tablebase verify --rules "$rules" --dir "$tables" --samples 2000 --depth 5 \
    --threads 2 >"$tmp/verify-$rules.json"
done

# Two solves at a time (one core each).
solve() {
  local rules=$1
  /usr/bin/env time -f "%e" -o "$tmp/solve-time-$rules" \
    "$agon" ringo solve --rules "$rules" --max-nodes "$nodes" --tablebases "$tables" \
    >"$tmp/solve-$rules.json" 2>/dev/null
}
solve classic & solve encyclopedia & wait
solve globe & solve classic,attackers=5 & wait

python3 - "$tmp" "$nodes" >"$out" <<'PY'
import json, sys, glob, os
tmp, nodes = sys.argv[1], int(sys.argv[2])
out = {"command": "scripts/solve-presets.sh", "max_nodes": nodes, "tablebases": {}, "solves": []}
for rules in ["classic", "encyclopedia", "globe"]:
    classes = []
    for f in sorted(glob.glob(f"{tmp}/build-{rules}-*.json")):
        classes += json.load(open(f))
    times = {}
    for f in glob.glob(f"{tmp}/time-{rules}-*"):
        secs, _, kb, _ = open(f).read().split()
        times[os.path.basename(f).split("-")[-1]] = {"secs": float(secs), "peak_mb": int(kb) // 1024}
    out["tablebases"][rules] = {
        "classes": classes,
        "builds": times,
        "verify": json.load(open(f"{tmp}/verify-{rules}.json")),
    }
for rules in ["classic", "encyclopedia", "globe", "classic,attackers=5"]:
    s = json.load(open(f"{tmp}/solve-{rules}.json"))
    s["rules"] = rules
    s["secs"] = float(open(f"{tmp}/solve-time-{rules}").read())
    out["solves"].append(s)
json.dump(out, sys.stdout, indent=1)
print()
PY
echo "wrote $out" >&2
