#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test of the workspace.
# It installs what the tests need itself (see .ci/run, which calls this script).
set -euo pipefail
cd "$(dirname "$0")"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test --workspace"
cargo test --workspace
