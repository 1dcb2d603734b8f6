#!/usr/bin/env bash
# The web app's performance table (docs/performance.md): acknowledgement and
# push latency at 50, 500 and 2,000 games (one move a second each), with 1k
# and 10k spectators, the throughput when every game plays as fast as it is
# acknowledged, and the memory with 10,000 stored games and 500 active.
#
#   scripts/measure-serve.sh [OLD_AGON]      # OLD_AGON: a binary to compare
#
# Results go to docs/performance/*.json. Build first: cargo build --release.
set -euo pipefail
cd "$(dirname "$0")/.."
agon=target/release/agon
out=docs/performance
mkdir -p "$out"

run() { # name, bench args...
  local name=$1; shift
  echo "== $name: $*" >&2
  "$agon" bench serve "$@" | tee "$out/$name.json"
}

run after-50 --games 50 --seconds 20
run after-500 --games 500 --seconds 20
run after-2000 --games 2000 --seconds 20
run after-500-spect1k --games 500 --seconds 20 --spectators 1000
run after-500-spect10k --games 500 --seconds 20 --spectators 10000
run after-throughput --games 200 --rate 0 --seconds 10
run after-memory --stored 10000 --games 500 --seconds 30 --evict-after-secs 5

if [ $# -ge 1 ]; then
  # The old server, started by hand (it has none of the new flags), driven
  # by the same load generator.
  old=$1
  for case in "50::" "500::" "2000::" "500:1000:-spect1k" "500:10000:-spect10k"; do
    IFS=: read -r games spect suffix <<<"$case"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    data=$(mktemp -d)
    "$old" serve --data "$data" --port "$port" --engine-delay-ms 0 >/dev/null &
    pid=$!
    sleep 1
    echo "== before-$games$suffix" >&2
    "$agon" bench serve --url "http://127.0.0.1:$port" --games "$games" --seconds 20 --spectators "${spect:-0}" \
      | python3 -c "import json,sys; v=json.load(sys.stdin); v['server_rss_mib']=int(open('/proc/$pid/status').read().split('VmRSS:')[1].split()[0])/1024; print(json.dumps(v))" \
      | tee "$out/before-$games$suffix.json"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "$data"
  done
fi
