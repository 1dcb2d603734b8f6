#!/usr/bin/env bash
# cargo-deny's checks of our dependencies against deny.toml: licences,
# banned crates, and where crates come from. Run by ./test.sh.
#
#   scripts/check-deny.sh install   builds cargo-deny into target/tools
#                                   (once; at idle CPU priority, so that it
#                                   can run beside the browser tests)
#   scripts/check-deny.sh check     runs `cargo deny check licenses bans sources`
#
# The advisory check needs RustSec's database from the network; where it can
# be had, run `cargo deny check advisories` (deny.toml records the judgements).
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.20.2
root=target/tools
deny="$root/bin/cargo-deny"
case "${1:-check}" in
  install)
    if [ -x "$deny" ] && "$deny" --version | grep -q "$version"; then
      exit 0
    fi
    # Its own target folder: the workspace's build is not touched.
    chrt --idle 0 cargo install --quiet --locked --version "$version" \
      --root "$root" --target-dir target/tools-build cargo-deny
    rm -rf target/tools-build
    ;;
  check)
    "$deny" --version >/dev/null
    "$deny" --offline --log-level error check licenses bans sources
    ;;
  *)
    echo "usage: $0 install|check" >&2
    exit 2
    ;;
esac
