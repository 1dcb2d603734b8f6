#!/usr/bin/env bash
# The scale-out figures of docs/performance.md: one instance on SQLite, one on
# PostgreSQL, two on PostgreSQL (500 games at one move a second, 500
# spectators, every move and push timed by `agon bench serve`), and the
# engine's throughput at level 10 with one and with two `agon worker`s.
# Starts its own PostgreSQL (with fsync, like a real one) and removes it.
#
#   cargo build --release && scripts/measure-scaleout.sh   # writes docs/performance/scaleout-*.json
set -euo pipefail
cd "$(dirname "$0")/.."
agon=target/release/agon
out=docs/performance
seconds=${SECONDS_PER_RUN:-20}
mkdir -p "$out"

pg_dir="$(mktemp -d /tmp/agon-bench-pg.XXXXXX)"
# The processes started, one pid a line (serve runs in a subshell, so a
# shell array would not see them).
pids_file="$(mktemp /tmp/agon-bench-pids.XXXXXX)"
stop_all() {
  while read -r p; do kill "$p" 2>/dev/null || true; done <"$pids_file"
  while read -r p; do
    while kill -0 "$p" 2>/dev/null; do sleep 0.1; done
  done <"$pids_file"
  : >"$pids_file"
}
cleanup() {
  stop_all
  rm -f "$pids_file"
  scripts/test-postgres.sh stop "$pg_dir"
}
trap cleanup EXIT
admin="$(AGON_PG_DURABLE=1 scripts/test-postgres.sh start "$pg_dir")"
base="${admin%/*}"

fresh_db() {
  local name="agon_bench_$1"
  psql -q "$admin" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
  echo "$base/$name"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts agon serve with the given flags; prints its URL.
serve() {
  local port data
  port="$(free_port)"
  data="$(mktemp -d /tmp/agon-bench-data.XXXXXX)"
  # The load comes from one address: its per-address caps are off too.
  "$agon" serve --data "$data" --port "$port" --rate-limit 0 --create-limit 0 \
    --max-connections-per-address 0 --max-sockets-per-address 0 \
    --engine-delay-ms 0 "$@" >/dev/null 2>&1 &
  echo $! >>"$pids_file"
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
    sleep 0.1
  done
  echo "http://127.0.0.1:$port"
}

load=(--games 500 --rate 1 --seconds "$seconds" --spectators 500)

echo "== one instance, SQLite" >&2
"$agon" bench serve "${load[@]}" >"$out/scaleout-sqlite-1.json"
stop_all

echo "== one instance, PostgreSQL" >&2
db="$(fresh_db one)"
a="$(serve --database "$db")"
"$agon" bench serve "${load[@]}" --url "$a" >"$out/scaleout-postgres-1.json"
stop_all

echo "== two instances, PostgreSQL" >&2
db="$(fresh_db two)"
a="$(serve --database "$db")"
b="$(serve --database "$db")"
"$agon" bench serve "${load[@]}" --url "$a" --url "$b" >"$out/scaleout-postgres-2.json"
stop_all

for workers in 1 2; do
  echo "== engine level 10, $workers worker(s)" >&2
  db="$(fresh_db "engine$workers")"
  a="$(serve --database "$db" --engine-threads 0)"
  for _ in $(seq "$workers"); do
    "$agon" worker --database "$db" --threads 1 --engine-delay-ms 0 >/dev/null 2>&1 &
    echo $! >>"$pids_file"
  done
  "$agon" bench serve --opponent engine --level 10 --games 8 --rate 0 \
    --seconds "$seconds" --url "$a" >"$out/scaleout-engine-$workers.json"
  stop_all
done
echo "written: $out/scaleout-*.json" >&2
