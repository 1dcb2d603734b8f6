#!/usr/bin/env bash
# The Swiss pairing's speed side by side with the FIDE-endorsed bbpPairings
# (issue 86): round 2 of a field of N players (round 1 played as the Dutch
# system pairs it, each game a win for the first board's player with
# probability 0.55, seeded), paired by `agon swiss pair` and by the reference,
# each timed once, and whether the two agree.
#   scripts/swiss-bench.sh [N ...]          (default: 100 500 1000)
# Needs target/release/agon (cargo build --release) and the reference built
# by the cross-check (target/bbpPairings/bbpPairings.exe: cargo test -p
# agon-cli --test swiss_reference).
set -euo pipefail
cd "$(dirname "$0")/.."
agon=target/release/agon
bbp=target/bbpPairings/bbpPairings.exe
[ -x "$agon" ] || { echo "build it first: cargo build --release" >&2; exit 1; }
[ -x "$bbp" ] || { echo "build the reference first: cargo test -p agon-cli --test swiss_reference" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in "${@:-100 500 1000}"; do
  for N in $n; do
    python3 - "$N" "$dir/f$N.trf" <<'PY'
import random, sys
N, out = int(sys.argv[1]), sys.argv[2]
random.seed(N)
def line(n, rating, pts, rounds):
    return "001 %4d      %-33s %4d%28s%4.1f %4d%s" % (n, "Player %d" % n, rating, "", pts, n, rounds)
half = N // 2
res, pts = {}, {}
for i in range(1, half + 1):
    a, b = i, i + half
    wa = "w" if i % 2 == 1 else "b"
    wb = "b" if wa == "w" else "w"
    ra, rb = ("1", "0") if random.random() < 0.55 else ("0", "1")
    res[a] = "  %4d %s %s" % (b, wa, ra)
    res[b] = "  %4d %s %s" % (a, wb, rb)
    pts[a], pts[b] = float(ra == "1"), float(rb == "1")
lines = ["012 Bench %d" % N] + [line(n, 2800 - n // 2, pts.get(n, 0.0), res.get(n, "")) for n in range(1, N + 1)]
open(out, "w").write("\n".join(lines + ["XXR 9", "XXC white1"]) + "\n")
PY
    a0=$(date +%s.%N); "$agon" swiss pair --dutch "$dir/f$N.trf" -p "$dir/a$N"; a1=$(date +%s.%N)
    "$bbp" --dutch "$dir/f$N.trf" -p "$dir/b$N"; b1=$(date +%s.%N)
    if cmp -s <(sort "$dir/a$N") <(sort "$dir/b$N"); then same=identical; else same="$(comm -3 <(sort "$dir/a$N") <(sort "$dir/b$N") | wc -l) lines differ"; fi
    python3 -c "import sys; n,a0,a1,b1=sys.argv[1:5]; print('%5d players: agon %.2f s, bbpPairings %.2f s, %s' % (int(n), float(a1)-float(a0), float(b1)-float(a1), sys.argv[5]))" "$N" "$a0" "$a1" "$b1" "$same"
  done
done
