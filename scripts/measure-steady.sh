#!/usr/bin/env bash
# Steady latency, side by side (issue 72): two builds of agon each serve 500
# same-screen games at one move a second for 10 minutes, at the same time on
# the same disk, each under strace timing its fsyncs; one report per build
# (agon bench serve's JSON) and the fsync times strace saw.
#
#   scripts/measure-steady.sh OLD_AGON NEW_AGON [SECONDS]
#
# Needs strace (Debian's package). Prints, per build: the client's p99,
# p99.9 and slowest acknowledgement, and the slowest fsync of the window.
set -euo pipefail
old=$1 new=$2 seconds=${3:-600}
out=$(mktemp -d /tmp/agon-steady.XXXXXX)
flags=(--engine-delay-ms 0 --rate-limit 0 --create-limit 0 --account-limit 0
  --max-connections-per-address 0 --max-sockets-per-address 0 --evict-after-secs 600)
pids=()
# The servers outlive a killed strace: each names $out on its command line.
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  pkill -f -- "$out" 2>/dev/null || true
}
trap cleanup EXIT
port=18301
for build in old new; do
  bin=${!build}
  strace -f --seccomp-bpf -e trace=fsync,fdatasync -T -o "$out/$build.strace" \
    "$bin" serve --data "$out/$build-data" --port "$port" "${flags[@]}" > "$out/$build-server.log" 2>&1 &
  pids+=($!)
  port=$((port + 1))
done
sleep 3
port=18301
for build in old new; do
  "$new" bench serve --url "http://127.0.0.1:$port" --games 500 --rate 1 --seconds "$seconds" \
    > "$out/$build.json" 2> "$out/$build-bench.log" &
  pids+=($!)
  port=$((port + 1))
done
wait "${pids[2]}" "${pids[3]}"
for build in old new; do
  python3 - "$out/$build.json" "$out/$build.strace" "$build" <<'PY'
import json, re, sys
report, trace, build = sys.argv[1:]
r = json.load(open(report))
fsyncs = sorted(float(m.group(1)) * 1000 for line in open(trace)
                if (m := re.search(r"(?:fsync|fdatasync).*<([\d.]+)>$", line.strip())))
l = r["latency_ms"]
print(f"{build}: {l['samples']} acks, p99 {l['p99']} ms, p99.9 {l['p99.9']} ms, max {l['max']} ms; "
      f"{len(fsyncs)} fsyncs, slowest {fsyncs[-1]:.2f} ms; max ack - slowest fsync = {l['max'] - fsyncs[-1]:+.2f} ms")
s = r.get("store", {})
if "ack_max_ms" in s:
    print(f"  the store's own figures: slowest fsync {s['fsync_max_ms']} ms, slowest acknowledgement "
          f"{s['ack_max_ms']} ms, longest wait for the writer {s['wait_max_ms']} ms, slowest checkpoint {s['checkpoint_max_ms']} ms")
PY
done
echo "reports and traces in $out"
