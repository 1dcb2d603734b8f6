#!/usr/bin/env bash
# The whole test suite: formatting, lints, every Rust test of the workspace
# (the store's on SQLite and on a throwaway PostgreSQL), and the browser tests
# in headless Chromium. It installs what the tests need itself (Debian's
# chromium, postgresql, nginx, systemd, prometheus (promtool), g++ and make packages, the npm packages in e2e/,
# cargo-deny from crates.io); .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")"

# Each phase says when it starts, in seconds since the suite began, so a slow
# run shows where its time went.
phase() { echo "== [${SECONDS}s] $*"; }

# Every part of every test runs: a test whose service (PostgreSQL, nginx)
# is missing fails instead of skipping.
export AGON_REQUIRE_ALL=1

# A clean clone builds everything once: incremental compilation's caches
# would only take 2 GiB of disk and time to write.
export CARGO_INCREMENTAL=0

# A build that fills the disk fails far from the cause (the linker dies of
# SIGBUS): say so first. A fresh clone's build takes about 2.1 GiB.
if [ ! -d target/debug ]; then
  free_mib=$(df -Pm . | awk 'NR==2 {print $4}')
  if [ "${free_mib:-0}" -lt 2560 ]; then
    echo "test.sh: only ${free_mib} MiB free here; the build and the tests need about 2.5 GiB" >&2
    exit 1
  fi
fi

phase "cargo fmt --check"
cargo fmt --all -- --check

phase "cargo clippy -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

phase "rust-version covers every dependency"
scripts/check-msrv.sh

phase "PostgreSQL (a throwaway server for the shared-store tests)"
# The store tests run on SQLite and on PostgreSQL; the multi-instance test
# needs PostgreSQL. A cluster of our own, on a free port, removed on exit.
if [ -z "${AGON_TEST_DATABASE_URL:-}" ]; then
  pg_dir="$(mktemp -d /tmp/agon-test-pg.XXXXXX)"
  trap 'scripts/test-postgres.sh stop "$pg_dir"' EXIT
  AGON_TEST_DATABASE_URL="$(scripts/test-postgres.sh start "$pg_dir")"
  export AGON_TEST_DATABASE_URL
fi
echo "PostgreSQL for the tests: $AGON_TEST_DATABASE_URL"
# The deployment recipe's test puts nginx (docs/deploy/nginx.conf) in front
# of two instances.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq nginx-light >/dev/null
fi
# The systemd units in docs/deploy/ are checked with systemd-analyze verify.
if ! command -v systemd-analyze >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq systemd >/dev/null
fi
# The metrics test checks a scrape with promtool (Debian's prometheus).
if ! command -v promtool >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi

# The Swiss cross-check builds the FIDE-endorsed bbpPairings (beside the
# project, ../shared/reference/bbpPairings) with Debian's g++ and make.
if ! command -v g++ >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq g++ make >/dev/null
fi

phase "cargo test --workspace"
cargo test --workspace

phase "docs/deploy.md's PostgreSQL setup, as written, on a cluster made as Debian makes one"
scripts/test-deploy-postgres.sh

phase "the game-session tests again, on PostgreSQL, with cargo-deny built beside them"
# cargo-deny takes about 3.5 minutes of one core to build; at idle priority
# it uses what the tests leave. Begun here, after the workspace's build (so
# its downloads never hold the package cache while that build wants it),
# it uses the time these tests wait on the database (their time was the
# same with it, 110 s), and is mostly done before the browser tests begin,
# which it used to slow.
scripts/check-deny.sh install > target/deny-install.log 2>&1 &
deny_install=$!
# `--workspace` keeps the features of the build above: `-p agon-server` alone
# would resolve them anew and rebuild for a minute.
AGON_TEST_STORE=postgres cargo test --workspace --test sessions --test ratings --test live --test talk --test puzzles --test endings --test people --test safety --test tournaments --test caps

phase "browser tests (headless Chromium)"
if ! command -v chromium >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
(cd e2e && npm ci --no-audit --no-fund --loglevel=error)
# The tests start target/debug/agon, built by `cargo test` above. One file
# at a time: two at once (tried) saved 2 minutes but made animation and
# Swiss timings flaky on 2 cores.
(cd e2e && node --test --test-concurrency=1 a11y.test.mjs tournaments.test.mjs talk.test.mjs live.test.mjs safety.test.mjs urgammon.test.mjs accounts.test.mjs ringo.test.mjs invite.test.mjs players.test.mjs sessions.test.mjs board.test.mjs review.test.mjs analysis.test.mjs games.test.mjs lab.test.mjs i18n.test.mjs learn.test.mjs puzzles.test.mjs round.test.mjs front.test.mjs meet.test.mjs)
phase "cargo deny check licenses bans sources (deny.toml)"
if ! wait "$deny_install"; then
  cat target/deny-install.log >&2
  exit 1
fi
scripts/check-deny.sh check
phase "done"
