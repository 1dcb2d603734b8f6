#!/usr/bin/env bash
# docs/deploy.md's PostgreSQL step, run as written against a cluster set up
# the way Debian's pg_createcluster sets one up (peer for local sockets,
# scram-sha-256 over TCP): the user, password and database it makes, and the
# URL it exports, must let `agon migrate` in; the same URL without its
# password must be refused. Only the port is changed (a free one). Run as
# root, as the documented commands are (runuser); needs target/debug/agon;
# ./test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then
  echo "test-deploy-postgres.sh runs the documented commands as root (runuser): run it as root" >&2
  exit 1
fi
agon="${AGON_BIN:-target/debug/agon}"
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
dir="$(mktemp -d)"
chown postgres "$dir"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
stop() { runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
runuser -u postgres -- "$bin/initdb" -D "$dir/data" -U postgres \
  --auth-local=peer --auth-host=scram-sha-256 >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
# The documented block: the first ```sh block after "1. PostgreSQL:".
block="$(awk '/^1\. PostgreSQL:/ {on=1} on && /```sh/ {inb=1; next} inb && /```/ {exit} inb {print}' docs/deploy.md \
  | sed -e 's/^   //' -e "s/5432/$port/")"
[ -n "$block" ] || { echo "no PostgreSQL block in docs/deploy.md" >&2; exit 1; }
export PGHOST="$dir" PGPORT="$port"
eval "$block" >/dev/null
# As docs/deploy.md says: the database from AGON_DATABASE, never on the
# command line.
if ! "$agon" migrate >/dev/null 2>"$dir/migrate.log"; then
  cat "$dir/migrate.log" >&2
  echo "the documented PostgreSQL setup does not let agon in" >&2
  exit 1
fi
echo "the documented PostgreSQL setup lets agon in over TCP with its password"
no_password="$(printf '%s' "$AGON_DATABASE" | sed -E 's#//([^:@]+):[^@]*@#//\1@#')"
if "$agon" migrate --database "$no_password" >/dev/null 2>&1; then
  echo "a URL without the password was let in: the cluster is not set up as Debian's" >&2
  exit 1
fi
echo "and refuses the same URL without it"

# The documented PostgreSQL backup and restore: the first ```sh block after
# "**PostgreSQL** (`--database`)", run as written (only the port changed)
# against the database just made: the restore's URL must let it in.
restore="$(awk '/^\*\*PostgreSQL\*\* \(`--database`\)/ {on=1} on && /```sh/ {inb=1; next} inb && /```/ {exit} inb {print}' docs/deploy.md \
  | sed -e "s/5432/$port/")"
[ -n "$restore" ] || { echo "no PostgreSQL restore block in docs/deploy.md" >&2; exit 1; }
(cd "$dir" && PATH="$bin:$PATH" eval "$restore") >"$dir/restore.log" 2>&1 || {
  cat "$dir/restore.log" >&2
  echo "the documented PostgreSQL backup and restore fail as written" >&2
  exit 1
}
restored="$(printf '%s' "$AGON_DATABASE" | sed -E 's#/agon$#/agon_restored#')"
if ! AGON_DATABASE="$restored" "$agon" migrate >/dev/null 2>"$dir/migrate.log"; then
  cat "$dir/migrate.log" >&2
  echo "agon cannot use the restored database" >&2
  exit 1
fi
echo "and its documented backup restores into a database agon uses"
