#!/usr/bin/env bash
# The workspace's rust-version must be at least every dependency's own
# (cargo metadata reports each crate's `rust-version`): otherwise a user on
# the declared toolchain meets a build error instead of cargo's clear
# "requires rustc X" message. Run by ./test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
def v(s): return tuple(int(x) for x in s.split("."))
members = set(m["workspace_members"])
ours = {p["rust_version"] for p in m["packages"] if p["id"] in members}
assert len(ours) == 1, f"the crates declare different rust-versions: {ours}"
declared = ours.pop()
need = max(((v(p["rust_version"]), p["rust_version"], p["name"]) for p in m["packages"]
            if p["id"] not in members and p.get("rust_version")))
if need[0] > v(declared):
    sys.exit(f"rust-version {declared} is older than {need[2]} needs ({need[1]}): raise it in Cargo.toml")
print(f"rust-version {declared}: enough for every dependency (the most demanding, {need[2]}, needs {need[1]})")
'
