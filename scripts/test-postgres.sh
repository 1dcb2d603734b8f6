#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests, on a free port, as the
# `postgres` user when run as root (PostgreSQL refuses to run as root), and
# prints the admin URL. Installs Debian's postgresql package when no server
# binaries are found. Stop it with: scripts/test-postgres.sh stop DIR
#
#   url=$(scripts/test-postgres.sh start /tmp/agon-pg)
set -euo pipefail

find_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir="$2"
    bin="$(find_bin)"
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
      sudo_cmd=""
      if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
      $sudo_cmd apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >&2
      bin="$(find_bin)"
    fi
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
    # Throwaway: no fsync (the tests kill agon, never this server), unless
    # AGON_PG_DURABLE=1 (benchmarks); enough connections for parallel tests,
    # each with its own database.
    durability="-c fsync=off -c synchronous_commit=off"
    if [ "${AGON_PG_DURABLE:-0}" = 1 ]; then durability=""; fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 $durability" \
      start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir="$2"
    bin="$(find_bin)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start DIR | stop DIR" >&2
    exit 2
    ;;
esac
